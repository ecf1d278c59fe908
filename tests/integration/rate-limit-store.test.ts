import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "../../db/client";
import { rateLimits } from "../../db/schema";
import { getEnv } from "~/modules/config/env.server";
import { getDb } from "~/modules/db/connection.server";
import { isAppError } from "~/modules/http/app-error";
import {
  clearExpiredRateLimits,
  RATE_LIMITS,
  rateLimitStore,
  resetRateLimitsForTests,
  type RateLimitBucket,
  type RateLimitStore,
} from "~/modules/http/rate-limit.server";
import { setLogSinkForTests } from "~/modules/logging/log.server";

/**
 * The limits live in the database (decision 044): a restarted server (a new
 * connection and new limiters on the same file) still refuses an address that
 * used up its window, and two processes on one database (two connections here)
 * count together. Each "process" is rateLimitStore() on a connection of its own.
 */

const opened: Db[] = [];
/** Another process's connection to this file's database. */
function connect(): Db {
  const db = openDatabase(getEnv().DATABASE_PATH);
  opened.push(db);
  return db;
}
const processOn = (db: Db): RateLimitStore => rateLimitStore(db.$client);

beforeEach(() => {
  resetRateLimitsForTests();
  // The rows the other "processes" of earlier tests left (the reset clears the process's own store's).
  getDb().delete(rateLimits).run();
  setLogSinkForTests(() => {});
});
afterEach(() => {
  for (const db of opened.splice(0)) db.$client.close();
  resetRateLimitsForTests();
  setLogSinkForTests(null);
  vi.useRealTimers();
});

/** The outcome of one attempt as a client sees it: reserved, or 429 with its Retry-After. */
async function attempt(store: RateLimitStore, bucket: RateLimitBucket, key: string): Promise<"ok" | { status: number; retryAfter: number }> {
  try {
    await store.enforceRateLimit(bucket, key);
    return "ok";
  } catch (error) {
    if (!isAppError(error)) throw error;
    return { status: error.status, retryAfter: error.options.retryAfterSeconds ?? 0 };
  }
}

describe("rate limits in SQLite", () => {
  it("a restart keeps a limit: the next process on the same database still refuses, with the window's remaining time", async () => {
    const { points, duration } = RATE_LIMITS.reset;
    const first = connect();
    const before = processOn(first);
    for (let i = 1; i <= points; i++) expect(await attempt(before, "reset", "198.51.100.7"), `attempt ${i}`).toBe("ok");
    expect(await attempt(before, "reset", "198.51.100.7")).toEqual({ status: 429, retryAfter: expect.any(Number) });
    first.$client.close();

    const after = processOn(connect());
    const refused = await attempt(after, "reset", "198.51.100.7");
    expect(refused).toEqual({ status: 429, retryAfter: expect.any(Number) });
    const { retryAfter } = refused as { retryAfter: number };
    expect(retryAfter).toBeGreaterThan(duration - 60);
    expect(retryAfter).toBeLessThanOrEqual(duration);
    // Another address, and another bucket for the same address, are not affected.
    expect(await attempt(after, "reset", "198.51.100.8")).toBe("ok");
    expect(await attempt(after, "newsletter", "198.51.100.7")).toBe("ok");
  });

  it("two processes share the count: attempts alternating between them, and a burst across both, pass exactly `points` times", async () => {
    const a = processOn(connect());
    const b = processOn(connect());
    const { points } = RATE_LIMITS.register;
    const alternating: string[] = [];
    for (let i = 0; i < points + 2; i++) {
      const outcome = await attempt(i % 2 ? b : a, "register", "192.0.2.10");
      alternating.push(outcome === "ok" ? "ok" : String(outcome.status));
    }
    expect(alternating).toEqual([...Array<string>(points).fill("ok"), "429", "429"]);

    const burst = await Promise.all(Array.from({ length: 3 * points }, (_, i) => attempt(i % 2 ? b : a, "register", "192.0.2.11")));
    expect(burst.filter((outcome) => outcome === "ok")).toHaveLength(points);
  });

  it("a place given back in one process is free in the other (given back twice, it counts once)", async () => {
    const a = processOn(connect());
    const b = processOn(connect());
    const { points } = RATE_LIMITS.loginAccount;
    const places = [];
    for (let i = 0; i < points; i++) places.push(await a.enforceRateLimit("loginAccount", "lp@fund.example"));
    await places[0]!.giveBack();
    await places[0]!.giveBack();
    expect(await attempt(b, "loginAccount", "lp@fund.example")).toBe("ok");
    expect(await attempt(b, "loginAccount", "lp@fund.example")).toMatchObject({ status: 429 });
    expect(await attempt(a, "loginAccount", "lp@fund.example")).toMatchObject({ status: 429 });
  });

  it("a refused address is refused again without a write; its row is cleaned once the window ends, and it may try again", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const store = processOn(connect());
    const { points, duration } = RATE_LIMITS.login;
    for (let i = 0; i < points; i++) await store.enforceRateLimit("login", "203.0.113.50");
    await store.enforceRateLimit("reset", "203.0.113.50");
    const rows = () => getDb().select().from(rateLimits).all();
    const count = () => rows().find((row) => row.key === "login:203.0.113.50")?.points;

    for (let i = 0; i < 5; i++) expect(await attempt(store, "login", "203.0.113.50")).toMatchObject({ status: 429 });
    // The first refusal is written (it is what the next process reads); the rest are answered from memory.
    expect(count()).toBe(points + 1);

    vi.setSystemTime(Date.now() + duration * 1000 + 1000);
    expect(clearExpiredRateLimits()).toBe(1);
    expect(rows().map((row) => row.key)).toEqual(["reset:203.0.113.50"]);
    expect(await attempt(store, "login", "203.0.113.50")).toBe("ok");
  });
});
