import { beforeAll, describe, expect, it } from "vitest";
import { requireAdmin, requireInvestor } from "~/modules/auth/guards.server";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { clearAccountTables, insertAdmin, insertUser, sessionCookieFor } from "../helpers/users";

type Fixture = { user: LpUser; cookie: string };
let pending: Fixture;
let rejected: Fixture;
let investor: Fixture;
let admin: Fixture;

async function fixture(user: Promise<LpUser>): Promise<Fixture> {
  const created = await user;
  // A session made directly (not through sign-in, which refuses pending and rejected
  // accounts): the guards must re-check the account themselves.
  return { user: created, cookie: await sessionCookieFor(created) };
}

beforeAll(async () => {
  clearAccountTables();
  pending = await fixture(insertUser({ status: "pending" }));
  rejected = await fixture(insertUser({ status: "rejected" }));
  investor = await fixture(insertUser({ status: "approved" }));
  admin = await fixture(insertAdmin());
});

function pageRequest(url: string, cookie?: string): Request {
  return new Request(url, cookie ? { headers: { Cookie: cookie } } : {});
}

/** The redirect a guard threw (fails the test when it let the request through). */
async function redirectOf(run: Promise<unknown>): Promise<{ status: number; location: string | null }> {
  const thrown = await run.then(
    (value) => ({ passed: value }),
    (error: unknown) => error,
  );
  expect(thrown).toBeInstanceOf(Response);
  const response = thrown as Response;
  return { status: response.status, location: response.headers.get("Location") };
}

describe("requireInvestor", () => {
  it("sends an anonymous visitor to /lp/login", async () => {
    expect(await redirectOf(requireInvestor(pageRequest("http://localhost:3000/lp/dashboard")))).toEqual({
      status: 302,
      location: "/lp/login",
    });
  });

  it("sends a visitor with a forged or unknown cookie to /lp/login", async () => {
    const forged = investor.cookie.slice(0, -4) + "AAAA";
    expect((await redirectOf(requireInvestor(pageRequest("http://localhost:3000/lp/dashboard", forged)))).location).toBe(
      "/lp/login",
    );
    expect(
      (await redirectOf(requireInvestor(pageRequest("http://localhost:3000/lp/dashboard", "lr_session=garbage"))))
        .location,
    ).toBe("/lp/login");
  });

  it.each([
    ["pending", () => pending],
    ["rejected", () => rejected],
  ])("sends a %s user with a session to /lp/login", async (_label, who) => {
    const { location } = await redirectOf(requireInvestor(pageRequest("http://localhost:3000/lp/dashboard", who().cookie)));
    expect(location).toBe("/lp/login");
  });

  it("lets an approved investor through, with their current account", async () => {
    const user = await requireInvestor(pageRequest("http://localhost:3000/lp/dashboard", investor.cookie));
    expect(user).toMatchObject({ id: investor.user.id, email: investor.user.email, isAdmin: false, status: "approved" });
  });

  it("lets an admin through", async () => {
    const user = await requireInvestor(pageRequest("http://localhost:3000/lp/dashboard", admin.cookie));
    expect(user).toMatchObject({ id: admin.user.id, isAdmin: true });
  });
});

describe("requireAdmin", () => {
  it("lets an admin through", async () => {
    const user = await requireAdmin(pageRequest("http://localhost:3000/admin/dashboard", admin.cookie));
    expect(user.id).toBe(admin.user.id);
  });

  it.each([
    ["an /admin/... path", "http://localhost:3000/admin/dashboard", "/admin/login"],
    ["the /admin path itself", "http://localhost:3000/admin", "/admin/login"],
    ["a host whose first label is admin", "http://admin.example.com/x", "/admin/login"],
    ["the admin host's root", "http://admin.example.com/", "/admin/login"],
    ["a portal path", "http://localhost:3000/lp/dashboard", "/lp/login"],
    ["'admin' later in the path", "http://localhost:3000/lp/admin", "/lp/login"],
    ["'admin' in a later host label", "http://www.admin.example.com/x", "/lp/login"],
    ["a host that merely starts with admin", "http://administrator.example.com/x", "/lp/login"],
  ])("sends a non-admin on %s to %s", async (_label, url, expected) => {
    for (const who of [investor, pending, rejected]) {
      expect((await redirectOf(requireAdmin(pageRequest(url, who.cookie)))).location, who.user.status).toBe(expected);
    }
    expect((await redirectOf(requireAdmin(pageRequest(url)))).location, "anonymous").toBe(expected);
  });
});
