import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { getEnv, resetEnvForTests } from "~/modules/config/env.server";
import { SealError, isCurrentSeal, isSealedWithCurrentKey, openSecret, sealSecret } from "~/modules/two-factor/seal.server";
import { sealV1 } from "../helpers/legacy-two-factor";
import { TEST_SESSION_SECRET } from "../helpers/test-env";

/**
 * TOTP secrets at rest (app/modules/two-factor/seal.server.ts): AES-256-GCM,
 * `v2.<key id>.<iv|tag|ciphertext>` bound to a context (the account, as the
 * cipher's additional data), keys from TOTP_KEYS (first seals, all open) or
 * SESSION_SECRET; `v1` values (no context) still open. getEnv() caches: every
 * change of the environment goes through setKeys(), and afterEach puts it back.
 */

const SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
const KEY_A = "key-a-0123456789abcdef0123456789abcdef";
const KEY_B = "key-b-0123456789abcdef0123456789abcdef";
const KEY_C = "key-c-0123456789abcdef0123456789abcdef";
/** The context a secret is sealed for (two-factor.server.ts uses the account's id). */
const CTX = "user:3f9a1c2e-0000-4000-8000-000000000001";
const OTHER_CTX = "user:3f9a1c2e-0000-4000-8000-000000000002";

const saved = { TOTP_KEYS: process.env.TOTP_KEYS, SESSION_SECRET: process.env.SESSION_SECRET };

/** Set TOTP_KEYS (undefined: unset) and make getEnv() re-read it. */
function setKeys(value: string | undefined) {
  if (value === undefined) delete process.env.TOTP_KEYS;
  else process.env.TOTP_KEYS = value;
  resetEnvForTests();
}

afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvForTests();
});

type Parts = { version: string; keyId: string; payload: string };
function partsOf(sealed: string): Parts {
  const [version = "", keyId = "", payload = "", ...rest] = sealed.split(".");
  expect(rest).toEqual([]);
  return { version, keyId, payload };
}

/** Flip one bit of the decoded payload at `index` (0–11 IV, 12–27 tag, 28… ciphertext). */
function flipPayloadByte(sealed: string, index: number): string {
  const { version, keyId, payload } = partsOf(sealed);
  const raw = Buffer.from(payload, "base64url");
  expect(index).toBeLessThan(raw.length);
  raw[index] = (raw[index] ?? 0) ^ 0x01;
  return `${version}.${keyId}.${raw.toString("base64url")}`;
}

describe("sealSecret / openSecret", () => {
  it("round-trips, and the sealed value does not contain the secret", () => {
    setKeys(KEY_A);
    const sealed = sealSecret(SECRET, CTX);
    expect(sealed).toMatch(/^v2\.[0-9a-f]{8}\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(SECRET);
    expect(openSecret(sealed, CTX)).toBe(SECRET);
    // 12-byte IV + 16-byte tag + ciphertext as long as the secret.
    expect(Buffer.from(partsOf(sealed).payload, "base64url")).toHaveLength(12 + 16 + SECRET.length);
  });

  it("round-trips with TOTP_KEYS unset: SESSION_SECRET is the one key", () => {
    setKeys(undefined);
    expect(getEnv().TOTP_KEYS).toEqual([TEST_SESSION_SECRET]);
    const sealed = sealSecret(SECRET, CTX);
    expect(openSecret(sealed, CTX)).toBe(SECRET);
    expect(isSealedWithCurrentKey(sealed)).toBe(true);
    // The same key as TOTP_KEYS=SESSION_SECRET (same id), and not the key of another value.
    setKeys(TEST_SESSION_SECRET);
    expect(openSecret(sealed, CTX)).toBe(SECRET);
    setKeys(KEY_A);
    expect(() => openSecret(sealed, CTX)).toThrow(SealError);
  });

  it("seals the same secret differently each time (random IV), both open", () => {
    setKeys(KEY_A);
    const one = sealSecret(SECRET, CTX);
    const two = sealSecret(SECRET, CTX);
    expect(one).not.toBe(two);
    expect(partsOf(one).keyId).toBe(partsOf(two).keyId);
    expect(Buffer.from(partsOf(one).payload, "base64url").subarray(0, 12)).not.toEqual(
      Buffer.from(partsOf(two).payload, "base64url").subarray(0, 12),
    );
    expect(openSecret(one, CTX)).toBe(SECRET);
    expect(openSecret(two, CTX)).toBe(SECRET);
  });

  it("names the key by an id that does not reveal the key", () => {
    setKeys(KEY_A);
    const { keyId } = partsOf(sealSecret(SECRET, CTX));
    expect(keyId).not.toContain(KEY_A.slice(0, 8));
    expect(keyId).not.toBe(createHash("sha256").update(KEY_A).digest("hex").slice(0, 8));
    setKeys(KEY_B);
    expect(partsOf(sealSecret(SECRET, CTX)).keyId).not.toBe(keyId);
  });
});

describe("tampering", () => {
  it.each([
    ["IV", 0],
    ["IV (last byte)", 11],
    ["tag", 12],
    ["tag (last byte)", 27],
    ["ciphertext", 28],
    ["ciphertext (last byte)", 28 + SECRET.length - 1],
  ])("a changed %s byte throws instead of giving a wrong secret", (_part, index) => {
    setKeys(KEY_A);
    const tampered = flipPayloadByte(sealSecret(SECRET, CTX), index);
    expect(() => openSecret(tampered, CTX)).toThrow();
  });

  it("a truncated or empty payload throws", () => {
    setKeys(KEY_A);
    const { version, keyId, payload } = partsOf(sealSecret(SECRET, CTX));
    const raw = Buffer.from(payload, "base64url");
    expect(() => openSecret(`${version}.${keyId}.${raw.subarray(0, raw.length - 1).toString("base64url")}`, CTX)).toThrow();
    expect(() => openSecret(`${version}.${keyId}.${raw.subarray(0, 28).toString("base64url")}`, CTX)).toThrow();
    expect(() => openSecret(`${version}.${keyId}.`, CTX)).toThrow(SealError);
  });

  it("a changed key id throws SealError (no configured key has it)", () => {
    setKeys(KEY_A);
    const { version, keyId, payload } = partsOf(sealSecret(SECRET, CTX));
    const otherId = keyId.replace(/^./, (c) => (c === "0" ? "1" : "0"));
    expect(() => openSecret(`${version}.${otherId}.${payload}`, CTX)).toThrow(SealError);
  });

  it("a changed key id naming another configured key throws (wrong key does not open it)", () => {
    setKeys(`${KEY_A},${KEY_B}`);
    const underA = sealSecret(SECRET, CTX);
    setKeys(KEY_B);
    const idOfB = partsOf(sealSecret(SECRET, CTX)).keyId;
    setKeys(`${KEY_A},${KEY_B}`);
    const { version, payload } = partsOf(underA);
    expect(() => openSecret(`${version}.${idOfB}.${payload}`, CTX)).toThrow();
  });

  it.each(["", "v1", "v2", "v2.00000000.AAAA", "v3.00000000.AAAA", "not a sealed value", SECRET])("refuses %j with SealError", (value) => {
    setKeys(KEY_A);
    expect(() => openSecret(value, CTX)).toThrow(SealError);
  });

  it("refuses an unknown version even with a good key id and payload", () => {
    setKeys(KEY_A);
    const { keyId, payload } = partsOf(sealSecret(SECRET, CTX));
    expect(() => openSecret(`v3.${keyId}.${payload}`, CTX)).toThrow(SealError);
  });
});

describe("bound to its account (v2: the context is the cipher's additional data)", () => {
  it("a value sealed for one account does not open for another: a row copied to another user fails", () => {
    setKeys(KEY_A);
    const sealed = sealSecret(SECRET, CTX);
    expect(() => openSecret(sealed, OTHER_CTX)).toThrow(SealError);
    expect(() => openSecret(sealed, "")).toThrow(SealError);
    expect(openSecret(sealed, CTX)).toBe(SECRET);
  });

  it("the key id of a v2 value names the same keys as v1 (rotation works alike)", () => {
    setKeys(KEY_A);
    expect(partsOf(sealSecret(SECRET, CTX)).keyId).toBe(partsOf(sealV1(SECRET, KEY_A)).keyId);
  });

  it("a v1 value (sealed before the binding) still opens, whatever the context, and is not current", () => {
    setKeys(KEY_A);
    const old = sealV1(SECRET, KEY_A);
    expect(openSecret(old, CTX)).toBe(SECRET);
    expect(openSecret(old, OTHER_CTX)).toBe(SECRET);
    expect(isCurrentSeal(old)).toBe(false);
    expect(isCurrentSeal(sealSecret(SECRET, CTX))).toBe(true);
  });

  it("a v1 payload relabelled v2 does not open (no context was bound into it)", () => {
    setKeys(KEY_A);
    const { keyId, payload } = partsOf(sealV1(SECRET, KEY_A));
    expect(() => openSecret(`v2.${keyId}.${payload}`, CTX)).toThrow(SealError);
  });

  it("a v2 payload relabelled v1 does not open (the check without context fails on the tag)", () => {
    setKeys(KEY_A);
    const { keyId, payload } = partsOf(sealSecret(SECRET, CTX));
    expect(() => openSecret(`v1.${keyId}.${payload}`, CTX)).toThrow(SealError);
  });
});

describe("key rotation", () => {
  it("after TOTP_KEYS=B,A a value sealed under A opens, is not current, and new seals use B", () => {
    setKeys(KEY_A);
    const underA = sealSecret(SECRET, CTX);
    const idOfA = partsOf(underA).keyId;
    expect(isSealedWithCurrentKey(underA)).toBe(true);

    setKeys(`${KEY_B},${KEY_A}`);
    expect(openSecret(underA, CTX)).toBe(SECRET);
    expect(isSealedWithCurrentKey(underA)).toBe(false);

    const underB = sealSecret(SECRET, CTX);
    expect(partsOf(underB).keyId).not.toBe(idOfA);
    expect(isSealedWithCurrentKey(underB)).toBe(true);
    expect(openSecret(underB, CTX)).toBe(SECRET);

    // B alone opens B's seal: it really is under B.
    setKeys(KEY_B);
    expect(openSecret(underB, CTX)).toBe(SECRET);
  });

  it("tolerates spaces around the keys of the list", () => {
    setKeys(KEY_A);
    const underA = sealSecret(SECRET, CTX);
    setKeys(` ${KEY_B} , ${KEY_A} `);
    expect(openSecret(underA, CTX)).toBe(SECRET);
    expect(isSealedWithCurrentKey(sealSecret(SECRET, CTX))).toBe(true);
  });

  it("a value sealed with a key no longer listed fails with SealError", () => {
    setKeys(KEY_A);
    const underA = sealSecret(SECRET, CTX);
    setKeys(`${KEY_B},${KEY_A}`);
    expect(openSecret(underA, CTX)).toBe(SECRET);
    setKeys(`${KEY_C},${KEY_B}`);
    expect(() => openSecret(underA, CTX)).toThrow(SealError);
    expect(() => openSecret(underA, CTX)).toThrow(/no configured TOTP key/);
    expect(isSealedWithCurrentKey(underA)).toBe(false);
  });

  it("isSealedWithCurrentKey follows the first key only", () => {
    setKeys(`${KEY_A},${KEY_B}`);
    const underA = sealSecret(SECRET, CTX);
    expect(isSealedWithCurrentKey(underA)).toBe(true);
    expect(isCurrentSeal(underA)).toBe(true);
    setKeys(`${KEY_B},${KEY_A}`);
    expect(isSealedWithCurrentKey(underA)).toBe(false);
    expect(isCurrentSeal(underA)).toBe(false);
    expect(isSealedWithCurrentKey("garbage")).toBe(false);
  });

  it("refuses a TOTP_KEYS entry shorter than 32 characters", () => {
    setKeys(`${KEY_A},short`);
    expect(() => sealSecret(SECRET, CTX)).toThrow(/TOTP_KEYS/);
  });
});

describe("environment restored", () => {
  it("is back to the test environment after the tests above", () => {
    expect(process.env.TOTP_KEYS).toBe(saved.TOTP_KEYS);
    expect(getEnv().TOTP_KEYS).toEqual(saved.TOTP_KEYS ? saved.TOTP_KEYS.split(",").map((k) => k.trim()) : [TEST_SESSION_SECRET]);
  });
});
