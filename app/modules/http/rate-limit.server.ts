import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { AppError } from "./app-error";
import { securityEvent } from "../logging/log.server";

/**
 * Per-client limits on the endpoints that strangers can hit. One process on
 * one VPS, so memory is the right store. Keys are the client address.
 */
export const RATE_LIMITS = {
  newsletter: { points: 20, duration: 15 * 60, message: "Too many subscription attempts. Please try again later." },
  pitch: { points: 10, duration: 15 * 60, message: "Too many pitch submissions. Please try again later." },
  /** Sign-in attempts per client address. */
  login: { points: 20, duration: 15 * 60, message: "Too many sign-in attempts. Please wait a few minutes and try again." },
  /**
   * Failed sign-ins per account. The window slides, so a stranger can hold an
   * account for at most 15 minutes after they stop: never a permanent lockout.
   */
  loginAccount: {
    points: 10,
    duration: 15 * 60,
    message: "Too many sign-in attempts. Please wait a few minutes and try again.",
  },
  register: { points: 10, duration: 60 * 60, message: "Too many registration attempts. Please try again later." },
  reset: { points: 5, duration: 60 * 60, message: "Too many password reset requests. Please try again later." },
  /** Setting a new password with a reset link (each attempt costs a bcrypt hash). */
  resetSubmit: { points: 10, duration: 15 * 60, message: "Too many attempts. Please try again later." },
  /** Fund I and Fund II sign-ups. */
  fundAccess: { points: 10, duration: 60 * 60, message: "Too many access requests. Please try again later." },
  /** Fund token checks (the page with a token, and the validate endpoint): guessing is hopeless, and stays slow. */
  tokenCheck: { points: 30, duration: 15 * 60, message: "Too many attempts. Please try again later." },
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
  securityEvent("request.rate_limited", { bucket, retryAfterSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)) });
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
