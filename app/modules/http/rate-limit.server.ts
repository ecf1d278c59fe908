import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { rateLimitMessages } from "~/content/validation";
import { AppError } from "./app-error";
import { getDb } from "../../../db/client";
import { audit } from "../audit/audit.server";

/**
 * Per-client limits on the endpoints that strangers can hit. One process on
 * one VPS, so memory is the right store. Keys are the client address.
 */
export const RATE_LIMITS = {
  newsletter: { points: 20, duration: 15 * 60, message: rateLimitMessages.newsletter },
  pitch: { points: 10, duration: 15 * 60, message: rateLimitMessages.pitch },
  /** Sign-in attempts per client address. */
  login: { points: 20, duration: 15 * 60, message: rateLimitMessages.login },
  /**
   * Failed sign-ins per account. The window slides, so a stranger can hold an
   * account for at most 15 minutes after they stop: never a permanent lockout.
   */
  loginAccount: { points: 10, duration: 15 * 60, message: rateLimitMessages.login },
  register: { points: 10, duration: 60 * 60, message: rateLimitMessages.register },
  reset: { points: 5, duration: 60 * 60, message: rateLimitMessages.reset },
  /** Setting a new password with a reset link (each attempt costs a bcrypt hash). */
  resetSubmit: { points: 10, duration: 15 * 60, message: rateLimitMessages.resetSubmit },
  /** Fund I and Fund II sign-ups. */
  fundAccess: { points: 10, duration: 60 * 60, message: rateLimitMessages.fundAccess },
  /** Fund token checks (the page with a token, and the validate endpoint): guessing is hopeless, and stays slow. */
  tokenCheck: { points: 30, duration: 15 * 60, message: rateLimitMessages.tokenCheck },
  /**
   * Wrong two-factor codes per account: 10 an hour, so at most 240 guesses a day,
   * each with about 3 in 1,000,000 (±1 step): at most 0.072 % a day (hardening prints it).
   */
  twoFactorAccount: { points: 10, duration: 60 * 60, message: rateLimitMessages.twoFactor },
  /** Two-factor code attempts per client address. */
  twoFactorAddress: { points: 30, duration: 15 * 60, message: rateLimitMessages.twoFactor },
  /** Confirming a registration's mailed link with its password (each attempt with a live link costs a bcrypt compare). */
  registerConfirm: { points: 10, duration: 15 * 60, message: rateLimitMessages.registerConfirm },
} as const;

export type RateLimitBucket = keyof typeof RATE_LIMITS;

const limiters = new Map<RateLimitBucket, RateLimiterMemory>();

function limiter(bucket: RateLimitBucket): RateLimiterMemory {
  let found = limiters.get(bucket);
  if (!found) {
    const { points, duration } = RATE_LIMITS[bucket];
    found = new RateLimiterMemory({ points, duration, keyPrefix: bucket });
    limiters.set(bucket, found);
  }
  return found;
}

/** Count one attempt; over the limit throws a 429 AppError with Retry-After. */
export async function enforceRateLimit(bucket: RateLimitBucket, clientKey: string): Promise<void> {
  try {
    await limiter(bucket).consume(clientKey || "unknown");
  } catch (error) {
    if (error instanceof RateLimiterRes) throw rateLimited(bucket, error.msBeforeNext);
    throw error;
  }
}

function rateLimited(bucket: RateLimitBucket, msBeforeNext: number): AppError {
  audit(getDb(), "request.rate_limited", { details: { bucket, retryAfterSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)) } });
  return new AppError("rate_limited", RATE_LIMITS[bucket].message, {
    retryAfterSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)),
  });
}

/** Refuse when the key has used up its points, without counting this attempt. */
export async function assertNotLimited(bucket: RateLimitBucket, key: string): Promise<void> {
  const state = await limiter(bucket).get(key || "unknown");
  if (state && state.msBeforeNext > 0 && state.consumedPoints >= RATE_LIMITS[bucket].points) {
    throw rateLimited(bucket, state.msBeforeNext);
  }
}

/** Count a failure against the key (e.g. a wrong password for an account). */
export async function recordFailure(bucket: RateLimitBucket, key: string): Promise<void> {
  await limiter(bucket)
    .consume(key || "unknown")
    .catch(() => undefined);
}

/** Forget the key's failures (e.g. after a successful sign-in). */
export async function clearFailures(bucket: RateLimitBucket, key: string): Promise<void> {
  await limiter(bucket).delete(key || "unknown");
}

/** For tests: start every bucket afresh. */
export function resetRateLimitsForTests() {
  limiters.clear();
}
