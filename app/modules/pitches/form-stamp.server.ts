import { createHmac, timingSafeEqual } from "node:crypto";
import { now } from "../config/clock.server";
import { getEnv } from "../config/env.server";

/**
 * The pitch form's signed render time (decision 026): `<ms>.<HMAC-SHA256>`,
 * under a key derived from SESSION_SECRET for this one purpose. A post is
 * trapped when the stamp is missing, not one this server signed, from the
 * future, older than STAMP_MAX_AGE_MS, or younger than the minimum fill time
 * (PITCH_MIN_FILL_SECONDS, default 3).
 */
const PURPOSE = "pitch-form-stamp:v1:";
export const STAMP_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** A stamp from further ahead than this is not one this server made. */
const FUTURE_SLACK_MS = 2_000;

export type StampProblem = "stamp_missing" | "stamp_invalid" | "stamp_future" | "stamp_expired" | "too_fast";

function mac(secret: string, issuedAtMs: number): Buffer {
  const key = createHmac("sha256", secret).update("key:pitch-form-stamp").digest();
  return createHmac("sha256", key).update(PURPOSE + String(issuedAtMs)).digest();
}

/** A stamp for `issuedAtMs` under `secret` (the hardening checks sign their own with the server's secret). */
export function formStampWith(secret: string, issuedAtMs: number): string {
  return `${issuedAtMs}.${mac(secret, issuedAtMs).toString("base64url")}`;
}

/** The stamp a page render puts in the form. */
export function issueFormStamp(at: Date = now()): string {
  return formStampWith(getEnv().SESSION_SECRET, at.getTime());
}

/** Why a stamp does not let a post through, or null when it does. */
export function formStampProblem(value: unknown, at: Date = now()): StampProblem | null {
  if (typeof value !== "string" || value === "") return "stamp_missing";
  const match = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!match) return "stamp_invalid";
  const issuedAtMs = Number(match[1]);
  const given = Buffer.from(match[2]!, "base64url");
  // Base64's last character carries spare bits: only the canonical spelling is the signed one.
  if (given.toString("base64url") !== match[2]) return "stamp_invalid";
  const expected = mac(getEnv().SESSION_SECRET, issuedAtMs);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "stamp_invalid";
  const age = at.getTime() - issuedAtMs;
  if (age < -FUTURE_SLACK_MS) return "stamp_future";
  if (age > STAMP_MAX_AGE_MS) return "stamp_expired";
  if (age < getEnv().PITCH_MIN_FILL_SECONDS * 1000) return "too_fast";
  return null;
}
