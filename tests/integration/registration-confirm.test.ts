import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { waitingCounts } from "~/modules/admin/overview.server";
import { readBatch } from "~/modules/bulk-upload/batch.server";
import { advanceClockForTests, resetClockForTests } from "~/modules/config/clock.server";
import { recipientChoices } from "~/modules/documents/recipients.server";
import { countList, readAllRows } from "~/modules/email-lists/email-lists.server";
import { resetRateLimitsForTests } from "~/modules/http/rate-limit.server";
import { listInvestorsPage } from "~/modules/lp-users/admin-search.server";
import { findUserByEmail, listUsersByStatusPage } from "~/modules/lp-users/lp-users.server";
import { flushMailer } from "~/modules/mail/mail.server";
import { action as bulkAction } from "~/routes/admin/documents-bulk";
import { action as loginAction } from "~/routes/api/auth/login";
import { action as registerAction } from "~/routes/api/auth/register";
import { action as statusAction } from "~/routes/api/auth/user-status";
import { loader as usersByStatusLoader } from "~/routes/api/auth/users-by-status";
import { bytesOf } from "../helpers/documents";
import { expectRedirect } from "../helpers/http";
import { MIME, samplePdf } from "../helpers/sample-files";
import {
  ORIGIN,
  allUsers,
  apiRequest,
  callRouteWith,
  clearAccountTables,
  insertAdmin,
  insertUser,
  mailsTo,
  sessionCookieFor,
} from "../helpers/users";

/**
 * Security finding M3 of issue 21: a registration proves its address before
 * anyone acts on it. Registering mails a link to the address; until the link
 * is confirmed (with the registration's password) no admin sees, counts,
 * finds or can approve the request, and no admin is mailed. Also L3: the
 * "already registered" mail and the admins' "new request" mail are capped
 * per recipient.
 */

const PASSWORD = "a-long-enough-pw";
const REGISTERED_MESSAGE =
  "Almost done: we've sent you an e-mail with a link to confirm your address. Your request goes to the admins once you confirm it.";
const PENDING = "Your access request is still waiting for approval. We will e-mail you as soon as an administrator approves it.";
const CONFIRM_SUBJECT = "Confirm your e-mail address for the Lumen Ridge Ventures investor portal";
const CONFIRM_LINK = /http:\/\/localhost:3000\/lp\/register\/confirm\?token=([A-Za-z0-9_-]{43})/;
const DONE_TEXT = "Your request has been sent to the admins for approval. You'll be notified once approved.";

const register = (body: Record<string, string>, clientAddress?: string) =>
  callRouteWith(registerAction, apiRequest("POST", "/api/auth/register", { json: body }), clientAddress ? { clientAddress } : {});

const login = (email: string, password: string) => callRouteWith(loginAction, apiRequest("POST", "/api/auth/login", { json: { email, password } }));

/** The confirmation page's route module (new with the fix; loaded when used). */
const confirmRoute = () => import("~/routes/lp/register-confirm");

/** The token of the newest confirmation link mailed to the address (fails when there is none). */
function latestConfirmToken(email: string): string {
  const links = mailsTo(email)
    .map((m) => CONFIRM_LINK.exec(m.text)?.[1])
    .filter((t): t is string => !!t);
  expect(links.length, `a confirmation link mailed to ${email}`).toBeGreaterThan(0);
  return links[links.length - 1]!;
}

/** The page's POST (the button, with the password), as a browser without JavaScript sends it. */
async function postConfirm(token: string, password: string) {
  const { action } = await confirmRoute();
  const request = new Request(`${ORIGIN}/lp/register/confirm?token=${encodeURIComponent(token)}`, {
    method: "POST",
    body: new URLSearchParams({ password }),
  });
  return callRouteWith(action as never, request);
}

async function getConfirmPage(token: string) {
  const { loader } = await confirmRoute();
  return callRouteWith(loader as never, new Request(`${ORIGIN}/lp/register/confirm?token=${encodeURIComponent(token)}`));
}

/** Status of a page answer: a Response's, or a data() answer's init (200 when plain data). */
function statusOf(answer: unknown): number {
  if (answer instanceof Response) return answer.status;
  const init = (answer as { init?: { status?: number } | null } | null)?.init;
  return init?.status ?? 200;
}

const pendingEmails = async (cookie: string) => {
  const response = await callRouteWith(usersByStatusLoader, apiRequest("GET", "/api/auth/pending-users", { cookie }));
  expect(response.status).toBe(200);
  return ((await response.json()) as { email: string }[]).map((u) => u.email);
};

beforeEach(() => {
  clearAccountTables();
  resetRateLimitsForTests();
  vi.spyOn(console, "log").mockImplementation(() => {});
});
afterEach(async () => {
  await flushMailer();
  resetClockForTests();
  resetRateLimitsForTests();
  vi.restoreAllMocks();
});

describe("registering an address that has no account", () => {
  it("answers 201 with the new text, mails the address a confirmation link, and makes no account and no admin mail", async () => {
    const admin = await insertAdmin({ email: "admin@lumenridge.example" });
    const response = await register({ email: "Grace@Navy.Example", password: PASSWORD, name: "Grace Hopper", company: "Navy" });

    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ message: REGISTERED_MESSAGE });
    expect(findUserByEmail("grace@navy.example")).toBeUndefined();
    expect(allUsers().map((u) => u.email)).toEqual([admin.email]);
    expect(mailsTo(admin.email)).toHaveLength(0);
    const [mail, ...more] = mailsTo("grace@navy.example");
    expect(more).toHaveLength(0);
    expect(mail?.subject).toBe(CONFIRM_SUBJECT);
    expect(mail?.text).toMatch(CONFIRM_LINK);
    // The outbox keeps the link sealed: the row's own text holds only the placeholder.
    expect(getDb().all<{ text: string }>(sql`select text from email_outbox where "to" = 'grace@navy.example'`)[0]?.text).toContain("{{link}}");
  });

  it("is invisible to admins until confirmed: lists, counts, search, e-mail lists, the API, the picker, bulk matching, approve by id", async () => {
    const admin = await insertAdmin({ email: "admin@lumenridge.example" });
    const cookie = await sessionCookieFor(admin);
    await register({ email: "hidden@example.test", password: PASSWORD, name: "Hidden Person", company: "Hidden Co" });

    expect(await pendingEmails(cookie)).not.toContain("hidden@example.test");
    expect(listUsersByStatusPage("pending", { offset: 0, limit: 50 }).total).toBe(0);
    expect(listInvestorsPage("pending", { offset: 0, limit: 50, query: "hidden" }).total).toBe(0);
    expect(waitingCounts().pendingInvestors).toBe(0);
    expect(countList("lp-users")).toBe(0);
    expect(readAllRows("lp-users", { column: "date", direction: "desc" }).map((r) => r.email)).not.toContain("hidden@example.test");
    expect(recipientChoices("hidden", []).choices).toHaveLength(0);

    // A bulk upload file named with the address matches nobody.
    const form = new FormData();
    form.append("title", "Statement");
    form.append("category", "reports");
    form.append("files", new File([bytesOf(samplePdf("x"))], "statement_hidden@example.test.pdf", { type: MIME.pdf }));
    const staged = expectRedirect(
      await callRouteWith(bulkAction as never, new Request(`${ORIGIN}/admin/documents/bulk`, { method: "POST", headers: { Cookie: cookie }, body: form })),
    );
    const batchId = /\/admin\/documents\/bulk\/([0-9a-f]{32})$/.exec(staged.location)?.[1];
    expect(batchId, staged.location).toBeDefined();
    const batch = await readBatch(batchId!);
    expect(batch.entries.map((e) => e.investor)).toEqual([null]);

    // Approving the registration by any id it has is the unknown id's 404.
    const ids = getDb()
      .all<{ id: string }>(sql`select id from registration_requests`)
      .map((r) => r.id);
    expect(ids).toHaveLength(1);
    const approve = await callRouteWith(
      statusAction,
      apiRequest("PATCH", `/api/auth/users/${ids[0]}/status`, { cookie, json: { status: "approved" } }),
      { params: { id: ids[0]! } },
    );
    expect(approve.status).toBe(404);
    expect(findUserByEmail("hidden@example.test")).toBeUndefined();
  });

  it("signing in with its password answers like a pending account plus confirmationRequired; a wrong password is the usual 401", async () => {
    await register({ email: "waiting@example.test", password: PASSWORD, name: "Waiting" });

    const right = await login("waiting@example.test", PASSWORD);
    expect(right.status).toBe(403);
    expect(await right.json()).toEqual({ error: PENDING, confirmationRequired: true });
    expect(right.headers.get("Set-Cookie")).toBeNull();

    const wrong = await login("waiting@example.test", "not-the-password");
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: "Invalid email or password" });
  });
});

describe("the confirmation link", () => {
  it("GET shows the button and changes nothing; the POST with the password makes the pending account, mails the admins, and is spent", async () => {
    const admin = await insertAdmin({ email: "admin@lumenridge.example" });
    const cookie = await sessionCookieFor(admin);
    await register({ email: "marie@radium.example", password: PASSWORD, name: "Marie Curie", company: "Radium Institute" });
    const token = latestConfirmToken("marie@radium.example");

    expect(statusOf(await getConfirmPage(token))).toBe(200);
    expect(findUserByEmail("marie@radium.example")).toBeUndefined();

    const confirmed = await postConfirm(token, PASSWORD);
    expect(confirmed).toBeInstanceOf(Response);
    expect((confirmed as Response).status).toBe(303);
    expect((confirmed as Response).headers.get("Location")).toBe("/lp/register/confirm?confirmed=1");

    const user = findUserByEmail("marie@radium.example");
    expect(user).toMatchObject({ status: "pending", isAdmin: false, name: "Marie Curie", company: "Radium Institute" });
    expect(user?.confirmedAt).toBeInstanceOf(Date);
    expect(await pendingEmails(cookie)).toContain("marie@radium.example");
    const notice = mailsTo(admin.email);
    expect(notice.map((m) => m.subject)).toEqual(["New investor access request: Marie Curie"]);
    expect(getDb().all(sql`select id from registration_requests`)).toHaveLength(0);

    // Spent: the page and the POST now answer the bad link's 400, and nothing more happens.
    expect(statusOf(await getConfirmPage(token))).toBe(400);
    expect(statusOf(await postConfirm(token, PASSWORD))).toBe(400);
    expect(mailsTo(admin.email)).toHaveLength(1);
  });
});

describe("L3: mail caps", () => {
  it("mails the owner of an existing account at most 3 'already registered' mails a day, with the same answer every time", async () => {
    await insertUser({ email: "taken@example.test", status: "approved" });
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await register({ email: "taken@example.test", password: `attempt-${i}-password`, name: "Someone" }, `198.51.100.${i + 1}`);
      answers.push(`${response.status} ${await response.text()}`);
    }
    expect(new Set(answers).size).toBe(1);
    expect(mailsTo("taken@example.test")).toHaveLength(3);
  });
});

describe("L3: the admins' 'new request' mail", () => {
  it(
    "goes to each admin at most 10 times an hour; the 11th request is still listed for review",
    async () => {
      const admin = await insertAdmin({ email: "admin@lumenridge.example" });
      const cookie = await sessionCookieFor(admin);
      for (let i = 1; i <= 11; i++) {
        const email = `request-${i}@example.test`;
        expect((await register({ email, password: PASSWORD, name: `Requester ${i}` }, `198.51.100.${i}`)).status).toBe(201);
        // Whatever it takes for a request to reach the admins: the mailed link, when there is one.
        const token = mailsTo(email)
          .map((m) => CONFIRM_LINK.exec(m.text)?.[1])
          .find((t) => !!t);
        if (token) expect(statusOf(await postConfirm(token, PASSWORD))).toBe(303);
      }
      expect(mailsTo(admin.email).filter((m) => m.subject.startsWith("New investor access request: "))).toHaveLength(10);
      expect(await pendingEmails(cookie)).toContain("request-11@example.test");
    },
    60_000,
  );
});
