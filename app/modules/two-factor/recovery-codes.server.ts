import { randomInt } from "node:crypto";
import { and, count, eq, isNull } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { recoveryCodes } from "../../../db/schema";
import { now } from "../config/clock.server";
import { hashToken } from "../auth/tokens.server";

/**
 * Recovery codes: 10 per account, each 10 characters from an alphabet without
 * look-alikes (about 49 bits), shown as `abcde-fghjk`, stored only as SHA-256,
 * each accepted once. Making new ones replaces all of them.
 */

export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
const SHAPE = /^[a-z0-9]{10}$/;

type DbOrTx = Pick<Db, "insert" | "delete" | "update" | "select">;

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
    .values(codes.map((code) => ({ userId, codeHash: hashToken(cleanRecoveryCode(code) as string) })))
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
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, hashToken(code)), isNull(recoveryCodes.usedAt)))
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
