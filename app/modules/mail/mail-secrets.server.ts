import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { getEnv } from "../config/env.server";

/**
 * Access links must reach the recipient, but the outbox must never hold a
 * usable token. A mail's text names its secrets as {{name}}; the values are
 * stored AES-256-GCM encrypted (key derived from SESSION_SECRET), filled in
 * only at send time, and erased once the mail has gone.
 */
export type MailSecrets = Record<string, string>;

function key(): Buffer {
  return createHash("sha256").update(`mail-secrets:${getEnv().SESSION_SECRET}`).digest();
}

export function sealSecrets(secrets: MailSecrets): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(secrets), "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

export function openSecrets(sealed: string): MailSecrets {
  const raw = Buffer.from(sealed, "base64url");
  const decipher = createDecipheriv("aes-256-gcm", key(), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  const json = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  return JSON.parse(json) as MailSecrets;
}

/** The text with every {{name}} replaced by its secret. */
export function fillSecrets(text: string, secrets: MailSecrets): string {
  return text.replace(/\{\{([a-zA-Z0-9_]+)\}\}/g, (whole, name: string) =>
    Object.hasOwn(secrets, name) ? (secrets[name] ?? whole) : whole,
  );
}
