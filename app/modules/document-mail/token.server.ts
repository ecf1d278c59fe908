import { createHmac, timingSafeEqual } from "node:crypto";
import { getEnv } from "../config/env.server";
import { UNSUBSCRIBE_PATH, UnsubscribeToken } from "./schema";

/**
 * The unsubscribe token in every new-document e-mail: per investor, no expiry
 * (a mail read months later must still work), nothing stored. It is the
 * investor's id and an HMAC-SHA256 of it, bound to this purpose, under a key
 * derived from SESSION_SECRET (changing the secret retires every link; the
 * page then points to the account page). It can only switch that investor's
 * new-document e-mails off.
 */
const PURPOSE = "document-mail-unsubscribe:v1:";

function key(): Buffer {
  return createHmac("sha256", getEnv().SESSION_SECRET).update("key:document-mail-unsubscribe").digest();
}

function mac(userId: string): Buffer {
  return createHmac("sha256", key()).update(PURPOSE + userId).digest();
}

export function unsubscribeToken(userId: string): string {
  return `${Buffer.from(userId, "utf8").toString("base64url")}.${mac(userId).toString("base64url")}`;
}

/** The link of List-Unsubscribe and of the mail's text. */
export function unsubscribeUrl(userId: string): string {
  return `${getEnv().APP_URL}${UNSUBSCRIBE_PATH}?token=${unsubscribeToken(userId)}`;
}

/** The investor a token speaks for, or null for anything this server did not sign (compared in constant time). */
export function userIdFromUnsubscribeToken(token: unknown): string | null {
  const parsed = UnsubscribeToken.safeParse(token);
  if (!parsed.success) return null;
  const [id, signature] = parsed.data.split(".") as [string, string];
  const userId = Buffer.from(id, "base64url").toString("utf8");
  // Only the canonical encoding: one id has one token.
  if (Buffer.from(userId, "utf8").toString("base64url") !== id) return null;
  const given = Buffer.from(signature, "base64url");
  // Base64's last character carries spare bits: a variant of it is a tampered token, not the same one.
  if (given.toString("base64url") !== signature) return null;
  const expected = mac(userId);
  return given.length === expected.length && timingSafeEqual(given, expected) ? userId : null;
}
