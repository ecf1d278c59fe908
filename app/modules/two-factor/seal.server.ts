import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { getEnv } from "../config/env.server";

/**
 * TOTP secrets at rest: AES-256-GCM under a key from TOTP_KEYS (or
 * SESSION_SECRET when unset). A sealed value names its key by a short id, so
 * after a rotation (new key first, old ones kept after it) every secret still
 * opens, and a reseal (at server start, or `npm run admin:reseal-2fa`) moves
 * them all to the first key before the old one is dropped.
 *
 * Format: `v2.<key id>.<iv|tag|ciphertext, base64url>`, sealed for a context
 * (the account, and for a pending secret the session too; see
 * two-factor.server.ts) that goes into the cipher as additional data: a value
 * copied to another account's row, or another session's, does not open.
 * `v1` values (sealed before the binding, no additional data) still open
 * whatever the context; the reseal turns them into `v2`.
 */

type Key = { id: string; bytes: Buffer };
type Version = "v1" | "v2";
const CURRENT: Version = "v2";

function keyOf(material: string): Key {
  const bytes = createHash("sha256").update(`totp-secret:${material}`).digest();
  return { id: createHash("sha256").update(bytes).digest("hex").slice(0, 8), bytes };
}

function keys(): Key[] {
  return getEnv().TOTP_KEYS.map(keyOf);
}

/** The additional data of a v2 value: the context, labelled so it is never taken for anything else. */
function additionalData(context: string): Buffer {
  return Buffer.from(`lumen-ridge totp-secret v2\n${context}`, "utf8");
}

export function sealSecret(secret: string, context: string): string {
  const key = keys()[0] as Key;
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key.bytes, iv);
  cipher.setAAD(additionalData(context));
  const body = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return `${CURRENT}.${key.id}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
}

export class SealError extends Error {}

/**
 * The secret, or SealError when it does not open: no configured key has its
 * id (a key was dropped too early), it was changed, or (v2) it was sealed for
 * another context.
 */
export function openSecret(sealed: string, context: string): string {
  const [version, keyId, payload, ...rest] = sealed.split(".");
  const key = keys().find((k) => k.id === keyId);
  if ((version !== "v1" && version !== "v2") || !payload || rest.length > 0) throw new SealError("not a sealed TOTP secret");
  if (!key) throw new SealError("no configured TOTP key opens this secret");
  const raw = Buffer.from(payload, "base64url");
  // 12-byte IV and a full 16-byte tag: a shortened tag must not be accepted.
  if (raw.length < 28) throw new SealError("sealed TOTP secret is truncated");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key.bytes, raw.subarray(0, 12), { authTagLength: 16 });
    if (version === "v2") decipher.setAAD(additionalData(context));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    throw new SealError("sealed TOTP secret does not open: changed, or sealed for another account or session");
  }
}

/** Whether a sealed value is under the current (first) key. */
export function isSealedWithCurrentKey(sealed: string): boolean {
  return sealed.split(".")[1] === (keys()[0] as Key).id;
}

/** Whether a sealed value needs no reseal: the current version (bound to its context) under the current key. */
export function isCurrentSeal(sealed: string): boolean {
  return sealed.startsWith(`${CURRENT}.`) && isSealedWithCurrentKey(sealed);
}
