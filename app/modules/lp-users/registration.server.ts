import { eq, lt } from "drizzle-orm";
import { getDb, type Db } from "~/modules/db/connection.server";
import { lpUsers, registrationRequests } from "../../../db/schema";
import { accountMails } from "../../content/mail";
import { audit } from "../audit/audit.server";
import { hashToken, newToken } from "../auth/tokens.server";
import { now } from "../config/clock.server";
import { getEnv } from "../config/env.server";
import { kickMailer, queueMail, recentMailCount, recentMailCountWithPrefix } from "../mail/mail.server";
import { ConfirmToken } from "../newsletter/schema";
import { adminRecipients, findUserByEmail, userTarget, type LpUser } from "./lp-users.server";
import { hashPassword, verifyPassword } from "./password.server";
import { REGISTER_CONFIRM_PATH } from "./paths";
import { type ConfirmRegistrationInput, type RegisterInput, type ResendConfirmationInput } from "./schema";

/**
 * Investor registration proves its address first (issue 21, finding M3; decision 028):
 *
 * - Registering an address without an account stores a row of
 *   `registration_requests` (not of lp_users: no admin list, count, search,
 *   export, picker or bulk match reads that table) and mails the address a
 *   link (32 random bytes, base64url; only its SHA-256 is kept; valid 7 days;
 *   sealed in the outbox like a reset link). Registering it again replaces the
 *   password, name, company and the link (the old link stops working): the
 *   mailbox's owner always wins, because confirming asks for the password of
 *   the newest registration. At most 3 links per address in any 24 hours;
 *   past that the details are still replaced, no mail goes out and the newest
 *   link already sent stays valid. The answer is the same in every case.
 * - Confirming the link (a POST with that password: mail scanners prefetch
 *   GETs, and whoever holds the mailbox must also know the password) makes the
 *   lp_users row (pending, `confirmed_at` set), writes `auth.register`, mails
 *   the admins and deletes the registration, in one transaction
 *   (admitRegistration, which any later proof of the address can call too).
 * - An address that already has an account keeps the old answer: its owner is
 *   mailed (L3: at most 3 such mails a day) and nothing changes.
 * - The admins' "new request" mail: at most 10 an hour per admin (L3); the
 *   request is listed for review either way.
 * - Registrations whose last link went out over 30 days ago are deleted daily
 *   (registration-purge.server.ts).
 */

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
export const CONFIRM_REGISTRATION_TTL_MS = 7 * DAY_MS;
export const CONFIRM_REGISTRATION_MAILS_PER_DAY = 3;
export const ALREADY_REGISTERED_MAILS_PER_DAY = 3;
export const NEW_REQUEST_MAILS_PER_HOUR = 10;
export const UNCONFIRMED_RETENTION_MS = 30 * DAY_MS;

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type RegistrationRequest = typeof registrationRequests.$inferSelect;

function confirmUrl(token: string): string {
  return `${getEnv().APP_URL}${REGISTER_CONFIRM_PATH}?token=${token}`;
}

const registrationTarget = (email: string) => ({ type: "user" as const, label: email });

/**
 * Request investor access (the form and POST /api/auth/register). Costs one
 * bcrypt hash and answers the same whatever the address: no account, an
 * unconfirmed registration, or an account (whose owner is told instead).
 */
export async function registerInvestor(input: RegisterInput, db: Db = getDb()): Promise<void> {
  const passwordHash = await hashPassword(input.password);
  const details = { passwordHash, name: input.name, company: input.company ?? null };
  const sent = db.transaction((tx) => {
    const existing = findUserByEmail(input.email, tx);
    return existing ? tellOwner(tx, existing) : storeAndMailLink(tx, input.email, details);
  });
  if (sent) kickMailer();
}

/** An address that already has an account: mail its owner (at most 3 a day); nothing changes. */
function tellOwner(tx: Tx, existing: LpUser): boolean {
  // A registration left over from before the account (admin:create made it meanwhile) goes.
  tx.delete(registrationRequests).where(eq(registrationRequests.email, existing.email)).run();
  const capped =
    recentMailCount(tx, existing.email, accountMails.alreadyRegisteredSubject, new Date(now().getTime() - DAY_MS)) >= ALREADY_REGISTERED_MAILS_PER_DAY;
  audit(tx, "auth.register", {
    target: userTarget(existing),
    details: { userId: existing.id, email: existing.email, outcome: capped ? "already registered; daily mail cap reached" : "already registered" },
  });
  if (capped) return false;
  queueMail(tx, { to: existing.email, ...accountMails.alreadyRegistered(existing, getEnv().APP_URL) });
  return true;
}

function confirmMailsCapped(tx: Pick<Db, "select">, email: string, at: Date): boolean {
  return recentMailCount(tx, email, accountMails.confirmRegistrationSubject, new Date(at.getTime() - DAY_MS)) >= CONFIRM_REGISTRATION_MAILS_PER_DAY;
}

/** A fresh link: the token to mail and the columns that store its hash. */
function freshLink(at: Date) {
  const token = newToken();
  return {
    token,
    columns: { tokenHash: hashToken(token), expiresAt: new Date(at.getTime() + CONFIRM_REGISTRATION_TTL_MS), lastSentAt: at },
  };
}

function mailLink(tx: Tx, email: string, token: string) {
  // The link travels sealed: the outbox never holds a usable token.
  queueMail(tx, { to: email, ...accountMails.confirmRegistration(), secrets: { link: confirmUrl(token) } });
}

/** Store (or replace) the registration of an address without an account and mail its link, within the daily cap. */
function storeAndMailLink(tx: Tx, email: string, details: { passwordHash: string; name: string; company: string | null }): boolean {
  const at = now();
  const row = tx.select({ id: registrationRequests.id }).from(registrationRequests).where(eq(registrationRequests.email, email)).get();
  const capped = confirmMailsCapped(tx, email, at);
  const auditLink = (outcome: string) =>
    audit(tx, "auth.registration_link_requested", { target: registrationTarget(email), details: { email, via: "register", outcome } });
  if (row && capped) {
    // The newest registration's details win; the link already in the mailbox stays the one that works.
    tx.update(registrationRequests).set(details).where(eq(registrationRequests.id, row.id)).run();
    auditLink("details replaced; daily link cap reached");
    return false;
  }
  const link = freshLink(at);
  if (row) {
    tx.update(registrationRequests)
      .set({ ...details, ...link.columns })
      .where(eq(registrationRequests.id, row.id))
      .run();
  } else {
    const inserted = tx
      .insert(registrationRequests)
      .values({ email, ...details, ...link.columns })
      .onConflictDoNothing({ target: registrationRequests.email })
      .returning({ id: registrationRequests.id })
      .get();
    // Another request stored it a moment ago: its link is on the way.
    if (!inserted) return false;
  }
  if (capped) {
    auditLink("stored; daily link cap reached");
    return false;
  }
  mailLink(tx, email, link.token);
  auditLink("link sent");
  return true;
}

/**
 * 'Send the link again': a fresh link for a registration still waiting for its
 * confirmation (the old link stops working), within the daily cap. The same
 * answer (none) whether or not anything was sent.
 */
export function resendRegistrationLink(input: ResendConfirmationInput, db: Db = getDb()): void {
  const email = input.email;
  const sent = db.transaction((tx) => {
    const row = tx.select({ id: registrationRequests.id }).from(registrationRequests).where(eq(registrationRequests.email, email)).get();
    const at = now();
    const outcome = !row ? "no registration waiting" : confirmMailsCapped(tx, email, at) ? "daily link cap reached" : "link sent";
    audit(tx, "auth.registration_link_requested", { target: registrationTarget(email), details: { email, via: "resend", outcome } });
    if (!row || outcome !== "link sent") return false;
    const link = freshLink(at);
    tx.update(registrationRequests).set(link.columns).where(eq(registrationRequests.id, row.id)).run();
    mailLink(tx, email, link.token);
    return true;
  });
  if (sent) kickMailer();
}

/** The registration a confirmation token opens now (right shape, known hash, not expired), or undefined. */
function registrationForToken(token: unknown, db: Pick<Db, "select">): RegistrationRequest | undefined {
  const parsed = ConfirmToken.safeParse(token);
  if (!parsed.success) return undefined;
  const row = db.select().from(registrationRequests).where(eq(registrationRequests.tokenHash, hashToken(parsed.data))).get();
  if (!row || row.expiresAt.getTime() <= now().getTime()) return undefined;
  return row;
}

/** The address a live confirmation link is for (the page's GET shows it; changes nothing), or null. */
export function registrationLinkEmail(token: unknown, db: Db = getDb()): string | null {
  return registrationForToken(token, db)?.email ?? null;
}

export type ConfirmOutcome = { ok: true; user: LpUser } | { ok: false; reason: "invalid" | "wrong_password" };

/**
 * The confirmation link's POST: the token and the registration's password.
 * `invalid` for an unknown, tampered, expired or used token, or when the
 * address got an account meanwhile (the registration is dropped); no bcrypt is
 * spent on a token that opens nothing. `wrong_password` changes nothing (the
 * link stays valid). Otherwise the request reaches the admins (admitRegistration).
 */
export async function confirmRegistration(token: unknown, input: ConfirmRegistrationInput, db: Db = getDb()): Promise<ConfirmOutcome> {
  const found = registrationForToken(token, db);
  if (!found) return { ok: false, reason: "invalid" };
  if (!(await verifyPassword(input.password, found.passwordHash))) return { ok: false, reason: "wrong_password" };
  const outcome = db.transaction((tx): ConfirmOutcome => {
    const row = registrationForToken(token, tx);
    if (!row || row.id !== found.id) return { ok: false, reason: "invalid" };
    // Registered again (over the cap) while the password was being checked: the newest password counts.
    if (row.passwordHash !== found.passwordHash) return { ok: false, reason: "wrong_password" };
    return admitRegistration(tx, row);
  });
  if (outcome.ok) kickMailer();
  return outcome;
}

/**
 * A registration whose address is proved becomes an account: the lp_users row
 * (pending, `confirmed_at` now, the default new-document mail), the
 * `auth.register` audit row and the admins' mails, and the registration goes,
 * all in the caller's transaction. Every way of proving the address (the
 * mailed link today; an owner's invitation later) ends here. If the address
 * has an account already the registration is only dropped (`invalid`).
 */
export function admitRegistration(tx: Tx, registration: RegistrationRequest): ConfirmOutcome {
  tx.delete(registrationRequests).where(eq(registrationRequests.id, registration.id)).run();
  if (findUserByEmail(registration.email, tx)) return { ok: false, reason: "invalid" };
  const user = tx
    .insert(lpUsers)
    .values({
      email: registration.email,
      passwordHash: registration.passwordHash,
      name: registration.name,
      company: registration.company,
      documentMail: getEnv().DOCUMENT_MAIL_DEFAULT,
      confirmedAt: now(),
    })
    .returning()
    .get();
  audit(tx, "auth.register", { target: userTarget(user), details: { userId: user.id, email: user.email, outcome: "pending review" } });
  mailAdmins(tx, user);
  return { ok: true, user };
}

/** 'New investor access request' to each admin (or the firm's inbox), at most 10 an hour per recipient. */
function mailAdmins(tx: Tx, user: LpUser) {
  const since = new Date(now().getTime() - HOUR_MS);
  const reviewUrl = `${getEnv().APP_URL}/admin/dashboard`;
  for (const to of adminRecipients(tx)) {
    if (recentMailCountWithPrefix(tx, to, accountMails.newRequestSubjectPrefix, since) >= NEW_REQUEST_MAILS_PER_HOUR) continue;
    queueMail(tx, { to, ...accountMails.newRequest(user, reviewUrl) });
  }
}

/** Delete the registrations whose last link went out over 30 days ago; returns how many went. */
export function purgeUnconfirmedRegistrations(db: Db = getDb(), at: Date = now()): number {
  return db
    .delete(registrationRequests)
    .where(lt(registrationRequests.lastSentAt, new Date(at.getTime() - UNCONFIRMED_RETENTION_MS)))
    .run().changes;
}
