import { and, count, desc, eq, gt, isNull, sql, type SQL } from "drizzle-orm";
import { getDb, type Db } from "~/modules/db/connection.server";
import { lpUsers, passwordResets, registrationRequests } from "../../../db/schema";
import { accountMessages } from "../../content/accounts";
import { accountMails } from "../../content/mail";
import { now } from "../config/clock.server";
import { getEnv } from "../config/env.server";
import { AppError, isAppError } from "../http/app-error";
import { kickMailer, queueMail, recentMailCount } from "../mail/mail.server";
import { endAllSessions, type LpUser } from "../auth/session.server";
import { hashToken, newToken } from "../auth/tokens.server";
import { hashPassword, passwordCost, verifyPassword } from "./password.server";
import type { ForgotPasswordInput, LoginInput, ResetPasswordInput, UserStatus } from "./schema";
import { audit, type AuditTarget } from "../audit/audit.server";

/** An account as the audit trail names it. */
export function userTarget(user: Pick<LpUser, "id" | "email">): AuditTarget {
  return { type: "user", id: user.id, label: user.email };
}

export type { LpUser };

/** SPEC.md §3 "Current user". */
export type CurrentUser = {
  id: string;
  name: string;
  email: string;
  company: string | null;
  createdAt: string;
  isAdmin: boolean;
};

export function toCurrentUser(user: LpUser): CurrentUser {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    company: user.company,
    createdAt: user.createdAt.toISOString(),
    isAdmin: user.isAdmin,
  };
}

/** A user as listed to admins (also with status). */
export type ListedUser = CurrentUser & { status: UserStatus };

export function toListedUser(user: LpUser): ListedUser {
  return { ...toCurrentUser(user), status: user.status };
}

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;



// A real bcrypt hash of a random string, at the cost new hashes get: unknown e-mails cost the same time as known ones.
const dummyHashes = new Map<number, Promise<string>>();
export function timingDummy(): Promise<string> {
  const cost = passwordCost();
  if (!dummyHashes.has(cost)) dummyHashes.set(cost, hashPassword(newToken()));
  return dummyHashes.get(cost)!;
}

/** Who is told about a new request: every approved admin, or the firm's inbox while there is none. */
export function adminRecipients(db: Pick<Db, "select">): string[] {
  const admins = db
    .select({ email: lpUsers.email })
    .from(lpUsers)
    .where(and(eq(lpUsers.isAdmin, true), eq(lpUsers.status, "approved")))
    .all()
    .map((a) => a.email);
  return admins.length > 0 ? admins : [getEnv().FIRM_INBOX];
}

export function findUserByEmail(email: string, db: Pick<Db, "select"> = getDb()): LpUser | undefined {
  return db.select().from(lpUsers).where(eq(lpUsers.email, email.trim().toLowerCase())).get();
}

export function findUserById(id: string, db: Db = getDb()): LpUser | undefined {
  return db.select().from(lpUsers).where(eq(lpUsers.id, id)).get();
}

export function hasAnyAdmin(db: Db = getDb()): boolean {
  return !!db.select({ id: lpUsers.id }).from(lpUsers).where(eq(lpUsers.isAdmin, true)).limit(1).get();
}

/**
 * Check an e-mail and password. Wrong credentials get one message whether or
 * not the e-mail exists; a pending or rejected account is told so only when
 * the password is right.
 */
export async function verifyLogin(
  input: LoginInput,
  { adminOnly = false }: { adminOnly?: boolean } = {},
  db: Db = getDb(),
): Promise<LpUser> {
  const user = await verifyCredentials(input, db);
  assertMaySignIn(user, { adminOnly });
  return user;
}

/**
 * The e-mail and password match an account (one message, and the same time, whether or not the e-mail exists).
 * An address with no account may have a registration whose address is not confirmed yet
 * (registration.server.ts): its password is checked the same way (one bcrypt compare in
 * every case), and when it is right the answer is a pending account's, marked
 * `confirmationRequired` (isConfirmationRequired) so the sign-in can offer the link again.
 */
export async function verifyCredentials(input: LoginInput, db: Db = getDb()): Promise<LpUser> {
  const user = findUserByEmail(input.email, db);
  const unconfirmed = user
    ? undefined
    : db
        .select({ passwordHash: registrationRequests.passwordHash })
        .from(registrationRequests)
        .where(eq(registrationRequests.email, input.email.trim().toLowerCase()))
        .get();
  const ok = await verifyPassword(input.password, user?.passwordHash ?? unconfirmed?.passwordHash ?? (await timingDummy()));
  if (ok && !user && unconfirmed) throw new AppError("forbidden", accountMessages.pending, { json: { confirmationRequired: true } });
  if (!user || !ok) throw new AppError("unauthorized", accountMessages.invalidCredentials);
  return user;
}

/** The right password of a registration whose address is not confirmed yet (verifyCredentials). */
export function isConfirmationRequired(error: unknown): error is AppError {
  return isAppError(error) && error.options.json?.confirmationRequired === true;
}

/** May this (correctly authenticated) user start a session? Pending and rejected investors are told why. */
export function assertMaySignIn(user: LpUser, { adminOnly = false }: { adminOnly?: boolean } = {}): void {
  // The admin sign-in tells a non-admin only that it is for admins (not their review status).
  if (adminOnly && !user.isAdmin) throw new AppError("forbidden", accountMessages.adminOnly);
  if (!user.isAdmin && user.status === "pending") throw new AppError("forbidden", accountMessages.pending);
  if (!user.isAdmin && user.status === "rejected") throw new AppError("forbidden", accountMessages.rejected);
}

/** The investors (never admins) of one status. */
const inStatus = (status: UserStatus) => and(eq(lpUsers.status, status), eq(lpUsers.isAdmin, false));

/**
 * Newest first; ties (the same millisecond) by insertion order, newest first,
 * so every page is deterministic. Walks lp_users_status_created_at_idx
 * (status, is_admin, created_at, then the rowid): no sorting.
 */
const newestFirst = [desc(lpUsers.createdAt), desc(sql`rowid`)];

/** GET /api/auth/{pending,approved,rejected}-users: every investor of a status, newest first (SPEC.md §7). */
export function listUsersByStatus(status: UserStatus, db: Db = getDb()): LpUser[] {
  return db.select().from(lpUsers).where(inStatus(status)).orderBy(...newestFirst).all();
}

/** The largest window listUsersByStatusPage answers (a bigger limit is cut down to this). */
export const MAX_USER_PAGE_LIMIT = 1000;

/**
 * The admin's investor lists: one window of a status's investors, in
 * listUsersByStatus's order, and how many there are in all (only those
 * `matching` too, when given: the investors search). `offset` and `limit`
 * are cut to whole numbers, `limit` to at most MAX_USER_PAGE_LIMIT. Without
 * a search only the window's rows are read (an index range) and the total is
 * a count over that range of the index, so the cost barely grows with the
 * list (a deep offset walks the index up to it).
 */
export function listUsersByStatusPage(
  status: UserStatus,
  page: { offset: number; limit: number },
  db: Db = getDb(),
  matching?: SQL,
): { users: LpUser[]; total: number } {
  const offset = wholeNumber(page.offset, Number.MAX_SAFE_INTEGER);
  const limit = wholeNumber(page.limit, MAX_USER_PAGE_LIMIT);
  const where = matching ? and(inStatus(status), matching) : inStatus(status);
  const users =
    limit === 0
      ? []
      : db
          .select()
          .from(lpUsers)
          .where(where)
          .orderBy(...newestFirst)
          .limit(limit)
          .offset(offset)
          .all();
  const total = db.select({ n: count() }).from(lpUsers).where(where).get()?.n ?? 0;
  return { users, total };
}

function wholeNumber(value: number, max: number): number {
  if (Number.isNaN(value) || value <= 0) return 0;
  return Math.min(Math.floor(value), max);
}

/**
 * Approve or reject an investor (also: revoke an approved one, approve a
 * rejected one). Approval e-mails the investor a sign-in link; leaving
 * `approved` ends the investor's sessions at once.
 */
export function setUserStatus(
  actor: LpUser,
  userId: string,
  status: Exclude<UserStatus, "pending">,
  db: Db = getDb(),
): { user: LpUser; previous: UserStatus } {
  if (actor.id === userId) throw new AppError("forbidden", accountMessages.ownStatus);
  const target = findUserById(userId, db);
  if (!target) throw new AppError("not_found", accountMessages.userNotFound);
  if (target.isAdmin) throw new AppError("forbidden", accountMessages.adminStatus);
  if (target.status === status) return { user: target, previous: target.status };
  const updated = db.transaction((tx) => {
    const row = tx.update(lpUsers).set({ status }).where(eq(lpUsers.id, userId)).returning().get();
    if (status === "approved") {
      queueMail(tx, { to: row.email, ...accountMails.approved(row, getEnv().APP_URL) });
    }
    if (status !== "approved") endAllSessions(userId, tx);
    audit(tx, "user.status_changed", {
      actor: { id: actor.id, email: actor.email },
      target: userTarget(row),
      details: { actorId: actor.id, userId, email: row.email, from: target.status, to: status },
    });
    return row;
  });
  kickMailer();
  return { user: updated, previous: target.status };
}

/**
 * Send a single-use reset link (valid 1 hour) if the e-mail has an account.
 * The answer is the same either way.
 */
export function requestPasswordReset(input: ForgotPasswordInput, db: Db = getDb()): void {
  const user = findUserByEmail(input.email, db);
  if (!user) {
    audit(db, "auth.password_reset_requested", {
      target: { type: "user", label: input.email },
      details: { email: input.email, outcome: "no such account" },
    });
    return;
  }
  // At most 3 reset mails an hour per account, however many addresses ask.
  if (recentMailCount(db, user.email, accountMails.resetSubject, new Date(now().getTime() - RESET_TOKEN_TTL_MS)) >= 3) {
    audit(db, "auth.password_reset_requested", {
      target: userTarget(user),
      details: { userId: user.id, email: user.email, outcome: "hourly cap reached" },
    });
    return;
  }
  const token = newToken();
  db.transaction((tx) => {
    audit(tx, "auth.password_reset_requested", {
      target: userTarget(user),
      details: { userId: user.id, email: user.email, outcome: "link sent" },
    });
    tx.insert(passwordResets)
      .values({ userId: user.id, tokenHash: hashToken(token), expiresAt: new Date(now().getTime() + RESET_TOKEN_TTL_MS) })
      .run();
    queueMail(tx, {
      to: user.email,
      ...accountMails.passwordReset(user),
      // The link travels sealed: the outbox never holds a usable reset token.
      secrets: { link: `${getEnv().APP_URL}/lp/reset-password?token=${token}` },
    });
  });
  kickMailer();
}

/** Whether a reset token is currently usable (for showing the form). */
export function isResetTokenValid(token: string, db: Db = getDb()): boolean {
  return !!db
    .select({ id: passwordResets.id })
    .from(passwordResets)
    .where(and(eq(passwordResets.tokenHash, hashToken(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now())))
    .get();
}

/** Set a new password with a reset token: the token is spent and every session of the user ends. */
export async function resetPassword(input: ResetPasswordInput, db: Db = getDb()): Promise<LpUser> {
  // Check the token before spending a bcrypt hash on it (a made-up token costs nothing).
  if (!isResetTokenValid(input.token, db)) throw new AppError("bad_request", accountMessages.resetInvalid);
  const passwordHash = await hashPassword(input.password);
  const user = db.transaction((tx) => {
    const reset = tx
      .update(passwordResets)
      .set({ usedAt: now() })
      .where(
        and(eq(passwordResets.tokenHash, hashToken(input.token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now())),
      )
      .returning()
      .get();
    if (!reset) throw new AppError("bad_request", accountMessages.resetInvalid);
    // Any other reset link of this user dies with this one.
    tx.update(passwordResets)
      .set({ usedAt: now() })
      .where(and(eq(passwordResets.userId, reset.userId), isNull(passwordResets.usedAt)))
      .run();
    const updated = tx.update(lpUsers).set({ passwordHash }).where(eq(lpUsers.id, reset.userId)).returning().get();
    endAllSessions(updated.id, tx);
    audit(tx, "auth.password_reset", { target: userTarget(updated), details: { userId: updated.id, email: updated.email } });
    return updated;
  });
  return user;
}
