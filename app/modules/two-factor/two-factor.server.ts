import { and, eq, isNull, lt, or } from "drizzle-orm";
import { getDb, type Db } from "~/modules/db/connection.server";
import { userTwoFactor } from "../../../db/schema";
import { securityMails } from "../../content/mail";
import { twoFactorMessages } from "../../content/two-factor";
import { audit, type AuditTarget } from "../audit/audit.server";
import { endAllSessions, endOtherSessions, type LpUser } from "../auth/session.server";
import { now } from "../config/clock.server";
import { getEnv } from "../config/env.server";
import { AppError } from "../http/app-error";
import { enforceRateLimit, type Reservation } from "../http/rate-limit.server";
import { kickMailer, queueMail } from "../mail/mail.server";
import {
  accountsWithCodesUnderOldKeys,
  clearRecoveryCodes,
  recoveryCodesLeft,
  rehashLegacyRecoveryCodes,
  replaceRecoveryCodes,
  useRecoveryCode,
} from "./recovery-codes.server";
import { isCurrentSeal, openSecret, SealError, sealSecret } from "./seal.server";
import { matchTotp, newTotpSecret, qrSvg, totpUri } from "./totp.server";

/**
 * An account's two-factor: enrolment (a pending secret shown as a QR code and
 * as text, confirmed by a code), the check of a code at sign-in (a TOTP code
 * or a recovery code, rate limited per account and per address, each TOTP
 * step accepted once), turning it off, new recovery codes, and the
 * server-side reset. Every change is audited in its transaction and mailed.
 *
 * Secrets are sealed for their account (seal.server.ts): the secret in use for
 * `user:<id>`, a pending one for `user:<id>` and the session that asked for it,
 * so another session of the account is neither shown it nor able to confirm it.
 */

type Account = Pick<LpUser, "id" | "email" | "name" | "isAdmin">;

/** A pending secret is offered again for this long (a reload of the page shows the same QR code). */
const PENDING_TTL_MS = 30 * 60 * 1000;

function target(user: Account): AuditTarget {
  return { type: "user", id: user.id, label: user.email };
}
const actor = (user: Account) => ({ id: user.id, email: user.email });

/** What the secret in use is sealed for: its account (a copy in another account's row does not open). */
const secretContext = (userId: string) => `user:${userId}`;
/** What a pending secret is sealed for: its account and the session that was shown it. */
const pendingContext = (userId: string, sessionId: string) => `user:${userId}\nsession:${sessionId}`;

/** The pending secret of this session, or null (none, another session's, or one that does not open). */
function ownPending(pendingEnc: string | null, userId: string, sessionId: string | null): string | null {
  if (!pendingEnc || !sessionId) return null;
  try {
    return openSecret(pendingEnc, pendingContext(userId, sessionId));
  } catch (error) {
    if (error instanceof SealError) return null;
    throw error;
  }
}

function row(userId: string, db: Db = getDb()) {
  return db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, userId)).get();
}

export function hasTwoFactor(userId: string, db: Db = getDb()): boolean {
  return !!row(userId, db)?.enabledAt;
}

export type TwoFactorState = { enabled: boolean; recoveryCodesLeft: number };

export function twoFactorState(userId: string, db: Db = getDb()): TwoFactorState {
  const enabled = hasTwoFactor(userId, db);
  return { enabled, recoveryCodesLeft: enabled ? recoveryCodesLeft(db, userId) : 0 };
}

export type Enrolment = { secret: string; uri: string; qrSvg: string };

/**
 * The secret to set up for this session (its pending one while it is fresh,
 * else a new one), with its URI and QR code. A session never gets another
 * session's pending secret: it gets a new one, which replaces it (an account
 * sets up one secret at a time).
 */
export async function beginEnrolment(user: Account, sessionId: string, db: Db = getDb()): Promise<Enrolment> {
  const current = row(user.id, db);
  if (current?.enabledAt) throw new AppError("conflict", twoFactorMessages.alreadyOn);
  const fresh = current?.pendingAt && now().getTime() - current.pendingAt.getTime() < PENDING_TTL_MS;
  let secret = fresh ? ownPending(current.pendingEnc, user.id, sessionId) : null;
  if (!secret) {
    secret = newTotpSecret();
    const pending = { pendingEnc: sealSecret(secret, pendingContext(user.id, sessionId)), pendingAt: now() };
    db.insert(userTwoFactor)
      .values({ userId: user.id, ...pending })
      .onConflictDoUpdate({ target: userTwoFactor.userId, set: pending })
      .run();
  }
  const uri = totpUri(secret, user.email);
  return { secret, uri, qrSvg: await qrSvg(uri) };
}

/**
 * Reserve one code attempt's place for the address (every attempt counts) and
 * then the account, before the code is checked, so parallel guesses cannot
 * pass together (decision 030). The caller gives the account's place back when
 * the attempt was no guess (a right code, nothing to check); a wrong code keeps it.
 */
async function limitAttempt(user: Account, clientAddress: string): Promise<Reservation> {
  await enforceRateLimit("twoFactorAddress", clientAddress);
  return enforceRateLimit("twoFactorAccount", user.id);
}

function refuse(user: Account, reason: string, db: Db): never {
  audit(db, "auth.two_factor_failed", { target: target(user), details: { userId: user.id, email: user.email, reason } });
  throw new AppError("unauthorized", twoFactorMessages.invalidCode, { fields: { code: [twoFactorMessages.invalidCode] } });
}

/** Nothing to check: the attempt's place goes back before the error. */
async function notAGuess(place: Reservation, error: AppError): Promise<never> {
  await place.giveBack();
  throw error;
}

/**
 * Confirm this session's pending secret with a code from the app: two-factor
 * is on, every other session of the account ends (this one goes on); returns
 * the 10 recovery codes (shown once). Another session's pending secret is not
 * this session's to confirm: 'Start the setup again'.
 */
export async function confirmEnrolment(
  user: Account,
  code: string,
  clientAddress: string,
  sessionId: string | null,
  db: Db = getDb(),
): Promise<string[]> {
  const place = await limitAttempt(user, clientAddress);
  const current = row(user.id, db);
  if (current?.enabledAt) return notAGuess(place, new AppError("conflict", twoFactorMessages.alreadyOn));
  const secret = ownPending(current?.pendingEnc ?? null, user.id, sessionId);
  if (!secret || !sessionId) return notAGuess(place, new AppError("bad_request", twoFactorMessages.notEnrolling));
  const step = matchTotp(secret, code, now().getTime(), null);
  if (step === null) return refuse(user, "wrong code at enrolment", db);
  const codes = db.transaction((tx) => {
    tx.update(userTwoFactor)
      .set({ secretEnc: sealSecret(secret, secretContext(user.id)), enabledAt: now(), lastStep: step, pendingEnc: null, pendingAt: null })
      .where(eq(userTwoFactor.userId, user.id))
      .run();
    const fresh = replaceRecoveryCodes(tx, user.id);
    // Sessions started before the second factor existed (perhaps by whoever else knew the password) end here.
    const otherSessionsEnded = endOtherSessions(user.id, sessionId, tx);
    audit(tx, "auth.two_factor_enabled", { actor: actor(user), target: target(user), details: { userId: user.id, otherSessionsEnded } });
    queueMail(tx, { to: user.email, ...securityMails.twoFactorEnabled(user, getEnv().APP_URL) });
    return fresh;
  });
  await place.giveBack();
  kickMailer();
  return codes;
}

/** Record a TOTP step as used, unless a later (or the same) step was used already (a parallel request). */
function claimStep(userId: string, step: number, db: Db): boolean {
  const claimed = db
    .update(userTwoFactor)
    .set({ lastStep: step })
    .where(and(eq(userTwoFactor.userId, userId), or(isNull(userTwoFactor.lastStep), lt(userTwoFactor.lastStep, step))))
    .run();
  return claimed.changes === 1;
}

/**
 * The second factor of a sign-in (or of a change that asks for a code): a
 * TOTP code of a later step than the last one accepted, or an unused recovery
 * code (`recovery: false` accepts TOTP codes only). Wrong codes are audited
 * and counted; the answer is 401 'Invalid two-factor code' either way.
 */
export async function verifySecondFactor(
  user: Account,
  code: string,
  clientAddress: string,
  { recovery = true }: { recovery?: boolean } = {},
  db: Db = getDb(),
): Promise<"totp" | "recovery"> {
  const place = await limitAttempt(user, clientAddress);
  const current = row(user.id, db);
  if (!current?.enabledAt || !current.secretEnc) return notAGuess(place, new AppError("bad_request", twoFactorMessages.notOn));
  const step = matchTotp(openSecret(current.secretEnc, secretContext(user.id)), code, now().getTime(), current.lastStep);
  if (step !== null && claimStep(user.id, step, db)) {
    await place.giveBack();
    return "totp";
  }
  if (recovery) {
    const used = db.transaction((tx) => {
      if (!useRecoveryCode(tx, user.id, code)) return false;
      const left = recoveryCodesLeft(tx, user.id);
      audit(tx, "auth.recovery_code_used", { actor: actor(user), target: target(user), details: { userId: user.id, left } });
      queueMail(tx, { to: user.email, ...securityMails.recoveryCodeUsed(user, left, getEnv().APP_URL) });
      return true;
    });
    if (used) {
      kickMailer();
      await place.giveBack();
      return "recovery";
    }
  }
  return refuse(user, step === null ? "wrong code" : "code already used", db);
}

/** Turn two-factor off with a current code (admins keep it: the admin portal requires it). */
export async function disableTwoFactor(user: Account, code: string, clientAddress: string, db: Db = getDb()): Promise<void> {
  if (user.isAdmin) throw new AppError("forbidden", twoFactorMessages.adminsKeepIt);
  await verifySecondFactor(user, code, clientAddress, { recovery: true }, db);
  db.transaction((tx) => {
    tx.delete(userTwoFactor).where(eq(userTwoFactor.userId, user.id)).run();
    clearRecoveryCodes(tx, user.id);
    audit(tx, "auth.two_factor_disabled", { actor: actor(user), target: target(user), details: { userId: user.id } });
    queueMail(tx, { to: user.email, ...securityMails.twoFactorDisabled(user, getEnv().APP_URL) });
  });
  kickMailer();
}

/** New recovery codes for a current TOTP code; the old ones stop working. */
export async function regenerateRecoveryCodes(user: Account, code: string, clientAddress: string, db: Db = getDb()): Promise<string[]> {
  await verifySecondFactor(user, code, clientAddress, { recovery: false }, db);
  const codes = db.transaction((tx) => {
    const fresh = replaceRecoveryCodes(tx, user.id);
    audit(tx, "auth.recovery_codes_regenerated", { actor: actor(user), target: target(user), details: { userId: user.id } });
    queueMail(tx, { to: user.email, ...securityMails.recoveryCodesRegenerated(user, getEnv().APP_URL) });
    return fresh;
  });
  kickMailer();
  return codes;
}

/** Pre-enrol with a known secret (admin:create --totp-secret): on, no recovery codes until the account makes them. */
export function enrolWithSecret(userId: string, secret: string, db: Pick<Db, "insert"> = getDb()): void {
  const values = { secretEnc: sealSecret(secret, secretContext(userId)), enabledAt: now(), lastStep: null, pendingEnc: null, pendingAt: null };
  db.insert(userTwoFactor)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: userTwoFactor.userId, set: values })
    .run();
}

/**
 * Lockout recovery on the server (admin:reset-2fa): two-factor and the
 * recovery codes are cleared, every session of the account ends, the event is
 * recorded and the account is mailed. Returns false when it had no two-factor.
 */
export function resetTwoFactor(user: Account, db: Db = getDb()): boolean {
  const had = hasTwoFactor(user.id, db);
  db.transaction((tx) => {
    tx.delete(userTwoFactor).where(eq(userTwoFactor.userId, user.id)).run();
    clearRecoveryCodes(tx, user.id);
    endAllSessions(user.id, tx);
    audit(tx, "auth.two_factor_reset", { target: target(user), details: { userId: user.id, email: user.email, via: "command line", hadTwoFactor: had } });
    queueMail(tx, { to: user.email, ...securityMails.twoFactorReset(user, getEnv().APP_URL) });
  });
  return had;
}

export type ResealReport = {
  /** Two-factor rows looked at. */
  total: number;
  /** Secrets in use sealed again (v1 to v2, or an older key to the first). */
  resealed: number;
  /** Pending set-ups not sealed as now: their session is not known here, so they are dropped (the page makes a new one). */
  pendingDropped: number;
  /** Recovery codes stored as plain SHA-256 that are now keyed hashes. */
  recoveryCodesRehashed: number;
  /** Secrets no configured key opens (left as they are: that account's codes fail until the key is back or two-factor is reset). */
  failed: number;
  /** Accounts whose unused recovery codes are hashed under an older key (they stop working when it is dropped). */
  accountsWithCodesUnderOldKeys: number;
};

/**
 * Bring every stored two-factor value to the current form, idempotently: run
 * at every server start and by `npm run admin:reseal-2fa` (after a TOTP key
 * rotation). Secrets sealed before the binding (v1) or under a key that is not
 * the first are sealed again (v2, first key); recovery codes stored as plain
 * SHA-256 become keyed hashes. One transaction.
 */
export function resealSecrets(db: Db = getDb()): ResealReport {
  return db.transaction((tx) => {
    const rows = tx.select().from(userTwoFactor).all();
    const report = { total: rows.length, resealed: 0, pendingDropped: 0, recoveryCodesRehashed: 0, failed: 0, accountsWithCodesUnderOldKeys: 0 };
    for (const current of rows) {
      let secretEnc = current.secretEnc;
      if (secretEnc && !isCurrentSeal(secretEnc)) {
        try {
          secretEnc = sealSecret(openSecret(secretEnc, secretContext(current.userId)), secretContext(current.userId));
          report.resealed++;
        } catch (error) {
          if (!(error instanceof SealError)) throw error;
          report.failed++;
        }
      }
      const pendingEnc = current.pendingEnc && isCurrentSeal(current.pendingEnc) ? current.pendingEnc : null;
      if (pendingEnc !== current.pendingEnc) report.pendingDropped++;
      if (secretEnc === current.secretEnc && pendingEnc === current.pendingEnc) continue;
      tx.update(userTwoFactor)
        .set({ secretEnc, pendingEnc, pendingAt: pendingEnc ? current.pendingAt : null })
        .where(eq(userTwoFactor.userId, current.userId))
        .run();
    }
    report.recoveryCodesRehashed = rehashLegacyRecoveryCodes(tx);
    report.accountsWithCodesUnderOldKeys = accountsWithCodesUnderOldKeys(tx);
    return report;
  });
}
