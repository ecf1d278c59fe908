import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resetRateLimitsForTests } from "~/modules/http/rate-limit.server";
import { flushMailer } from "~/modules/mail/mail.server";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { action as loginAction } from "~/routes/api/auth/login";
import { action as statusAction, loader as statusLoader } from "~/routes/api/auth/user-status";
import { loader as usersByStatusLoader } from "~/routes/api/auth/users-by-status";
import { allOutbox } from "../helpers/db";
import {
  FIXTURE_PASSWORD,
  apiRequest,
  callRouteWith,
  clearAccountTables,
  insertAdmin,
  insertUser,
  mailsTo,
  sessionCookieFor,
  userById,
} from "../helpers/users";

const LISTS = ["pending", "approved", "rejected"] as const;
type ListedUser = { id: string; name: string; email: string; company: string | null; createdAt: string; isAdmin: boolean; status: string };

let admin: LpUser;
let otherAdmin: LpUser;
let pendingA: LpUser;
let pendingB: LpUser;
let approved: LpUser;
let rejected: LpUser;
let adminCookie: string;
let investorCookie: string;

// Cheap to rebuild (one shared bcrypt hash per file), so every test starts from the same accounts.
beforeEach(async () => {
  clearAccountTables();
  resetRateLimitsForTests();
  vi.spyOn(console, "log").mockImplementation(() => {});
  admin = await insertAdmin({ email: "admin@lumenridge.example", name: "Ada Admin" });
  otherAdmin = await insertAdmin({ email: "second-admin@lumenridge.example" });
  pendingA = await insertUser({ email: "pending-a@fund.example", name: "Penny Ante", company: "PA Capital" });
  pendingB = await insertUser({ email: "pending-b@fund.example", name: "Pete Bloom" });
  approved = await insertUser({ email: "approved@fund.example", name: "Abe Proved", status: "approved" });
  rejected = await insertUser({ email: "rejected@fund.example", name: "Rex Jected", status: "rejected" });
  adminCookie = await sessionCookieFor(admin);
  investorCookie = await sessionCookieFor(approved);
});
afterEach(async () => {
  await flushMailer();
  resetRateLimitsForTests();
  vi.restoreAllMocks();
});

const list = (which: (typeof LISTS)[number], cookie?: string) =>
  callRouteWith(usersByStatusLoader, apiRequest("GET", `/api/auth/${which}-users`, { cookie }));

/** `cookie: null` sends no cookie; by default the admin's. */
const patchStatus = (id: string, json: unknown, cookie: string | null = adminCookie, method = "PATCH") =>
  callRouteWith(statusAction, apiRequest(method, `/api/auth/users/${id}/status`, { cookie: cookie ?? undefined, json }), {
    params: { id },
  });

async function emails(which: (typeof LISTS)[number]): Promise<string[]> {
  const response = await list(which, adminCookie);
  expect(response.status).toBe(200);
  return ((await response.json()) as ListedUser[]).map((u) => u.email).sort();
}

describe("GET /api/auth/{pending,approved,rejected}-users", () => {
  it.each(LISTS)("%s-users: 401 without a session", async (which) => {
    const response = await list(which);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: "Authentication required" });
  });

  it.each(LISTS)("%s-users: 403 for an approved investor", async (which) => {
    const response = await list(which, investorCookie);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: "Admin access required" });
  });

  it("answers an admin with the investors of each status (admins are not listed)", async () => {
    expect(await emails("pending")).toEqual(["pending-a@fund.example", "pending-b@fund.example"]);
    expect(await emails("approved")).toEqual(["approved@fund.example"]);
    expect(await emails("rejected")).toEqual(["rejected@fund.example"]);
  });

  it("lists each user as { id, name, email, company, createdAt, isAdmin, status } and never the password hash", async () => {
    const response = await list("pending", adminCookie);
    const users = (await response.json()) as ListedUser[];
    const penny = users.find((u) => u.id === pendingA.id);
    expect(penny).toEqual({
      id: pendingA.id,
      name: "Penny Ante",
      email: "pending-a@fund.example",
      company: "PA Capital",
      createdAt: pendingA.createdAt.toISOString(),
      isAdmin: false,
      status: "pending",
    });
    expect(JSON.stringify(users)).not.toContain("$2");
  });
});

describe("PATCH /api/auth/users/{id}/status", () => {
  it("401 without a session, 403 for an investor; nothing changes", async () => {
    const anonymous = await patchStatus(pendingA.id, { status: "approved" }, null);
    expect(anonymous.status).toBe(401);
    const investor = await patchStatus(pendingA.id, { status: "approved" }, investorCookie);
    expect(investor.status).toBe(403);
    expect(await investor.json()).toEqual({ error: "Admin access required" });
    expect(userById(pendingA.id).status).toBe("pending");
    expect(allOutbox()).toHaveLength(0);
  });

  it("approves a pending investor: 200 with the user, and they are e-mailed a sign-in link", async () => {
    const response = await patchStatus(pendingA.id, { status: "approved" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      id: pendingA.id,
      name: "Penny Ante",
      email: "pending-a@fund.example",
      company: "PA Capital",
      createdAt: pendingA.createdAt.toISOString(),
      isAdmin: false,
      status: "approved",
    });
    expect(userById(pendingA.id).status).toBe("approved");
    expect(await emails("pending")).toEqual(["pending-b@fund.example"]);
    expect(await emails("approved")).toEqual(["approved@fund.example", "pending-a@fund.example"]);

    const mails = mailsTo("pending-a@fund.example");
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe("Your Lumen Ridge Ventures investor portal access is approved");
    expect(mails[0]?.text).toContain("Dear Penny Ante,");
    expect(mails[0]?.text).toContain("http://localhost:3000/lp/login");
    expect(allOutbox()).toHaveLength(1);
  });

  it("an approved investor can then sign in, where before they were told to wait", async () => {
    const signIn = () =>
      callRouteWith(
        loginAction,
        apiRequest("POST", "/api/auth/login", { json: { email: "pending-b@fund.example", password: FIXTURE_PASSWORD } }),
      );
    expect((await signIn()).status).toBe(403);
    expect((await patchStatus(pendingB.id, { status: "approved" })).status).toBe(200);
    expect((await signIn()).status).toBe(200);
  });

  it("approving an already approved investor changes nothing and sends no second e-mail", async () => {
    const response = await patchStatus(approved.id, { status: "approved" });
    expect(response.status).toBe(200);
    expect(((await response.json()) as ListedUser).status).toBe("approved");
    expect(allOutbox()).toHaveLength(0);
  });

  it("rejects a pending investor: 200, status rejected, no e-mail", async () => {
    const response = await patchStatus(pendingB.id, { status: "rejected" });
    expect(response.status).toBe(200);
    expect(((await response.json()) as ListedUser).status).toBe("rejected");
    expect(userById(pendingB.id).status).toBe("rejected");
    expect(await emails("rejected")).toEqual(["pending-b@fund.example", "rejected@fund.example"]);
    expect(allOutbox()).toHaveLength(0);
  });

  it("revokes an approved investor (approved → rejected), whose session ends", async () => {
    const response = await patchStatus(approved.id, { status: "rejected" });
    expect(response.status).toBe(200);
    expect(userById(approved.id).status).toBe("rejected");
    // Their next request is refused.
    expect((await list("pending", investorCookie)).status).toBe(401);
  });

  it("re-approves a rejected investor, who gets the approval e-mail", async () => {
    const response = await patchStatus(rejected.id, { status: "approved" });
    expect(response.status).toBe(200);
    expect(userById(rejected.id).status).toBe("approved");
    expect(mailsTo("rejected@fund.example").map((m) => m.subject)).toEqual([
      "Your Lumen Ridge Ventures investor portal access is approved",
    ]);
  });

  it.each(["approved", "rejected"])("an admin cannot change their own status (%s): 403", async (status) => {
    const response = await patchStatus(admin.id, { status });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: "You cannot change your own status." });
    expect(userById(admin.id)).toMatchObject({ status: "approved", isAdmin: true });
  });

  it("an admin cannot reject another admin here: 403", async () => {
    const response = await patchStatus(otherAdmin.id, { status: "rejected" });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: "An administrator's access cannot be changed here." });
    expect(userById(otherAdmin.id).status).toBe("approved");
  });

  it("404 for an unknown id", async () => {
    const response = await patchStatus("00000000-0000-4000-8000-000000000000", { status: "approved" });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "User not found" });
  });

  it.each([
    [{ status: "pending" }],
    [{ status: "APPROVED" }],
    [{}],
    [{ status: ["approved"] }],
  ])("400 for the body %j, nothing changes", async (body) => {
    const response = await patchStatus(pendingA.id, body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: "Status must be approved or rejected",
      fields: { status: ["Status must be approved or rejected"] },
    });
    expect(userById(pendingA.id).status).toBe("pending");
  });

  it("400 for a body that is not JSON", async () => {
    const response = await patchStatus(pendingA.id, "{status:");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Request body must be valid JSON" });
  });

  it.each(["POST", "PUT", "DELETE"])("405 for %s", async (method) => {
    const response = await patchStatus(pendingA.id, { status: "approved" }, adminCookie, method);
    expect(response.status).toBe(405);
    expect(userById(pendingA.id).status).toBe("pending");
  });

  it("405 with Allow: PATCH for GET", async () => {
    const response = await callRouteWith(statusLoader, apiRequest("GET", `/api/auth/users/${pendingA.id}/status`), {
      params: { id: pendingA.id },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("PATCH");
  });
});
