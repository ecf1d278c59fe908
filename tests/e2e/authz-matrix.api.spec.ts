import { randomBytes } from "node:crypto";
import { request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import { expect, test } from "./helpers/fixtures";
import { createAdmin, loginViaApi, registerViaApi, setStatusViaApi, userIdByEmail } from "./helpers/accounts";
import { BASE_URL } from "./helpers/origin";

/**
 * The authorization matrix (DESIGN.md §6): every portal route and endpoint so
 * far × every role, against the status each must get. Pages answer redirects,
 * JSON endpoints 401/403. A pending user cannot sign in at all, so they hold
 * no session; a rejected user is tested with the cookie they had while still
 * approved (revocation must end it).
 */
type Role = "anonymous" | "pending" | "rejected" | "investor" | "admin";
const ROLES: Role[] = ["anonymous", "pending", "rejected", "investor", "admin"];

const PASSWORD = "matrix-password-123";
const unique = () => randomBytes(4).toString("hex");

type Expect = number | { status: number; location: string };
type Row = {
  method: "GET" | "POST" | "PATCH";
  path: string | (() => string);
  data?: unknown;
  /** A form body (application/x-www-form-urlencoded), for page actions. */
  form?: () => Record<string, string>;
  expect: Record<Role, Expect>;
};

const all = (value: Expect): Record<Role, Expect> => ({
  anonymous: value,
  pending: value,
  rejected: value,
  investor: value,
  admin: value,
});
const to = (location: string) => ({ status: 302, location });

let contexts: Record<Role, APIRequestContext>;
let targetId = "";

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  const ip = `10.250.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
  const make = () => playwrightRequest.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { "X-Forwarded-For": ip }, maxRedirects: 0 });
  const id = unique();
  const adminEmail = `matrix-admin-${id}@example.com`;
  createAdmin(adminEmail, "Matrix Admin", PASSWORD);
  contexts = { anonymous: await make(), pending: await make(), rejected: await make(), investor: await make(), admin: await make() };
  await loginViaApi(contexts.admin, adminEmail, PASSWORD);
  const adminCookie = ""; // the admin context's own cookie jar carries the session

  const emails = {
    pending: `matrix-pending-${id}@example.com`,
    rejected: `matrix-rejected-${id}@example.com`,
    investor: `matrix-investor-${id}@example.com`,
    target: `matrix-target-${id}@example.com`,
  };
  for (const [label, email] of Object.entries(emails)) {
    await registerViaApi(contexts.anonymous, { email, password: PASSWORD, name: `Matrix ${label}` });
  }
  const idOf = (email: string) => userIdByEmail(contexts.admin, adminCookie, email);
  await setStatusViaApi(contexts.admin, adminCookie, await idOf(emails.investor), "approved");
  await setStatusViaApi(contexts.admin, adminCookie, await idOf(emails.rejected), "approved");
  targetId = await idOf(emails.target);

  await loginViaApi(contexts.investor, emails.investor, PASSWORD);
  // The rejected user signs in while approved, then is revoked: that cookie must stop working.
  await loginViaApi(contexts.rejected, emails.rejected, PASSWORD);
  await setStatusViaApi(contexts.admin, adminCookie, await idOf(emails.rejected), "rejected");
  // A pending user is refused at sign-in and so never holds a session.
  const pending = await contexts.pending.post("/api/auth/login", { data: { email: emails.pending, password: PASSWORD } });
  expect(pending.status()).toBe(403);
  expect(pending.headers()["set-cookie"]).toBeUndefined();
});

test.afterAll(async () => {
  for (const context of Object.values(contexts ?? {})) await context.dispose();
});

const rows: Row[] = [
  { method: "GET", path: "/", expect: all(200) },
  { method: "GET", path: "/process", expect: all(200) },
  {
    method: "GET",
    path: "/lp/dashboard",
    expect: { anonymous: to("/lp/login"), pending: to("/lp/login"), rejected: to("/lp/login"), investor: 200, admin: 200 },
  },
  {
    method: "GET",
    path: "/admin/dashboard",
    expect: {
      anonymous: to("/admin/login"),
      pending: to("/admin/login"),
      rejected: to("/admin/login"),
      investor: to("/admin/login"),
      admin: 200,
    },
  },
  {
    method: "GET",
    path: "/lp/login",
    expect: { anonymous: 200, pending: 200, rejected: 200, investor: to("/lp/dashboard"), admin: to("/admin/dashboard") },
  },
  {
    method: "GET",
    path: "/admin/login",
    expect: { anonymous: 200, pending: 200, rejected: 200, investor: 200, admin: to("/admin/dashboard") },
  },
  { method: "GET", path: "/lp/register", expect: all(200) },
  { method: "GET", path: "/lp/forgot-password", expect: all(200) },
  {
    method: "GET",
    path: "/api/auth/user",
    expect: { anonymous: 401, pending: 401, rejected: 401, investor: 200, admin: 200 },
  },
  ...(["pending", "approved", "rejected"] as const).map(
    (list): Row => ({
      method: "GET",
      path: `/api/auth/${list}-users`,
      expect: { anonymous: 401, pending: 401, rejected: 401, investor: 403, admin: 200 },
    }),
  ),
  {
    method: "PATCH",
    path: () => `/api/auth/users/${targetId}/status`,
    data: { status: "approved" },
    expect: { anonymous: 401, pending: 401, rejected: 401, investor: 403, admin: 200 },
  },
  // The admin dashboard's form action: guarded on its own first line, not only by the layout's loader.
  {
    method: "POST",
    path: "/admin/dashboard",
    form: () => ({ intent: "status", userId: targetId, status: "rejected" }),
    expect: {
      anonymous: to("/admin/login"),
      pending: to("/admin/login"),
      rejected: to("/admin/login"),
      investor: to("/admin/login"),
      admin: to("/admin/dashboard"),
    },
  },
];

for (const row of rows) {
  for (const role of ROLES) {
    const label = typeof row.path === "string" ? row.path : "/api/auth/users/{id}/status";
    test(`${row.method} ${label} as ${role}`, async () => {
      const path = typeof row.path === "string" ? row.path : row.path();
      const context = contexts[role];
      const response =
        row.method === "GET"
          ? await context.get(path)
          : row.method === "PATCH"
            ? await context.patch(path, { data: row.data })
            : row.form
              ? await context.post(path, { form: row.form() })
              : await context.post(path, { data: row.data });
      const expected = row.expect[role];
      if (typeof expected === "number") {
        expect(response.status(), `${row.method} ${path} as ${role}`).toBe(expected);
      } else {
        expect(response.status(), `${row.method} ${path} as ${role}`).toBe(expected.status);
        expect(new URL(response.headers()["location"] ?? "", BASE_URL).pathname).toBe(expected.location);
      }
      if (path.startsWith("/api/") && (response.status() === 401 || response.status() === 403)) {
        expect(response.headers()["content-type"]).toMatch(/^application\/json/);
      }
    });
  }
}

test("after logout the investor's old session cookie is refused", async () => {
  const context = await playwrightRequest.newContext({ baseURL: BASE_URL, maxRedirects: 0 });
  try {
    const email = `matrix-logout-${unique()}@example.com`;
    await registerViaApi(context, { email, password: PASSWORD, name: "Matrix Logout" });
    await setStatusViaApi(contexts.admin, "", await userIdByEmail(contexts.admin, "", email), "approved");
    const cookie = await loginViaApi(context, email, PASSWORD);
    expect((await context.get("/api/auth/user")).status()).toBe(200);
    expect((await context.post("/api/auth/logout")).status()).toBe(200);
    // Replay the cookie the browser had before logging out.
    const replay = await context.get("/api/auth/user", { headers: { Cookie: cookie } });
    expect(replay.status()).toBe(401);
  } finally {
    await context.dispose();
  }
});
