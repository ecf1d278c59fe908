import { createHash, createHmac, randomInt } from "node:crypto";
import { and, count, eq, inArray, isNull, like, not } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { recoveryCodes } from "../../../db/schema";
import { now } from "../config/clock.server";
import { getEnv } from "../config/env.server";

/**
 * Recovery codes: 10 per account, each 10 characters from an alphabet without
 * look-alikes (about 49 bits), shown as `abcde-fghjk`, each accepted once.
 * Making new ones replaces all of them.
 *
 * Stored as `h1.<key id>.<HMAC-SHA256 hex>` under a key derived from each
 * TOTP_KEYS entry for this purpose alone (the first makes new hashes, every
 * listed one is tried, like the sealed secrets), over the account's id and the
 * code's SHA-256: a leaked database alone does not let anyone test guesses
 * (49 bits would not stand an offline search against a plain hash), and a row
 * copied to another account does not work there. Rows from before (the plain
 * SHA-256 hex of the code) are still accepted; the reseal (server start,
 * admin:reseal-2fa) turns them into `h1` without knowing the codes, because
 * `h1` hashes that same SHA-256.
 */

export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
const SHAPE = /^[a-z0-9]{10}$/;

type DbOrTx = Pick<Db, "insert" | "delete" | "update" | "select">;

type HashKey = { id: string; bytes: Buffer };

function hashKeyOf(material: string): HashKey {
  const bytes = createHash("sha256").update(`recovery-code:${material}`).digest();
  return { id: createHash("sha256").update(bytes).digest("hex").slice(0, 8), bytes };
}

/** The keys recovery codes are hashed under: the first makes new hashes, all are tried. */
function hashKeys(): HashKey[] {
  return getEnv().TOTP_KEYS.map(hashKeyOf);
}

/** The plain SHA-256 (hex) of a cleaned code: what rows from before hold, and what `h1` hashes. */
function plainHash(code: string): string {
  return createHash("sha256").update(code, "utf8").digest("hex");
}

function keyedHash(key: HashKey, userId: string, sha256Hex: string): string {
  return `h1.${key.id}.${createHmac("sha256", key.bytes).update(`${userId}\n${sha256Hex}`, "utf8").digest("hex")}`;
}

/** Every stored form a cleaned code of this account may have: under each listed key, and the plain SHA-256 of before. */
function storedForms(userId: string, code: string): string[] {
  const sha = plainHash(code);
  return [...hashKeys().map((key) => keyedHash(key, userId, sha)), sha];
}

/** Whether stored code hashes are all of the current form (h1 under the first key). */
export function isCurrentCodeHash(codeHash: string): boolean {
  return codeHash.startsWith(`h1.${(hashKeys()[0] as HashKey).id}.`);
}

function newCode(): string {
  let code = "";
  for (let i = 0; i < 10; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** As typed, without spaces, hyphens or case; null when it cannot be a recovery code. */
export function cleanRecoveryCode(input: string): string | null {
  const code = input.replace(/[\s-]/g, "").toLowerCase();
  return SHAPE.test(code) ? code : null;
}

/** Delete every code of the account (two-factor turned off or reset). */
export function clearRecoveryCodes(db: DbOrTx, userId: string): void {
  db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)).run();
}

/** Replace the account's codes with 10 new ones; returns them (the only time they exist in clear). */
export function replaceRecoveryCodes(db: DbOrTx, userId: string): string[] {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  clearRecoveryCodes(db, userId);
  db.insert(recoveryCodes)
    .values(codes.map((code) => ({ userId, codeHash: keyedHash(hashKeys()[0] as HashKey, userId, plainHash(cleanRecoveryCode(code) as string)) })))
    .run();
  return codes;
}

/** Spend one code: true when it was an unused code of this account (it is used up now). */
export function useRecoveryCode(db: DbOrTx, userId: string, input: string): boolean {
  const code = cleanRecoveryCode(input);
  if (!code) return false;
  const spent = db
    .update(recoveryCodes)
    .set({ usedAt: now() })
    .where(and(eq(recoveryCodes.userId, userId), inArray(recoveryCodes.codeHash, storedForms(userId, code)), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id })
    .all();
  return spent.length === 1;
}

export function recoveryCodesLeft(db: DbOrTx, userId: string): number {
  return (
    db
      .select({ n: count() })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)))
      .get()?.n ?? 0
  );
}

/**
 * Turn the rows from before (plain SHA-256) into `h1` under the current key,
 * used or not; returns how many. Rows under an older key stay as they are
 * (their codes are not known): they work while that key is listed.
 */
export function rehashLegacyRecoveryCodes(db: DbOrTx): number {
  const legacy = db
    .select({ id: recoveryCodes.id, userId: recoveryCodes.userId, codeHash: recoveryCodes.codeHash })
    .from(recoveryCodes)
    .where(not(like(recoveryCodes.codeHash, "h1.%")))
    .all();
  const key = hashKeys()[0] as HashKey;
  for (const row of legacy) {
    db.update(recoveryCodes).set({ codeHash: keyedHash(key, row.userId, row.codeHash) }).where(eq(recoveryCodes.id, row.id)).run();
  }
  return legacy.length;
}

/** How many accounts have unused codes hashed under a key that is not the first (they stop working when it is dropped). */
export function accountsWithCodesUnderOldKeys(db: DbOrTx): number {
  const rows = db
    .select({ userId: recoveryCodes.userId, codeHash: recoveryCodes.codeHash })
    .from(recoveryCodes)
    .where(isNull(recoveryCodes.usedAt))
    .all();
  return new Set(rows.filter((row) => !isCurrentCodeHash(row.codeHash)).map((row) => row.userId)).size;
}
