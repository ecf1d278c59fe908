import http from "node:http";
import type { AddressInfo } from "node:net";
import { gt } from "drizzle-orm";
import type { ServerBuild } from "react-router";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/modules/db/connection.server";
import { auditEvents } from "../../db/schema";
import { AUDIT_DETAIL_MAX, AUDIT_FLOOD_ROWS_PER_HOUR, audit, flushAuditFloods } from "~/modules/audit/audit.server";
import { advanceClockForTests, resetClockForTests } from "~/modules/config/clock.server";
import { parseEnv } from "~/modules/config/env.server";
import { enforceRateLimit, RATE_LIMITS, resetRateLimitsForTests } from "~/modules/http/rate-limit.server";
import { setLogSinkForTests, withRequestContext } from "~/modules/logging/log.server";
import { createAppListener } from "../../server/app";
import { fakeServerBuild } from "../helpers/server-build";

/**
 * What an anonymous client can make the audit trail store (DESIGN.md §4, decision 030):
 * every string detail is cut at 200 characters, and the refusals a stranger can
 * cause at will (cross-site posts, 429s) are aggregated per address (an IPv6 /64
 * is one address) and minute: the first is a row at once, the rest of the minute
 * one row with their count, and beyond an hourly budget the log alone has them.
 */

type Line = Record<string, unknown> & { msg: string; event?: string };
type Row = typeof auditEvents.$inferSelect;

let raw: string[] = [];
let fromId = 0;
const lines = () => raw.map((text) => JSON.parse(text) as Line);
const newRows = (): Row[] => getDb().select().from(auditEvents).where(gt(auditEvents.id, fromId)).all();
const detailsOf = (row: Row) => JSON.parse(row.details) as Record<string, unknown>;
const countOf = (row: Row) => Number(detailsOf(row).count ?? 1);
const servers: http.Server[] = [];

let hours = 0;

beforeEach(() => {
  raw = [];
  setLogSinkForTests((line) => raw.push(line));
  resetRateLimitsForTests();
  resetClockForTests();
  // Each test starts in an hour of its own (a fresh budget, fresh minutes).
  advanceClockForTests((hours += 2) * 3_600_000);
  fromId = getDb().select().from(auditEvents).all().at(-1)?.id ?? 0;
});
afterEach(async () => {
  flushAuditFloods();
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => (s.closeAllConnections(), s.close(() => resolve())))));
  setLogSinkForTests(null);
  resetRateLimitsForTests();
  resetClockForTests();
});

function inRequest<T>(ip: string, run: () => T): T {
  return withRequestContext({ requestId: `req-${Math.random().toString(36).slice(2, 12)}`, ip, userAgent: "audit-flood-test/1.0" }, run);
}

/** Ask for a limited thing until refused `refusals` times (each in a request of its own from `ip`). */
async function refuse(bucket: keyof typeof RATE_LIMITS, ip: string | ((i: number) => string), refusals: number) {
  let refused = 0;
  for (let i = 0; refused < refusals; i++) {
    if (i > 1000) throw new Error(`${bucket}: ${refused} of ${refusals} refusals after ${i} attempts`);
    const from = typeof ip === "string" ? ip : ip(i);
    await inRequest(from, () => enforceRateLimit(bucket, from)).catch(() => (refused += 1));
  }
}

describe("string details are cut at 200 characters", () => {
  it("in the row and in the log line, nested ones too; short values stay as they are", () => {
    inRequest("203.0.113.7", () =>
      audit(getDb(), "auth.sign_in_failed", {
        target: { type: "user", label: "someone@example.test" },
        details: { email: "e".repeat(5000), reason: "wrong e-mail or password", nested: { origin: "o".repeat(3000) }, list: ["l".repeat(500), 5] },
      }),
    );
    const [row] = newRows();
    const details = detailsOf(row!) as { email: string; reason: string; nested: { origin: string }; list: [string, number] };
    expect(AUDIT_DETAIL_MAX).toBe(200);
    for (const value of [details.email, details.nested.origin, details.list[0]]) {
      expect(value.length).toBeLessThanOrEqual(AUDIT_DETAIL_MAX + 1);
      expect(value.startsWith("e".repeat(10)) || value.startsWith("o".repeat(10)) || value.startsWith("l".repeat(10))).toBe(true);
    }
    expect(details.reason).toBe("wrong e-mail or password");
    expect(details.list[1]).toBe(5);
    const line = lines().find((l) => l.event === "auth.sign_in_failed")!;
    expect(String(line.email).length).toBeLessThanOrEqual(AUDIT_DETAIL_MAX + 1);
    expect(JSON.stringify(line).length).toBeLessThan(1500);
  });
});

describe("cross-site refusals through the pipeline", () => {
  function fakeBuild(): ServerBuild {
    return fakeServerBuild({ "routes/all": { path: "*", module: { action: () => Response.json({ ok: true }) } } });
  }

  async function start(): Promise<number> {
    const env = parseEnv({ ...process.env, LOG_LEVEL: "info", TRUST_PROXY: undefined });
    const server = http.createServer(createAppListener({ env, build: fakeBuild(), mode: "development", serveStatic: (_q, _s, next) => next() }));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    return (server.address() as AddressInfo).port;
  }

  function post(port: number, path: string, origin: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port, path, method: "POST", headers: { Origin: origin, "Content-Type": "application/json" }, agent: false }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      });
      req.on("error", reject);
      req.end("{}");
    });
  }

  it("30 posts with a 7 KB Origin and a 1 KB path: one row at once (cut), one with the other 29 once the minute is written; 30 log lines", async () => {
    const port = await start();
    const origin = `https://${"o".repeat(7 * 1024)}.example`;
    const path = `/api/${"p".repeat(1020)}`;
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push(await post(port, path, origin));
    expect(new Set(statuses)).toEqual(new Set([403]));

    const atOnce = newRows();
    expect(atOnce).toHaveLength(1);
    expect(atOnce[0]).toMatchObject({ event: "request.cross_site_refused", ip: "127.0.0.1" });
    const first = detailsOf(atOnce[0]!) as { origin: string; path: string };
    expect(first.origin.length).toBeLessThanOrEqual(AUDIT_DETAIL_MAX + 1);
    expect(first.path.length).toBeLessThanOrEqual(AUDIT_DETAIL_MAX + 1);
    expect(atOnce[0]!.details.length).toBeLessThan(1000);

    // The minute's close (its timer, or a graceful stop) writes the rest as one row.
    flushAuditFloods();
    const rows = newRows();
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({ event: "request.cross_site_refused", ip: "127.0.0.1", requestId: null });
    expect(countOf(rows[1]!)).toBe(29);
    expect(rows.reduce((sum, row) => sum + countOf(row), 0)).toBe(30);
    expect(rows.reduce((sum, row) => sum + row.details.length, 0)).toBeLessThan(2000);

    const logged = lines().filter((l) => l.event === "request.cross_site_refused");
    expect(logged).toHaveLength(30);
    for (const line of logged) expect(JSON.stringify(line).length).toBeLessThan(1500);
    // The request lines keep the path within bounds too.
    for (const line of lines().filter((l) => l.msg === "request")) expect(String(line.path).length).toBeLessThanOrEqual(AUDIT_DETAIL_MAX + 1);
  });
});

describe("429s", () => {
  it("one row at once per address and bucket, the rest of the minute one row with their count", async () => {
    const points = RATE_LIMITS.reset.points;
    await refuse("reset", "198.51.100.7", 12);
    const atOnce = newRows();
    expect(atOnce).toHaveLength(1);
    expect(atOnce[0]).toMatchObject({ event: "request.rate_limited", ip: "198.51.100.7" });
    expect(detailsOf(atOnce[0]!)).toMatchObject({ bucket: "reset" });
    expect(lines().filter((l) => l.event === "request.rate_limited")).toHaveLength(12);

    flushAuditFloods();
    const rows = newRows();
    expect(rows).toHaveLength(2);
    expect(detailsOf(rows[1]!)).toMatchObject({ bucket: "reset", count: 11 });
    expect(points).toBe(5);
  });

  it("an IPv6 /64 is one address: its row names the /64; another bucket is a row of its own", async () => {
    await refuse("reset", (i) => `2001:db8:1:2::${(i + 1).toString(16)}`, 6);
    await refuse("newsletter", "2001:db8:1:2:ffff::1", 1);
    const atOnce = newRows();
    expect(atOnce.map((r) => [r.event, detailsOf(r).bucket])).toEqual([
      ["request.rate_limited", "reset"],
      ["request.rate_limited", "newsletter"],
    ]);
    flushAuditFloods();
    const summary = newRows().at(-1)!;
    expect(summary).toMatchObject({ ip: "2001:db8:1:2::/64" });
    expect(detailsOf(summary)).toMatchObject({ bucket: "reset", count: 5 });
  });

  it("a new minute starts again: its first refusal is a row at once, and the last minute's count is written", async () => {
    await refuse("reset", "198.51.100.8", 3);
    expect(newRows()).toHaveLength(1);
    advanceClockForTests(61_000);
    await refuse("reset", "198.51.100.8", 1);
    const rows = newRows();
    expect(rows).toHaveLength(3);
    expect(rows.map(countOf)).toEqual([1, 2, 1]);
  });
});

describe("the hourly budget of aggregated rows", () => {
  it(`beyond ${AUDIT_FLOOD_ROWS_PER_HOUR} rows an hour, refusals go to the log only, with one row saying so; the next hour writes again`, async () => {
    const budget = AUDIT_FLOOD_ROWS_PER_HOUR;
    const extra = 25;
    // Each refusal from an address of its own: each would be a first row.
    for (let i = 0; i < budget + extra; i++) {
      const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
      inRequest(ip, () => audit(getDb(), "auth.sign_in_failed", { details: { n: i } }));
      for (let n = 0; n <= RATE_LIMITS.reset.points; n++) await inRequest(ip, () => enforceRateLimit("reset", ip)).catch(() => undefined);
    }
    flushAuditFloods();
    const rows = newRows();
    const limited = rows.filter((r) => r.event === "request.rate_limited");
    const reached = rows.filter((r) => r.event === "audit.flood_budget_reached");
    expect(limited).toHaveLength(budget);
    expect(reached).toHaveLength(1);
    expect(detailsOf(reached[0]!)).toMatchObject({ rowsPerHour: budget });
    // Real events are never held back by the budget.
    expect(rows.filter((r) => r.event === "auth.sign_in_failed")).toHaveLength(budget + extra);
    expect(lines().filter((l) => l.event === "request.rate_limited")).toHaveLength(budget + extra);

    advanceClockForTests(3_600_000);
    await refuse("reset", "10.200.0.1", 1);
    expect(newRows().filter((r) => r.event === "request.rate_limited")).toHaveLength(budget + 1);
  });
});
