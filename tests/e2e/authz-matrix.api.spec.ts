import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import type { IncomingHttpHeaders } from "node:http";
import { request as playwrightRequest, type APIRequestContext, type APIResponse } from "@playwright/test";
import { expect, test } from "./helpers/fixtures";
import { createAdmin, loginViaApi, registerViaApi, setStatusViaApi, userIdByEmail } from "./helpers/accounts";
import {
  deleteRows,
  insertDocumentRow,
  insertFundDocument,
  rawRequest,
  uploadDocument,
  withDb,
  type LpDocument,
  type UploadFile,
} from "./helpers/documents";
import { BASE_URL } from "./helpers/origin";
import { MIME, samplePdf } from "../helpers/sample-files";

/**
 * The authorization matrix (DESIGN.md §6): every portal route and endpoint so
 * far × every role, against the status each must get. Pages answer redirects,
 * JSON endpoints 401/403. A pending user cannot sign in at all, so they hold
 * no session; a rejected user is tested with the cookie they had while still
 * approved (revocation must end it).
 *
 * LP documents (SPEC.md §7): the list, upload, delete, view and download
 * endpoints and the admin page routes, on a real document, an unknown id and
 * crafted ids (traversal, NUL, very long, a fund document's id, rows whose
 * stored path was tampered with). Those never answer 200 or 5xx, and anyone
 * who may not see documents gets the same answer whether the id exists or not.
 */
type Role = "anonymous" | "pending" | "rejected" | "investor" | "admin";
const ROLES: Role[] = ["anonymous", "pending", "rejected", "investor", "admin"];

const PASSWORD = "matrix-password-123";
const unique = () => randomBytes(4).toString("hex");

/** A status, or a redirect (one of several statuses, to a path). */
type Expect = number | { status: number | number[]; location: string };
type Row = {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  path: string | (() => string);
  /** The test's name for a computed path. */
  label?: string;
  data?: unknown;
  /** A form body (application/x-www-form-urlencoded), for page actions. */
  form?: () => Record<string, string>;
  /** A multipart body (uploads). */
  multipart?: () => Record<string, string | UploadFile>;
  /** Send the path byte for byte (node:http), not through a URL parser that would normalise it. */
  raw?: boolean;
  /** Extra headers (e.g. a cross-site Origin). */
  headers?: Record<string, string>;
  expect: Record<Role, Expect>;
  /** More checks on the answer. */
  check?: (answer: Answer, role: Role) => void | Promise<void>;
};

/** An answer, however it was requested. */
type Answer = { status: number; headers: Record<string, string>; body: Buffer };

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
/** Each role's session cookie as sent on the wire ("" when it holds none), for raw requests. */
const cookies: Record<Role, string> = { anonymous: "", pending: "", rejected: "", investor: "", admin: "" };
let clientIp = "";

// Documents: one to read, one for the admin to delete, a fund document and tampered rows that must stay out of reach.
const docTag = unique();
let docBytes: Buffer = Buffer.alloc(0);
let docId = "";
let deletableId = "";
let fund = { id: "", filePath: "", absolutePath: "" };
const FUND_MARKER = `FUND-SECRET-${docTag}`;
const tamperedIds: string[] = [];
const unknownId = randomUUID();

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  const ip = `10.250.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
  clientIp = ip;
  const make = () => playwrightRequest.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { "X-Forwarded-For": ip }, maxRedirects: 0 });
  const id = unique();
  const adminEmail = `matrix-admin-${id}@example.com`;
  createAdmin(adminEmail, "Matrix Admin", PASSWORD);
  contexts = { anonymous: await make(), pending: await make(), rejected: await make(), investor: await make(), admin: await make() };
  cookies.admin = await loginViaApi(contexts.admin, adminEmail, PASSWORD);
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

  cookies.investor = await loginViaApi(contexts.investor, emails.investor, PASSWORD);
  // The rejected user signs in while approved, then is revoked: that cookie must stop working.
  cookies.rejected = await loginViaApi(contexts.rejected, emails.rejected, PASSWORD);
  await setStatusViaApi(contexts.admin, adminCookie, await idOf(emails.rejected), "rejected");
  // A pending user is refused at sign-in and so never holds a session.
  const pending = await contexts.pending.post("/api/auth/login", { data: { email: emails.pending, password: PASSWORD } });
  expect(pending.status()).toBe(403);
  expect(pending.headers()["set-cookie"]).toBeUndefined();

  // Documents, uploaded by the admin over HTTP.
  docBytes = samplePdf(`Matrix document ${docTag}`);
  for (const label of ["target", "deletable"]) {
    const response = await uploadDocument(
      contexts.admin,
      { title: `Matrix ${label} ${docTag}`, category: "reports" },
      { name: `matrix-${label}.pdf`, mimeType: MIME.pdf, buffer: docBytes },
    );
    expect(response.status(), await response.text()).toBe(201);
    const doc = (await response.json()) as LpDocument;
    if (label === "target") docId = doc.id;
    else deletableId = doc.id;
  }
  // A fund document and its file, put straight into the database and storage.
  fund = insertFundDocument(samplePdf(FUND_MARKER));
  // LP document rows whose stored path points outside the documents area.
  tamperedIds.push(insertDocumentRow("../e2e.sqlite"), insertDocumentRow("/etc/passwd"), insertDocumentRow(`documents/../../e2e.sqlite`));
});

test.afterAll(async () => {
  // Whatever the matrix uploaded goes again (through the API, so the files go too).
  const ids = withDb(
    (db) => (db.prepare("select id from documents where title like ?").all(`Matrix % ${docTag}`) as { id: string }[]).map((r) => r.id),
  );
  for (const id of ids) await contexts?.admin.delete(`/api/documents/${id}`);
  deleteRows("documents", tamperedIds);
  if (fund.id) {
    deleteRows("fund_documents", [fund.id]);
    fs.rmSync(fund.absolutePath, { force: true });
  }
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
  ...documentRows(),
];

/** Who may do what with LP documents. Pending and rejected users hold no live session, so they are refused like anyone signed out. */
function documentRows(): Row[] {
  const signedOut = { anonymous: 401, pending: 401, rejected: 401 } as const;
  const smallPdf = (label: string) => () => ({
    title: `Matrix ${label} ${docTag}`,
    category: "reports",
    file: { name: `matrix-${label}.pdf`, mimeType: MIME.pdf, buffer: samplePdf(label) },
  });
  const noFundBytes = (answer: Answer) => {
    expect(answer.body.includes(Buffer.from(FUND_MARKER)), "the fund document's bytes").toBe(false);
    expect(answer.body.includes(Buffer.from("SQLite format 3")), "the database file").toBe(false);
    expect(answer.body.includes(Buffer.from("root:")), "/etc/passwd").toBe(false);
  };
  const exactBytes = (answer: Answer) => {
    if (answer.status === 200) expect(Buffer.compare(answer.body, docBytes), "the document's bytes").toBe(0);
  };
  /** Only an admin's same-site upload stores a document. */
  const storedOnlyForAdmin =
    (title: string, { crossSite = false } = {}) =>
    (_answer: Answer, role: Role) => {
      const found = withDb((db) => db.prepare("select id from documents where title = ?").get(`Matrix ${title} ${docTag}`));
      if (role === "admin" && !crossSite) expect(found, "the admin's upload is stored").toBeTruthy();
      else expect(found, `no document stored for ${role}`).toBeUndefined();
    };
  const redirectsToLogin = { anonymous: to("/admin/login"), pending: to("/admin/login"), rejected: to("/admin/login"), investor: to("/admin/login") };

  const rows: Row[] = [
    { method: "GET", path: "/api/documents", expect: { ...signedOut, investor: 200, admin: 200 } },
    {
      method: "POST",
      path: "/api/documents",
      label: "/api/documents (a valid upload)",
      multipart: smallPdf("api-upload"),
      expect: { ...signedOut, investor: 403, admin: 201 },
      check: storedOnlyForAdmin("api-upload"),
    },
    {
      method: "POST",
      path: "/api/documents",
      label: "/api/documents (an empty multipart body)",
      multipart: () => ({}),
      expect: { ...signedOut, investor: 403, admin: 400 },
    },
    {
      method: "DELETE",
      path: () => `/api/documents/${deletableId}`,
      label: "/api/documents/{id}",
      expect: { ...signedOut, investor: 403, admin: 200 },
      check: async (answer, role) => {
        const exists = withDb((db) => db.prepare("select id from documents where id = ?").get(deletableId));
        if (role === "admin") expect(JSON.parse(answer.body.toString("utf8"))).toEqual({ success: true, id: deletableId });
        else expect(exists, `the document survives ${role}`).toBeTruthy();
      },
    },
    { method: "DELETE", path: `/api/documents/${unknownId}`, label: "/api/documents/{unknown id}", expect: { ...signedOut, investor: 403, admin: 404 } },
  ];

  for (const action of ["view", "download"] as const) {
    rows.push(
      {
        method: "GET",
        path: () => `/api/documents/${docId}/${action}`,
        label: `/api/documents/{id}/${action}`,
        expect: { ...signedOut, investor: 200, admin: 200 },
        check: exactBytes,
      },
      { method: "GET", path: `/api/documents/${unknownId}/${action}`, label: `/api/documents/{unknown id}/${action}`, expect: { ...signedOut, investor: 404, admin: 404 } },
    );
    for (const crafted of craftedIds()) {
      rows.push({
        method: "GET",
        path: () => `/api/documents/${crafted.id()}/${action}`,
        label: `/api/documents/{${crafted.label}}/${action}`,
        raw: true,
        expect: crafted.expect ?? { ...signedOut, investor: 404, admin: 404 },
        check: noFundBytes,
      });
    }
  }
  for (const crafted of craftedIds().filter((c) => c.deletable)) {
    rows.push({
      method: "DELETE",
      path: () => `/api/documents/${crafted.id()}`,
      label: `/api/documents/{${crafted.label}}`,
      raw: true,
      expect: crafted.expect ?? { ...signedOut, investor: 403, admin: 404 },
      check: () => {
        // The fund document is not an LP document: it stays, file and all.
        expect(withDb((db) => db.prepare("select id from fund_documents where id = ?").get(fund.id))).toBeTruthy();
        expect(fs.existsSync(fund.absolutePath)).toBe(true);
      },
    });
  }

  rows.push(
    // The admin upload form without JavaScript (multipart, answered with a redirect).
    {
      method: "POST",
      path: "/admin/documents",
      label: "/admin/documents (no-JS upload form)",
      multipart: smallPdf("form-upload"),
      // See Other is the right answer to a form POST; the upload corpus checks it is always 303 (the status is not the matrix's concern).
      expect: { ...redirectsToLogin, admin: { status: [302, 303], location: "/admin/dashboard" } },
      check: storedOnlyForAdmin("form-upload"),
    },
    { method: "GET", path: "/admin/documents", expect: { ...redirectsToLogin, admin: to("/admin/dashboard") } },
    {
      method: "GET",
      path: () => `/admin/documents/${docId}/access`,
      label: "/admin/documents/{id}/access",
      expect: { ...redirectsToLogin, admin: 200 },
    },
    {
      method: "GET",
      path: `/admin/documents/${unknownId}/access`,
      label: "/admin/documents/{unknown id}/access",
      expect: { ...redirectsToLogin, admin: 404 },
    },
    {
      method: "GET",
      path: () => `/admin/documents/${fund.id}/access`,
      label: "/admin/documents/{fund document id}/access",
      expect: { ...redirectsToLogin, admin: 404 },
    },
    // Another site's page cannot make a signed-in browser upload or delete.
    {
      method: "POST",
      path: "/api/documents",
      label: "/api/documents from another site (Origin)",
      headers: { Origin: "https://evil.example" },
      multipart: smallPdf("cross-site-origin"),
      expect: all(403),
      check: storedOnlyForAdmin("cross-site-origin", { crossSite: true }),
    },
    {
      method: "POST",
      path: "/api/documents",
      label: "/api/documents from another site (Sec-Fetch-Site)",
      headers: { "Sec-Fetch-Site": "cross-site" },
      multipart: smallPdf("cross-site-fetch"),
      expect: all(403),
      check: storedOnlyForAdmin("cross-site-fetch", { crossSite: true }),
    },
    {
      method: "POST",
      path: "/admin/documents",
      label: "/admin/documents from another site (Origin)",
      headers: { Origin: "https://evil.example" },
      multipart: smallPdf("cross-site-form"),
      expect: all(403),
      check: storedOnlyForAdmin("cross-site-form", { crossSite: true }),
    },
    {
      method: "DELETE",
      path: () => `/api/documents/${docId}`,
      label: "/api/documents/{id} from another site (Origin)",
      headers: { Origin: "https://evil.example" },
      expect: all(403),
      check: () => expect(withDb((db) => db.prepare("select id from documents where id = ?").get(docId)), "the document survives").toBeTruthy(),
    },
  );
  return rows;
}

/** Ids no one may use to reach a file (computed at test time: some exist only after beforeAll). */
function craftedIds(): { label: string; id: () => string; expect?: Record<Role, Expect>; deletable?: boolean }[] {
  return [
    { label: "..%2F..%2Fetc%2Fpasswd", id: () => "..%2F..%2Fetc%2Fpasswd", deletable: true },
    { label: "..%2F..%2Fe2e.sqlite", id: () => "..%2F..%2Fe2e.sqlite" },
    // %2e%2e is a dot-segment: the path itself changes (…/documents/%2e%2e/view is …/view), leaving the document routes.
    { label: "%2e%2e", id: () => "%2e%2e", expect: all(404) },
    { label: "%252e%252e%252f (double-encoded)", id: () => "%252e%252e%252fe2e.sqlite" },
    { label: "a fund document's id", id: () => fund.id, deletable: true },
    { label: "a row whose path is ../e2e.sqlite", id: () => tamperedIds[0]! },
    { label: "a row whose path is /etc/passwd", id: () => tamperedIds[1]! },
    { label: "a row whose path is documents/../../e2e.sqlite", id: () => tamperedIds[2]! },
    { label: "4000 characters", id: () => "a".repeat(4000), deletable: true },
    { label: "%00", id: () => "%00" },
    { label: "{id}%00", id: () => `${docId}%00` },
    { label: "{id}%00.pdf", id: () => `${docId}%00.pdf` },
    { label: "SQL", id: () => encodeURIComponent("' OR '1'='1") },
  ];
}

async function answerOf(response: APIResponse): Promise<Answer> {
  return { status: response.status(), headers: response.headers(), body: await response.body() };
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join("\n") : (value ?? "")]));
}

async function send(row: Row, role: Role, path: string): Promise<Answer> {
  const context = contexts[role];
  const headers = row.headers;
  if (row.raw) {
    const answer = await rawRequest({
      method: row.method,
      path,
      headers: { "X-Forwarded-For": clientIp, ...(cookies[role] ? { Cookie: cookies[role] } : {}), ...headers },
    });
    return { status: answer.status, headers: flatHeaders(answer.headers), body: answer.body };
  }
  if (row.method === "GET") return answerOf(await context.get(path, { headers }));
  if (row.method === "DELETE") return answerOf(await context.delete(path, { headers }));
  if (row.method === "PATCH") return answerOf(await context.patch(path, { data: row.data, headers }));
  if (row.form) return answerOf(await context.post(path, { form: row.form(), headers }));
  if (row.multipart) return answerOf(await context.post(path, { multipart: row.multipart(), headers }));
  return answerOf(await context.post(path, { data: row.data, headers }));
}

for (const row of rows) {
  for (const role of ROLES) {
    const label = row.label ?? (typeof row.path === "string" ? row.path : "/api/auth/users/{id}/status");
    test(`${row.method} ${label} as ${role}`, async () => {
      const path = typeof row.path === "string" ? row.path : row.path();
      const response = await send(row, role, path);
      const what = `${row.method} ${path.slice(0, 120)} as ${role}`;
      const expected = row.expect[role];
      if (typeof expected === "number") {
        expect(response.status, what).toBe(expected);
      } else {
        expect([expected.status].flat(), what).toContain(response.status);
        expect(new URL(response.headers["location"] ?? "", BASE_URL).pathname).toBe(expected.location);
      }
      expect(response.status, `${what}: never a server error`).toBeLessThan(500);
      if (path.startsWith("/api/") && (response.status === 401 || response.status === 403)) {
        expect(response.headers["content-type"]).toMatch(/^application\/json/);
      }
      await row.check?.(response, role);
    });
  }
}

// Someone who may not see documents learns nothing about which ids exist: the same answer for a real id, an unknown one and a crafted one.
for (const role of ["anonymous", "pending", "rejected"] as const) {
  for (const action of ["view", "download"] as const) {
    test(`GET /api/documents/{id}/${action} as ${role}: the same answer whether the id exists or not`, async () => {
      const answers = [];
      for (const id of [docId, unknownId, fund.id, "..%2F..%2Fetc%2Fpasswd", "not-a-uuid"]) {
        const answer = await send({ method: "GET", path: "", raw: true, expect: all(0) }, role, `/api/documents/${id}/${action}`);
        answers.push({ status: answer.status, type: answer.headers["content-type"], body: answer.body.toString("utf8") });
      }
      expect(answers[0]!.status).toBe(401);
      for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
    });
  }
}

/**
 * The 403 branch: a live session whose user is no longer approved. The app
 * ends sessions when it changes a status, so the status is changed behind its
 * back here (as a second server or a manual fix might); the guard still reads
 * the user on every request and refuses, and says nothing about which ids exist.
 */
test("a live session whose user is no longer approved: 403 on every document endpoint, the same for real and unknown ids", async () => {
  const context = await playwrightRequest.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { "X-Forwarded-For": clientIp }, maxRedirects: 0 });
  const email = `matrix-demoted-${unique()}@example.com`;
  try {
    await registerViaApi(context, { email, password: PASSWORD, name: "Matrix Demoted" });
    const userId = await userIdByEmail(contexts.admin, "", email);
    await setStatusViaApi(contexts.admin, "", userId, "approved");
    await loginViaApi(context, email, PASSWORD);
    expect((await context.get("/api/documents")).status()).toBe(200);
    for (const status of ["pending", "rejected"]) {
      withDb((db) => db.prepare("update lp_users set status = ? where id = ?").run(status, userId), { write: true });
      const list = await context.get("/api/documents");
      expect(list.status(), `GET /api/documents while ${status}`).toBe(403);
      expect(await list.json()).toEqual({ error: expect.any(String) });
      const upload = await context.post("/api/documents", { multipart: { title: "demoted", file: { name: "d.pdf", mimeType: MIME.pdf, buffer: samplePdf() } } });
      expect(upload.status(), `POST /api/documents while ${status}`).toBe(403);
      for (const action of ["view", "download"]) {
        const bodies = [];
        for (const id of [docId, unknownId, fund.id]) {
          const response = await context.get(`/api/documents/${id}/${action}`);
          expect(response.status(), `${action} ${id} while ${status}`).toBe(403);
          bodies.push(await response.text());
        }
        expect(new Set(bodies).size, `${action}: one answer for every id`).toBe(1);
      }
    }
  } finally {
    await context.dispose();
  }
});

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
