import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "~/modules/validation/z";
import { getEnv } from "../config/env.server";

/**
 * Signed ids for links that must work without a sign-in and without anything
 * stored (the List-Unsubscribe links of mails sent to many): the id in
 * base64url, a dot, and an HMAC-SHA256 of it bound to a purpose, under a key
 * derived from SESSION_SECRET and that purpose. A token made for one purpose
 * never verifies for another; changing the secret retires every link. No
 * expiry: a mail read months later must still work.
 *
 * Purposes in use: "document-mail-unsubscribe" (new-document e-mails, issue 15)
 * and "newsletter-unsubscribe" (issue 16).
 */
export type SignedIdPurpose = "document-mail-unsubscribe" | "newsletter-unsubscribe";

/** A token as signedId makes it: base64url id, a dot, a base64url HMAC-SHA256. */
export const SignedIdToken = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9_-]{1,120}\.[A-Za-z0-9_-]{43}$/);

function mac(purpose: SignedIdPurpose, id: string): Buffer {
  const key = createHmac("sha256", getEnv().SESSION_SECRET).update(`key:${purpose}`).digest();
  return createHmac("sha256", key).update(`${purpose}:v1:${id}`).digest();
}

export function signedId(purpose: SignedIdPurpose, id: string): string {
  return `${Buffer.from(id, "utf8").toString("base64url")}.${mac(purpose, id).toString("base64url")}`;
}

/** The id a token speaks for under this purpose, or null for anything this server did not sign (compared in constant time). */
export function idFromSignedToken(purpose: SignedIdPurpose, token: unknown): string | null {
  const parsed = SignedIdToken.safeParse(token);
  if (!parsed.success) return null;
  const [encoded, signature] = parsed.data.split(".") as [string, string];
  const id = Buffer.from(encoded, "base64url").toString("utf8");
  // Only the canonical encoding: one id has one token.
  if (Buffer.from(id, "utf8").toString("base64url") !== encoded) return null;
  const given = Buffer.from(signature, "base64url");
  // Base64's last character carries spare bits: a variant of it is a tampered token, not the same one.
  if (given.toString("base64url") !== signature) return null;
  const expected = mac(purpose, id);
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}
