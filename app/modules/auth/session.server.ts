import { and, eq, lt, ne, or } from "drizzle-orm";
import { createCookieSessionStorage, type SessionStorage } from "react-router";
import { getDb, type Db } from "~/modules/db/connection.server";
import { lpUsers, sessions, userTwoFactor } from "../../../db/schema";
import { now } from "../config/clock.server";
import { getEnv } from "../config/env.server";
import { hashToken, newToken } from "./tokens.server";
import { audit } from "../audit/audit.server";
import { currentRequest } from "../logging/log.server";

/**
 * Sign-in sessions (DESIGN.md §4). The signed, HttpOnly cookie carries a random
 * session token and the role; the sessions table (keyed by the token's SHA-256)
 * makes every session revocable. A session ends after 2 hours without a request
 * (idle) and 12 hours after sign-in (absolute), whichever comes first.
 */
export const SESSION_IDLE_MS = 2 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
/** A two-factor challenge (password right, code not yet given) lasts this long. */
export const TWO_FACTOR_CHALLENGE_MS = 5 * 60 * 1000;
/** lastSeenAt is written at most this often (keeps reads cheap). */
const TOUCH_INTERVAL_MS = 60 * 1000;

export type Role = "investor" | "admin";
export type LpUser = typeof lpUsers.$inferSelect;

type SessionData = { token: string; role: Role };

let storage: SessionStorage<SessionData> | undefined;

export function sessionCookieName() {
  return getEnv().SECURE_COOKIES ? "__Host-lr_session" : "lr_session";
}

function sessionStorage(): SessionStorage<SessionData> {
  if (!storage) {
    const env = getEnv();
    storage = createCookieSessionStorage<SessionData>({
      cookie: {
        name: sessionCookieName(),
        httpOnly: true,
        sameSite: "lax",
        path: "/",
        secure: env.SECURE_COOKIES,
        secrets: [env.SESSION_SECRET],
        // The browser may drop it at the absolute lifetime; the server enforces both limits anyway.
        maxAge: SESSION_ABSOLUTE_MS / 1000,
      },
    });
  }
  return storage;
}

function roleOf(user: Pick<LpUser, "isAdmin">): Role {
  return user.isAdmin ? "admin" : "investor";
}

async function readToken(request: Request): Promise<string | null> {
  const cookie = request.headers.get("Cookie");
  if (!cookie || !cookie.includes(sessionCookieName())) return null;
  const session = await sessionStorage().getSession(cookie);
  const token = session.get("token");
  return typeof token === "string" && token.length > 0 ? token : null;
}

/**
 * Start a session for a user who just proved who they are. Any session the
 * request already carried is ended first (rotation), so a planted cookie never
 * becomes a signed-in one. Returns the Set-Cookie header.
 */
export async function createUserSession(
  request: Request,
  user: LpUser,
  signInDetails: Record<string, unknown>,
  db: Db = getDb(),
): Promise<string> {
  return startSession(request, user, "full", db, (tx) =>
    audit(tx, "auth.sign_in", {
      actor: { id: user.id, email: user.email },
      target: { type: "user", id: user.id, label: user.email },
      details: { userId: user.id, email: user.email, ...signInDetails },
    }),
  );
}

/**
 * The first step of a two-factor sign-in: a session that lasts 5 minutes and
 * that nothing accepts but the code step (getSessionUser never returns it).
 */
export async function createTwoFactorChallenge(request: Request, user: LpUser, db: Db = getDb()): Promise<string> {
  return startSession(request, user, "two_factor", db, () => undefined);
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** A new session row under a new token (the request's previous session ends), and its cookie. */
async function startSession(request: Request, user: LpUser, stage: "full" | "two_factor", db: Db, record: (tx: Tx) => void): Promise<string> {
  const previous = await readToken(request);
  const token = newToken();
  const at = now();
  const context = currentRequest();
  db.transaction((tx) => {
    if (previous) tx.delete(sessions).where(eq(sessions.tokenHash, hashToken(previous))).run();
    tx.insert(sessions)
      .values({
        tokenHash: hashToken(token),
        userId: user.id,
        role: roleOf(user),
        stage,
        ip: context?.ip ?? null,
        userAgent: context?.userAgent ?? null,
        createdAt: at,
        lastSeenAt: at,
        expiresAt: new Date(at.getTime() + (stage === "full" ? SESSION_ABSOLUTE_MS : TWO_FACTOR_CHALLENGE_MS)),
      })
      .run();
    // Housekeeping: forget sessions that can no longer be used.
    tx.delete(sessions)
      .where(or(lt(sessions.expiresAt, at), lt(sessions.lastSeenAt, new Date(at.getTime() - SESSION_IDLE_MS))))
      .run();
    record(tx);
  });
  const session = await sessionStorage().getSession();
  session.set("token", token);
  session.set("role", roleOf(user));
  return sessionStorage().commitSession(session);
}

/**
 * The signed-in user, re-read from the database on every call, or null when
 * there is no live session. Ended, expired and idle sessions are refused.
 */
export async function getSessionUser(request: Request, db: Db = getDb()): Promise<LpUser | null> {
  const found = await liveSession(request, db);
  return found?.stage === "full" ? found.user : null;
}

/**
 * The admin of a session limited to setting up two-factor (an admin without
 * it: the admin portal requires it), or null. Only the enrolment page and the
 * guards' answers read it; getSessionUser never returns such a session.
 */
export async function getEnrolmentUser(request: Request, db: Db = getDb()): Promise<LpUser | null> {
  const found = await liveSession(request, db);
  return found?.stage === "enrolment" ? found.user : null;
}

/** The user of the request's two-factor challenge (password given, code not yet), or null. */
export async function getTwoFactorChallenge(request: Request, db: Db = getDb()): Promise<LpUser | null> {
  const found = await liveSession(request, db);
  return found?.stage === "two_factor" ? found.user : null;
}

/**
 * What a live session may do: `full`, `two_factor` (a challenge: only the code
 * step), or `enrolment` (an admin without two-factor: only its set-up). The
 * last is decided on every request, so an admin whose two-factor is reset
 * loses the portal at once, and gains it back the moment it is set up.
 */
type SessionStage = "full" | "two_factor" | "enrolment";

/** The request's session row and user, if the session is live (not ended, expired or idle, role unchanged). */
async function liveSession(request: Request, db: Db): Promise<{ user: LpUser; stage: SessionStage } | null> {
  const token = await readToken(request);
  if (!token) return null;
  const row = db
    .select({ session: sessions, user: lpUsers, twoFactorSince: userTwoFactor.enabledAt })
    .from(sessions)
    .innerJoin(lpUsers, eq(lpUsers.id, sessions.userId))
    .leftJoin(userTwoFactor, eq(userTwoFactor.userId, sessions.userId))
    .where(eq(sessions.tokenHash, hashToken(token)))
    .get();
  if (!row) return null;
  const at = now();
  const idleFor = at.getTime() - row.session.lastSeenAt.getTime();
  if (row.session.expiresAt.getTime() <= at.getTime() || idleFor >= SESSION_IDLE_MS) {
    db.delete(sessions).where(eq(sessions.id, row.session.id)).run();
    return null;
  }
  // A role change (promotion or demotion) ends the session's authority.
  if (row.session.role !== roleOf(row.user)) return null;
  if (idleFor > TOUCH_INTERVAL_MS) {
    db.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.id, row.session.id)).run();
  }
  const enrolment = row.session.stage === "full" && row.user.isAdmin && !row.twoFactorSince;
  return { user: row.user, stage: enrolment ? "enrolment" : row.session.stage };
}

/** End the request's session on the server; returns the Set-Cookie header that clears the cookie. */
export async function endSession(request: Request, db: Db = getDb()): Promise<string> {
  const token = await readToken(request);
  if (token) {
    db.transaction((tx) => {
      const ended = tx
        .select({ id: sessions.id, userId: lpUsers.id, email: lpUsers.email })
        .from(sessions)
        .innerJoin(lpUsers, eq(lpUsers.id, sessions.userId))
        .where(eq(sessions.tokenHash, hashToken(token)))
        .get();
      if (!ended) return;
      tx.delete(sessions).where(eq(sessions.id, ended.id)).run();
      const user = { id: ended.userId, email: ended.email };
      audit(tx, "auth.sign_out", { actor: user, target: { type: "user", id: user.id, label: user.email }, details: { userId: user.id } });
    });
  }
  const session = await sessionStorage().getSession(request.headers.get("Cookie"));
  return sessionStorage().destroySession(session);
}

/** The id of the request's session row (full or challenge), or null. */
export async function currentSessionId(request: Request, db: Db = getDb()): Promise<string | null> {
  const token = await readToken(request);
  if (!token) return null;
  return db.select({ id: sessions.id }).from(sessions).where(eq(sessions.tokenHash, hashToken(token))).get()?.id ?? null;
}

/** End every session of a user (revocation, password reset, promotion); returns how many ended. */
export function endAllSessions(userId: string, db: Pick<Db, "delete"> = getDb()): number {
  return db.delete(sessions).where(eq(sessions.userId, userId)).run().changes;
}

/** End every session of a user but `keepId` (two-factor turned on from that session); returns how many ended. */
export function endOtherSessions(userId: string, keepId: string, db: Pick<Db, "delete"> = getDb()): number {
  return db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.id, keepId)))
    .returning({ id: sessions.id })
    .all().length;
}

/** How many live sessions a user has (tests, diagnostics). */
export function countSessions(userId: string, db: Db = getDb()): number {
  return db.select({ id: sessions.id }).from(sessions).where(and(eq(sessions.userId, userId))).all().length;
}
