import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestMessages } from "~/content/validation";
import { resetRateLimitsForTests } from "~/modules/http/rate-limit.server";
import { action as documentsAction } from "~/routes/api/documents";
import { action as adminLoginAction } from "~/routes/admin/login";
import { action as fundISignupAction } from "~/routes/funds/fund-i-signup";
import { action as fundIISignupAction } from "~/routes/funds/fund-ii-signup";
import { action as forgotPasswordAction } from "~/routes/lp/forgot-password";
import { action as lpLoginAction } from "~/routes/lp/login";
import { action as registerAction } from "~/routes/lp/register";
import { action as resetPasswordAction } from "~/routes/lp/reset-password";
import { action as newsletterAction } from "~/routes/site/newsletter";
import { action as processAction } from "~/routes/site/process";
import { action as themeAction } from "~/routes/site/theme";
import { clearDocuments, filesUnder, rawMultipartRequest, storedFiles } from "../helpers/documents";
import { callRoute, jsonRequest } from "../helpers/http";
import { samplePdf } from "../helpers/sample-files";
import { clearAccountTables, insertAdmin, sessionCookieFor } from "../helpers/users";
import { incomingDir } from "~/modules/storage/storage.server";

/**
 * Bodies that are not what a route reads (found by `npm run test:hardening`):
 * they get a 400 with a message, never a 500 or a crashed process.
 */

type Action = (args: never) => Promise<unknown>;

const PAGE_ACTIONS: Array<[string, Action]> = [
  ["/newsletter", newsletterAction as Action],
  ["/process", processAction as Action],
  ["/fund-i/signup", fundISignupAction as Action],
  ["/fund-ii/signup", fundIISignupAction as Action],
  ["/lp/register", registerAction as Action],
  ["/lp/forgot-password", forgotPasswordAction as Action],
  ["/lp/reset-password", resetPasswordAction as Action],
  ["/lp/login", lpLoginAction as Action],
  ["/admin/login", adminLoginAction as Action],
  ["/theme", themeAction as Action],
];

const NOT_A_FORM: Array<[string, () => Request]> = [
  ["a JSON body", () => jsonRequest("/", { email: "someone@example.com" })],
  ["a text/plain body", () => jsonRequest("/", "email=someone@example.com", { contentType: "text/plain" })],
  ["multipart without a boundary", () => jsonRequest("/", "--x\r\n", { contentType: "multipart/form-data" })],
  [
    "multipart cut off mid-part",
    () => jsonRequest("/", '--XB\r\nContent-Disposition: form-data; name="email"\r\n\r\nsomeone', { contentType: "multipart/form-data; boundary=XB" }),
  ],
];

beforeAll(() => {
  resetRateLimitsForTests();
});

describe("page actions given a body that is not a form", () => {
  for (const [path, action] of PAGE_ACTIONS) {
    for (const [what, make] of NOT_A_FORM) {
      it(`${path}: ${what} → 400 '${requestMessages.formUnreadable}'`, async () => {
        const sample = make();
        const request = new Request(`http://localhost:3000${path}`, {
          method: "POST",
          headers: sample.headers,
          body: await sample.text(),
        });
        await expect(callRoute(action, request)).rejects.toMatchObject({
          type: "DataWithResponseInit",
          data: { error: requestMessages.formUnreadable },
          init: { status: 400 },
        });
      });
    }
  }
});

describe("an upload whose body ends inside a part the server skips", () => {
  let adminCookie: string;
  beforeAll(async () => {
    clearAccountTables();
    clearDocuments();
    adminCookie = await sessionCookieFor(await insertAdmin({ email: "hostile-admin@lumenridge.example" }));
  });
  afterAll(() => clearDocuments());

  it("answers 400 and the process keeps running (no unhandled stream error), with nothing stored", async () => {
    const request = rawMultipartRequest(
      "/api/documents",
      [
        { name: "title", value: "Cut off" },
        { name: "other", filename: "a.pdf", type: "application/pdf", bytes: samplePdf("skipped part", 4000) },
      ],
      { cookie: adminCookie, close: false },
    );
    const response = (await callRoute(documentsAction as Action, request)) as Response;
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: expect.any(String) });
    // Give a stray 'error' event the time to surface (Vitest fails the run on an unhandled one).
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(storedFiles()).toEqual([]);
    expect(filesUnder(incomingDir())).toEqual([]);
  });
});
