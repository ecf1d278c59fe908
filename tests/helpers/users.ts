import { enrolWithSecret } from "~/modules/two-factor/two-factor.server";
import { testTotpSecret } from "../support/totp";
import { eq } from "drizzle-orm";
import { getDb } from "../../app/modules/db/connection.server";
import { emailOutbox, lpUsers, passwordResets, registrationRequests, sessions } from "../../db/schema";
import { createUserSession } from "~/modules/auth/session.server";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { hashPassword } from "~/modules/lp-users/password.server";
import { confirmRegistration, registerInvestor } from "~/modules/lp-users/registration.server";
import { RegisterInput } from "~/modules/lp-users/schema";
import { TEST_CLIENT_ADDRESS } from "./test-env";
import { routePattern } from "./http";
import { fillSecrets, openSecrets } from "~/modules/mail/mail-secrets.server";

export const ORIGIN = "http://localhost:3000";

/** The password every fixture user has. */
export const FIXTURE_PASSWORD = "correct horse battery staple";

// bcrypt at cost 12 takes a few hundred ms: hash the fixture password once per test file.
let fixtureHash: Promise<string> | undefined;
export function fixturePasswordHash(): Promise<string> {
  fixtureHash ??= hashPassword(FIXTURE_PASSWORD);
  return fixtureHash;
}

let counter = 0;
/** A unique e-mail address for this test file. */
export function uniqueEmail(label = "investor"): string {
  counter++;
  return `${label}-${counter}@example.test`;
}

/** Insert an account directly (password FIXTURE_PASSWORD). */
export async function insertUser(
  overrides: Partial<Pick<LpUser, "email" | "name" | "company" | "status" | "isAdmin">> = {},
): Promise<LpUser> {
  const email = overrides.email ?? uniqueEmail(overrides.isAdmin ? "admin" : "investor");
  const inserted = getDb()
    .insert(lpUsers)
    .values({
      email,
      name: overrides.name ?? `User ${email.split("@")[0]}`,
      company: overrides.company ?? null,
      status: overrides.status ?? "pending",
      isAdmin: overrides.isAdmin ?? false,
      passwordHash: await fixturePasswordHash(),
    })
    .returning({ id: lpUsers.id })
    .get();
  // Read back: RETURNING shows the row before the insert trigger filled search_text.
  return getDb().select().from(lpUsers).where(eq(lpUsers.id, inserted.id)).get()!;
}

/**
 * Insert an approved admin with two-factor on (the admin portal requires it),
 * its secret testTotpSecret(email); `twoFactor: false` leaves it not set up.
 */
export async function insertAdmin(overrides: Parameters<typeof insertUser>[0] & { twoFactor?: boolean } = {}): Promise<LpUser> {
  const { twoFactor = true, ...fields } = overrides;
  const admin = await insertUser({ status: "approved", ...fields, isAdmin: true });
  if (twoFactor) enrolWithSecret(admin.id, testTotpSecret(admin.email));
  return admin;
}

/** Re-read a user (throws when it is gone). */
export function userById(id: string): LpUser {
  const user = getDb().select().from(lpUsers).where(eq(lpUsers.id, id)).get();
  if (!user) throw new Error(`no lp_users row ${id}`);
  return user;
}

export function allUsers(): LpUser[] {
  return getDb().select().from(lpUsers).all();
}

export function allResets() {
  return getDb().select().from(passwordResets).all();
}

/**
 * The outbox rows to this address, each with `text` as the recipient reads it:
 * sealed secrets (links) filled in while the mail still awaits delivery.
 */
export function mailsTo(address: string) {
  return getDb()
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.to, address))
    .all()
    .map((row) => ({ ...row, text: row.secretsEnc ? fillSecrets(row.text, openSecrets(row.secretsEnc)) : row.text }));
}

/** The token of the newest registration confirmation link mailed to this address (throws when there is none). */
export function registrationLinkToken(address: string): string {
  const tokens = mailsTo(address)
    .map((mail) => /\/lp\/register\/confirm\?token=([A-Za-z0-9_-]{43})/.exec(mail.text)?.[1])
    .filter((token): token is string => !!token);
  const token = tokens.at(-1);
  if (!token) throw new Error(`no registration confirmation link was mailed to ${address}`);
  return token;
}

/**
 * Register an investor as a visitor does and confirm the address with the
 * mailed link and the password (decision 028): the account is pending and the
 * admins were told. Returns the account.
 */
export async function registerAndConfirm(input: { email: string; password: string; name: string; company?: string }): Promise<LpUser> {
  const parsed = RegisterInput.parse(input);
  await registerInvestor(parsed);
  const outcome = await confirmRegistration(registrationLinkToken(parsed.email), { password: input.password });
  if (!outcome.ok) throw new Error(`confirming the registration of ${parsed.email}: ${outcome.reason}`);
  return outcome.user;
}

/** Empty every table the account flows write to. */
export function clearAccountTables() {
  const db = getDb();
  db.delete(emailOutbox).run();
  db.delete(sessions).run();
  db.delete(passwordResets).run();
  db.delete(registrationRequests).run();
  db.delete(lpUsers).run();
}

/** The `name=value` part of a Set-Cookie header. */
export function cookiePair(setCookie: string | null): string {
  if (!setCookie) throw new Error("no Set-Cookie header");
  const pair = setCookie.split(";")[0];
  if (!pair) throw new Error(`malformed Set-Cookie: ${setCookie}`);
  return pair;
}

/** Start a session for a user the way a successful sign-in does; returns the Cookie header value. */
export async function sessionCookieFor(user: LpUser): Promise<string> {
  return cookiePair(await createUserSession(new Request(`${ORIGIN}/lp/login`, { method: "POST" }), user, { portal: "test" }));
}

type RouteFn = (args: never) => Promise<Response> | Response;

/** Call a route module's action or loader like React Router does (with params and our load context). */
export async function callRouteWith(
  fn: RouteFn,
  request: Request,
  { params = {}, clientAddress = TEST_CLIENT_ADDRESS }: { params?: Record<string, string>; clientAddress?: string } = {},
): Promise<Response> {
  return fn({ request, params, pattern: routePattern(request, params), context: { clientAddress } } as never);
}

/** A request with a method, an optional Cookie and an optional JSON body. */
export function apiRequest(
  method: string,
  path: string,
  { cookie, json }: { cookie?: string | undefined; json?: unknown } = {},
): Request {
  const headers = new Headers();
  if (cookie) headers.set("Cookie", cookie);
  if (json !== undefined) headers.set("Content-Type", "application/json");
  return new Request(ORIGIN + path, {
    method,
    headers,
    body: json === undefined ? null : typeof json === "string" ? json : JSON.stringify(json),
  });
}
