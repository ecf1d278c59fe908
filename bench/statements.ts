/**
 * Statements part of `npm run bench` (issue 25): publishing a quarter's
 * capital account statements to 2,000 entities. Budgets: the server's peak
 * RSS while publishing at most 150 MB above its RSS before; GET / p99 while
 * publishing at most twice its p99 idle; a one-page statement PDF at most
 * 60 KB. Information: statements per second, the publish request's time.
 *
 *   1. One fresh database (scripts/seed.ts, the bench admin), then, inserted
 *      here in one transaction: 2,000 entities in Fund I, each with an owner
 *      (an approved investor: the statements' new-document mails are queued),
 *      a commitment from 2024-01-15, and 8 quarters (2024-Q1 to 2025-Q4) of a
 *      call due inside the quarter, paid, a valuation at each quarter end and
 *      P&L rows that tie (fees, expenses, an unrealised gain).
 *   2. Our production server on it; GET / timed idle (400 requests, 4 at a
 *      time); the quarter 2025-Q4 published over the JSON API; GET / timed
 *      the same way while the job runs, the server's RSS read every 100 ms,
 *      and the job polled until it is done.
 */
import http from "node:http";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { seedSite, startSignedIn, stopSignedIn, request, type AdminResult, type Measured } from "./admin";
import type { Check } from "./files";
import { kb, num, passFail } from "./format";
import { readMemory, sleep, type PartContext } from "./proc";
import { openDatabase } from "../db/client";
import { countingInserts } from "./capital";

export const STATEMENTS_BUDGET = { rssGrowthMb: 150, p99Ratio: 2, pdfBytes: 60 * 1024 };

export type StatementsContext = PartContext & { port: number };

const ENTITIES = 2_000;
const QUARTERS = ["2024-Q1", "2024-Q2", "2024-Q3", "2024-Q4", "2025-Q1", "2025-Q2", "2025-Q3", "2025-Q4"];
const PUBLISHED = "2025-Q4";
const LATENCY_REQUESTS = 400;
const LATENCY_CONCURRENCY = 4;

function quarterDates(quarter: string): { notice: string; due: string; paid: string; end: string } {
  const year = Number(quarter.slice(0, 4));
  const q = Number(quarter.slice(6));
  const month = (q - 1) * 3 + 1;
  const day = (m: number, d: number) => `${year}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
  return { notice: day(month, 5), due: day(month + 1, 5), paid: day(month + 1, 3), end: day(month + 2, [31, 30, 30, 31][q - 1]!) };
}

function seedStatements(file: string): { ms: number; rows: number } {
  const t0 = Date.now();
  const sqlite = openDatabase(file).$client;
  try {
    const { hash } = sqlite.prepare("SELECT password_hash AS hash FROM lp_users WHERE is_admin = 1 LIMIT 1").get() as { hash: string };
    const fundId = (sqlite.prepare("SELECT id FROM funds WHERE slug = 'fund-i'").get() as { id: string }).id;
    const { run, counter } = countingInserts(sqlite);
    const user = run("INSERT INTO lp_users (id, email, password_hash, name, is_admin, status, created_at, confirmed_at) VALUES (?, ?, ?, ?, 0, 'approved', ?, ?)");
    const entity = run("INSERT INTO entities (id, name, kind) VALUES (?, ?, 'company')");
    const member = run("INSERT INTO entity_members (entity_id, user_id, role) VALUES (?, ?, 'owner')");
    const commitment = run("INSERT INTO commitments (id, entity_id, fund_id, amount_minor, accepted_on) VALUES (?, ?, ?, ?, '2024-01-15')");
    const change = run("INSERT INTO commitment_changes (id, commitment_id, amount_minor, effective_on) VALUES (?, ?, ?, '2024-01-15')");
    const entry = run("INSERT INTO ledger_entries (id, fund_id, kind, status, number, date, due_date, published_at) VALUES (?, ?, 'call', 'published', ?, ?, ?, ?)");
    const line = run("INSERT INTO ledger_lines (entry_id, position, type, amount_minor, recallable) VALUES (?, 0, 'investment', ?, 0)");
    const share = run("INSERT INTO ledger_allocations (entry_id, entity_id, position, amount_minor) VALUES (?, ?, 0, ?)");
    const payment = run("INSERT INTO call_payments (id, entry_id, entity_id, amount_minor, received_on) VALUES (?, ?, ?, ?, ?)");
    const valuation = run("INSERT INTO valuations (id, fund_id, entity_id, date, nav_minor) VALUES (?, ?, ?, ?, ?)");
    const pnl = run(
      "INSERT INTO pnl_rows (fund_id, quarter, entity_id, management_fees_minor, partnership_expenses_minor, other_income_minor, realized_gain_minor, unrealized_gain_change_minor, carried_interest_change_minor) VALUES (?, ?, ?, ?, ?, 0, 0, ?, 0)",
    );
    sqlite.transaction(() => {
      const now = Date.now();
      const entities: { id: string; commitment: number; nav: number }[] = [];
      for (let i = 0; i < ENTITIES; i++) {
        const id = randomUUID();
        const owner = randomUUID();
        entity(id, `Bench Holding ${String(i + 1).padStart(4, "0")} AG`);
        user(owner, `statement-owner-${i + 1}@bench.example`, hash, `Owner ${i + 1}`, now, now);
        member(id, owner);
        const amount = 1_000_000_00 + i * 1_000_00;
        const commitmentId = randomUUID();
        commitment(commitmentId, id, fundId, amount);
        change(randomUUID(), commitmentId, amount);
        entities.push({ id, commitment: amount, nav: 0 });
      }
      QUARTERS.forEach((quarter, q) => {
        const dates = quarterDates(quarter);
        const callId = randomUUID();
        const shares = entities.map((e) => Math.floor(e.commitment / 10));
        entry(callId, fundId, q + 1, dates.notice, dates.due, now);
        line(callId, shares.reduce((s, v) => s + v, 0));
        entities.forEach((e, i) => {
          const called = shares[i]!;
          share(callId, e.id, called);
          payment(randomUUID(), callId, e.id, called, dates.paid);
          const fees = -Math.floor(e.commitment / 200);
          const expenses = -(3_100 + i);
          const gain = Math.floor((e.nav + called) / 40);
          e.nav += called + fees + expenses + gain;
          valuation(randomUUID(), fundId, e.id, dates.end, e.nav);
          pnl(fundId, quarter, e.id, fees, expenses, gain);
        });
      });
    })();
    sqlite.pragma("wal_checkpoint(TRUNCATE)");
    return { ms: Date.now() - t0, rows: counter.rows };
  } finally {
    sqlite.close();
  }
}

/** GET / `total` times, `concurrency` at a time, each on a connection of its own; the wall times in ms. */
async function homeLatencies(origin: string, total: number, concurrency: number): Promise<number[]> {
  const times: number[] = [];
  let left = total;
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left-- > 0) {
        const got = await request(agent, `${origin}/`, "GET", { accept: "text/html" });
        if (got.status !== 200) throw new Error(`statements: GET / answered ${got.status}`);
        times.push(got.ms);
      }
    }),
  );
  agent.destroy();
  return times.sort((a, b) => a - b);
}

const p99 = (sorted: number[]) => sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? NaN;

async function jobOf(site: Measured, jobId: string): Promise<{ done: number; total: number; failed: number }> {
  const got = await request(site.agent, `${site.origin}/api/statements/jobs/${jobId}`, "GET", { cookie: site.cookie, accept: "application/json" });
  if (got.status !== 200) throw new Error(`statements: the job answered ${got.status}`);
  return JSON.parse(got.body.toString("utf8")) as { done: number; total: number; failed: number };
}

export async function benchStatements(ctx: StatementsContext): Promise<AdminResult> {
  const t0 = Date.now();
  const seeded = await seedSite(ctx, "statements", ctx.port, path.join(ctx.workDir, "statements"), { subscribers: 10, lpUsers: 10, fundRequests: 0 });
  ctx.progress(`statements: inserting ${num(ENTITIES)} entities with ${QUARTERS.length} quarters of calls, payments, valuations and P&L`);
  const history = seedStatements(seeded.file);
  const site = await startSignedIn(ctx, "statements", seeded.env);
  const lines: string[] = [];
  const checks: Check[] = [];
  try {
    ctx.progress(`statements: GET / idle ×${LATENCY_REQUESTS}`);
    await homeLatencies(site.origin, 50, LATENCY_CONCURRENCY);
    const idle = await homeLatencies(site.origin, LATENCY_REQUESTS, LATENCY_CONCURRENCY);
    const before = readMemory(site.server.pid);

    ctx.progress(`statements: publishing ${PUBLISHED} to ${num(ENTITIES)} entities`);
    const started = Date.now();
    const body = Buffer.from(JSON.stringify({ fund: "fund-i", quarter: PUBLISHED }));
    const published = await request(site.agent, `${site.origin}/api/statements/publish`, "POST", { cookie: site.cookie, "content-type": "application/json", accept: "application/json" }, body);
    if (published.status !== 202) throw new Error(`statements: publishing answered ${published.status}: ${published.body.toString("utf8").slice(0, 300)}`);
    const { jobId } = JSON.parse(published.body.toString("utf8")) as { jobId: string };

    let peakKb = before?.rssKb ?? 0;
    let finished = false;
    const sampler = (async () => {
      while (!finished) {
        const memory = readMemory(site.server.pid);
        if (memory) peakKb = Math.max(peakKb, memory.rssKb);
        await sleep(100);
      }
    })();
    const busy: number[] = [];
    let job = await jobOf(site, jobId);
    while (job.done + job.failed < job.total) {
      // Latency while the job runs, in rounds; the job polled between them.
      busy.push(...(await homeLatencies(site.origin, 100, LATENCY_CONCURRENCY)));
      job = await jobOf(site, jobId);
      if (Date.now() - started > 15 * 60_000) throw new Error("statements: the job took more than 15 minutes");
    }
    const seconds = (Date.now() - started) / 1000;
    finished = true;
    await sampler;
    busy.sort((a, b) => a - b);

    const sqlite = openDatabase(seeded.file).$client;
    let pdfBytes = NaN;
    let pdfMax = NaN;
    try {
      const sizes = sqlite
        .prepare("SELECT d.file_size AS size FROM statements s JOIN documents d ON d.id = s.document_id")
        .all()
        .map((r) => (r as { size: number }).size)
        .sort((a, b) => a - b);
      pdfBytes = sizes[Math.floor(sizes.length / 2)] ?? NaN;
      pdfMax = sizes.at(-1) ?? NaN;
    } finally {
      sqlite.close();
    }

    const idleP99 = p99(idle);
    const busyP99 = p99(busy);
    const ratio = busyP99 / idleP99;
    const growthMb = before ? (peakKb - before.rssKb) / 1024 : NaN;
    lines.push("", "Statements (issue 25)", `  seeded ${num(history.rows)} rows in ${(history.ms / 1000).toFixed(1)} s: ${num(ENTITIES)} entities, ${QUARTERS.length} quarters of Fund I`);
    lines.push(`  publish request: ${published.ms.toFixed(0)} ms; ${num(job.done)} statements made (${job.failed} failed) in ${seconds.toFixed(1)} s: ${(job.done / seconds).toFixed(1)} statements/s`);
    lines.push(`  server RSS ${before ? (before.rssKb / 1024).toFixed(0) : "?"} MB before, peak ${(peakKb / 1024).toFixed(0)} MB while publishing (+${growthMb.toFixed(0)} MB)`);
    lines.push(`  GET / p99 idle ${idleP99.toFixed(1)} ms, while publishing ${busyP99.toFixed(1)} ms (${busy.length} requests): ×${ratio.toFixed(2)}`);
    lines.push(`  statement PDF: median ${kb(pdfBytes)}, largest ${kb(pdfMax)}`);
    lines.push(`  part took ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    const check = (name: string, figure: string, budget: string, ok: boolean) => checks.push({ name, figure, budget, ok });
    check("statements made, none failed", `${num(job.done)} of ${num(ENTITIES)}`, `= ${num(ENTITIES)}`, job.done === ENTITIES && job.failed === 0);
    check("server RSS growth while publishing", `+${growthMb.toFixed(0)} MB`, `≤ +${STATEMENTS_BUDGET.rssGrowthMb} MB`, growthMb <= STATEMENTS_BUDGET.rssGrowthMb);
    check("GET / p99 while publishing ÷ idle", `×${ratio.toFixed(2)}`, `≤ ×${STATEMENTS_BUDGET.p99Ratio}`, ratio <= STATEMENTS_BUDGET.p99Ratio);
    check("one-page statement PDF", kb(pdfMax), `≤ ${kb(STATEMENTS_BUDGET.pdfBytes)}`, pdfMax <= STATEMENTS_BUDGET.pdfBytes);
    for (const c of checks) lines.push(`  ${c.name}: ${c.figure} (${c.budget}) ${passFail(c.ok)}`);
    return {
      lines,
      checks,
      summary: { statements: job.done, failed: job.failed, seconds, perSecond: job.done / seconds, publishMs: published.ms, rssBeforeMb: before ? before.rssKb / 1024 : null, peakRssMb: peakKb / 1024, idleP99, busyP99, ratio, pdfBytes, pdfMax },
    };
  } finally {
    await stopSignedIn(ctx, site);
  }
}
