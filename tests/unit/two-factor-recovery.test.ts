import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
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
import { insertUser } from "../helpers/users";

/**
 * Recovery codes (app/modules/two-factor/recovery-codes.server.ts) against this
 * file's own SQLite database: 10 per account, shaped `abcde-fghjk`, kept only
 * as SHA-256, each accepted once, replaced as a set.
 */

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

  it("stores only the SHA-256 of each code, never the code", () => {
    const codes = replaceRecoveryCodes(getDb(), alice.id);
    const rows = rowsOf(alice.id);
    expect(rows).toHaveLength(10);
    expect(rows.map((row) => row.codeHash).sort()).toEqual(codes.map((code) => sha256(bare(code))).sort());
    for (const row of rows) {
      expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.usedAt).toBeNull();
    }
    // No column of any row holds a code, with or without its hyphen.
    const dump = JSON.stringify(getDb().select().from(recoveryCodes).all());
    for (const code of codes) {
      expect(dump).not.toContain(code);
      expect(dump).not.toContain(bare(code));
    }
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
    expect(used[0]?.codeHash).toBe(sha256(bare(codes[3] as string)));
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
