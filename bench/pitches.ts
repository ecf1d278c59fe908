/**
 * Pitches part of `npm run bench` (issue 16): the pitch inbox's list at
 * 100,000 pitches. Budget: the server time of the first page GET /api/pitches
 * and of the 'overdue' filter GET /api/pitches?overdue=1, as an admin, ≤ 50 ms
 * each.
 *
 *   1. One fresh database: scripts/seed.ts (migrations through the app's own
 *      getDb, a few subscribers and LP users), the bench admin and three more
 *      admins, then 100,000 pitch_submissions rows inserted here in one
 *      transaction with a prepared statement: created over ~2 years ending
 *      now (denser towards now, as a growing firm gets them), every stage, a
 *      realistic status mix, owners among the four admins (some pitches
 *      nobody's yet), due_at from the clock itself (dueAtFor), and about
 *      20 % unanswered: most of the last ten days' pitches, and a backlog of
 *      older ones that are overdue. Answered ones got their reply between a
 *      few hours and ~9 days after they came in. No ANALYZE: the app never
 *      runs it, so the planner sees what production sees.
 *   2. Information, on a connection of this process: the SQL the list runs
 *      (the first page newest first with its count; the unanswered ones past
 *      their due time, latest due first, with their count; and, to show why,
 *      the same page ordered by submission time alone)
 *      with its median time and EXPLAIN QUERY PLAN, and the navigation
 *      badge's count (due within 1 business day or overdue, dueSoonCutoff).
 *   3. Our production server on that database (LOG_LEVEL=info), the admin
 *      signed in through POST /api/auth/login; each URL as admin.ts measures
 *      a page: WARMUPS requests, then `requests` measured ones; medians of the
 *      server's own request-log time (request in → response finished), wall
 *      time and CPU per request. The answer must be 200 JSON
 *      { pitches, page, pageSize: 25, total }: its row count and total are
 *      printed beside the SQL's count.
 */
import { randomUUID } from "node:crypto";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { seedSite, startSignedIn, stopSignedIn, f1, measure, median, WARMUPS, type AdminResult, type Series } from "./admin";
import type { Check } from "./files";
import { num, passFail, table } from "./format";
import { BENCH_ADMIN, type PartContext } from "./proc";
import { dueAtFor, dueSoonCutoff } from "../app/modules/pitch-clock/clock.server";
import { openDatabase } from "../db/client";
import { PITCH_STATUSES } from "../db/schema";

export const PITCHES_BUDGET = { serverMs: 50 };

export type PitchesContext = PartContext & {
  port: number;
  /** Measured requests per URL (median), after admin.ts's warm-ups. */
  requests: number;
};

const PITCHES = 100_000;
const SPAN_DAYS = 730;
const DAY_MS = 86_400_000;
/** Pitches younger than this are mostly unanswered (the work in hand). */
const RECENT_DAYS = 10;
const RECENT_UNANSWERED = 0.7;
/** The share of older pitches never answered (the overdue backlog): about 20 % unanswered in all. */
const OLDER_UNANSWERED = 0.195;
const PAGE_SIZE = 25;
const SQL_RUNS = 15;
const SEED = { subscribers: 100, lpUsers: 100, fundRequests: 10 };
/** The admins besides the bench admin (real lp_users rows, a password nobody knows), owners of pitches. */
const OTHER_ADMINS = ["partner-deeptech", "partner-climate", "associate-dealflow"];
const STAGES = ["Pre-Seed", "Seed", "Series A", "Series B", "Other"] as const;
const SECTORS = ["Photonics", "Quantum", "Robotics", "Materials", "Fusion", "Bio", "Semis", "Space", "Battery", "Sensing"];

type Status = (typeof PITCH_STATUSES)[number];

/** A small deterministic generator (xorshift32), so two runs make the same mix. */
function generator(seed: number) {
  let state = seed >>> 0 || 1;
  const random = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  /** Pick by relative weights. */
  const weighted = <T>(entries: ReadonlyArray<readonly [T, number]>) => {
    const total = entries.reduce((sum, [, w]) => sum + w, 0);
    return (): T => {
      let x = random() * total;
      for (const [item, w] of entries) if ((x -= w) < 0) return item;
      return entries[entries.length - 1]![0];
    };
  };
  return { random, pick, weighted };
}

type Seeded = { rows: number; unanswered: number; overdue: number; dueSoon: number; firstAt: number; lastAt: number; ms: number; fileBytes: number };

/** Insert PITCHES pitches into the (migrated, seeded) database file. */
function seedPitches(file: string, now: number): Seeded {
  const t0 = Date.now();
  // The app's own connection setup (pragmas, the SQL functions its triggers call).
  const sqlite = openDatabase(file).$client;
  try {
    sqlite.pragma("cache_size = -262144");
    const { random, pick, weighted } = generator(0x0b17_c4e5);
    const benchAdmin = sqlite.prepare("SELECT id FROM lp_users WHERE email = ?").get(BENCH_ADMIN.email) as { id: string } | undefined;
    if (!benchAdmin) throw new Error("pitches: the seeded database has no bench admin");
    const { hash } = sqlite.prepare("SELECT password_hash AS hash FROM lp_users WHERE is_admin = 0 LIMIT 1").get() as { hash: string };
    const insertAdmin = sqlite.prepare(
      "INSERT INTO lp_users (id, email, password_hash, name, company, is_admin, status, created_at) VALUES (?, ?, ?, ?, 'Lumen Ridge Ventures', 1, 'approved', ?)",
    );
    const admins = [
      benchAdmin.id,
      ...OTHER_ADMINS.map((name) => {
        const id = randomUUID();
        insertAdmin.run(id, `${name}@lumenridge.example`, hash, name, now - (SPAN_DAYS + 30) * DAY_MS);
        return id;
      }),
    ];
    const owner = weighted(admins.map((id, i) => [id, 1 / (i + 1)] as const));
    const answeredStatus = weighted<Status>([["passed", 75], ["partner_call", 10], ["in_review", 7], ["invested", 3], ["new", 5]]);
    const openStatus = weighted<Status>([["new", 55], ["in_review", 33], ["partner_call", 7], ["passed", 5]]);
    const insert = sqlite.prepare(
      `INSERT INTO pitch_submissions (id, name, email, company, stage, deck_url, message, created_at, status, owner_id, due_at, answered_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const end = now - 60_000;
    const start = end - SPAN_DAYS * DAY_MS;
    let unanswered = 0;
    let firstAt = Infinity;
    let lastAt = 0;
    sqlite.transaction(() => {
      for (let i = 0; i < PITCHES; i++) {
        // Denser towards now: the square root of a uniform draw.
        const createdAt = Math.floor(start + Math.sqrt(random()) * (end - start));
        firstAt = Math.min(firstAt, createdAt);
        lastAt = Math.max(lastAt, createdAt);
        const recent = end - createdAt < RECENT_DAYS * DAY_MS;
        const open = random() < (recent ? RECENT_UNANSWERED : OLDER_UNANSWERED);
        const status = open ? openStatus() : answeredStatus();
        const answeredAt = open ? null : Math.min(end, createdAt + Math.floor((0.1 + random() * 9) * DAY_MS));
        // Someone owns every pitch that moved; a new one is nobody's a quarter of the time.
        const ownerId = status === "new" && random() < 0.25 ? null : owner();
        if (open) unanswered++;
        const serial = String(i + 1).padStart(6, "0");
        const sector = pick(SECTORS);
        insert.run(
          randomUUID(),
          `Founder ${serial}`,
          `founder-${serial}@startup-${i % 977}.example`,
          `${sector} Company ${serial}`,
          pick(STAGES),
          random() < 0.4 ? `https://decks.example/${serial}.pdf` : null,
          `We are building ${sector.toLowerCase()} technology for industrial customers. `.repeat(2 + Math.floor(random() * 6)),
          createdAt,
          status,
          ownerId,
          dueAtFor(new Date(createdAt)).getTime(),
          answeredAt,
        );
      }
    })();
    const count = (sql: string, ...params: unknown[]) => (sqlite.prepare(sql).get(...params) as { n: number }).n;
    const overdue = count("SELECT count(*) AS n FROM pitch_submissions WHERE answered_at IS NULL AND due_at <= ?", now);
    const dueSoon = count("SELECT count(*) AS n FROM pitch_submissions WHERE answered_at IS NULL AND due_at <= ?", dueSoonCutoff(new Date(now)).getTime());
    sqlite.pragma("wal_checkpoint(TRUNCATE)");
    const { n: fileBytes } = sqlite.prepare("SELECT page_count * page_size AS n FROM pragma_page_count, pragma_page_size").get() as { n: number };
    return { rows: PITCHES, unanswered, overdue, dueSoon, firstAt, lastAt, ms: Date.now() - t0, fileBytes };
  } finally {
    sqlite.close();
  }
}

// ─── the SQL the list runs ───────────────────────────────────

type QueryPlan = { label: string; sql: string; medianMs: number; rows: number; plan: string[] };

const COLUMNS = "id, name, email, company, stage, status, owner_id, created_at, due_at, answered_at";
/** The list's queries (page and count), by filter; `?` is now. */
const EXPECTED_SQL = [
  // As app/modules/pitch-inbox/inbox.server.ts orders them: newest first, the overdue filter by due time.
  { label: "first page", sql: `SELECT ${COLUMNS} FROM pitch_submissions ORDER BY created_at DESC, rowid DESC LIMIT ${PAGE_SIZE}`, params: () => [] },
  { label: "first page count", sql: "SELECT count(*) FROM pitch_submissions", params: () => [] },
  {
    label: "overdue page",
    sql: `SELECT ${COLUMNS} FROM pitch_submissions WHERE answered_at IS NULL AND due_at <= ? ORDER BY due_at DESC, created_at DESC, rowid DESC LIMIT ${PAGE_SIZE}`,
    params: (now: number) => [now],
  },
  {
    // Ordered by submission time alone, the partial index no longer gives the order: all overdue rows are sorted (information).
    label: "overdue page ordered by created_at alone",
    sql: `SELECT ${COLUMNS} FROM pitch_submissions WHERE answered_at IS NULL AND due_at <= ? ORDER BY created_at DESC, rowid DESC LIMIT ${PAGE_SIZE}`,
    params: (now: number) => [now],
  },
  { label: "overdue count", sql: "SELECT count(*) FROM pitch_submissions WHERE answered_at IS NULL AND due_at <= ?", params: (now: number) => [now] },
  {
    label: "badge count (due soon or overdue)",
    sql: "SELECT count(*) FROM pitch_submissions WHERE answered_at IS NULL AND due_at <= ?",
    params: (now: number) => [dueSoonCutoff(new Date(now)).getTime()],
  },
];

/** Each expected statement on a fresh connection of this process: median time over SQL_RUNS and its plan (a tree). */
function explainExpected(file: string, now: number): QueryPlan[] {
  const sqlite = new Database(file, { readonly: true });
  try {
    return EXPECTED_SQL.map((q) => {
      const statement = sqlite.prepare(q.sql);
      const params = q.params(now);
      const times: number[] = [];
      let rows = 0;
      for (let i = 0; i < 3 + SQL_RUNS; i++) {
        const t0 = process.hrtime.bigint();
        rows = statement.raw().all(...params).length;
        if (i >= 3) times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
      const steps = sqlite.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...params) as { id: number; parent: number; detail: string }[];
      const depth = new Map<number, number>([[0, 0]]);
      const plan = steps.map((s) => {
        const d = (depth.get(s.parent) ?? 0) + 1;
        depth.set(s.id, d);
        return `${"  ".repeat(d - 1)}${s.detail}`;
      });
      return { label: q.label, sql: q.sql, medianMs: median(times), rows, plan };
    });
  } finally {
    sqlite.close();
  }
}

// ─── the part ───────────────────────────────────────────────────────────────

const URLS = [
  { name: "first page", path: "/api/pitches" },
  { name: "overdue", path: "/api/pitches?overdue=1" },
] as const;

type UrlFigures = {
  status: number;
  /** From the JSON answer: rows on the page, its pageSize and total (null when it is not the expected shape). */
  rows: number | null;
  pageSize: number | null;
  total: number | null;
  bytes: number;
  serverMs: number;
  serverRuns: number[];
  wallMs: number;
  cpuMsPerRequest: number | null;
};

function urlFigures(s: Series, n: number): UrlFigures {
  let answer: { pitches?: unknown; pageSize?: unknown; total?: unknown } = {};
  try {
    answer = JSON.parse(s.body.toString("utf8")) as typeof answer;
  } catch {
    /* not JSON: reported as such */
  }
  return {
    status: s.status,
    rows: Array.isArray(answer.pitches) ? answer.pitches.length : null,
    pageSize: typeof answer.pageSize === "number" ? answer.pageSize : null,
    total: typeof answer.total === "number" ? answer.total : null,
    bytes: median(s.bytes),
    serverMs: median(s.serverMs),
    serverRuns: s.serverMs,
    wallMs: median(s.wallMs),
    cpuMsPerRequest: s.serverMs.length ? s.cpuMs / n : null,
  };
}

export async function benchPitches(ctx: PitchesContext): Promise<AdminResult> {
  const t0 = Date.now();
  const { env, file, seedMs } = await seedSite(ctx, "pitches", ctx.port, path.join(ctx.workDir, "100k"), SEED);
  ctx.progress(`pitches: inserting ${num(PITCHES)} pitches over ${SPAN_DAYS} days (one transaction, due times from the clock)`);
  const now = Date.now();
  const seeded = seedPitches(file, now);
  ctx.progress(`pitches: ${num(seeded.rows)} rows in ${f1(seeded.ms / 1000)} s, database ${(seeded.fileBytes / 1024 / 1024).toFixed(0)} MB`);
  ctx.progress("pitches: the expected SQL, timed and explained");
  const plans = explainExpected(file, now);

  const results: UrlFigures[] = [];
  const site = await startSignedIn(ctx, "pitches 100k", env, 120_000);
  try {
    for (const url of URLS) {
      ctx.progress(`pitches: GET ${url.path} ×${WARMUPS} warm-up + ×${ctx.requests}`);
      const [series] = await measure([site], url.path, (s) => ({ cookie: s.cookie, accept: "application/json" }), ctx.requests);
      results.push(urlFigures(series!, ctx.requests));
    }
  } finally {
    await stopSignedIn(ctx, site);
  }

  // ─── report ─────────────────────────────────────────────────────────────

  const lines: string[] = [];
  const checks: Check[] = [];
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const expectedTotal = [seeded.rows, seeded.overdue];
  const measuredOk = (r: UrlFigures) => r.status === 200 && r.serverRuns.length === ctx.requests && r.serverMs <= PITCHES_BUDGET.serverMs;
  lines.push("");
  lines.push(
    `10. Pitch inbox — one fresh database: scripts/seed.ts (${num(SEED.lpUsers)} LP users …), 4 admins, then ${num(seeded.rows)} pitches ` +
      `${day(seeded.firstAt)} → ${day(seeded.lastAt)} (${SPAN_DAYS} days, denser towards now): ${num(seeded.unanswered)} unanswered ` +
      `(${((seeded.unanswered / seeded.rows) * 100).toFixed(1)} %), ${num(seeded.overdue)} of them overdue, ${num(seeded.dueSoon)} due within 1 business day or overdue (the badge); no ANALYZE`,
  );
  lines.push(
    `   client: this process, one keep-alive connection, Accept: application/json, no Accept-Encoding; per URL ${WARMUPS} warm-ups then ${ctx.requests} requests; medians. server ms = the server's own request log`,
  );
  lines.push("");
  const rows = URLS.map((u, i) => {
    const r = results[i];
    if (!r) return [u.path, "—", "—", "—", "—", "—", "—", "—", `≤ ${PITCHES_BUDGET.serverMs} ms`, "FAIL (not measured)"];
    return [
      u.path,
      String(r.status),
      r.rows === null ? "—" : `${r.rows} of ${r.pageSize ?? "?"}`,
      r.total === null ? "—" : `${num(r.total)} (SQL ${num(expectedTotal[i]!)})`,
      num(r.bytes),
      f1(r.serverMs),
      f1(r.cpuMsPerRequest ?? NaN),
      f1(r.wallMs),
      `≤ ${PITCHES_BUDGET.serverMs} ms`,
      r.status !== 200 ? "FAIL (not 200)" : r.serverRuns.length < ctx.requests ? "FAIL (log lines missing)" : passFail(measuredOk(r)),
    ];
  });
  lines.push(table(["request", "status", ">rows", ">total", ">bytes", ">server ms", ">CPU ms/req", ">wall ms", "budget", "result"], rows));
  for (const [i, u] of URLS.entries()) {
    const r = results[i];
    if (r) lines.push(`   ${u.name}: server ms per request (${r.serverRuns.length} of ${ctx.requests} logged): ${r.serverRuns.map(f1).join(", ")}`);
    if (r && r.status === 200 && (r.rows === null || r.total === null)) lines.push(`   NOTE: ${u.path} did not answer { pitches, page, pageSize, total }`);
    checks.push({
      name: `pitches ${u.name} server time at ${num(seeded.rows)} pitches`,
      figure: r ? (r.status === 200 ? `${f1(r.serverMs)} ms` : `HTTP ${r.status}`) : "not measured",
      budget: `≤ ${PITCHES_BUDGET.serverMs} ms`,
      ok: !!r && measuredOk(r),
    });
  }
  lines.push("");
  lines.push(`   The SQL the list runs (this process, its own connection; median of ${SQL_RUNS}) and its EXPLAIN QUERY PLAN:`);
  for (const q of plans) {
    lines.push(`   ${q.label}: ${f1(q.medianMs)} ms, ${q.rows} row(s) — ${q.sql}`);
    for (const step of q.plan) lines.push(`      ${step}`);
  }
  lines.push(`   seeded in ${f1(seeded.ms / 1000)} s (scripts/seed.ts ${f1(seedMs / 1000)} s before); database ${(seeded.fileBytes / 1024 / 1024).toFixed(0)} MB`);
  if (os.loadavg()[0]! > os.cpus().length * 0.75) {
    lines.push(`   NOTE: the machine is busy (load avg ${os.loadavg()[0]!.toFixed(2)} on ${os.cpus().length} CPUs): times are noisy.`);
  }
  lines.push(`   part took ${((Date.now() - t0) / 1000).toFixed(0)} s`);

  const round = (n: number | null) => (n !== null && Number.isFinite(n) ? Number(n.toFixed(2)) : null);
  const summary = {
    rows: seeded.rows,
    unanswered: seeded.unanswered,
    overdue: seeded.overdue,
    dueSoon: seeded.dueSoon,
    seedMs: seeded.ms,
    urls: Object.fromEntries(
      URLS.map((u, i) => {
        const r = results[i];
        return [u.path, r ? { status: r.status, rows: r.rows, total: r.total, bytes: r.bytes, serverMs: round(r.serverMs), wallMs: round(r.wallMs) } : null];
      }),
    ),
    sql: Object.fromEntries(plans.map((q) => [q.label, { ms: round(q.medianMs), plan: q.plan }])),
  };
  return { lines, checks, summary };
}
