import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import type { IncomingHttpHeaders } from "node:http";
import { request as playwrightRequest, type APIRequestContext, type APIResponse } from "@playwright/test";
import { expect, test } from "./helpers/fixtures";
import {
  createAdmin,
  latestMailTo,
  loginViaApi,
  REGISTRATION_CONFIRM_SUBJECT,
  registerViaApi,
  setStatusViaApi,
  userIdByEmail,
} from "./helpers/accounts";
import {
  deleteRows,
  expectContentDisposition,
  insertDocumentRow,
  insertFundDocument,
  randomClientIp,
  rawRequest,
  uploadDocument,
  withDb,
  type LpDocument,
  type UploadFile,
} from "./helpers/documents";
import { BASE_URL } from "./helpers/origin";
import { insertPitchRow } from "./helpers/pitches";
import { LISTS, type ListKey } from "../../app/modules/email-lists/lists";
import { MIME, samplePdf } from "../helpers/sample-files";
import {
  bogusToken,
  fundCookieIn,
  fundDocumentExists,
  fundIHolder,
  fundIIHolderByLink,
  fundIIHolderByValidation,
  fundRequestId,
  fundRequestRow,
  fundRequestRowByEmail,
  insertFundDocumentRow,
  MAIL_TIMEOUT_MS,
  mailedLinkToken,
  requestFundIILink,
  revokeFromAdmin,
  sha256Hex,
  tokenForms,
  tokenInCookie,
  uniqueFundEmail,
  type FundHolder,
  type FundId,
} from "./helpers/fund-roles";

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
 *
 * Fund access (SPEC.md §7, docs/decisions/012-fund-access.md): three more
 * roles hold a fund cookie and no portal session — a Fund I holder (the
 * sign-up's cookie), a Fund II holder (the e-mailed link, opened) and a revoked
 * Fund II holder (an admin revoked the request; they keep the old cookie). On
 * portal routes they answer as anonymous does; the fund endpoints and pages
 * admit the holder of the document's fund and admins, and answer another
 * fund's document like an unknown id (404). No answer, to anyone, carries a
 * fund token other than the one the client itself sent (or was just issued).
 */
type LpRole = "anonymous" | "pending" | "rejected" | "investor" | "admin";
type FundRole = "fund-i holder" | "fund-ii holder" | "revoked holder";
/**
 * Two-factor (docs/decisions/023-two-factor.md): a `half-session` holds the
 * 5-minute challenge an admin with two-factor gets from the password step
 * (only the code step accepts it: everywhere else it gets what anonymous gets);
 * an `enrolling admin` has no two-factor yet, so its session opens only the
 * set-up: pages go to /admin/account, the JSON endpoints answer 403.
 */
type TwoFactorRole = "half-session" | "enrolling admin";
type Role = LpRole | FundRole | TwoFactorRole;
const FUND_ROLES: FundRole[] = ["fund-i holder", "fund-ii holder", "revoked holder"];
// The admin goes last: a row whose admin answer changes something (an upload, a delete, a revocation) checks that nobody before did.
const ROLES: Role[] = ["anonymous", "pending", "rejected", "investor", ...FUND_ROLES, "half-session", "enrolling admin", "admin"];
const ENROLMENT_REQUIRED = "Two-factor authentication must be set up before using the admin portal.";

const PASSWORD = "matrix-password-123";
const unique = () => randomBytes(4).toString("hex");

/** A status, or a redirect (one of several statuses, to a path). */
type Expect = number | { status: number | number[]; location: string };
/** What each role must get. A fund holder holds no portal session: unless told otherwise, it gets what anonymous gets. */
type Expectations = Record<LpRole, Expect> & Partial<Record<FundRole | TwoFactorRole, Expect>>;
type Row = {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string | (() => string);
  /** The test's name for a computed path. */
  label?: string;
  /** A JSON body (a function: computed per request, e.g. a fresh e-mail address). */
  data?: unknown;
  /** A form body (application/x-www-form-urlencoded), for page actions. */
  form?: () => Record<string, string>;
  /** A multipart body (uploads). */
  multipart?: () => Record<string, string | UploadFile>;
  /** Send the path byte for byte (node:http), not through a URL parser that would normalise it. */
  raw?: boolean;
  /** Extra headers (e.g. a cross-site Origin). */
  headers?: Record<string, string>;
  /** Send from a client address of its own (rate-limited endpoints: sign-ups, token checks). */
  freshIp?: boolean;
  /** A longer test timeout (a check that waits for mail). */
  timeout?: number;
  expect: Expectations;
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
  "fund-i holder": value,
  "fund-ii holder": value,
  "revoked holder": value,
  "half-session": value,
  "enrolling admin": value,
});
const expectationFor = (row: Row, role: Role): Expect => row.expect[role] ?? (role === "enrolling admin" ? enrollingDefault(row) : row.expect.anonymous);

/**
 * What an admin without two-factor gets unless a row says otherwise: where a
 * signed-out visitor is sent to a sign-in page, the set-up page instead; where
 * a JSON endpoint answers 401 for lack of a session, 403; elsewhere
 * (public pages, the fund pages and endpoints, which no admin power opens
 * for it) what anonymous gets.
 */
function enrollingDefault(row: Row): Expect {
  const anonymous = row.expect.anonymous;
  const path = typeof row.path === "string" ? row.path : row.path();
  if (typeof anonymous !== "number") {
    const guarded = /^\/(admin|lp)\/login$/.test(anonymous.location) && (path.startsWith("/admin/") || path.startsWith("/lp/"));
    return guarded ? { status: anonymous.status, location: "/admin/account" } : anonymous;
  }
  // The fund document reads (view, download, by key) look for fund access, not a portal session.
  const fundRead = row.method === "GET" && /^\/api\/fund-documents\/(view\/|download\/|fund-i(i)?([?#]|$))/.test(path);
  return anonymous === 401 && path.startsWith("/api/") && !fundRead ? 403 : anonymous;
}
const to = (location: string) => ({ status: 302, location });

let contexts: Record<Role, APIRequestContext>;
let targetId = "";
/** A pitch for the inbox's rows (put straight into the database). */
let pitchId = "";
/** Each role's session (or fund access) cookie as sent on the wire ("" when it holds none), for raw requests. */
const cookies: Record<Role, string> = {
  anonymous: "",
  pending: "",
  rejected: "",
  investor: "",
  admin: "",
  "fund-i holder": "",
  "fund-ii holder": "",
  "revoked holder": "",
  "half-session": "",
  "enrolling admin": "",
};
let clientIp = "";
/** A live registration confirmation token (decision 028): its page opens for anyone, and a wrong password changes nothing. */
let registrationToken = "";

// Fund access: the holders, two more requests the admin intents act on, and the fund documents.
const holders = {} as Record<FundRole, FundHolder>;
/** A live Fund II request: only the admin may revoke it. */
let revokeTarget = { id: "", email: "", token: "", hash: "" };
/** A revoked Fund II request: only the admin may send it a fresh link. */
let resendTarget = { id: "", email: "", token: "", hash: "" };
type FundDoc = { id: string; title: string; fileName: string; bytes: Buffer; fundId: FundId };
const fundDocs = {} as Record<"fundI" | "fundII" | "deletable" | "dashboardDeletable", FundDoc>;
let tamperedFundId = "";

/** Every fund token the run knows (token → whose), for the leak check. */
const knownTokens = new Map<string, string>();
/** Fund II sign-ups made by the register rows: their links come by mail, and join knownTokens at the end. */
const mailedSignups: string[] = [];
/** Every answer the matrix got, with the tokens its client may see (for the final sweep). */
const seenAnswers: { what: string; allowed: Set<string>; text: string }[] = [];

// Documents: one to read, one for the admin to delete, a fund document and tampered rows that must stay out of reach.
const docTag = unique();
let docBytes: Buffer = Buffer.alloc(0);
/** A pitch with an uploaded deck (issue 16), sent over multipart by a founder. */
let deckPitchId = "";
/** A bulk upload batch staged by the admin (its one file matches nobody); only the admin may cancel it. */
let batchId = "";
let docId = "";
let deletableId = "";
let fund = { id: "", filePath: "", absolutePath: "" };
const FUND_MARKER = `FUND-SECRET-${docTag}`;
const tamperedIds: string[] = [];
const unknownId = randomUUID();

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  // The fund roles wait for mailed links (see MAIL_TIMEOUT_MS).
  test.setTimeout(60_000 + MAIL_TIMEOUT_MS);
  const ip = `10.250.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
  clientIp = ip;
  const make = (headers: Record<string, string> = {}) =>
    playwrightRequest.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { "X-Forwarded-For": ip, ...headers }, maxRedirects: 0 });
  const id = unique();
  const adminEmail = `matrix-admin-${id}@example.com`;
  await createAdmin(adminEmail, "Matrix Admin", PASSWORD);
  // The fund roles' contexts are made once their cookies exist (below).
  contexts = {
    anonymous: await make(),
    pending: await make(),
    rejected: await make(),
    investor: await make(),
    admin: await make(),
    "half-session": await make(),
    "enrolling admin": await make(),
  } as Record<Role, APIRequestContext>;
  cookies.admin = await loginViaApi(contexts.admin, adminEmail, PASSWORD);
  // The half-session: the admin's password step on the sign-in form, and no code.
  const challenge = await contexts["half-session"].post("/admin/login", { form: { email: adminEmail, password: PASSWORD } });
  expect(challenge.status()).toBe(303); // Post/Redirect/Get through answerForm
  expect(challenge.headers()["location"]).toBe("/login/two-factor");
  cookies["half-session"] = (challenge.headers()["set-cookie"] ?? "").split("\n").find((c) => c.includes("lr_session="))?.split(";")[0] ?? "";
  expect(cookies["half-session"]).toMatch(/lr_session=/);
  // The enrolling admin: an admin made without two-factor; the password alone signs it in (to the set-up only).
  const enrollingEmail = `matrix-enrolling-${id}@example.com`;
  await createAdmin(enrollingEmail, "Matrix Enrolling Admin", PASSWORD, { twoFactor: false });
  cookies["enrolling admin"] = await loginViaApi(contexts["enrolling admin"], enrollingEmail, PASSWORD);
  const adminCookie = ""; // the admin context's own cookie jar carries the session
  pitchId = insertPitchRow({ company: `Matrix Pitch ${id}` });

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
  // A registration left unconfirmed: the link from its mail.
  const unconfirmed = `matrix-unconfirmed-${id}@example.com`;
  const registered = await contexts.anonymous.post("/api/auth/register", { data: { email: unconfirmed, password: PASSWORD, name: "Matrix Unconfirmed" } });
  expect(registered.status(), await registered.text()).toBe(201);
  const confirmMail = await latestMailTo(unconfirmed, REGISTRATION_CONFIRM_SUBJECT, `${BASE_URL}/lp/register/confirm?token=`);
  registrationToken = /\/lp\/register\/confirm\?token=([A-Za-z0-9_-]{43})/.exec(confirmMail.text)?.[1] ?? "";
  expect(registrationToken).not.toBe("");

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
  // A founder's pitch with a deck (multipart POST /api/pitch), from a client address of its own.
  const deckPitch = await contexts.anonymous.post("/api/pitch", {
    headers: { "X-Forwarded-For": randomClientIp() },
    multipart: {
      name: "Matrix Founder",
      email: `matrix-founder-${id}@example.com`,
      company: `Matrix Deck ${docTag}`,
      stage: "Seed",
      message: "A deck for the matrix.",
      deck: { name: "matrix-deck.pdf", mimeType: MIME.pdf, buffer: samplePdf(`Matrix deck ${docTag}`) },
    },
  });
  expect(deckPitch.status(), await deckPitch.text()).toBe(201);
  deckPitchId = ((await deckPitch.json()) as { id: string }).id;
  // A staged bulk upload batch (the no-JS form's multipart post answers 303 to its preview).
  const staged = await contexts.admin.post("/admin/documents/bulk", {
    multipart: { title: `Matrix bulk ${docTag}`, category: "reports", files: { name: `matrix-bulk-${docTag}.pdf`, mimeType: MIME.pdf, buffer: samplePdf(`Matrix bulk ${docTag}`) } },
  });
  expect(staged.status(), await staged.text()).toBe(303);
  batchId = /^\/admin\/documents\/bulk\/([0-9a-f]{32})$/.exec(staged.headers()["location"] ?? "")?.[1] ?? "";
  expect(batchId, staged.headers()["location"]).not.toBe("");
  // A fund document and its file, put straight into the database and storage.
  fund = insertFundDocument(samplePdf(FUND_MARKER));
  // LP document rows whose stored path points outside the documents area.
  tamperedIds.push(insertDocumentRow("../e2e.sqlite"), insertDocumentRow("/etc/passwd"), insertDocumentRow(`documents/../../e2e.sqlite`));

  // Fund documents, uploaded by the admin over HTTP: one per fund to read, two for the admin to delete.
  const uploadFundDoc = async (label: string, fundId: FundId): Promise<FundDoc> => {
    const title = `Matrix ${label} ${docTag}`;
    const fileName = `matrix-${label}.pdf`;
    const bytes = samplePdf(`FUND-DOC-${label}-${docTag}`);
    const response = await contexts.admin.post("/api/fund-documents", {
      multipart: { title, category: "fund_documents", fundId, file: { name: fileName, mimeType: MIME.pdf, buffer: bytes } },
    });
    expect(response.status(), await response.text()).toBe(201);
    const doc = (await response.json()) as { id: string; fundId: string; fileSize: string };
    expect(doc.fundId).toBe(fundId);
    expect(doc.fileSize, "the admin's answer gives bytes").toBe(String(bytes.length));
    return { id: doc.id, title, fileName, bytes, fundId };
  };
  fundDocs.fundI = await uploadFundDoc("fund-i-doc", "fund-i");
  fundDocs.fundII = await uploadFundDoc("fund-ii-doc", "fund-ii");
  fundDocs.deletable = await uploadFundDoc("fund-deletable", "fund-ii");
  fundDocs.dashboardDeletable = await uploadFundDoc("fund-dashboard-deletable", "fund-i");
  // A Fund II document row whose stored path points outside the storage folder.
  tamperedFundId = insertFundDocumentRow("../e2e.sqlite", "fund-ii");

  // The fund roles, made over HTTP as visitors would (each sign-up from a client address of its own; one mailed link at a time).
  const setup = await make();
  const fundI = await fundIHolder(uniqueFundEmail("fund-i", docTag));
  const fundII = await fundIIHolderByLink(setup, uniqueFundEmail("fund-ii", docTag));
  const revoked = await fundIIHolderByValidation(setup, uniqueFundEmail("revoked", docTag));
  revokeTarget.email = uniqueFundEmail("revoke-target", docTag);
  const revokeToken = await requestFundIILink(revokeTarget.email, "Matrix Revoke Target");
  resendTarget.email = uniqueFundEmail("resend-target", docTag);
  const resendToken = await requestFundIILink(resendTarget.email, "Matrix Resend Target");
  await setup.dispose();
  holders["fund-i holder"] = fundI;
  holders["fund-ii holder"] = fundII;
  holders["revoked holder"] = revoked;
  // The admin revokes one holder's request from the dashboard; the holder keeps the cookie.
  await revokeFromAdmin(contexts.admin, await fundRequestId(contexts.admin, revoked.email, "fund-ii"));
  revokeTarget = { ...revokeTarget, id: await fundRequestId(contexts.admin, revokeTarget.email, "fund-ii"), token: revokeToken };
  resendTarget = { ...resendTarget, id: await fundRequestId(contexts.admin, resendTarget.email, "fund-ii"), token: resendToken };
  await revokeFromAdmin(contexts.admin, resendTarget.id);
  revokeTarget.hash = fundRequestRow(revokeTarget.id)!.access_token_hash;
  resendTarget.hash = fundRequestRow(resendTarget.id)!.access_token_hash;
  expect(revokeTarget.hash, "only the token's SHA-256 is stored").toBe(sha256Hex(revokeToken));
  for (const role of FUND_ROLES) {
    cookies[role] = holders[role].cookie;
    // The cookie goes with every request as it was: a Set-Cookie that clears it (as the Fund II page does for a revoked one) does not take it away.
    contexts[role] = await make({ Cookie: holders[role].cookie });
    knownTokens.set(holders[role].token, role);
  }
  knownTokens.set(revokeToken, "the revoke target");
  knownTokens.set(resendToken, "the resend target (before its revocation)");
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
  const fundIds = withDb(
    (db) => (db.prepare("select id from fund_documents where title like ?").all(`Matrix % ${docTag}`) as { id: string }[]).map((r) => r.id),
  );
  for (const id of fundIds) await contexts?.admin.delete(`/api/fund-documents/${id}`);
  if (tamperedFundId) deleteRows("fund_documents", [tamperedFundId]);
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
  // Every page of the admin workspace: admins only, the others to the admin login.
  ...["/admin/dashboard", "/admin/investors", "/admin/documents", "/admin/documents/upload", "/admin/fund-access", "/admin/email-lists"].map(
    (path): Row => ({
      method: "GET",
      path,
      expect: {
        anonymous: to("/admin/login"),
        pending: to("/admin/login"),
        rejected: to("/admin/login"),
        investor: to("/admin/login"),
        admin: 200,
      },
    }),
  ),
  // A link into the former one-page dashboard goes on to the page that owns it, for admins only.
  {
    method: "GET",
    path: "/admin/dashboard?pending.page=2",
    expect: {
      anonymous: to("/admin/login"),
      pending: to("/admin/login"),
      rejected: to("/admin/login"),
      investor: to("/admin/login"),
      admin: to("/admin/investors"),
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
  // A registration's confirmation link (decision 028): no sign-in; a live link's page opens for anyone, a bad one is 400.
  { method: "GET", path: () => `/lp/register/confirm?token=${registrationToken}`, label: "/lp/register/confirm?token={live}", expect: all(200) },
  { method: "GET", path: `/lp/register/confirm?token=${"A".repeat(43)}`, expect: all(400) },
  { method: "GET", path: "/lp/register/confirm", expect: all(400) },
  { method: "GET", path: "/lp/register/confirm?confirmed=1", expect: all(200) },
  // Its POST: a wrong password changes nothing (the link stays live for every role after); a made-up link is 400.
  {
    method: "POST",
    path: () => `/lp/register/confirm?token=${registrationToken}`,
    label: "/lp/register/confirm?token={live} (a wrong password)",
    form: () => ({ password: "not-the-registration-password" }),
    freshIp: true,
    expect: all(400),
  },
  {
    method: "POST",
    path: `/lp/register/confirm?token=${"A".repeat(43)}`,
    form: () => ({ password: PASSWORD }),
    freshIp: true,
    expect: all(400),
  },
  // 'Send the link again': the same answer for everyone, back to the sign-in page.
  {
    method: "POST",
    path: "/lp/register/confirm",
    label: "/lp/register/confirm (intent=resend)",
    form: () => ({ intent: "resend", email: `matrix-resend-${unique()}@example.com` }),
    freshIp: true,
    expect: all({ status: 303, location: "/lp/login" }),
  },
  { method: "GET", path: "/lp/forgot-password", expect: all(200) },
  // The code step of a two-factor sign-in: open to all; someone fully signed in goes home.
  {
    method: "GET",
    path: "/login/two-factor",
    expect: { anonymous: 200, pending: 200, rejected: 200, investor: to("/lp/dashboard"), admin: to("/admin/dashboard") },
  },
  // The account pages: the investor's for any portal user; the admin's also for an admin still to set up two-factor.
  {
    method: "GET",
    path: "/lp/account",
    expect: { anonymous: to("/lp/login"), pending: to("/lp/login"), rejected: to("/lp/login"), investor: 200, admin: 200 },
  },
  {
    method: "POST",
    path: "/lp/account",
    label: "/lp/account (sign out a session that is not theirs)",
    form: () => ({ intent: "revoke-session", sessionId: unknownId }),
    // A plain post: back to the page (303) with the refusal (not found) in the flash, as every page form answers.
    expect: {
      anonymous: to("/lp/login"),
      pending: to("/lp/login"),
      rejected: to("/lp/login"),
      investor: { status: 303, location: "/lp/account" },
      admin: { status: 303, location: "/lp/account" },
    },
  },
  {
    method: "GET",
    path: "/admin/account",
    expect: {
      anonymous: to("/admin/login"),
      pending: to("/admin/login"),
      rejected: to("/admin/login"),
      investor: to("/admin/login"),
      "enrolling admin": 200,
      admin: 200,
    },
  },
  // The audit trail and its export (a resource route: JSON refusals).
  {
    method: "GET",
    path: "/admin/activity",
    expect: { anonymous: to("/admin/login"), pending: to("/admin/login"), rejected: to("/admin/login"), investor: to("/admin/login"), admin: 200 },
  },
  {
    method: "GET",
    path: "/admin/activity.csv",
    expect: { anonymous: 401, pending: 401, rejected: 401, investor: 403, "enrolling admin": 403, admin: 200 },
  },
  // Each admin e-mail list's export, both formats (a resource route: JSON refusals); an unknown list or
  // format is a 404 for the admin only.
  ...(Object.keys(LISTS) as ListKey[]).flatMap((list) =>
    (["csv", "tsv"] as const).map(
      (format): Row => ({
        method: "GET",
        path: `/admin/email-lists/${list}.${format}`,
        expect: { anonymous: 401, pending: 401, rejected: 401, investor: 403, "enrolling admin": 403, admin: 200 },
        check: (answer, role) => {
          if (role === "admin") expect(answer.headers["content-type"]).toMatch(format === "csv" ? /^text\/csv/ : /^text\/tab-separated-values/);
          else expect(answer.headers["content-type"]).toMatch(/^application\/json/);
        },
      }),
    ),
  ),
  ...["no-such-list.csv", "lp-users.xlsx"].map(
    (file): Row => ({
      method: "GET",
      path: `/admin/email-lists/${file}`,
      expect: { anonymous: 401, pending: 401, rejected: 401, investor: 403, "enrolling admin": 403, admin: 404 },
    }),
  ),
  // A pitch's uploaded deck (a resource route: JSON refusals); an unknown pitch is a 404 for the admin only.
  {
    method: "GET",
    path: () => `/admin/pitches/${deckPitchId}/deck`,
    label: "/admin/pitches/{id}/deck",
    expect: { anonymous: 401, pending: 401, rejected: 401, investor: 403, "enrolling admin": 403, admin: 200 },
    check: (answer, role) => {
      if (role === "admin") expect(answer.headers["content-type"]).toBe("application/pdf");
      else expect(answer.body.includes(Buffer.from("%PDF-"))).toBe(false);
    },
  },
  {
    method: "GET",
    path: "/admin/pitches/no-such-pitch/deck",
    expect: { anonymous: 401, pending: 401, rejected: 401, investor: 403, "enrolling admin": 403, admin: 404 },
  },
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
  // The status forms of the overview and the investors page: each action guards its own first line, not only the layout's loader.
  ...["/admin/dashboard", "/admin/investors"].map(
    (path): Row => ({
      method: "POST",
      path,
      form: () => ({ intent: "status", userId: targetId, status: "rejected" }),
      expect: {
        anonymous: to("/admin/login"),
        pending: to("/admin/login"),
        rejected: to("/admin/login"),
        investor: to("/admin/login"),
        admin: { status: 303, location: path },
      },
    }),
  ),
  ...documentRows(),
  ...fundRows(),
  ...pitchRows(),
  ...referenceCodeAndBulkRows(),
  ...capitalRows(),
  ...statementRows(),
];

/**
 * Capital accounts (issue 24): entities, their members and commitments, the
 * fund ledger (calls, distributions, payments), valuations, the admin's Funds
 * and Entities pages and the investor's capital account and notices. Admins
 * change them; an investor lists only the entities they are a member of (the
 * matrix's investor is a member of none) and may change nothing. Bodies that
 * cannot be used are refused before anything is looked up (400), an unknown id
 * is a 404 (on a page, the workspace's not-found page inside its frame).
 */
function capitalRows(): Row[] {
  const adminOnlyApi = { anonymous: 401, pending: 401, rejected: 401, investor: 403 } as const;
  const adminPage = { anonymous: to("/admin/login"), pending: to("/admin/login"), rejected: to("/admin/login"), investor: to("/admin/login") };
  const investorPage = { anonymous: to("/lp/login"), pending: to("/lp/login"), rejected: to("/lp/login") };
  /** A page's not-found answer shows its title (for the roles the page lets in). */
  const notFoundPage = (title: string) => (answer: Answer) => {
    if (answer.status === 404) expect(answer.body.toString("utf8"), "the not-found page").toContain(title);
  };
  const unusableLedgerBody = { fund: "fund-ii", noticeDate: "2025-02-30", paymentDate: "yesterday", lines: [] };
  return [
    // The pages: the admin's Funds and Entities (an unknown slug or id is a 404 to the admin), the investor's capital account and notices.
    ...["/admin/funds", "/admin/funds/fund-ii", "/admin/entities"].map((path): Row => ({ method: "GET", path, expect: { ...adminPage, admin: 200 } })),
    { method: "GET", path: "/admin/funds/no-such-fund", expect: { ...adminPage, admin: 404 }, check: notFoundPage("Fund not found") },
    { method: "GET", path: `/admin/entities/${unknownId}`, label: "/admin/entities/{unknown id}", expect: { ...adminPage, admin: 404 }, check: notFoundPage("Entity not found") },
    { method: "GET", path: "/lp/capital-account", expect: { ...investorPage, investor: 200, admin: 200 } },
    // The full ledger and its CSV: a filter naming nothing of the reader's (here: an entity nobody has) is the unknown id's 404.
    { method: "GET", path: "/lp/capital-account/ledger", expect: { ...investorPage, investor: 200, admin: 200 } },
    { method: "GET", path: "/lp/capital-account/ledger.csv", expect: { anonymous: 401, pending: 401, rejected: 401, "enrolling admin": 403, investor: 200, admin: 200 } },
    ...["/lp/capital-account", "/lp/capital-account/ledger"].map(
      (path): Row => ({ method: "GET", path: `${path}?entity=${unknownId}`, label: `${path}?entity={unknown id}`, expect: { ...investorPage, investor: 404, admin: 404 } }),
    ),
    { method: "GET", path: `/lp/capital-account/ledger.csv?entity=${unknownId}`, label: "/lp/capital-account/ledger.csv?entity={unknown id}", expect: { anonymous: 401, pending: 401, rejected: 401, "enrolling admin": 403, investor: 404, admin: 404 } },
    { method: "GET", path: `/lp/notices/${unknownId}`, label: "/lp/notices/{unknown id}", expect: { ...investorPage, investor: 404, admin: 404 }, check: notFoundPage("Notice not found") },
    // The JSON of the ledger and the valuations: admins only.
    ...(["capital-calls", "distributions"] as const).flatMap((kind): Row[] => [
      { method: "POST", path: `/api/${kind}`, data: unusableLedgerBody, expect: { ...adminOnlyApi, admin: 400 } },
      { method: "GET", path: `/api/${kind}/${unknownId}`, label: `/api/${kind}/{unknown id}`, expect: { ...adminOnlyApi, admin: 404 } },
      { method: "DELETE", path: `/api/${kind}/${unknownId}`, label: `/api/${kind}/{unknown id}`, expect: { ...adminOnlyApi, admin: 404 } },
      { method: "POST", path: `/api/${kind}/${unknownId}/publish`, label: `/api/${kind}/{unknown id}/publish`, expect: { ...adminOnlyApi, admin: 404 } },
    ]),
    {
      method: "POST",
      path: `/api/capital-calls/${unknownId}/payments`,
      label: "/api/capital-calls/{unknown id}/payments",
      data: { entityId: unknownId, amount: "1000.00", receivedOn: "2025-01-31" },
      expect: { ...adminOnlyApi, admin: 404 },
    },
    { method: "POST", path: "/api/valuations", data: { fund: "fund-ii", date: "2025-13-01", values: [] }, expect: { ...adminOnlyApi, admin: 400 } },
    // What an investor reads: their entities' accounts (none for the matrix's investor), and an admin's own (none either).
    {
      method: "GET",
      path: "/api/lp/capital-account",
      expect: { ...adminOnlyApi, investor: 200, admin: 200 },
      check: (answer, role) => {
        if (role === "investor") expect(JSON.parse(answer.body.toString("utf8")), "an investor who is a member of no entity has no account").toEqual({ entities: [] });
      },
    },
    {
      method: "GET",
      path: "/api/entities",
      expect: { ...adminOnlyApi, investor: 200, admin: 200 },
      check: (answer, role) => {
        if (role === "investor") expect(JSON.parse(answer.body.toString("utf8")), "an investor who is a member of no entity lists none").toEqual([]);
      },
    },
    { method: "POST", path: "/api/entities", data: { name: "", kind: "trust", members: [] }, expect: { ...adminOnlyApi, admin: 400 } },
    { method: "POST", path: `/api/entities/${unknownId}/members`, label: "/api/entities/{unknown id}/members", data: { userId: unknownId, role: "viewer" }, expect: { ...adminOnlyApi, admin: 404 } },
    { method: "DELETE", path: `/api/entities/${unknownId}/members/${unknownId}`, label: "/api/entities/{unknown id}/members/{userId}", expect: { ...adminOnlyApi, admin: 404 } },
    { method: "POST", path: "/api/commitments", data: { entityId: unknownId, fund: "fund-ii", amount: 1000, acceptedOn: "2025-01-31" }, expect: { ...adminOnlyApi, admin: 400 } },
    { method: "GET", path: `/api/commitments/${unknownId}`, label: "/api/commitments/{unknown id}", expect: { ...adminOnlyApi, admin: 404 } },
    { method: "PATCH", path: `/api/commitments/${unknownId}`, label: "/api/commitments/{unknown id}", data: { amount: "1000.00", effectiveOn: "2025-06-30" }, expect: { ...adminOnlyApi, admin: 404 } },
    // The fund's admin pages: drafting a call or a distribution, an entry's page and a draft's change,
    // the valuations import and the payment instructions. Each action guards its own first line.
    ...["calls/new", "distributions/new", "valuations", "payment-instructions"].flatMap((page): Row[] => [
      { method: "GET", path: `/admin/funds/fund-ii/${page}`, expect: { ...adminPage, admin: 200 } },
      { method: "GET", path: `/admin/funds/no-such-fund/${page}`, expect: { ...adminPage, admin: 404 }, check: notFoundPage("Fund not found") },
    ]),
    ...["", "/change"].map((tail): Row => ({
      method: "GET",
      path: `/admin/ledger/${unknownId}${tail}`,
      label: `/admin/ledger/{unknown id}${tail}`,
      expect: { ...adminPage, admin: 404 },
      check: notFoundPage("Entry not found"),
    })),
    {
      method: "POST",
      path: "/admin/funds/fund-ii/calls/new",
      label: "/admin/funds/fund-ii/calls/new (a preview with unusable dates)",
      form: () => ({ intent: "preview", noticeDate: "2025-02-30", dueDate: "soon", "lines.0.type": "investment", "lines.0.amount": "1,000" }),
      expect: { ...adminPage, admin: 400 },
    },
    {
      method: "POST",
      path: `/admin/ledger/${unknownId}`,
      label: "/admin/ledger/{unknown id} (publish)",
      form: () => ({ intent: "publish" }),
      expect: { ...adminPage, admin: 404 },
    },
    {
      method: "POST",
      path: "/admin/funds/fund-ii/payment-instructions",
      label: "/admin/funds/fund-ii/payment-instructions (no two-factor code)",
      form: () => ({ intent: "payment-instructions", beneficiary: "Matrix", bankName: "Bank", account: "1", swift: "X", reference: "R", code: "" }),
      expect: { ...adminPage, admin: 400 },
    },
    {
      method: "POST",
      path: "/admin/funds/fund-ii/valuations",
      label: "/admin/funds/fund-ii/valuations (a file with wrong columns)",
      multipart: () => ({ intent: "valuations", step: "preview", file: { name: "navs.csv", mimeType: "text/csv", buffer: Buffer.from("name,amount\nA,1\n") } }),
      expect: { ...adminPage, admin: 400 },
    },
  ];
}

/**
 * Quarterly statements and the history import (issue 25): admins import a
 * quarter's P&L, publish and restate it and import a fund's history; an
 * investor reads the statements of their entities (the matrix's investor has
 * none), and any other statement is the unknown id's 404.
 */
function statementRows(): Row[] {
  const adminOnlyApi = { anonymous: 401, pending: 401, rejected: 401, investor: 403 } as const;
  const adminPage = { anonymous: to("/admin/login"), pending: to("/admin/login"), rejected: to("/admin/login"), investor: to("/admin/login") };
  const investorPage = { anonymous: to("/lp/login"), pending: to("/lp/login"), rejected: to("/lp/login") };
  const notFoundPage = (title: string) => (answer: Answer) => {
    if (answer.status === 404) expect(answer.body.toString("utf8"), "the not-found page").toContain(title);
  };
  const wrongColumns = { name: "pnl.csv", mimeType: "text/csv", buffer: Buffer.from("name,amount\nA,1\n") };
  return [
    ...["statements", "import"].flatMap((page): Row[] => [
      { method: "GET", path: `/admin/funds/fund-ii/${page}`, expect: { ...adminPage, admin: 200 } },
      { method: "GET", path: `/admin/funds/no-such-fund/${page}`, expect: { ...adminPage, admin: 404 }, check: notFoundPage("Fund not found") },
    ]),
    {
      method: "POST",
      path: "/admin/funds/fund-ii/statements",
      label: "/admin/funds/fund-ii/statements (a P&L file with wrong columns)",
      multipart: () => ({ intent: "statements-import", step: "preview", file: wrongColumns }),
      expect: { ...adminPage, admin: 400 },
    },
    {
      method: "POST",
      path: "/admin/funds/fund-ii/statements",
      label: "/admin/funds/fund-ii/statements (publish a quarter that is not one)",
      multipart: () => ({ intent: "publish-quarter", quarter: "2026-Q9" }),
      expect: { ...adminPage, admin: 400 },
    },
    {
      method: "POST",
      path: "/admin/funds/fund-ii/import",
      label: "/admin/funds/fund-ii/import (a history file with wrong columns)",
      multipart: () => ({ intent: "history-import", step: "preview", history: { ...wrongColumns, name: "history.csv" } }),
      expect: { ...adminPage, admin: 400 },
    },
    { method: "GET", path: "/lp/statements", expect: { ...investorPage, investor: 200, admin: 200 } },
    { method: "GET", path: `/lp/statements?entity=${unknownId}`, label: "/lp/statements?entity={unknown id}", expect: { ...investorPage, investor: 404, admin: 404 } },
    { method: "GET", path: `/lp/statements/${unknownId}`, label: "/lp/statements/{unknown id}", expect: { ...investorPage, investor: 404, admin: 404 }, check: notFoundPage("Statement not found") },
    {
      method: "POST",
      path: "/api/statements/import?fund=fund-ii",
      label: "/api/statements/import (a file with wrong columns)",
      multipart: () => ({ file: wrongColumns }),
      expect: { ...adminOnlyApi, admin: 400 },
    },
    { method: "POST", path: "/api/statements/publish", data: { fund: "fund-ii", quarter: "2026-Q9" }, expect: { ...adminOnlyApi, admin: 400 } },
    { method: "GET", path: `/api/statements/jobs/${unknownId}`, label: "/api/statements/jobs/{unknown id}", expect: { ...adminOnlyApi, admin: 404 } },
    {
      method: "GET",
      path: "/api/lp/statements",
      expect: { ...adminOnlyApi, investor: 200, admin: 200 },
      check: (answer, role) => {
        if (role === "investor") expect(JSON.parse(answer.body.toString("utf8")), "an investor who is a member of no entity has no statements").toEqual([]);
      },
    },
  ];
}

/** Reference codes, the access page's reminder and the bulk per-investor upload (issue 15): admins only. */
function referenceCodeAndBulkRows(): Row[] {
  const redirectsToLogin = { anonymous: to("/admin/login"), pending: to("/admin/login"), rejected: to("/admin/login"), investor: to("/admin/login") };
  const adminOnlyApi = { anonymous: 401, pending: 401, rejected: 401, investor: 403 } as const;
  const code = `MX-${docTag.toUpperCase()}`;
  const pathnameOf = (answer: Answer) => new URL(answer.headers["location"] ?? "", BASE_URL).pathname;
  return [
    {
      method: "PUT",
      path: () => `/api/auth/users/${targetId}/reference-code`,
      label: "/api/auth/users/{id}/reference-code",
      data: { referenceCode: code },
      expect: { ...adminOnlyApi, admin: 200 },
      check: (answer, role) => {
        if (role === "admin") expect((JSON.parse(answer.body.toString("utf8")) as { referenceCode?: string }).referenceCode).toBe(code);
      },
    },
    {
      method: "PUT",
      path: `/api/auth/users/${unknownId}/reference-code`,
      label: "/api/auth/users/{unknown id}/reference-code",
      data: { referenceCode: `${code}-X` },
      expect: { ...adminOnlyApi, admin: 404 },
    },
    {
      method: "POST",
      path: "/admin/investors",
      label: "/admin/investors (reference code form)",
      form: () => ({ intent: "set-reference-code", userId: targetId, referenceCode: code }),
      expect: { ...redirectsToLogin, admin: 303 },
      check: (answer, role) => {
        if (role === "admin") expect(pathnameOf(answer)).toBe("/admin/investors");
      },
    },
    {
      method: "POST",
      path: () => `/admin/documents/${docId}/access`,
      label: "/admin/documents/{id}/access (reminder)",
      form: () => ({ intent: "remind-unopened", documentId: docId }),
      expect: { ...redirectsToLogin, admin: 303 },
      check: (answer, role) => {
        if (role === "admin") expect(pathnameOf(answer)).toBe(`/admin/documents/${docId}/access`);
      },
    },
    { method: "GET", path: "/admin/documents/bulk", expect: { ...redirectsToLogin, admin: 200 } },
    {
      method: "POST",
      path: "/admin/documents/bulk",
      label: "/admin/documents/bulk (no-JS upload form)",
      multipart: () => ({
        title: `Matrix bulk form ${docTag}`,
        category: "reports",
        files: { name: `matrix-bulk-form-${docTag}.pdf`, mimeType: MIME.pdf, buffer: samplePdf(`Matrix bulk form ${docTag}`) },
      }),
      expect: { ...redirectsToLogin, admin: 303 },
      check: (answer, role) => {
        if (role === "admin") expect(pathnameOf(answer)).toMatch(/^\/admin\/documents\/bulk\/[0-9a-f]{32}$/);
      },
    },
    { method: "GET", path: () => `/admin/documents/bulk/${batchId}`, label: "/admin/documents/bulk/{batchId}", expect: { ...redirectsToLogin, admin: 200 } },
    // A batch id names a folder: anything but 32 hex digits is a 404 to the admin, before the body is read.
    { method: "GET", path: "/admin/documents/bulk/not-a-batch", expect: { ...redirectsToLogin, admin: 404 } },
    {
      method: "POST",
      path: "/admin/documents/bulk/not-a-batch",
      form: () => ({ intent: "cancel" }),
      expect: { ...redirectsToLogin, admin: 404 },
    },
    {
      method: "POST",
      path: `/admin/documents/bulk/${"0".repeat(32)}`,
      label: "/admin/documents/bulk/{unknown batch id} (publish)",
      form: () => ({ intent: "publish", expected: "1" }),
      // A batch id's shape with no batch behind it: back to its page with the failure as a flash.
      expect: { ...redirectsToLogin, admin: 303 },
    },
    // The admin goes last: everyone before must have left the batch in place for the admin's cancel to remove it.
    {
      method: "POST",
      path: () => `/admin/documents/bulk/${batchId}`,
      label: "/admin/documents/bulk/{batchId} (cancel)",
      form: () => ({ intent: "cancel" }),
      expect: { ...redirectsToLogin, admin: 303 },
      check: (answer, role) => {
        if (role === "admin") expect(pathnameOf(answer)).toBe("/admin/documents/bulk");
      },
    },
  ];
}

/** The pitch inbox (issue 16): its pages, form, export and JSON endpoints are for admins only. */
function pitchRows(): Row[] {
  const redirectsToLogin = { anonymous: to("/admin/login"), pending: to("/admin/login"), rejected: to("/admin/login"), investor: to("/admin/login") };
  const adminOnlyApi = { anonymous: 401, pending: 401, rejected: 401, investor: 403 } as const;
  return [
    { method: "GET", path: "/admin/pitches", expect: { ...redirectsToLogin, admin: 200 } },
    { method: "GET", path: "/admin/pitches?overdue=1&status=new", expect: { ...redirectsToLogin, admin: 200 } },
    { method: "GET", path: () => `/admin/pitches/${pitchId}`, label: "/admin/pitches/{id}", expect: { ...redirectsToLogin, admin: 200 } },
    { method: "GET", path: `/admin/pitches/${unknownId}`, label: "/admin/pitches/{unknown id}", expect: { ...redirectsToLogin, admin: 404 } },
    {
      method: "POST",
      path: () => `/admin/pitches/${pitchId}`,
      label: "/admin/pitches/{id} (note form)",
      form: () => ({ intent: "note", note: "A note from the matrix." }),
      expect: { ...redirectsToLogin, admin: 303 },
      check: (answer, role) => {
        if (role === "admin") expect(new URL(answer.headers["location"] ?? "", BASE_URL).pathname).toBe(`/admin/pitches/${pitchId}`);
      },
    },
    { method: "GET", path: "/admin/pitches.csv", expect: { ...adminOnlyApi, "enrolling admin": 403, admin: 200 } },
    { method: "GET", path: "/api/pitches", expect: { ...adminOnlyApi, admin: 200 } },
    { method: "PATCH", path: () => `/api/pitches/${pitchId}`, label: "/api/pitches/{id}", data: { status: "in_review" }, expect: { ...adminOnlyApi, admin: 200 } },
    { method: "PATCH", path: `/api/pitches/${unknownId}`, label: "/api/pitches/{unknown id}", data: { status: "in_review" }, expect: { ...adminOnlyApi, admin: 404 } },
    {
      method: "POST",
      path: () => `/api/pitches/${pitchId}/replies`,
      label: "/api/pitches/{id}/replies",
      data: { subject: "From the matrix", body: "A reply from the matrix." },
      expect: { ...adminOnlyApi, admin: 201 },
    },
  ];
}

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
    {
      method: "PATCH",
      path: () => `/api/documents/${docId}`,
      label: "/api/documents/{id} (audience)",
      data: { audience: "all", watermark: false },
      expect: { ...signedOut, investor: 403, admin: 200 },
    },
    { method: "PATCH", path: `/api/documents/${unknownId}`, label: "/api/documents/{unknown id} (audience)", data: { audience: "all" }, expect: { ...signedOut, investor: 403, admin: 404 } },
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
      expect: { ...redirectsToLogin, admin: { status: 303, location: "/admin/documents" } },
      check: storedOnlyForAdmin("form-upload"),
    },
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
    // The audience form without JavaScript: the admin's post is answered with a redirect back and a flash.
    {
      method: "POST",
      path: () => `/admin/documents/${docId}/access`,
      label: "/admin/documents/{id}/access (audience form)",
      form: () => ({ intent: "set-audience", documentId: docId, audience: "all" }),
      expect: { ...redirectsToLogin, admin: 303 },
      check: (answer, role) => {
        if (role === "admin") expect(new URL(answer.headers["location"] ?? "", BASE_URL).pathname).toBe(`/admin/documents/${docId}/access`);
      },
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

/**
 * Fund access and fund documents (SPEC.md §7, docs/decisions/012-fund-access.md).
 * JSON endpoints answer 401 to anyone without the access they need (a fund
 * holder has no portal session, so admin endpoints also say 401 to them; a
 * signed-in investor who is not an admin gets 403). A holder asking for the
 * other fund's document gets 404, like an unknown id.
 */
function fundRows(): Row[] {
  const noAccess = { anonymous: 401, pending: 401, rejected: 401 } as const;
  const adminOnlyApi = { ...noAccess, investor: 403 } as const;
  const adminPage = { anonymous: to("/admin/login"), pending: to("/admin/login"), rejected: to("/admin/login"), investor: to("/admin/login") };
  const toFundISignup = { status: [302, 303], location: "/fund-i/signup" };
  const json = (answer: Answer) => JSON.parse(answer.body.toString("utf8")) as unknown;
  const html = (answer: Answer) => answer.body.toString("utf8");
  /** The Fund II page's refusal: the red alert (role="alert") with the message. */
  const fundIIAlert = (message: string) => (answer: Answer) => {
    if (answer.status === 200) return;
    const page = html(answer);
    const at = page.indexOf('data-testid="fund-access-error"');
    expect(at, "the Fund II page shows its alert").toBeGreaterThan(-1);
    const alert = page.slice(page.lastIndexOf("<div", at), at + 2000);
    expect(alert).toContain('role="alert"');
    expect(alert).toContain(`${message}. Redirecting to signup...`);
  };
  const expectMissing = (answer: Answer) => {
    if (answer.status === 401) expect(json(answer)).toEqual({ error: "Access token required" });
  };

  // Sign-ups: a fresh address per request (a repeat request changes nothing stored: decision 012).
  let signup = { email: "", fundId: "fund-i" as FundId };
  const signupBody = (fundId: FundId, fields: Record<string, unknown> = {}) => () => {
    signup = { email: uniqueFundEmail(`signup-${fundId}`, docTag), fundId };
    return { name: "Matrix Sign-up", email: signup.email, fundId, ...fields };
  };
  const register = (label: string, data: () => unknown, expected: Expect, check?: Row["check"]): Row => ({
    method: "POST",
    path: "/api/fund-access/register",
    label: `/api/fund-access/register (${label})`,
    data,
    // Byte for byte, outside the roles' cookie jars: a Fund I sign-up answers with an access cookie the role must not keep.
    raw: true,
    freshIp: true,
    expect: all(expected),
    check,
  });
  const noSignupStored = () => expect(fundRequestRowByEmail(signup.email, signup.fundId), "no request stored").toBeUndefined();

  const validate = (label: string, token: () => string): Row => ({
    method: "POST",
    path: "/api/fund-access/validate-token",
    label: `/api/fund-access/validate-token (${label})`,
    data: () => ({ token: token() }),
    freshIp: true,
    expect: all(200),
    check: (answer) => {
      expect(json(answer)).toEqual({ valid: false });
      expect(fundCookieIn(answer.headers["set-cookie"], "fund-ii"), "no access cookie").toBeUndefined();
    },
  });

  /** A fund's list: only that fund's documents; the size as text for holders, in bytes for admins. */
  const listCheck = (doc: () => FundDoc, other: () => FundDoc) => (answer: Answer, role: Role) => {
    expectMissing(answer);
    if (answer.status !== 200) return;
    const list = json(answer) as { id: string; fundId: string; fileSize: string }[];
    expect(list.every((d) => d.fundId === doc().fundId), "only this fund's documents").toBe(true);
    expect(list.some((d) => d.id === other().id), "not the other fund's document").toBe(false);
    const found = list.find((d) => d.id === doc().id);
    expect(found, "the fund's document is listed").toBeTruthy();
    const bytes = doc().bytes.length;
    expect(found!.fileSize).toBe(role === "admin" ? String(bytes) : `${(bytes / (1024 * 1024)).toFixed(2)} MB`);
  };

  /** Only an admin's upload is stored. */
  const fundStoredOnlyForAdmin = (title: string) => (_answer: Answer, role: Role) => {
    const found = withDb((db) => db.prepare("select id from fund_documents where title = ?").get(`Matrix ${title} ${docTag}`));
    if (role === "admin") expect(found, "the admin's upload is stored").toBeTruthy();
    else expect(found, `no fund document stored for ${role}`).toBeUndefined();
  };
  const smallFundPdf = (label: string, fundId: FundId) => () => ({
    title: `Matrix ${label} ${docTag}`,
    category: "fund_documents",
    fundId,
    file: { name: `matrix-${label}.pdf`, mimeType: MIME.pdf, buffer: samplePdf(label) },
  });

  const rows: Row[] = [
    // The funds (decision 038): approved investors and admins; a fund cookie opens nothing here.
    {
      method: "GET",
      path: "/api/funds",
      expect: { ...noAccess, investor: 200, admin: 200 },
      check: (answer) => {
        if (answer.status !== 200) return;
        const list = json(answer) as Record<string, unknown>[];
        expect(list.map((fund) => fund.slug), "both funds, by slug").toEqual(["fund-i", "fund-ii"]);
        for (const fund of list) {
          expect(Object.keys(fund).sort(), "a fund's fields").toEqual(["currency", "id", "name", "slug", "status", "vintageYear"]);
        }
      },
    },
    {
      method: "GET",
      path: "/api/fund-access/requests",
      expect: { ...adminOnlyApi, admin: 200 },
      check: (answer, role) => {
        if (role !== "admin") return;
        const list = json(answer) as Record<string, unknown>[];
        expect(list.some((r) => r.id === revokeTarget.id), "the requests are listed").toBe(true);
        for (const request of list) {
          expect(Object.keys(request).sort(), "a request's fields (no token, no digest)").toEqual([
            "accreditedConfirmation",
            "createdAt",
            "email",
            "fundId",
            "id",
            "name",
          ]);
        }
      },
    },
    register("Fund I", signupBody("fund-i"), 201, (answer) => {
      expect(json(answer)).toEqual({ success: true, fundId: "fund-i" });
      const cookie = fundCookieIn(answer.headers["set-cookie"], "fund-i");
      expect(cookie, "Fund I access is granted at once, as lr_fund_i").toBeTruthy();
      expect(answer.headers["set-cookie"]).toMatch(/lr_fund_i=[^;]+;.*HttpOnly/i);
      expect(fundRequestRowByEmail(signup.email, "fund-i")?.access_token_hash, "the cookie holds the stored request's token").toBe(
        sha256Hex(tokenInCookie(cookie!)),
      );
    }),
    register("Fund II", signupBody("fund-ii", { accreditedConfirmation: true }), 201, (answer) => {
      expect(json(answer)).toEqual({ success: true, fundId: "fund-ii" });
      expect(fundCookieIn(answer.headers["set-cookie"], "fund-ii"), "Fund II access comes by e-mail").toBeUndefined();
      expect(fundRequestRowByEmail(signup.email, "fund-ii"), "the request is stored").toBeTruthy();
      mailedSignups.push(signup.email);
    }),
    register("Fund II without the accredited confirmation", signupBody("fund-ii"), 400, (answer) => {
      expect(json(answer)).toMatchObject({ error: expect.any(String), fields: { accreditedConfirmation: expect.any(Array) } });
      noSignupStored();
    }),
    register("no name, unknown fund", signupBody("fund-iii" as FundId, { name: "" }), 400, (answer) => {
      expect(json(answer)).toMatchObject({ error: expect.any(String) });
      noSignupStored();
    }),
    validate("a well-formed token no request holds", bogusToken),
    validate("the revoked holder's token", () => holders["revoked holder"].token),
    validate("the Fund I holder's token", () => holders["fund-i holder"].token),
    {
      method: "GET",
      path: "/api/fund-documents/fund-i",
      expect: { ...noAccess, investor: 401, "fund-i holder": 200, "fund-ii holder": 401, "revoked holder": 401, admin: 200 },
      check: listCheck(() => fundDocs.fundI, () => fundDocs.fundII),
    },
    {
      method: "GET",
      path: "/api/fund-documents/fund-ii",
      expect: { ...noAccess, investor: 401, "fund-i holder": 401, "fund-ii holder": 200, "revoked holder": 401, admin: 200 },
      check: listCheck(() => fundDocs.fundII, () => fundDocs.fundI),
    },
    // The same path shape names a document to DELETE: only an admin learns the method is wrong.
    { method: "GET", path: `/api/fund-documents/${unknownId}`, label: "/api/fund-documents/{unknown id}", expect: { ...adminOnlyApi, admin: 405 } },
    {
      method: "POST",
      path: "/api/fund-documents",
      label: "/api/fund-documents (a valid upload)",
      multipart: smallFundPdf("fund-api-upload", "fund-ii"),
      expect: { ...adminOnlyApi, admin: 201 },
      check: fundStoredOnlyForAdmin("fund-api-upload"),
    },
    {
      method: "POST",
      path: "/api/fund-documents",
      label: "/api/fund-documents (an empty multipart body)",
      multipart: () => ({}),
      expect: { ...adminOnlyApi, admin: 400 },
    },
    {
      method: "DELETE",
      path: () => `/api/fund-documents/${fundDocs.deletable.id}`,
      label: "/api/fund-documents/{id}",
      expect: { ...adminOnlyApi, admin: 200 },
      check: (answer, role) => {
        if (role === "admin") {
          expect(json(answer)).toEqual({ success: true, id: fundDocs.deletable.id });
          expect(fundDocumentExists(fundDocs.deletable.id), "the admin deleted it").toBe(false);
        } else expect(fundDocumentExists(fundDocs.deletable.id), `the document survives ${role}`).toBe(true);
      },
    },
    {
      method: "DELETE",
      path: `/api/fund-documents/${unknownId}`,
      label: "/api/fund-documents/{unknown id}",
      expect: { ...adminOnlyApi, admin: 404 },
    },
    {
      method: "DELETE",
      path: () => `/api/fund-documents/${docId}`,
      label: "/api/fund-documents/{an LP document's id}",
      expect: { ...adminOnlyApi, admin: 404 },
      check: () => expect(withDb((db) => db.prepare("select id from documents where id = ?").get(docId)), "the LP document survives").toBeTruthy(),
    },
  ];

  // Files: the holder of the document's fund and admins; the other fund's holder 404 (like an unknown id); no fund access 401.
  const fileExpect = (reader: "fund-i holder" | "fund-ii holder" | null, found: number): Expectations => ({
    ...noAccess,
    investor: 401,
    "fund-i holder": reader === "fund-i holder" ? found : 404,
    "fund-ii holder": reader === "fund-ii holder" ? found : 404,
    "revoked holder": 401,
    admin: found,
  });
  const noForeignBytes = (answer: Answer) => {
    expect(answer.body.includes(Buffer.from(`Matrix document ${docTag}`)), "an LP document's bytes").toBe(false);
    expect(answer.body.includes(Buffer.from("SQLite format 3")), "the database file").toBe(false);
    expect(answer.body.includes(Buffer.from("root:")), "/etc/passwd").toBe(false);
  };
  for (const action of ["view", "download"] as const) {
    const exactFile = (doc: () => FundDoc) => (answer: Answer) => {
      noForeignBytes(answer);
      expectMissing(answer);
      if (answer.status !== 200) return;
      expect(Buffer.compare(answer.body, doc().bytes), "the fund document's bytes").toBe(0);
      expectContentDisposition(answer.headers["content-disposition"], action === "view" ? "inline" : "attachment", doc().fileName);
    };
    rows.push(
      {
        method: "GET",
        path: () => `/api/fund-documents/${action}/${fundDocs.fundI.id}`,
        label: `/api/fund-documents/${action}/{a Fund I document}`,
        expect: fileExpect("fund-i holder", 200),
        check: exactFile(() => fundDocs.fundI),
      },
      {
        method: "GET",
        path: () => `/api/fund-documents/${action}/${fundDocs.fundII.id}`,
        label: `/api/fund-documents/${action}/{a Fund II document}`,
        expect: fileExpect("fund-ii holder", 200),
        check: exactFile(() => fundDocs.fundII),
      },
      {
        method: "GET",
        path: `/api/fund-documents/${action}/${unknownId}`,
        label: `/api/fund-documents/${action}/{unknown id}`,
        expect: fileExpect(null, 404),
        check: expectMissing,
      },
      {
        method: "GET",
        path: () => `/api/fund-documents/${action}/${docId}`,
        label: `/api/fund-documents/${action}/{an LP document's id}`,
        expect: fileExpect(null, 404),
        check: noForeignBytes,
      },
      {
        method: "GET",
        path: () => `/api/fund-documents/${action}/${tamperedFundId}`,
        label: `/api/fund-documents/${action}/{a Fund II row whose path is ../e2e.sqlite}`,
        expect: fileExpect("fund-ii holder", 404),
        check: noForeignBytes,
      },
    );
    for (const crafted of [
      { label: "..%2F..%2Fe2e.sqlite", id: "..%2F..%2Fe2e.sqlite" },
      { label: "%00", id: "%00" },
      { label: "4000 characters", id: "a".repeat(4000) },
      { label: "SQL", id: encodeURIComponent("' OR '1'='1") },
    ]) {
      rows.push({
        method: "GET",
        path: `/api/fund-documents/${action}/${crafted.id}`,
        label: `/api/fund-documents/${action}/{${crafted.label}}`,
        raw: true,
        expect: fileExpect(null, 404),
        check: noForeignBytes,
      });
    }
  }

  // Pages.
  const fundPage = (doc: () => FundDoc, other: () => FundDoc) => (answer: Answer) => {
    if (answer.status !== 200) return;
    expect(html(answer), "the fund's document is listed").toContain(doc().title);
    expect(html(answer), "not the other fund's").not.toContain(other().title);
  };
  rows.push(
    {
      method: "GET",
      path: "/fund-i/documents",
      expect: { anonymous: toFundISignup, pending: toFundISignup, rejected: toFundISignup, investor: toFundISignup, "fund-i holder": 200, admin: 200 },
      check: fundPage(() => fundDocs.fundI, () => fundDocs.fundII),
    },
    {
      method: "GET",
      path: () => `/fund-i/documents?token=${bogusToken()}`,
      label: "/fund-i/documents?token={bogus}",
      freshIp: true,
      expect: all(toFundISignup),
    },
    {
      method: "GET",
      path: "/fund-ii/documents",
      expect: { anonymous: 401, pending: 401, rejected: 401, investor: 401, "fund-i holder": 401, "fund-ii holder": 200, "revoked holder": 403, admin: 200 },
      check: async (answer) => {
        fundPage(() => fundDocs.fundII, () => fundDocs.fundI)(answer);
        if (answer.status === 401) fundIIAlert("Access token required")(answer);
        if (answer.status === 403) {
          fundIIAlert("Invalid access token")(answer);
          // A cookie whose request was revoked is dropped on the way.
          expect(answer.headers["set-cookie"], "the dead cookie is cleared").toMatch(/(^|\n)lr_fund_ii=[^;]*;.*Max-Age=0/i);
        }
      },
    },
    {
      method: "GET",
      path: () => `/fund-ii/documents?token=${bogusToken()}`,
      label: "/fund-ii/documents?token={bogus}",
      freshIp: true,
      expect: all(403),
      check: fundIIAlert("Invalid access token"),
    },
    {
      method: "GET",
      path: () => `/fund-ii/documents?token=${holders["revoked holder"].token}`,
      label: "/fund-ii/documents?token={the revoked holder's token}",
      freshIp: true,
      expect: all(403),
      check: fundIIAlert("Invalid access token"),
    },
    {
      method: "GET",
      path: () => `/fund-ii/documents?token=${holders["fund-i holder"].token}`,
      label: "/fund-ii/documents?token={the Fund I holder's token}",
      freshIp: true,
      expect: all(403),
      check: fundIIAlert("Invalid access token"),
    },
    { method: "GET", path: "/fund-i/signup", expect: all(200) },
    { method: "GET", path: "/fund-ii/signup", expect: all(200) },
    // The admin's fund upload form without JavaScript.
    {
      method: "POST",
      path: "/admin/fund-documents",
      label: "/admin/fund-documents (no-JS upload form)",
      multipart: smallFundPdf("fund-form-upload", "fund-i"),
      expect: { ...adminPage, admin: { status: 303, location: "/admin/fund-access" } },
      check: fundStoredOnlyForAdmin("fund-form-upload"),
    },
    { method: "GET", path: "/admin/fund-documents", expect: { ...adminPage, admin: to("/admin/fund-access") } },
    // The fund access page's intents: only an admin changes anything.
    {
      method: "POST",
      path: "/admin/fund-access",
      label: "/admin/fund-access (intent revoke-fund-access)",
      form: () => ({ intent: "revoke-fund-access", requestId: revokeTarget.id }),
      expect: { ...adminPage, admin: { status: 303, location: "/admin/fund-access" } },
      check: (_answer, role) => {
        const row = fundRequestRow(revokeTarget.id)!;
        if (role === "admin") {
          expect(row.revoked_at, "the admin revoked it").toBeTruthy();
          expect(row.access_token_hash, "its token stops working").not.toBe(revokeTarget.hash);
        } else {
          expect(row.revoked_at, `not revoked by ${role}`).toBeNull();
          expect(row.access_token_hash, `its token unchanged by ${role}`).toBe(revokeTarget.hash);
        }
      },
    },
    {
      method: "POST",
      path: "/admin/fund-access",
      label: "/admin/fund-access (intent resend-fund-access-link)",
      form: () => ({ intent: "resend-fund-access-link", requestId: resendTarget.id }),
      timeout: 30_000 + MAIL_TIMEOUT_MS,
      expect: { ...adminPage, admin: { status: 303, location: "/admin/fund-access" } },
      check: async (_answer, role) => {
        const row = fundRequestRow(resendTarget.id)!;
        if (role === "admin") {
          expect(row.revoked_at, "a fresh link lifts the revocation").toBeNull();
          expect(row.access_token_hash, "a new token").not.toBe(resendTarget.hash);
          // The fresh link goes by mail; nobody else may ever see it.
          knownTokens.set(await mailedLinkToken(resendTarget.email, row.access_token_hash), "the resend target's fresh link");
        } else {
          expect(row.revoked_at, `still revoked after ${role}`).toBeTruthy();
          expect(row.access_token_hash, `no new token for ${role}`).toBe(resendTarget.hash);
        }
      },
    },
    {
      method: "POST",
      path: "/admin/fund-access",
      label: "/admin/fund-access (intent delete-fund-document)",
      form: () => ({ intent: "delete-fund-document", documentId: fundDocs.dashboardDeletable.id }),
      expect: { ...adminPage, admin: { status: 303, location: "/admin/fund-access" } },
      check: (_answer, role) => {
        if (role === "admin") expect(fundDocumentExists(fundDocs.dashboardDeletable.id), "the admin deleted it").toBe(false);
        else expect(fundDocumentExists(fundDocs.dashboardDeletable.id), `the document survives ${role}`).toBe(true);
      },
    },
    // Another site's page cannot make a visitor's browser upload, delete, revoke or sign up.
    {
      method: "POST",
      path: "/api/fund-documents",
      label: "/api/fund-documents from another site (Origin)",
      headers: { Origin: "https://evil.example" },
      multipart: smallFundPdf("fund-cross-site", "fund-ii"),
      expect: all(403),
      check: () => expect(withDb((db) => db.prepare("select id from fund_documents where title = ?").get(`Matrix fund-cross-site ${docTag}`))).toBeUndefined(),
    },
    {
      method: "DELETE",
      path: () => `/api/fund-documents/${fundDocs.fundII.id}`,
      label: "/api/fund-documents/{id} from another site (Sec-Fetch-Site)",
      headers: { "Sec-Fetch-Site": "cross-site" },
      expect: all(403),
      check: () => expect(fundDocumentExists(fundDocs.fundII.id), "the document survives").toBe(true),
    },
    {
      method: "POST",
      path: "/admin/fund-access",
      label: "/admin/fund-access (intent delete-fund-document) from another site (Origin)",
      headers: { Origin: "https://evil.example" },
      form: () => ({ intent: "delete-fund-document", documentId: fundDocs.fundII.id }),
      expect: all(403),
      check: () => expect(fundDocumentExists(fundDocs.fundII.id), "the document survives").toBe(true),
    },
    {
      ...register("Fund II, from another site (Origin)", signupBody("fund-ii", { accreditedConfirmation: true }), 403, noSignupStored),
      headers: { Origin: "https://evil.example" },
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

/** A request's body, made once per request (a computed one may differ each time). */
type Body = { data?: unknown; form?: Record<string, string>; multipart?: Record<string, string | UploadFile> };

function bodyOf(row: Row): Body {
  return {
    data: typeof row.data === "function" ? (row.data as () => unknown)() : row.data,
    form: row.form?.(),
    multipart: row.multipart?.(),
  };
}

async function send(row: Row, role: Role, path: string, body: Body = bodyOf(row)): Promise<Answer> {
  const context = contexts[role];
  const headers = row.freshIp ? { ...row.headers, "X-Forwarded-For": randomClientIp() } : row.headers;
  if (row.raw) {
    const json = body.data === undefined ? undefined : Buffer.from(JSON.stringify(body.data));
    const answer = await rawRequest({
      method: row.method,
      path,
      headers: {
        "X-Forwarded-For": clientIp,
        ...(cookies[role] ? { Cookie: cookies[role] } : {}),
        ...(json ? { "Content-Type": "application/json", "Content-Length": String(json.length) } : {}),
        ...headers,
      },
      body: json,
    });
    return { status: answer.status, headers: flatHeaders(answer.headers), body: answer.body };
  }
  if (row.method === "GET") return answerOf(await context.get(path, { headers }));
  if (row.method === "DELETE") return answerOf(await context.delete(path, { headers }));
  if (row.method === "PATCH") return answerOf(await context.patch(path, { data: body.data, headers }));
  if (row.method === "PUT") return answerOf(await context.put(path, { data: body.data, headers }));
  if (body.form) return answerOf(await context.post(path, { form: body.form, headers }));
  if (body.multipart) return answerOf(await context.post(path, { multipart: body.multipart, headers }));
  return answerOf(await context.post(path, { data: body.data, headers }));
}

const isFundRole = (role: Role): role is FundRole => (FUND_ROLES as Role[]).includes(role);

/** One pattern for every form of these tokens, and which token each form stands for. */
function tokenPattern(tokens: string[]): { pattern: RegExp | null; owner: Map<string, string> } {
  const owner = new Map<string, string>();
  for (const token of tokens) for (const form of tokenForms(token)) owner.set(form, token);
  if (owner.size === 0) return { pattern: null, owner };
  const escaped = [...owner.keys()].map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return { pattern: new RegExp(escaped.join("|")), owner };
}

/** The known tokens (other than `allowed`) that show up in `text`, named by whose they are. */
function foreignTokensIn(text: string, allowed: Set<string>): string[] {
  const { pattern, owner } = tokenPattern([...knownTokens.keys()].filter((t) => !allowed.has(t)));
  const match = pattern ? text.match(new RegExp(pattern.source, "g")) : null;
  return [...new Set((match ?? []).map((form) => knownTokens.get(owner.get(form)!) ?? "?"))];
}

/**
 * No answer carries a fund token (in any form: raw, cookie-encoded, its
 * digest) other than the client's own: the one its cookie holds, one it sent
 * in the URL or body, or a fresh one a sign-up just issued it as a cookie.
 */
function expectNoForeignTokens(answer: Answer, what: string, role: Role, path: string, sentText: string) {
  const allowed = new Set<string>();
  if (isFundRole(role)) allowed.add(holders[role].token);
  for (const token of knownTokens.keys()) if (sentText.includes(token)) allowed.add(token);
  for (const fundId of ["fund-i", "fund-ii"] as const) {
    const cookie = fundCookieIn(answer.headers["set-cookie"], fundId);
    if (!cookie) continue;
    const token = tokenInCookie(cookie);
    expect(token, `${what}: a ${fundId} cookie with a token in it`).toMatch(/^[A-Za-z0-9_-]{43}$/);
    if (allowed.has(token) || sentText.includes(token)) continue;
    expect(knownTokens.get(token), `${what}: sets a ${fundId} cookie holding someone else's token`).toBeUndefined();
    expect(path, `${what}: sets a ${fundId} cookie with a token the client did not send`).toBe("/api/fund-access/register");
    knownTokens.set(token, `the token issued to ${what}`);
    allowed.add(token);
  }
  const text = `${JSON.stringify(answer.headers)}\n${answer.body.toString("latin1")}`;
  expect(foreignTokensIn(text, allowed), `${what}: tokens the client does not hold`).toEqual([]);
  seenAnswers.push({ what, allowed, text });
}

for (const row of rows) {
  for (const role of ROLES) {
    const label = row.label ?? (typeof row.path === "string" ? row.path : "/api/auth/users/{id}/status");
    test(`${row.method} ${label} as ${role}`, async () => {
      if (row.timeout) test.setTimeout(row.timeout);
      const path = typeof row.path === "string" ? row.path : row.path();
      const body = bodyOf(row);
      const response = await send(row, role, path, body);
      const what = `${row.method} ${path.slice(0, 120)} as ${role}`;
      const expected = expectationFor(row, role);
      if (typeof expected === "number") {
        expect(response.status, what).toBe(expected);
      } else {
        expect([expected.status].flat(), what).toContain(response.status);
        expect(new URL(response.headers["location"] ?? "", BASE_URL).pathname).toBe(expected.location);
      }
      expect(response.status, `${what}: never a server error`).toBeLessThan(500);
      if (path.startsWith("/api/") && (response.status === 401 || response.status === 403)) {
        expect(response.headers["content-type"]).toMatch(/^application\/json/);
        // (A cross-site request is refused before any session is read, with its own message.)
        if (role === "enrolling admin" && response.status === 403 && !row.headers) {
          expect((JSON.parse(response.body.toString("utf8")) as { error?: string }).error, what).toBe(ENROLMENT_REQUIRED);
        }
      }
      await row.check?.(response, role);
      expectNoForeignTokens(response, what, role, path, `${path} ${JSON.stringify(body.data ?? null)} ${JSON.stringify(body.form ?? null)}`);
    });
  }
}

// Someone who may not see documents learns nothing about which ids exist: the same answer for a real id, an unknown one and a crafted one.
for (const role of ["anonymous", "pending", "rejected", ...FUND_ROLES] as const) {
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

// Fund documents: without any fund access, 401 before any lookup; a holder gets one 404 for the other fund's document, an unknown id, an LP document's and a malformed one.
const fundIdSets: { role: Role; status: number; ids: () => string[] }[] = [
  ...(["anonymous", "investor", "revoked holder"] as const).map((role) => ({
    role,
    status: 401,
    ids: () => [fundDocs.fundI.id, fundDocs.fundII.id, unknownId, docId, tamperedFundId, "..%2F..%2Fe2e.sqlite", "not-a-uuid"],
  })),
  { role: "fund-i holder", status: 404, ids: () => [fundDocs.fundII.id, unknownId, docId, tamperedFundId, "not-a-uuid"] },
  { role: "fund-ii holder", status: 404, ids: () => [fundDocs.fundI.id, unknownId, docId, "not-a-uuid"] },
];
for (const { role, status, ids } of fundIdSets) {
  for (const action of ["view", "download"] as const) {
    test(`GET /api/fund-documents/${action}/{id} as ${role}: one ${status} answer for every id it may not read`, async () => {
      const answers = [];
      for (const id of ids()) {
        const answer = await send({ method: "GET", path: "", raw: true, expect: all(0) }, role, `/api/fund-documents/${action}/${id}`);
        answers.push({ status: answer.status, type: answer.headers["content-type"], body: answer.body.toString("utf8") });
      }
      expect(answers[0]!.status).toBe(status);
      for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
    });
  }
}

// Every token the run handed out, including those only mailed, against every answer the matrix got.
test("no answer of the matrix carried a fund token its client does not hold", async () => {
  test.setTimeout(30_000 + MAIL_TIMEOUT_MS);
  for (const email of mailedSignups) knownTokens.set(await mailedLinkToken(email), `the link mailed to ${email}`);
  // The three holders, the two admin targets (one re-sent), one Fund I and one Fund II sign-up per role.
  expect(knownTokens.size, "tokens to look for").toBeGreaterThanOrEqual(FUND_ROLES.length + 3 + 2 * ROLES.length);
  const leaks = seenAnswers.flatMap((seen) => foreignTokensIn(seen.text, seen.allowed).map((whose) => `${seen.what}: ${whose}`));
  expect(leaks).toEqual([]);
});

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
