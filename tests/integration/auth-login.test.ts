import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { accountMessages } from "~/content/accounts";
import { countSessions } from "~/modules/auth/session.server";
import { resetRateLimitsForTests } from "~/modules/http/rate-limit.server";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { action, loader } from "~/routes/api/auth/login";
import { FIXTURE_PASSWORD, callRouteWith, clearAccountTables, insertAdmin, insertUser } from "../helpers/users";

const TOO_MANY = { error: "Too many sign-in attempts. Please wait a few minutes and try again." };
const INVALID = { error: "Invalid email or password" };
const WRONG_PASSWORD = "not the right password";

const login = (body: unknown, { clientAddress, cookie }: { clientAddress?: string; cookie?: string } = {}) =>
  callRouteWith(
    action,
    new Request("http://localhost:3000/api/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(cookie ? { Cookie: cookie } : {}) },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
    clientAddress ? { clientAddress } : {},
  );

let investor: LpUser;
let admin: LpUser;
let pending: LpUser;
let rejected: LpUser;

beforeAll(async () => {
  clearAccountTables();
  investor = await insertUser({ email: "lp@fund.example", name: "Linus Pauling", company: "Caltech", status: "approved" });
  // Not enrolled in two-factor: the password alone gives the (enrolment-limited) session these tests look at.
  admin = await insertAdmin({ email: "admin@lumenridge.example", name: "Ada Admin", twoFactor: false });
  pending = await insertUser({ email: "pending@fund.example", status: "pending" });
  rejected = await insertUser({ email: "rejected@fund.example", status: "rejected" });
});
beforeEach(() => resetRateLimitsForTests());
afterEach(() => {
  resetRateLimitsForTests();
  vi.useRealTimers();
});

describe("POST /api/auth/login: who may sign in", () => {
  it("signs an approved investor in: 200 { isAdmin, email, user } and a session cookie", async () => {
    const response = await login({ email: "lp@fund.example", password: FIXTURE_PASSWORD });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      isAdmin: false,
      email: "lp@fund.example",
      user: {
        id: investor.id,
        name: "Linus Pauling",
        email: "lp@fund.example",
        company: "Caltech",
        createdAt: investor.createdAt.toISOString(),
        isAdmin: false,
      },
    });
    expect(response.headers.get("Set-Cookie")).toMatch(/^lr_session=[^;]+;/);
  });

  it("signs an admin in with isAdmin true (e-mail matched case-insensitively)", async () => {
    const response = await login({ email: " Admin@LumenRidge.example ", password: FIXTURE_PASSWORD });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { isAdmin: boolean; email: string; user: { id: string; isAdmin: boolean } };
    expect(body.isAdmin).toBe(true);
    expect(body.email).toBe("admin@lumenridge.example");
    expect(body.user).toMatchObject({ id: admin.id, isAdmin: true });
    expect(response.headers.get("Set-Cookie")).toMatch(/^lr_session=/);
  });

  it("answers a wrong password and an unknown e-mail with the same 401, without a cookie", async () => {
    const wrong = await login({ email: "lp@fund.example", password: WRONG_PASSWORD });
    const unknown = await login({ email: "nobody@fund.example", password: FIXTURE_PASSWORD });
    for (const response of [wrong, unknown]) {
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual(INVALID);
      expect(response.headers.get("Set-Cookie")).toBeNull();
    }
  });

  it.each([
    ["pending", () => pending, accountMessages.pending],
    ["rejected", () => rejected, accountMessages.rejected],
  ])("tells a %s user with the right password why (403), without a session", async (_label, who, message) => {
    const response = await login({ email: who().email, password: FIXTURE_PASSWORD });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: message });
    expect(response.headers.get("Set-Cookie")).toBeNull();
    expect(countSessions(who().id)).toBe(0);
  });

  it("says what the pending and rejected messages say", () => {
    expect(accountMessages.pending).toMatch(/waiting for approval/);
    expect(accountMessages.rejected).toMatch(/not approved/);
    expect(accountMessages.rejected).toContain("hello@lumenridge.example");
  });

  it.each([
    ["pending", () => pending],
    ["rejected", () => rejected],
  ])("reveals nothing about a %s account to a wrong password: the generic 401", async (_label, who) => {
    const response = await login({ email: who().email, password: WRONG_PASSWORD });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(INVALID);
  });
});

describe("POST /api/auth/login: malformed requests", () => {
  it("answers 400 with both field messages for an empty object", async () => {
    const response = await login({});
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: "Invalid email address",
      fields: { email: ["Invalid email address"], password: ["Password is required"] },
    });
  });

  it.each([
    [{ email: "not-an-email", password: "x" }, { email: ["Invalid email address"] }],
    [{ email: "lp@fund.example", password: "" }, { password: ["Password is required"] }],
    [{ email: "lp@fund.example" }, { password: ["Password is required"] }],
    [{ email: 42, password: FIXTURE_PASSWORD }, { email: ["Invalid email address"] }],
  ])("answers 400 for %j", async (body, fields) => {
    const response = await login(body);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ fields });
    expect(response.headers.get("Set-Cookie")).toBeNull();
  });

  it.each([["{"], [""], ["email=lp@fund.example"]])("answers 400 'Request body must be valid JSON' for %j", async (raw) => {
    const response = await login(raw);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Request body must be valid JSON" });
  });

  it.each([["[]"], ["null"], ['"lp@fund.example"']])("answers 400 for the non-object body %s", async (raw) => {
    const response = await login(raw);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Request body must be a JSON object" });
  });

  it("answers 405 to GET", async () => {
    const response = await callRouteWith(loader, new Request("http://localhost:3000/api/auth/login"));
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("POST");
  });
});

describe("POST /api/auth/login: rate limits", () => {
  it("refuses the 21st attempt from one address with 429 and Retry-After; other addresses go on", async () => {
    for (let i = 1; i <= 20; i++) {
      const response = await login({ email: "lp@fund.example", password: "" });
      expect(response.status, `attempt ${i}`).toBe(400);
    }
    const limited = await login({ email: "lp@fund.example", password: FIXTURE_PASSWORD });
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual(TOO_MANY);
    expect(limited.headers.get("Set-Cookie")).toBeNull();
    const retryAfter = Number(limited.headers.get("Retry-After"));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);

    expect((await login({ email: "lp@fund.example", password: FIXTURE_PASSWORD }, { clientAddress: "198.51.100.77" })).status).toBe(200);
  });

  it("lets an address sign in again once its 15-minute window has passed", async () => {
    vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] });
    for (let i = 1; i <= 20; i++) await login({ email: "lp@fund.example", password: "" });
    expect((await login({ email: "lp@fund.example", password: FIXTURE_PASSWORD })).status).toBe(429);

    vi.advanceTimersByTime(14 * 60 * 1000);
    expect((await login({ email: "lp@fund.example", password: FIXTURE_PASSWORD })).status).toBe(429);

    vi.advanceTimersByTime(60 * 1000 + 1000);
    expect((await login({ email: "lp@fund.example", password: FIXTURE_PASSWORD })).status).toBe(200);
  });

  it(
    "after 10 failed passwords for one account (from different addresses) refuses even the right one with 429, for 15 minutes only",
    async () => {
      vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] });
      for (let i = 1; i <= 10; i++) {
        const response = await login({ email: "lp@fund.example", password: WRONG_PASSWORD }, { clientAddress: `198.51.100.${i}` });
        expect(response.status, `attempt ${i}`).toBe(401);
      }

      const locked = await login({ email: "LP@fund.example", password: FIXTURE_PASSWORD }, { clientAddress: "192.0.2.1" });
      expect(locked.status).toBe(429);
      expect(await locked.json()).toEqual(TOO_MANY);
      expect(Number(locked.headers.get("Retry-After"))).toBeGreaterThan(0);
      expect(locked.headers.get("Set-Cookie")).toBeNull();

      // Another account is not affected.
      expect((await login({ email: "admin@lumenridge.example", password: FIXTURE_PASSWORD }, { clientAddress: "192.0.2.2" })).status).toBe(200);

      // Still held shortly before the window ends...
      vi.advanceTimersByTime(14 * 60 * 1000);
      expect((await login({ email: "lp@fund.example", password: FIXTURE_PASSWORD }, { clientAddress: "192.0.2.3" })).status).toBe(429);

      // ...and released after it: no permanent lockout.
      vi.advanceTimersByTime(60 * 1000 + 1000);
      const released = await login({ email: "lp@fund.example", password: FIXTURE_PASSWORD }, { clientAddress: "192.0.2.4" });
      expect(released.status).toBe(200);
    },
    30_000,
  );
});
