import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { getEnv } from "../config/env.server";

/**
 * TOTP secrets at rest: AES-256-GCM under a key from TOTP_KEYS (or
 * SESSION_SECRET when unset). A sealed value names its key by a short id, so
 * after a rotation (new key first, old ones kept after it) every secret still
 * opens, and `npm run admin:reseal-2fa` moves them all to the first key before
 * the old one is dropped. Format: `v1.<key id>.<iv|tag|ciphertext, base64url>`.
 */

type Key = { id: string; bytes: Buffer };

function keyOf(material: string): Key {
  const bytes = createHash("sha256").update(`totp-secret:${material}`).digest();
  return { id: createHash("sha256").update(bytes).digest("hex").slice(0, 8), bytes };
}

function keys(): Key[] {
  return getEnv().TOTP_KEYS.map(keyOf);
}

export function sealSecret(secret: string): string {
  const key = keys()[0] as Key;
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key.bytes, iv);
  const body = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return `v1.${key.id}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
}

export class SealError extends Error {}

/** The secret, or SealError when no configured key opens it (a key was dropped too early). */
export function openSecret(sealed: string): string {
  const [version, keyId, payload] = sealed.split(".");
  const key = keys().find((k) => k.id === keyId);
  if (version !== "v1" || !key || !payload) throw new SealError("no configured TOTP key opens this secret");
  const raw = Buffer.from(payload, "base64url");
  // 12-byte IV and a full 16-byte tag: a shortened tag must not be accepted.
  if (raw.length < 28) throw new SealError("sealed TOTP secret is truncated");
  const decipher = createDecipheriv("aes-256-gcm", key.bytes, raw.subarray(0, 12), { authTagLength: 16 });
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}

/** Whether a sealed value is under the current (first) key. */
export function isSealedWithCurrentKey(sealed: string): boolean {
  return sealed.split(".")[1] === (keys()[0] as Key).id;
}
