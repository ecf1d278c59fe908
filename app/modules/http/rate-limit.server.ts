import type BetterSqlite3 from "better-sqlite3";
import { getTableName, lte } from "drizzle-orm";
import { RateLimiterRes, RateLimiterSQLite } from "rate-limiter-flexible";
import { rateLimitMessages } from "~/content/validation";
import { rateLimits } from "../../../db/schema";
import { AppError } from "./app-error";
import { addressKey } from "./address-key.server";
import { auditRefusal } from "../audit/audit.server";
import { getDb } from "../db/connection.server";
import { repeatEvery } from "../jobs/repeat.server";

/**
 * Limits on what strangers can make the server do. Each bucket counts per
 * client address (an IPv6 /64 is one address: address-key.server.ts), per
 * account, or for everyone.
 *
 * The counts live in the database (table rate_limits, rate-limiter-flexible's
 * SQLite store on the better-sqlite3 connection; decision 044): a restart keeps
 * them, and two processes on one database share them. Each attempt is one
 * upsert statement, atomic in SQLite, so parallel requests (and processes)
 * cannot pass together. Once an address is refused, the rest of its window is
 * refused from memory without touching the database (a flood costs no writes).
 *
 * An attempt reserves its place before the expensive work (DESIGN.md §4,
 * decision 030): `enforceRateLimit` consumes a point first and refuses with
 * 429 when none is left. A caller whose attempt turned out not to count (a
 * right password, a post without a deck) gives its own point back; nothing
 * wipes a window early.
 */
export const RATE_LIMITS = {
  newsletter: { per: "address", points: 20, duration: 15 * 60, message: rateLimitMessages.newsletter },
  pitch: { per: "address", points: 10, duration: 15 * 60, message: rateLimitMessages.pitch },
  /**
   * Pitch decks per address a day: a multipart pitch reserves a deck's place
   * before its body is read (a deck is written to disk while it streams).
   */
  pitchDeck: { per: "address", points: 20, duration: 24 * 60 * 60, message: rateLimitMessages.pitchDeck },
  /** Pitch decks from everyone a day: 80 × 25 MB = at most 2 GB of decks written a day. */
  pitchDeckAll: { per: "all", points: 80, duration: 24 * 60 * 60, message: rateLimitMessages.pitchDeckAll },
  /** Sign-in attempts per client address (every attempt counts, before the password is read). */
  login: { per: "address", points: 20, duration: 15 * 60, message: rateLimitMessages.login },
  /**
   * Sign-in attempts per account (a right password gives its place back, so
   * this counts wrong ones). The window is fixed from its first attempt, so a
   * stranger can hold an account for at most 15 minutes: never a permanent lockout.
   */
  loginAccount: { per: "account", points: 10, duration: 15 * 60, message: rateLimitMessages.login },
  register: { per: "address", points: 10, duration: 60 * 60, message: rateLimitMessages.register },
  reset: { per: "address", points: 5, duration: 60 * 60, message: rateLimitMessages.reset },
  /** Setting a new password with a reset link (each attempt costs a bcrypt hash). */
  resetSubmit: { per: "address", points: 10, duration: 15 * 60, message: rateLimitMessages.resetSubmit },
  /** Fund I and Fund II sign-ups. */
  fundAccess: { per: "address", points: 10, duration: 60 * 60, message: rateLimitMessages.fundAccess },
  /** Fund token checks (the page with a token, and the validate endpoint): guessing is hopeless, and stays slow. */
  tokenCheck: { per: "address", points: 30, duration: 15 * 60, message: rateLimitMessages.tokenCheck },
  /**
   * Two-factor code attempts per account (a right code gives its place back): 10 an hour, so at most
   * 240 wrong guesses a day, each with about 3 in 1,000,000 (±1 step): at most 0.072 % a day (hardening prints it).
   */
  twoFactorAccount: { per: "account", points: 10, duration: 60 * 60, message: rateLimitMessages.twoFactor },
  /** Two-factor code attempts per client address. */
  twoFactorAddress: { per: "address", points: 30, duration: 15 * 60, message: rateLimitMessages.twoFactor },
  /** Confirming a registration's mailed link with its password (each attempt with a live link costs a bcrypt compare). */
  registerConfirm: { per: "address", points: 10, duration: 15 * 60, message: rateLimitMessages.registerConfirm },
} as const satisfies Record<string, { per: "address" | "account" | "all"; points: number; duration: number; message: string }>;

export type RateLimitBucket = keyof typeof RATE_LIMITS;

/** An attempt's place in a window; `giveBack` returns it (once) when the attempt turned out not to count. */
export type Reservation = { giveBack: () => Promise<void> };

/** No place left: `refusal()` audits the refusal and makes the 429 AppError (with Retry-After). */
export type Refused = { refusal: () => AppError };

/** The table the store's SQL names (made by migration 0020_rate_limits, never by the store at run time). */
const TABLE = getTableName(rateLimits);

/** Every bucket's limits on one database connection: what a process holds (tests open a second one to play another process). */
export type RateLimitStore = {
  tryReserve(bucket: RateLimitBucket, key: string): Promise<Reservation | Refused>;
  enforceRateLimit(bucket: RateLimitBucket, key: string): Promise<Reservation>;
};

export function rateLimitStore(client: BetterSqlite3.Database): RateLimitStore {
  const limiters = new Map<RateLimitBucket, RateLimiterSQLite>();
  const limiter = (bucket: RateLimitBucket): RateLimiterSQLite => {
    let found = limiters.get(bucket);
    if (!found) {
      const { points, duration } = RATE_LIMITS[bucket];
      found = new RateLimiterSQLite({
        storeClient: client,
        storeType: "better-sqlite3",
        tableName: TABLE,
        tableCreated: true,
        // Ended windows are deleted by startRateLimitCleanup (the store's own timers would reject unhandled on a closed connection).
        clearExpiredByTimeout: false,
        keyPrefix: bucket,
        points,
        duration,
        // A key refused once stays refused, from memory, until its window ends (the database holds the same count).
        inMemoryBlockOnConsumed: points + 1,
      });
      limiters.set(bucket, found);
    }
    return found;
  };

  const tryReserve = async (bucket: RateLimitBucket, key: string): Promise<Reservation | Refused> => {
    const limitKey = keyFor(bucket, key);
    try {
      await limiter(bucket).consume(limitKey);
    } catch (error) {
      if (error instanceof RateLimiterRes) {
        const { msBeforeNext } = error;
        return { refusal: () => rateLimited(bucket, msBeforeNext) };
      }
      throw error;
    }
    let given = false;
    return {
      giveBack: async () => {
        if (given) return;
        given = true;
        // Only into the window it came from: a window that ended meanwhile is not credited in advance.
        const state = await limiter(bucket).get(limitKey);
        if (state && state.consumedPoints > 0) await limiter(bucket).reward(limitKey, 1);
      },
    };
  };

  return {
    tryReserve,
    enforceRateLimit: async (bucket, key) => {
      const reserved = await tryReserve(bucket, key);
      if ("refusal" in reserved) throw reserved.refusal();
      return reserved;
    },
  };
}

/** The store on the process's connection (a new one after closeDb(), as after a restart). */
let current: { client: BetterSqlite3.Database; store: RateLimitStore } | undefined;

function store(): RateLimitStore {
  const client = getDb().$client;
  if (current?.client !== client) current = { client, store: rateLimitStore(client) };
  return current.store;
}

/** The one key function of every bucket: per address (IPv6 by /64), per account, or one key for all. */
function keyFor(bucket: RateLimitBucket, key: string): string {
  const { per } = RATE_LIMITS[bucket];
  if (per === "all") return "all";
  if (per === "address") return addressKey(key || "unknown");
  return key || "unknown";
}

/**
 * Reserve one attempt's place if there is one, without refusing: for a caller
 * that learns only later whether the refusal applies (a pitch that may or may
 * not carry a deck). Nothing is audited until `refusal()` is called.
 */
export function tryReserve(bucket: RateLimitBucket, key: string): Promise<Reservation | Refused> {
  return store().tryReserve(bucket, key);
}

/**
 * Reserve one attempt's place before doing the work; over the limit throws a
 * 429 AppError with Retry-After (and the refusal is audited, aggregated).
 * `key` is the client address for per-address buckets, the account for
 * per-account ones, and ignored for everyone's.
 */
export function enforceRateLimit(bucket: RateLimitBucket, key: string): Promise<Reservation> {
  return store().enforceRateLimit(bucket, key);
}

function rateLimited(bucket: RateLimitBucket, msBeforeNext: number): AppError {
  const retryAfterSeconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  auditRefusal("request.rate_limited", { bucket, retryAfterSeconds }, { bucket });
  return new AppError("rate_limited", RATE_LIMITS[bucket].message, { retryAfterSeconds });
}

/** Delete the windows that have ended (they count for nothing); returns how many. */
export function clearExpiredRateLimits(nowMs = Date.now()): number {
  return getDb().delete(rateLimits).where(lte(rateLimits.expire, nowMs)).run().changes;
}

const CLEANUP_INTERVAL_MS = 5 * 60 * 1000;

/**
 * The server's clean-up of ended windows: at start, then every 5 minutes (an
 * address that comes once leaves one row, for at most its window plus 5
 * minutes). Returns the stop function; safe in two processes at once.
 */
export function startRateLimitCleanup(): () => void {
  return repeatEvery(CLEANUP_INTERVAL_MS, "rate limit clean-up failed", () => void clearExpiredRateLimits());
}

/** For tests: start every bucket afresh (the open connection's rows, and what a store holds in memory). */
export function resetRateLimitsForTests() {
  if (current?.client.open) current.client.prepare(`DELETE FROM ${TABLE}`).run();
  current = undefined;
}
