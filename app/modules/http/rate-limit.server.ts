import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { AppError } from "./app-error";

/**
 * Per-client limits on the endpoints that strangers can hit. One process on
 * one VPS, so memory is the right store. Keys are the client address.
 */
export const RATE_LIMITS = {
  newsletter: { points: 20, duration: 15 * 60, message: "Too many subscription attempts. Please try again later." },
  pitch: { points: 10, duration: 15 * 60, message: "Too many pitch submissions. Please try again later." },
} as const;

export type RateLimitBucket = keyof typeof RATE_LIMITS;

const globalForLimits = globalThis as unknown as { __rateLimiters?: Map<string, RateLimiterMemory> };

function limiter(bucket: RateLimitBucket): RateLimiterMemory {
  const limiters = (globalForLimits.__rateLimiters ??= new Map());
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
    if (error instanceof RateLimiterRes) {
      throw new AppError("rate_limited", RATE_LIMITS[bucket].message, {
        retryAfterSeconds: Math.max(1, Math.ceil(error.msBeforeNext / 1000)),
      });
    }
    throw error;
  }
}

/** For tests: start every bucket afresh. */
export function resetRateLimitsForTests() {
  globalForLimits.__rateLimiters?.clear();
}
