import { eq } from "drizzle-orm";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "../../app/modules/db/connection.server";
import { lpUsers, sessions } from "../../db/schema";
import { countSessions } from "~/modules/auth/session.server";
import { advanceClockForTests, resetClockForTests } from "~/modules/config/clock.server";
import { resetRateLimitsForTests } from "~/modules/http/rate-limit.server";
import { promoteToAdmin } from "~/modules/lp-users/admin-create.server";
import { flushMailer } from "~/modules/mail/mail.server";
import { setUserStatus, type LpUser } from "~/modules/lp-users/lp-users.server";
import { action as loginAction } from "~/routes/api/auth/login";
import { action as logoutAction, loader as logoutLoader } from "~/routes/api/auth/logout";
import { loader as userLoader } from "~/routes/api/auth/user";
import { loader as usersByStatusLoader } from "~/routes/api/auth/users-by-status";
import {
  FIXTURE_PASSWORD,
  apiRequest,
  callRouteWith,
  cookiePair,
  insertAdmin,
  insertUser,
  sessionCookieFor,
} from "../helpers/users";

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

async function signIn(email: string, cookie?: string): Promise<Response> {
  return callRouteWith(
    loginAction,
    new Request("http://localhost:3000/api/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(cookie ? { Cookie: cookie } : {}) },
      body: JSON.stringify({ email, password: FIXTURE_PASSWORD }),
    }),
  );
}

/** GET /api/auth/user with a cookie: the status the client sees. */
async function whoAmI(cookie: string | undefined): Promise<number> {
  return (await callRouteWith(userLoader, apiRequest("GET", "/api/auth/user", { cookie }))).status;
}

const logout = (cookie?: string) => callRouteWith(logoutAction, apiRequest("POST", "/api/auth/logout", { cookie }));

let investor: LpUser;
let admin: LpUser;

beforeAll(async () => {
  investor = await insertUser({ email: "lp@fund.example", name: "Linus Pauling", status: "approved" });
  admin = await insertAdmin({ email: "admin@lumenridge.example" });
});
beforeEach(() => {
  getDb().delete(sessions).run();
  vi.spyOn(console, "log").mockImplementation(() => {});
});
afterEach(async () => {
  await flushMailer();
  resetClockForTests();
  resetRateLimitsForTests();
  vi.restoreAllMocks();
});

describe("the session cookie", () => {
  it("is HttpOnly, SameSite=Lax, Path=/ and lasts at most 12 hours", async () => {
    const response = await signIn("lp@fund.example");
    expect(response.status).toBe(200);
    const setCookie = response.headers.get("Set-Cookie") ?? "";
    const attributes = setCookie.split(";").slice(1).map((a) => a.trim().toLowerCase());
    expect(attributes).toContain("httponly");
    expect(attributes).toContain("samesite=lax");
    expect(attributes).toContain("path=/");
    expect(attributes).toContain(`max-age=${12 * 60 * 60}`);
    // It carries an opaque token, not the user's id, e-mail or role in clear text.
    expect(setCookie).not.toContain(investor.id);
    expect(setCookie).not.toContain("lp@fund.example");
  });

  it("authenticates GET /api/auth/user, which answers the current user; no cookie gets 401", async () => {
    const cookie = cookiePair((await signIn("lp@fund.example")).headers.get("Set-Cookie"));
    const response = await callRouteWith(userLoader, apiRequest("GET", "/api/auth/user", { cookie }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      id: investor.id,
      name: "Linus Pauling",
      email: "lp@fund.example",
      company: null,
      createdAt: investor.createdAt.toISOString(),
      isAdmin: false,
    });

    const anonymous = await callRouteWith(userLoader, apiRequest("GET", "/api/auth/user"));
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ error: "Authentication required" });
  });

  it("does not let a pending account use GET /api/auth/user even with a live session: 403", async () => {
    const pending = await insertUser({ status: "pending" });
    const cookie = await sessionCookieFor(pending); // made directly: sign-in would refuse it
    const response = await callRouteWith(userLoader, apiRequest("GET", "/api/auth/user", { cookie }));
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: "Your account is not approved" });
  });

  it("is refused when tampered with", async () => {
    const cookie = await sessionCookieFor(investor);
    const [name, value = ""] = cookie.split("=");
    const tampered = `${name}=${value.slice(0, 10)}${value[10] === "A" ? "B" : "A"}${value.slice(11)}`;
    expect(tampered).not.toBe(cookie);
    expect(await whoAmI(tampered)).toBe(401);
    expect(await whoAmI(cookie)).toBe(200);
  });
});

describe("rotation and logout", () => {
  it("signing in again with an old cookie rotates it: the old cookie no longer works, the new one does", async () => {
    const first = cookiePair((await signIn("lp@fund.example")).headers.get("Set-Cookie"));
    expect(await whoAmI(first)).toBe(200);

    const second = cookiePair((await signIn("lp@fund.example", first)).headers.get("Set-Cookie"));
    expect(second).not.toBe(first);
    expect(await whoAmI(first)).toBe(401);
    expect(await whoAmI(second)).toBe(200);
    expect(countSessions(investor.id)).toBe(1);
  });

  it("a cookie planted before someone signs in is not turned into their session", async () => {
    const planted = await sessionCookieFor(admin); // e.g. an attacker's own session fixed in the victim's browser
    const own = cookiePair((await signIn("lp@fund.example", planted)).headers.get("Set-Cookie"));
    expect(await whoAmI(planted)).toBe(401);
    expect(await whoAmI(own)).toBe(200);
  });

  it("POST /api/auth/logout ends the session on the server: the same cookie replayed afterwards gets 401", async () => {
    const cookie = await sessionCookieFor(investor);
    const otherDevice = await sessionCookieFor(investor);
    expect(await whoAmI(cookie)).toBe(200);

    const response = await logout(cookie);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true });
    const cleared = response.headers.get("Set-Cookie") ?? "";
    expect(cleared).toMatch(/^lr_session=;/);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970 00:00:00 GMT|Max-Age=0/i);

    expect(await whoAmI(cookie)).toBe(401);
    // Signing out on one device leaves the others signed in.
    expect(await whoAmI(otherDevice)).toBe(200);
  });

  it("logout without a session still answers 200 { success: true }", async () => {
    const response = await logout();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true });
  });

  it("logout answers 405 to GET", async () => {
    const response = await callRouteWith(logoutLoader, apiRequest("GET", "/api/auth/logout"));
    expect(response.status).toBe(405);
  });
});

describe("lifetimes", () => {
  it("ends a session after 2 hours without a request (idle), not before", async () => {
    const cookie = await sessionCookieFor(investor);
    advanceClockForTests(2 * HOUR - MINUTE);
    expect(await whoAmI(cookie)).toBe(200); // a request resets the idle timer
    advanceClockForTests(2 * HOUR - MINUTE);
    expect(await whoAmI(cookie)).toBe(200);
    advanceClockForTests(2 * HOUR);
    expect(await whoAmI(cookie)).toBe(401);
    // Gone for good, even if the clock were to go back.
    advanceClockForTests(-2 * HOUR);
    expect(await whoAmI(cookie)).toBe(401);
  });

  it("ends a session 12 hours after sign-in however busy it is (absolute)", async () => {
    const cookie = await sessionCookieFor(investor);
    for (let elapsed = 30; elapsed <= 11 * 60 + 30; elapsed += 30) {
      advanceClockForTests(30 * MINUTE);
      expect(await whoAmI(cookie), `after ${elapsed} minutes`).toBe(200);
    }
    advanceClockForTests(29 * MINUTE); // 11 h 59 min
    expect(await whoAmI(cookie)).toBe(200);
    advanceClockForTests(MINUTE); // 12 h
    expect(await whoAmI(cookie)).toBe(401);
  });
});

describe("revocation and role changes", () => {
  it("rejecting an approved investor ends their sessions at once; re-approving does not revive them", async () => {
    const user = await insertUser({ status: "approved" });
    const laptop = await sessionCookieFor(user);
    const phone = await sessionCookieFor(user);
    expect(await whoAmI(laptop)).toBe(200);

    setUserStatus(admin, user.id, "rejected");
    expect(await whoAmI(laptop)).toBe(401);
    expect(await whoAmI(phone)).toBe(401);
    expect(countSessions(user.id)).toBe(0);

    setUserStatus(admin, user.id, "approved");
    expect(await whoAmI(laptop)).toBe(401);
  });

  it("an investor promoted to admin mid-session loses that session and the password (no silent gain of admin rights)", async () => {
    const user = await insertUser({ status: "approved" });
    const cookie = await sessionCookieFor(user);
    expect(await whoAmI(cookie)).toBe(200);

    // admin:create --promote: the operator's password replaces the registrant's, and every session ends.
    const promoted = await promoteToAdmin({ email: user.email, password: "the operator's new passphrase" });
    expect(promoted).toMatchObject({ before: { id: user.id, isAdmin: false }, sessionsEnded: 1 });
    expect((await signIn(user.email)).status).toBe(401);

    expect(await whoAmI(cookie)).toBe(401);
    const adminList = await callRouteWith(usersByStatusLoader, apiRequest("GET", "/api/auth/pending-users", { cookie }));
    expect(adminList.status).toBe(401);
  });

  it("an admin demoted mid-session loses the session's admin authority", async () => {
    const other = await insertAdmin();
    const cookie = await sessionCookieFor(other);
    const before = await callRouteWith(usersByStatusLoader, apiRequest("GET", "/api/auth/pending-users", { cookie }));
    expect(before.status).toBe(200);

    getDb().update(lpUsers).set({ isAdmin: false }).where(eq(lpUsers.id, other.id)).run();

    const after = await callRouteWith(usersByStatusLoader, apiRequest("GET", "/api/auth/pending-users", { cookie }));
    expect(after.status).toBe(401);
    expect(await whoAmI(cookie)).toBe(401);
  });
});
