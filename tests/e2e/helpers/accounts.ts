import { expect, type APIRequestContext, type APIResponse } from "@playwright/test";
import { nextTotpCode, skipStep, testTotpSecret } from "../../support/totp";
import { openDatabase, type Db } from "../../../db/client";
import { createAdminAccount } from "../../../app/modules/lp-users/admin-create.server";
import { AdminCreateInput } from "../../../app/modules/lp-users/schema";
import { E2E_BCRYPT_COST, E2E_SESSION_SECRET, E2E_TOTP_KEYS } from "./secrets";
import { e2eDatabasePath } from "./sessions";
import { latestMailTo } from "./mail";


/** Admins made by this process: their sign-ins send a code at once (others learn it from the answer). */
const enrolledAdmins = new Set<string>();

const databases = new Map<string, Db>();

/**
 * Create an approved admin with two-factor on (the admin portal requires it):
 * its secret is testTotpSecret(email), so the tests compute its codes.
 * `twoFactor: false` makes an admin who has not set it up yet. It calls the
 * domain function that `npm run admin:create` runs (createAdminAccount, with
 * the CLI's input schema) in this worker, against the server's database: no
 * process started per admin (the CLI itself is tested in Vitest and in the
 * hardening run). Every e2e server seals two-factor secrets with
 * E2E_TOTP_KEYS, which this process uses too.
 */
export async function createAdmin(email: string, name: string, password: string, { database = e2eDatabasePath(), twoFactor = true } = {}) {
  process.env.TOTP_KEYS = E2E_TOTP_KEYS;
  process.env.TEST_BCRYPT_COST = E2E_BCRYPT_COST;
  process.env.SESSION_SECRET ??= E2E_SESSION_SECRET;
  process.env.LOG_LEVEL = "silent";
  let db = databases.get(database);
  if (!db) {
    db = openDatabase(database);
    databases.set(database, db);
  }
  const input = AdminCreateInput.parse({ email, name, password, ...(twoFactor ? { totpSecret: testTotpSecret(email) } : {}) });
  await createAdminAccount(input, db);
  if (twoFactor) enrolledAdmins.add(email.toLowerCase());
}

/**
 * POST /api/auth/login with the two-factor code an account with two-factor
 * needs (test admins: testTotpSecret). A code refused because a parallel
 * worker used its step is retried with the next step.
 */
export async function postLogin(
  api: APIRequestContext,
  email: string,
  password: string,
  headers?: Record<string, string>,
): Promise<APIResponse> {
  const post = (code?: string) => api.post("/api/auth/login", { data: code ? { email, password, code } : { email, password }, ...(headers ? { headers } : {}) });
  let needsCode = enrolledAdmins.has(email.toLowerCase());
  let response = needsCode ? null : await post();
  if (response && response.status() === 401 && ((await response.json()) as { twoFactorRequired?: boolean }).twoFactorRequired) needsCode = true;
  for (let attempt = 0; needsCode && attempt < 3; attempt++) {
    const { code, step } = await nextTotpCode(email);
    response = await post(code);
    if (response.status() !== 401 || ((await response.json()) as { error?: string }).error !== "Invalid two-factor code") break;
    skipStep(email, step);
  }
  return response!;
}

type Mail = { subject: string; text: string };

// Mail is read through one module (one file per recipient: helpers/mail.ts); these names stay for the specs.
export { latestMailTo, mailCountTo } from "./mail";

/** The first link in a mail's text that starts with `prefix`. */
export function linkIn(mail: Mail, prefix: string): string {
  const match = mail.text.match(new RegExp(`${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\S*`));
  expect(match, `a link starting with ${prefix} in: ${mail.text}`).not.toBeNull();
  return match![0];
}

/** The subject of a registration's confirmation mail (decision 028). */
export const REGISTRATION_CONFIRM_SUBJECT = /^Confirm your e-mail address for the .* investor portal$/;

/**
 * Confirm a registration as its address's owner does: the link from the newest
 * confirmation mail to the address (sent by the server at `origin`: isolated
 * servers of parallel workers mail the same sink), then the page's form with the
 * registration's password; the request then waits for an admin (303 to the
 * thank-you). `headers` go with the POST (e.g. a client address of its own).
 */
export async function confirmRegistrationFromMail(
  request: APIRequestContext,
  email: string,
  password: string,
  { origin = "", headers = {} }: { origin?: string; headers?: Record<string, string> } = {},
) {
  const mail = await latestMailTo(email, REGISTRATION_CONFIRM_SUBJECT, `${origin}/lp/register/confirm?token=`);
  const link = mail.text.match(/https?:\/\/\S+\/lp\/register\/confirm\?token=[A-Za-z0-9_-]{43}/)?.[0];
  expect(link, `a confirmation link in the mail to ${email}`).toBeTruthy();
  const confirmed = await request.post(link!, { form: { password }, headers, maxRedirects: 0 });
  expect(confirmed.status(), `confirm the registration of ${email}: ${await confirmed.text()}`).toBe(303);
  expect(confirmed.headers()["location"]).toBe("/lp/register/confirm?confirmed=1");
}

/** Register through the JSON API and confirm the address with the mailed link: the request is pending. */
export async function registerViaApi(
  request: APIRequestContext,
  user: { email: string; password: string; name: string; company?: string },
) {
  const response = await request.post("/api/auth/register", { data: user });
  expect(response.status(), await response.text()).toBe(201);
  await confirmRegistrationFromMail(request, user.email, user.password, { origin: new URL(response.url()).origin });
}

/** Sign in through the JSON API; returns the session cookie ("name=value"). */
export async function loginViaApi(request: APIRequestContext, email: string, password: string): Promise<string> {
  const response = await postLogin(request, email, password);
  expect(response.status(), await response.text()).toBe(200);
  const setCookie = response.headers()["set-cookie"] ?? "";
  const cookie = setCookie.split(";")[0] ?? "";
  expect(cookie).toMatch(/lr_session=/);
  return cookie;
}

/** Find a user's id through the admin API. */
export async function userIdByEmail(request: APIRequestContext, adminCookie: string, email: string): Promise<string> {
  for (const list of ["pending", "approved", "rejected"]) {
    const response = await request.get(
      `/api/auth/${list}-users`,
      adminCookie ? { headers: { Cookie: adminCookie } } : {},
    );
    expect(response.status()).toBe(200);
    const users = (await response.json()) as { id: string; email: string }[];
    const user = users.find((u) => u.email === email.toLowerCase());
    if (user) return user.id;
  }
  throw new Error(`no user ${email}`);
}

/** Approve or reject through the admin API. */
export async function setStatusViaApi(
  request: APIRequestContext,
  adminCookie: string,
  userId: string,
  status: "approved" | "rejected",
) {
  const response = await request.patch(`/api/auth/users/${userId}/status`, {
    ...(adminCookie ? { headers: { Cookie: adminCookie } } : {}),
    data: { status },
  });
  expect(response.status(), await response.text()).toBe(200);
}
