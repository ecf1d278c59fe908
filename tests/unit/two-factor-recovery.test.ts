import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/modules/db/connection.server";
import { recoveryCodes } from "../../db/schema";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import {
  RECOVERY_CODE_COUNT,
  cleanRecoveryCode,
  clearRecoveryCodes,
  recoveryCodesLeft,
  replaceRecoveryCodes,
  useRecoveryCode,
} from "~/modules/two-factor/recovery-codes.server";
import { resetEnvForTests } from "~/modules/config/env.server";
import { legacyRecoveryHash } from "../helpers/legacy-two-factor";
import { insertUser } from "../helpers/users";

/**
 * Recovery codes (app/modules/two-factor/recovery-codes.server.ts) against this
 * file's own SQLite database: 10 per account, shaped `abcde-fghjk`, kept only
 * as an HMAC-SHA256 under a server key (`h1.<key id>.<hex>`; rows from before,
 * plain SHA-256, still accepted), each accepted once, replaced as a set.
 */

const KEY_A = "key-a-0123456789abcdef0123456789abcdef";
const KEY_B = "key-b-0123456789abcdef0123456789abcdef";
const savedKeys = process.env.TOTP_KEYS;

/** Set TOTP_KEYS (undefined: unset, SESSION_SECRET is the key) and make getEnv() re-read it. */
function setKeys(value: string | undefined) {
  if (value === undefined) delete process.env.TOTP_KEYS;
  else process.env.TOTP_KEYS = value;
  resetEnvForTests();
}

afterEach(() => setKeys(savedKeys));

const STORED = /^h1\.([0-9a-f]{8})\.([0-9a-f]{64})$/;

const SHAPE = /^[a-z0-9]{5}-[a-z0-9]{5}$/;
/** The alphabet without look-alikes (no i, l, o, 0, 1). */
const ALPHABET = /^[abcdefghjkmnpqrstuvwxyz23456789-]+$/;
const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const bare = (code: string) => code.replace("-", "");

let alice: LpUser;
let bob: LpUser;

beforeAll(async () => {
  alice = await insertUser();
  bob = await insertUser();
});

beforeEach(() => {
  getDb().delete(recoveryCodes).run();
});

function rowsOf(userId: string) {
  return getDb().select().from(recoveryCodes).where(eq(recoveryCodes.userId, userId)).all();
}

describe("replaceRecoveryCodes", () => {
  it("makes 10 distinct codes shaped abcde-fghjk from the alphabet without look-alikes", () => {
    const codes = replaceRecoveryCodes(getDb(), alice.id);
    expect(RECOVERY_CODE_COUNT).toBe(10);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) {
      expect(code).toMatch(SHAPE);
      expect(code).toMatch(ALPHABET);
    }
    expect(recoveryCodesLeft(getDb(), alice.id)).toBe(10);
  });

  it("differs from one call to the next", () => {
    const first = replaceRecoveryCodes(getDb(), alice.id);
    const second = replaceRecoveryCodes(getDb(), alice.id);
    expect(second.filter((code) => first.includes(code))).toEqual([]);
  });

  it("stores only a keyed HMAC of each code (h1.<key id>.<hex>): not the code, not its plain SHA-256", () => {
    const codes = replaceRecoveryCodes(getDb(), alice.id);
    const rows = rowsOf(alice.id);
    expect(rows).toHaveLength(10);
    const keyIds = new Set<string>();
    for (const row of rows) {
      const match = STORED.exec(row.codeHash);
      expect(match, row.codeHash).not.toBeNull();
      keyIds.add(match![1]!);
      expect(row.usedAt).toBeNull();
    }
    expect(keyIds.size).toBe(1);
    // No column of any row holds a code (with or without its hyphen) or a plain hash of one.
    const dump = JSON.stringify(getDb().select().from(recoveryCodes).all());
    for (const code of codes) {
      expect(dump).not.toContain(code);
      expect(dump).not.toContain(bare(code));
      expect(dump).not.toContain(sha256(bare(code)));
      expect(dump).not.toContain(sha256(`${alice.id}:${bare(code)}`));
    }
  });

  it("the key id does not reveal the key, and differs from key to key", () => {
    setKeys(KEY_A);
    replaceRecoveryCodes(getDb(), alice.id);
    const idOfA = STORED.exec(rowsOf(alice.id)[0]!.codeHash)![1]!;
    expect(KEY_A).not.toContain(idOfA);
    expect(sha256(KEY_A).slice(0, 8)).not.toBe(idOfA);
    setKeys(KEY_B);
    replaceRecoveryCodes(getDb(), alice.id);
    expect(STORED.exec(rowsOf(alice.id)[0]!.codeHash)![1]).not.toBe(idOfA);
  });

  it("invalidates the previous set", () => {
    const old = replaceRecoveryCodes(getDb(), alice.id);
    const fresh = replaceRecoveryCodes(getDb(), alice.id);
    expect(rowsOf(alice.id)).toHaveLength(10);
    for (const code of old) expect(useRecoveryCode(getDb(), alice.id, code)).toBe(false);
    expect(useRecoveryCode(getDb(), alice.id, fresh[0] as string)).toBe(true);
    expect(recoveryCodesLeft(getDb(), alice.id)).toBe(9);
  });

  it("gives a full set again after some were used", () => {
    const codes = replaceRecoveryCodes(getDb(), alice.id);
    expect(useRecoveryCode(getDb(), alice.id, codes[0] as string)).toBe(true);
    expect(recoveryCodesLeft(getDb(), alice.id)).toBe(9);
    replaceRecoveryCodes(getDb(), alice.id);
    expect(recoveryCodesLeft(getDb(), alice.id)).toBe(10);
    expect(rowsOf(alice.id)).toHaveLength(10);
  });

  it("leaves another account's codes alone", () => {
    const bobs = replaceRecoveryCodes(getDb(), bob.id);
    replaceRecoveryCodes(getDb(), alice.id);
    replaceRecoveryCodes(getDb(), alice.id);
    expect(recoveryCodesLeft(getDb(), bob.id)).toBe(10);
    expect(useRecoveryCode(getDb(), bob.id, bobs[0] as string)).toBe(true);
  });
});

describe("useRecoveryCode", () => {
  it("accepts each code exactly once, and recoveryCodesLeft counts down", () => {
    const codes = replaceRecoveryCodes(getDb(), alice.id);
    codes.forEach((code, i) => {
      expect(useRecoveryCode(getDb(), alice.id, code)).toBe(true);
      expect(recoveryCodesLeft(getDb(), alice.id)).toBe(9 - i);
      expect(useRecoveryCode(getDb(), alice.id, code)).toBe(false);
      expect(recoveryCodesLeft(getDb(), alice.id)).toBe(9 - i);
    });
    expect(recoveryCodesLeft(getDb(), alice.id)).toBe(0);
  });

  it("marks the used code's row with the time it was used", () => {
    const codes = replaceRecoveryCodes(getDb(), alice.id);
    const before = Date.now();
    expect(useRecoveryCode(getDb(), alice.id, codes[3] as string)).toBe(true);
    const used = rowsOf(alice.id).filter((row) => row.usedAt !== null);
    expect(used).toHaveLength(1);
    expect(used[0]?.codeHash).toMatch(STORED);
    expect(used[0]?.usedAt?.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it.each([
    ["upper case", (c: string) => c.toUpperCase()],
    ["without the hyphen", (c: string) => bare(c)],
    ["with spaces instead of the hyphen", (c: string) => c.replace("-", " ")],
    ["with spaces around", (c: string) => `  ${c}\t`],
    ["in groups with spaces and mixed case", (c: string) => `${c.slice(0, 3).toUpperCase()} ${c.slice(3)}`],
  ])("accepts a code typed %s (once)", (_how, typed) => {
    const codes = replaceRecoveryCodes(getDb(), alice.id);
    const code = codes[0] as string;
    expect(useRecoveryCode(getDb(), alice.id, typed(code))).toBe(true);
    expect(useRecoveryCode(getDb(), alice.id, code)).toBe(false);
    expect(recoveryCodesLeft(getDb(), alice.id)).toBe(9);
  });

  it("does not accept one account's code for another account", () => {
    const alices = replaceRecoveryCodes(getDb(), alice.id);
    replaceRecoveryCodes(getDb(), bob.id);
    for (const code of alices) expect(useRecoveryCode(getDb(), bob.id, code)).toBe(false);
    expect(recoveryCodesLeft(getDb(), bob.id)).toBe(10);
    expect(recoveryCodesLeft(getDb(), alice.id)).toBe(10);
    // Still good for its own account.
    expect(useRecoveryCode(getDb(), alice.id, alices[0] as string)).toBe(true);
  });

  it("refuses wrong or malformed codes without using anything up", () => {
    const codes = replaceRecoveryCodes(getDb(), alice.id);
    const code = codes[0] as string;
    const wrongLast = code.slice(0, -1) + (code.endsWith("a") ? "b" : "a");
    for (const input of ["", "123456", wrongLast, code.slice(0, -1), `${code}a`, code.replace("-", "_"), "%", sha256(bare(code))]) {
      expect(useRecoveryCode(getDb(), alice.id, input)).toBe(false);
    }
    expect(recoveryCodesLeft(getDb(), alice.id)).toBe(10);
  });

  it("refuses everything for an account without codes", () => {
    expect(recoveryCodesLeft(getDb(), alice.id)).toBe(0);
    expect(useRecoveryCode(getDb(), alice.id, "abcde-fghjk")).toBe(false);
  });
});

describe("keys and rows from before", () => {
  it("a code stored as plain SHA-256 (before the keyed hash) is still accepted, once", () => {
    const code = "abcde-fghjk";
    getDb().insert(recoveryCodes).values({ userId: alice.id, codeHash: legacyRecoveryHash(code) }).run();
    expect(recoveryCodesLeft(getDb(), alice.id)).toBe(1);
    expect(useRecoveryCode(getDb(), alice.id, "ABCDE FGHJK")).toBe(true);
    expect(useRecoveryCode(getDb(), alice.id, code)).toBe(false);
    expect(recoveryCodesLeft(getDb(), alice.id)).toBe(0);
  });

  it("making new codes replaces the plain SHA-256 rows with keyed ones", () => {
    getDb().insert(recoveryCodes).values({ userId: alice.id, codeHash: legacyRecoveryHash("abcde-fghjk") }).run();
    replaceRecoveryCodes(getDb(), alice.id);
    for (const row of rowsOf(alice.id)) expect(row.codeHash).toMatch(STORED);
    expect(useRecoveryCode(getDb(), alice.id, "abcde-fghjk")).toBe(false);
  });

  it("after a rotation (TOTP_KEYS=B,A) codes made under A still work while A is listed; new codes use B; without A they stop", () => {
    setKeys(KEY_A);
    const underA = replaceRecoveryCodes(getDb(), alice.id);
    const idOfA = STORED.exec(rowsOf(alice.id)[0]!.codeHash)![1];
    setKeys(`${KEY_B},${KEY_A}`);
    expect(useRecoveryCode(getDb(), alice.id, underA[0]!)).toBe(true);
    const underB = replaceRecoveryCodes(getDb(), bob.id);
    expect(STORED.exec(rowsOf(bob.id)[0]!.codeHash)![1]).not.toBe(idOfA);
    setKeys(KEY_B);
    expect(useRecoveryCode(getDb(), alice.id, underA[1]!)).toBe(false);
    expect(useRecoveryCode(getDb(), bob.id, underB[0]!)).toBe(true);
  });

  it("a stored hash copied to another account's rows does not work there (the account is part of the hash)", () => {
    const alices = replaceRecoveryCodes(getDb(), alice.id);
    const stolen = rowsOf(alice.id).map((row) => ({ userId: bob.id, codeHash: row.codeHash }));
    getDb().insert(recoveryCodes).values(stolen).run();
    for (const code of alices) expect(useRecoveryCode(getDb(), bob.id, code)).toBe(false);
    expect(useRecoveryCode(getDb(), alice.id, alices[0]!)).toBe(true);
  });
});

describe("clearRecoveryCodes", () => {
  it("deletes every code of the account only", () => {
    const codes = replaceRecoveryCodes(getDb(), alice.id);
    replaceRecoveryCodes(getDb(), bob.id);
    clearRecoveryCodes(getDb(), alice.id);
    expect(rowsOf(alice.id)).toEqual([]);
    expect(recoveryCodesLeft(getDb(), alice.id)).toBe(0);
    expect(useRecoveryCode(getDb(), alice.id, codes[0] as string)).toBe(false);
    expect(recoveryCodesLeft(getDb(), bob.id)).toBe(10);
  });
});

describe("cleanRecoveryCode", () => {
  it.each([
    ["abcde-fghjk", "abcdefghjk"],
    ["ABCDE-FGHJK", "abcdefghjk"],
    ["abcdefghjk", "abcdefghjk"],
    ["abcde fghjk", "abcdefghjk"],
    [" ab cde-fg hjk ", "abcdefghjk"],
    ["a-b-c-d-e-f-g-h-j-k", "abcdefghjk"],
    ["x2c4e-56789", "x2c4e56789"],
  ])("cleans %j to %j", (input, expected) => {
    expect(cleanRecoveryCode(input)).toBe(expected);
  });

  it.each(["", "abcde", "abcde-fghj", "abcde-fghjkm", "abcde_fghjk", "abcde.fghjk", "abcdé-fghjk", "123456"])(
    "refuses %j",
    (input) => {
      expect(cleanRecoveryCode(input)).toBeNull();
    },
  );
});
