import { and, desc, eq, gt, ne } from "drizzle-orm";
import { UAParser } from "ua-parser-js";
import { getDb, type Db } from "~/modules/db/connection.server";
import { lpUsers, sessions } from "../../../db/schema";
import { accountPageMessages } from "../../content/account";
import { securityMails } from "../../content/mail";
import { audit } from "../audit/audit.server";
import { now } from "../config/clock.server";
import { getEnv } from "../config/env.server";
import { AppError } from "../http/app-error";
import { enforceRateLimit } from "../http/rate-limit.server";
import { kickMailer, queueMail } from "../mail/mail.server";
import { hashPassword, verifyPassword } from "../lp-users/password.server";
import type { ChangePasswordInput } from "../lp-users/schema";
import { SESSION_IDLE_MS, type LpUser } from "./session.server";

/**
 * What a signed-in user manages on their account page: the sessions they
 * have open (each can be signed out, or all but this one), and their
 * password (changing it ends every other session). Revocation deletes the
 * session row, so it holds from the next request on.
 */

type Account = Pick<LpUser, "id" | "email" | "name">;
const who = (user: Account) => ({ actor: { id: user.id, email: user.email }, target: { type: "user" as const, id: user.id, label: user.email } });

export type ListedSession = {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  ip: string | null;
  /** "Firefox 133 on Windows 10", from the user agent; null when it names nothing known. */
  device: string | null;
  current: boolean;
};

/** "Browser version on System version" as ua-parser-js reads a user agent, or null. */
export function describeUserAgent(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const { browser, os } = new UAParser(userAgent).getResult();
  const name = (part: { name?: string | undefined; version?: string | undefined }, major?: string) =>
    part.name ? [part.name, major ?? part.version].filter(Boolean).join(" ") : null;
  const browserName = name(browser, browser.version?.split(".")[0]);
  const system = name(os);
  if (browserName && system) return accountPageMessages.device(browserName, system);
  return browserName ?? system;
}

/** The user's live, fully signed-in sessions, the most recently used first. */
export function listSessions(user: Pick<LpUser, "id">, currentId: string | null, db: Db = getDb()): ListedSession[] {
  const at = now().getTime();
  return db
    .select()
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, user.id),
        eq(sessions.stage, "full"),
        gt(sessions.expiresAt, new Date(at)),
        gt(sessions.lastSeenAt, new Date(at - SESSION_IDLE_MS)),
      ),
    )
    .orderBy(desc(sessions.lastSeenAt))
    .all()
    .map((row) => ({
      id: row.id,
      createdAt: row.createdAt.toISOString(),
      lastSeenAt: row.lastSeenAt.toISOString(),
      ip: row.ip,
      device: describeUserAgent(row.userAgent),
      current: row.id === currentId,
    }));
}

/** The user's sessions other than the current one. */
function otherSessions(userId: string, currentId: string | null) {
  return currentId ? and(eq(sessions.userId, userId), ne(sessions.id, currentId)) : eq(sessions.userId, userId);
}

/** Sign out one of the user's own sessions (never another user's; this device signs out with Logout). */
export function revokeSession(user: Account, sessionId: string, currentId: string | null, db: Db = getDb()): void {
  if (sessionId === currentId) throw new AppError("bad_request", accountPageMessages.useLogout);
  db.transaction((tx) => {
    const ended = tx.delete(sessions).where(and(eq(sessions.id, sessionId), eq(sessions.userId, user.id))).returning({ id: sessions.id }).get();
    if (!ended) throw new AppError("not_found", accountPageMessages.sessionGone);
    audit(tx, "auth.session_revoked", { ...who(user), details: { userId: user.id, sessions: 1 } });
  });
}

/** Sign out every session of the user but the current one; returns how many ended. */
export function revokeOtherSessions(user: Account, currentId: string | null, db: Db = getDb()): number {
  return db.transaction((tx) => {
    const ended = tx.delete(sessions).where(otherSessions(user.id, currentId)).returning({ id: sessions.id }).all().length;
    audit(tx, "auth.session_revoked", { ...who(user), details: { userId: user.id, sessions: ended, allOthers: true } });
    return ended;
  });
}

/**
 * Change the password: the current one must match (each check reserves a
 * place in the account's sign-in window before bcrypt runs, as a sign-in does,
 * and a right one gives it back); the new hash is stored, every other session
 * ends, and the change is audited and mailed.
 */
export async function changePassword(user: LpUser, input: ChangePasswordInput, currentId: string | null, db: Db = getDb()): Promise<void> {
  const place = await enforceRateLimit("loginAccount", user.email);
  if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
    audit(db, "auth.sign_in_failed", { ...who(user), details: { userId: user.id, email: user.email, reason: "wrong current password at password change" } });
    throw new AppError("unauthorized", accountPageMessages.wrongPassword, { fields: { currentPassword: [accountPageMessages.wrongPassword] } });
  }
  await place.giveBack();
  const passwordHash = await hashPassword(input.password);
  db.transaction((tx) => {
    tx.update(lpUsers).set({ passwordHash }).where(eq(lpUsers.id, user.id)).run();
    const ended = tx.delete(sessions).where(otherSessions(user.id, currentId)).returning({ id: sessions.id }).all().length;
    audit(tx, "auth.password_changed", { ...who(user), details: { userId: user.id, otherSessionsEnded: ended } });
    queueMail(tx, { to: user.email, ...securityMails.passwordChanged(user, getEnv().APP_URL) });
  });
  kickMailer();
}
