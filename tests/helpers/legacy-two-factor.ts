import { createCipheriv, createHash, randomBytes } from "node:crypto";
import { getEnv } from "~/modules/config/env.server";

/**
 * Two-factor values as the code before issue 21 (L5) stored them, for the
 * tests of what still reads them and of what turns them into the current form.
 */

/** A `v1.<key id>.<iv|tag|ciphertext>` sealed TOTP secret (AES-256-GCM, no additional data), under `material` (default: the first TOTP key). */
export function sealV1(secret: string, material: string = getEnv().TOTP_KEYS[0] as string): string {
  const key = createHash("sha256").update(`totp-secret:${material}`).digest();
  const id = createHash("sha256").update(key).digest("hex").slice(0, 8);
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return `v1.${id}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
}

/** A recovery code as it was stored: the unsalted SHA-256 (hex) of the code without its hyphen, lower case. */
export function legacyRecoveryHash(code: string): string {
  return createHash("sha256").update(code.replace(/[\s-]/g, "").toLowerCase(), "utf8").digest("hex");
}
