import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** A new secret token: 32 random bytes, base64url (for cookies and e-mailed links). */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** The SHA-256 (hex) under which a token is stored; the token itself never is. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}
