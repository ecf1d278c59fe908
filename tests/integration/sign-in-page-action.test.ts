import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetRateLimitsForTests } from "~/modules/http/rate-limit.server";
import { readFlash } from "~/modules/toast/flash.server";
import { action as adminLoginAction } from "~/routes/admin/login";
import { action as investorLoginAction } from "~/routes/lp/login";
import { expectData, expectRedirect, requestWithCookie } from "../helpers/http";
import { FIXTURE_PASSWORD, ORIGIN, callRouteWith, clearAccountTables, insertAdmin, insertUser } from "../helpers/users";

/**
 * The sign-in pages' action (/lp/login, /admin/login) answers through
 * answerForm: data with its status for an enhanced post, a 303 with a flash
 * without JavaScript. The password never comes back.
 */

const WRONG = "not the password at all";

/** The headers a data() answer carries (its ResponseInit). */
const answerHeaders = (answer: unknown) => new Headers((answer as { init?: { headers?: HeadersInit } }).init?.headers);

function post(path: "/lp/login" | "/admin/login", fields: Record<string, string>, clientAddress?: string) {
  const action = path === "/lp/login" ? investorLoginAction : adminLoginAction;
  const request = new Request(`${ORIGIN}${path}`, { method: "POST", body: new URLSearchParams(fields) });
  return callRouteWith(action as never, request, clientAddress ? { clientAddress } : {});
}

async function followNoJs(path: "/lp/login" | "/admin/login", fields: Record<string, string>, clientAddress?: string) {
  const response = await post(path, fields, clientAddress);
  const redirect = expectRedirect(response);
  const { flash } = await readFlash(requestWithCookie(redirect.location, redirect.cookie ?? ""));
  return { ...redirect, flash, headers: response.headers };
}

beforeAll(async () => {
  clearAccountTables();
  await insertUser({ email: "page-lp@fund.example", name: "Page Investor", status: "approved" });
  await insertAdmin({ email: "page-admin@lumenridge.example", name: "Page Admin", twoFactor: false });
});
beforeEach(() => resetRateLimitsForTests());
afterEach(() => resetRateLimitsForTests());

describe("investor sign-in without JavaScript", () => {
  it("an invalid e-mail: 303 back to /lp/login, the field's message and the typed e-mail in the flash, never the password", async () => {
    const result = await followNoJs("/lp/login", { email: "not-an-address", password: WRONG });
    expect(result).toMatchObject({ status: 303, location: "/lp/login" });
    expect(result.flash.toast).toBeNull();
    expect(result.flash.form).toEqual({
      formId: "investor-login",
      status: "error",
      fieldErrors: { email: ["Invalid email address"] },
      values: { email: "not-an-address" },
    });
    expect(JSON.stringify(result.flash)).not.toContain(WRONG);
  });

  it("a wrong password: 303 back with 'Login failed' and the message, the e-mail kept, no session", async () => {
    const result = await followNoJs("/lp/login", { email: "page-lp@fund.example", password: WRONG });
    expect(result).toMatchObject({ status: 303, location: "/lp/login" });
    expect(result.flash.toast).toMatchObject({ title: "Login failed", description: "Invalid email or password", variant: "destructive" });
    expect(result.flash.form).toEqual({
      formId: "investor-login",
      status: "error",
      message: "Invalid email or password",
      values: { email: "page-lp@fund.example" },
    });
    expect(result.headers.getSetCookie().some((c) => /session/i.test(c) && !/Max-Age=0|Expires=Thu, 01 Jan 1970/.test(c))).toBe(false);
  });

  it("the right password: 303 to /lp/dashboard with the session and 'Login successful'", async () => {
    const response = await post("/lp/login", { email: "page-lp@fund.example", password: FIXTURE_PASSWORD });
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/lp/dashboard");
    const cookies = response.headers.getSetCookie();
    expect(cookies).toHaveLength(2);
    const flashCookie = cookies.find((c) => c.startsWith("lr_flash="))?.split(";")[0] ?? "";
    const { flash } = await readFlash(requestWithCookie("/lp/dashboard", flashCookie));
    expect(flash.toast).toMatchObject({ title: "Login successful", description: "Welcome back!" });
  });

  it("rate-limited: 303 back with the message and Retry-After (decision 010)", async () => {
    for (let i = 1; i <= 20; i++) await post("/lp/login", { email: "page-lp@fund.example", password: WRONG }, "203.0.113.50");
    const result = await followNoJs("/lp/login", { email: "page-lp@fund.example", password: FIXTURE_PASSWORD }, "203.0.113.50");
    expect(result).toMatchObject({ status: 303, location: "/lp/login" });
    expect(Number(result.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(result.flash.form).toMatchObject({ status: "error", message: expect.stringMatching(/too many/i) });
  });
});

describe("sign-in with JavaScript (_enhanced=1)", () => {
  it("a wrong password: 401 with the 'Login failed' toast, the e-mail kept and no password in the answer", async () => {
    const answer = expectData<{ status: string; toast: { title: string; description: string }; result: { initialValue: Record<string, unknown> } }>(
      await post("/lp/login", { email: "page-lp@fund.example", password: WRONG, _enhanced: "1" }),
    );
    expect(answer.status).toBe(401);
    expect(answer.data.status).toBe("error");
    expect(answer.data.toast).toMatchObject({ title: "Login failed", description: "Invalid email or password" });
    expect(answer.data.result.initialValue).toEqual({ email: "page-lp@fund.example", _enhanced: "1" });
  });

  it("the right password: 200 with the toast and where to go, and the session cookie", async () => {
    const response = await post("/lp/login", { email: "page-lp@fund.example", password: FIXTURE_PASSWORD, _enhanced: "1" });
    const answer = expectData<{ status: string; redirectTo: string; toast: { title: string } }>(response);
    expect(answer.status).toBe(200);
    expect(answer.data).toMatchObject({ status: "success", redirectTo: "/lp/dashboard", toast: { title: "Login successful" } });
    expect(answerHeaders(response).get("Set-Cookie")).toMatch(/\S+=\S+/);
  });

  it("rate-limited: 429 with Retry-After", async () => {
    for (let i = 1; i <= 20; i++) await post("/lp/login", { email: "page-lp@fund.example", password: WRONG }, "203.0.113.51");
    const response = await post("/lp/login", { email: "page-lp@fund.example", password: FIXTURE_PASSWORD, _enhanced: "1" }, "203.0.113.51");
    const answer = expectData<{ status: string }>(response);
    expect(answer.status).toBe(429);
    expect(Number(answerHeaders(response).get("Retry-After"))).toBeGreaterThan(0);
  });

  it("admin: a non-admin's right password is refused in the form (403, no toast); without JavaScript the same message after a 303", async () => {
    const enhanced = expectData<{ toast: unknown; result: { error: Record<string, string[]> } }>(
      await post("/admin/login", { email: "page-lp@fund.example", password: FIXTURE_PASSWORD, _enhanced: "1" }),
    );
    expect(enhanced.status).toBe(403);
    expect(enhanced.data.toast).toBeNull();
    expect(enhanced.data.result.error[""]).toEqual(["Admin access required. This login is for administrators only."]);
    const plain = await followNoJs("/admin/login", { email: "page-lp@fund.example", password: FIXTURE_PASSWORD });
    expect(plain).toMatchObject({ status: 303, location: "/admin/login" });
    expect(plain.flash.toast).toBeNull();
    expect(plain.flash.form).toMatchObject({ formId: "admin-login", message: "Admin access required. This login is for administrators only." });
  });
});
