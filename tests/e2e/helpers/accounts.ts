import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, type APIRequestContext, type APIResponse } from "@playwright/test";
import { nextTotpCode, skipStep, testTotpSecret } from "../../support/totp";
import { E2E_SESSION_SECRET } from "./secrets";

/** The e2e server's database (playwright.config.ts puts it in E2E_RUN_DIR). */
function databasePath(): string {
  const dir = process.env.E2E_RUN_DIR;
  if (!dir) throw new Error("E2E_RUN_DIR is not set (run through playwright.config.ts)");
  return path.join(dir, "e2e.sqlite");
}

/** Admins made by this process: their sign-ins send a code at once (others learn it from the answer). */
const enrolledAdmins = new Set<string>();

/**
 * Create an approved admin with the real CLI (npm run admin:create), as an
 * operator would, with two-factor on (the admin portal requires it): its
 * secret is testTotpSecret(email), so the tests compute its codes.
 * `twoFactor: false` makes an admin who has not set it up yet.
 */
export function createAdmin(
  email: string,
  name: string,
  password: string,
  { database = databasePath(), twoFactor = true, sessionSecret = E2E_SESSION_SECRET } = {},
) {
  // The secrets go through the environment, as DESIGN.md §8 asks of an operator (never the command line).
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_PATH: database, SESSION_SECRET: sessionSecret, LOG_LEVEL: "silent", ADMIN_PASSWORD: password };
  if (twoFactor) env.ADMIN_TOTP_SECRET = testTotpSecret(email);
  else delete env.ADMIN_TOTP_SECRET;
  execFileSync(process.execPath, ["--import", "tsx", "scripts/admin-create.ts", "--email", email, "--name", name], { env, stdio: "pipe" });
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

type Mail = { to: string; subject: string; text: string };

/**
 * The newest e-mail the site sent to this address, as the run's SMTP server
 * received it (tests/e2e/mail-sink.ts writes each one to $E2E_RUN_DIR/mail);
 * with `textIncludes`, the newest whose text holds it (e.g. a server's own links).
 */
export async function latestMailTo(to: string, subjectPattern: RegExp, textIncludes = ""): Promise<Mail> {
  const dir = path.join(process.env.E2E_RUN_DIR ?? "", "mail");
  const address = to.toLowerCase();
  let found: Mail | undefined;
  await expect
    .poll(
      () => {
        const files = fs.existsSync(dir)
          ? fs
              .readdirSync(dir)
              .filter((f) => f.endsWith(".json"))
              .sort()
              .reverse()
          : [];
        for (const file of files) {
          const mail = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as Mail & { envelopeTo: string[] };
          if (mail.envelopeTo.includes(address) && subjectPattern.test(mail.subject) && mail.text.includes(textIncludes)) {
            found = { to: address, subject: mail.subject, text: mail.text };
            return true;
          }
        }
        return false;
      },
      {
        message: `an e-mail to ${to} matching ${subjectPattern}`,
        timeout: 15_000,
      },
    )
    .toBe(true);
  return found!;
}

/** How many e-mails the run's SMTP server has received for this address with a matching subject, so far. */
export function mailCountTo(to: string, subjectPattern: RegExp): number {
  const dir = path.join(process.env.E2E_RUN_DIR ?? "", "mail");
  if (!fs.existsSync(dir)) return 0;
  const address = to.toLowerCase();
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((file) => JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as Mail & { envelopeTo: string[] })
    .filter((mail) => mail.envelopeTo.includes(address) && subjectPattern.test(mail.subject)).length;
}

/** The first link in a mail's text that starts with `prefix`. */
export function linkIn(mail: Mail, prefix: string): string {
  const match = mail.text.match(new RegExp(`${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\S*`));
  expect(match, `a link starting with ${prefix} in: ${mail.text}`).not.toBeNull();
  return match![0];
}

/** Register through the JSON API. */
export async function registerViaApi(
  request: APIRequestContext,
  user: { email: string; password: string; name: string; company?: string },
) {
  const response = await request.post("/api/auth/register", { data: user });
  expect(response.status(), await response.text()).toBe(201);
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
