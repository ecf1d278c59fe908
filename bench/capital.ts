/**
 * Capital part of `npm run bench` (issue 24): capital accounts at the size of
 * a grown firm. Budgets: GET /lp/capital-account for an investor with 5
 * entities ≤ 50 ms of server time and ≤ 60 KB of HTML; /admin/funds/{slug} at
 * 2,000 entities ≤ 100 ms; publishing a call to 2,000 entities (allocation,
 * notices and mails queued) ≤ 2 s. Information: importing 2,000 valuations
 * (time, the server's peak RSS).
 *
 *   1. One fresh database (scripts/seed.ts, the bench admin), then, inserted
 *      here in one transaction: 2,000 entities, each with one approved
 *      investor as owner and a commitment in both funds; the bench investor
 *      owner of 5 of them; and 40 quarters of history per fund: a published
 *      call each quarter (split by the app's own allocation rule), paid in
 *      full, a distribution each quarter from the 9th, a valuation at each
 *      quarter end.
 *   2. Our production server on it (LOG_LEVEL=info); the admin and the
 *      investor signed in through POST /api/auth/login; pages measured as
 *      admin.ts measures them (warm-ups, then medians of the server's own
 *      request-log time); a call drafted and published over the JSON API
 *      (wall time of the publish); 2,000 valuations imported over the JSON API.
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import path from "node:path";
import { seedSite, startSignedIn, stopSignedIn, f1, measure, median, request, type AdminResult, type Measured } from "./admin";
import type { Check } from "./files";
import { kb, num, passFail, table } from "./format";
import { BENCH_ADMIN, readMemory, type PartContext } from "./proc";
import { allocateLines } from "../app/modules/capital/allocation";
import { openDatabase } from "../db/client";

export const CAPITAL_BUDGET = { accountMs: 50, accountBytes: 60 * 1024, fundPageMs: 100, publishMs: 2_000 };

export type CapitalContext = PartContext & { port: number; requests: number };

const ENTITIES = 2_000;
const QUARTERS = 40;
const INVESTOR_ENTITIES = 5;
const INVESTOR = { email: "bench-investor@lumenridge.example", name: "Bench Investor" };
const PUBLISH_RUNS = 3;

/** 'YYYY-MM-DD' of a quarter's first day plus `days`, counting quarters back from 2026-Q4. */
function quarterDay(q: number, days: number): string {
  const first = new Date(Date.UTC(2016, 9 + 3 * q - 3 * QUARTERS + 30, 1));
  return new Date(first.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}

type Seeded = { ms: number; rows: number };

/** Prepared inserts that count the rows they write (the bench parts' seeding). */
export function countingInserts(sqlite: { prepare(sql: string): { run(...params: unknown[]): unknown } }) {
  const counter = { rows: 0 };
  const run = (sql: string) => {
    const statement = sqlite.prepare(sql);
    return (...params: unknown[]) => {
      counter.rows++;
      statement.run(...params);
    };
  };
  return { run, counter };
}

function seedCapital(file: string): Seeded {
  const t0 = Date.now();
  const sqlite = openDatabase(file).$client;
  try {
    const { hash } = sqlite.prepare("SELECT password_hash AS hash FROM lp_users WHERE email = ?").get(BENCH_ADMIN.email) as { hash: string };
    const funds = sqlite.prepare("SELECT id, slug FROM funds ORDER BY vintage_year").all() as { id: string; slug: string }[];
    const { run, counter } = countingInserts(sqlite);
    const user = run("INSERT INTO lp_users (id, email, password_hash, name, is_admin, status, created_at, confirmed_at) VALUES (?, ?, ?, ?, 0, 'approved', ?, ?)");
    const entity = run("INSERT INTO entities (id, name, kind) VALUES (?, ?, 'company')");
    const member = run("INSERT INTO entity_members (entity_id, user_id, role) VALUES (?, ?, 'owner')");
    const commitment = run("INSERT INTO commitments (id, entity_id, fund_id, amount_minor, accepted_on) VALUES (?, ?, ?, ?, ?)");
    const change = run("INSERT INTO commitment_changes (id, commitment_id, amount_minor, effective_on) VALUES (?, ?, ?, ?)");
    const entry = run("INSERT INTO ledger_entries (id, fund_id, kind, status, number, date, due_date, published_at) VALUES (?, ?, ?, 'published', ?, ?, ?, ?)");
    const line = run("INSERT INTO ledger_lines (entry_id, position, type, amount_minor, recallable) VALUES (?, 0, ?, ?, 0)");
    const share = run("INSERT INTO ledger_allocations (entry_id, entity_id, position, amount_minor) VALUES (?, ?, 0, ?)");
    const payment = run("INSERT INTO call_payments (id, entry_id, entity_id, amount_minor, received_on) VALUES (?, ?, ?, ?, ?)");
    const valuation = run("INSERT INTO valuations (id, fund_id, entity_id, date, nav_minor) VALUES (?, ?, ?, ?, ?)");
    sqlite.transaction(() => {
      const now = Date.now();
      const investorId = randomUUID();
      user(investorId, INVESTOR.email, hash, INVESTOR.name, now, now);
      const weights: { id: string; weight: bigint }[] = [];
      for (let i = 0; i < ENTITIES; i++) {
        const id = randomUUID();
        const owner = randomUUID();
        entity(id, `Bench Entity ${String(i + 1).padStart(4, "0")} AG`);
        user(owner, `entity-owner-${i + 1}@bench.example`, hash, `Owner ${i + 1}`, now, now);
        member(id, owner);
        if (i < INVESTOR_ENTITIES) member(id, investorId);
        weights.push({ id, weight: BigInt(100_000_000 + i * 1_000_00) });
      }
      for (const fund of funds) {
        for (const w of weights) {
          const commitmentId = randomUUID();
          commitment(commitmentId, w.id, fund.id, Number(w.weight), quarterDay(0, 0));
          change(randomUUID(), commitmentId, Number(w.weight), quarterDay(0, 0));
        }
        const total = weights.reduce((s, w) => s + w.weight, 0n);
        let nav = new Map(weights.map((w) => [w.id, 0n]));
        for (let q = 0; q < QUARTERS; q++) {
          const callId = randomUUID();
          const called = total / 50n;
          entry(callId, fund.id, "call", q + 1, quarterDay(q, 10), quarterDay(q, 40), now);
          line(callId, "investment", Number(called));
          for (const [entityId, parts] of allocateLines([{ amount: called }], weights)) {
            share(callId, entityId, Number(parts.total));
            payment(randomUUID(), callId, entityId, Number(parts.total), quarterDay(q, 35));
            nav.set(entityId, (nav.get(entityId) ?? 0n) + parts.total);
          }
          if (q >= 8) {
            const distId = randomUUID();
            const paid = total / 200n;
            entry(distId, fund.id, "distribution", q - 7, quarterDay(q, 60), null, now);
            line(distId, "realized_gain", Number(paid));
            for (const [entityId, parts] of allocateLines([{ amount: paid }], weights)) share(distId, entityId, Number(parts.total));
          }
          nav = new Map([...nav].map(([id, v]) => [id, (v * 103n) / 100n]));
          for (const [entityId, value] of nav) valuation(randomUUID(), fund.id, entityId, quarterDay(q, 89), Number(value));
        }
      }
    })();
    sqlite.pragma("wal_checkpoint(TRUNCATE)");
    return { ms: Date.now() - t0, rows: counter.rows };
  } finally {
    sqlite.close();
  }
}

/** Sign the bench investor in (the bench admin's password; investors have no two-factor here). */
async function investorCookie(agent: http.Agent, origin: string): Promise<string> {
  const got = await request(agent, `${origin}/api/auth/login`, "POST", { "content-type": "application/json" }, Buffer.from(JSON.stringify({ email: INVESTOR.email, password: BENCH_ADMIN.password })));
  if (got.status !== 200) throw new Error(`capital: the investor's sign-in answered ${got.status}: ${got.body.toString("utf8").slice(0, 200)}`);
  return (got.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");
}

async function postJson(site: Measured, urlPath: string, body: unknown): Promise<{ status: number; ms: number; json: Record<string, unknown> }> {
  const got = await request(site.agent, `${site.origin}${urlPath}`, "POST", { cookie: site.cookie, "content-type": "application/json", accept: "application/json" }, Buffer.from(JSON.stringify(body)));
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(got.body.toString("utf8")) as Record<string, unknown>;
  } catch {
    /* not JSON */
  }
  return { status: got.status, ms: got.ms, json };
}

export async function benchCapital(ctx: CapitalContext): Promise<AdminResult> {
  const t0 = Date.now();
  const seeded = await seedSite(ctx, "capital", ctx.port, path.join(ctx.workDir, "capital"), { subscribers: 10, lpUsers: 10, fundRequests: 0 });
  ctx.progress(`capital: inserting ${num(ENTITIES)} entities, their commitments in both funds and ${QUARTERS} quarters of calls, payments, distributions and valuations`);
  const history = seedCapital(seeded.file);
  const site = await startSignedIn(ctx, "capital", seeded.env);
  const lines: string[] = [];
  const checks: Check[] = [];
  try {
    const investor: Measured = { ...site, agent: new http.Agent({ keepAlive: true, maxSockets: 1 }), cookie: "", logFrom: 0 };
    investor.cookie = await investorCookie(investor.agent, site.origin);
    ctx.progress(`capital: GET /lp/capital-account as the investor ×${ctx.requests}`);
    const [account] = await measure([investor], "/lp/capital-account", (s) => ({ cookie: s.cookie, accept: "text/html" }), ctx.requests);
    site.logFrom = investor.logFrom;
    ctx.progress(`capital: GET /admin/funds/fund-ii as the admin ×${ctx.requests}`);
    const [fundPage] = await measure([site], "/admin/funds/fund-ii", (s) => ({ cookie: s.cookie, accept: "text/html" }), ctx.requests);
    const [fundsPage] = await measure([site], "/admin/funds", (s) => ({ cookie: s.cookie, accept: "text/html" }), ctx.requests);

    ctx.progress(`capital: drafting and publishing ${PUBLISH_RUNS} calls to ${num(ENTITIES)} entities`);
    const publishMs: number[] = [];
    let mails = 0;
    for (let i = 0; i < PUBLISH_RUNS; i++) {
      const draft = await postJson(site, "/api/capital-calls", { fund: "fund-ii", noticeDate: "2026-11-02", dueDate: "2026-11-30", lines: [{ type: "investment", amount: "5000000.00" }, { type: "management_fee", amount: "125000.00" }] });
      if (draft.status !== 201) throw new Error(`capital: drafting a call answered ${draft.status}: ${JSON.stringify(draft.json).slice(0, 200)}`);
      const published = await postJson(site, `/api/capital-calls/${String(draft.json.id)}/publish`, {});
      if (published.status !== 200) throw new Error(`capital: publishing answered ${published.status}`);
      publishMs.push(published.ms);
      mails = (draft.json.allocations as unknown[]).length;
    }

    ctx.progress(`capital: importing ${num(ENTITIES)} valuations`);
    const ids = JSON.parse((await request(site.agent, `${site.origin}/api/entities`, "GET", { cookie: site.cookie })).body.toString("utf8")) as { id: string }[];
    const before = readMemory(site.server.pid);
    const imported = await postJson(site, "/api/valuations", { fund: "fund-ii", date: "2026-12-31", values: ids.slice(0, ENTITIES).map((e, i) => ({ entityId: e.id, nav: `${1_000_000 + i}.00` })) });
    const after = readMemory(site.server.pid);

    const accountMs = median(account!.serverMs);
    const accountBytes = median(account!.bytes);
    const fundMs = median(fundPage!.serverMs);
    const publish = median(publishMs);
    lines.push("", "Capital accounts (issue 24)", `  seeded ${num(history.rows)} rows in ${(history.ms / 1000).toFixed(1)} s: ${num(ENTITIES)} entities, both funds, ${QUARTERS} quarters`);
    lines.push(
      table(
        ["what", "status", "server ms (median)", "wall ms", "HTML"],
        [
          ["GET /lp/capital-account (investor, 5 entities × 2 funds)", String(account!.status), f1(accountMs), f1(median(account!.wallMs)), kb(accountBytes)],
          ["GET /admin/funds/fund-ii (2,000 entities)", String(fundPage!.status), f1(fundMs), f1(median(fundPage!.wallMs)), kb(median(fundPage!.bytes))],
          ["GET /admin/funds", String(fundsPage!.status), f1(median(fundsPage!.serverMs)), f1(median(fundsPage!.wallMs)), kb(median(fundsPage!.bytes))],
        ],
      ),
    );
    lines.push(`  publishing a call to ${num(mails)} entities (allocation, notices, mails queued): ${publishMs.map((m) => m.toFixed(0)).join(", ")} ms (median ${publish.toFixed(0)})`);
    lines.push(
      `  importing ${num(ENTITIES)} valuations: ${imported.status}, ${imported.ms.toFixed(0)} ms; server RSS ${before ? (before.rssKb / 1024).toFixed(0) : "?"} → ${after ? (after.rssKb / 1024).toFixed(0) : "?"} MB, peak ${after ? (after.hwmKb / 1024).toFixed(0) : "?"} MB`,
    );
    lines.push(`  part took ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    const check = (name: string, figure: string, budget: string, ok: boolean) => checks.push({ name, figure, budget, ok });
    check("capital account server time (5 entities)", `${f1(accountMs)} ms`, `≤ ${CAPITAL_BUDGET.accountMs} ms`, account!.status === 200 && accountMs <= CAPITAL_BUDGET.accountMs);
    check("capital account HTML", kb(accountBytes), `≤ ${kb(CAPITAL_BUDGET.accountBytes)}`, account!.status === 200 && accountBytes <= CAPITAL_BUDGET.accountBytes);
    check("admin fund page server time (2,000 entities)", `${f1(fundMs)} ms`, `≤ ${CAPITAL_BUDGET.fundPageMs} ms`, fundPage!.status === 200 && fundMs <= CAPITAL_BUDGET.fundPageMs);
    check("publishing a call to 2,000 entities", `${publish.toFixed(0)} ms`, `≤ ${CAPITAL_BUDGET.publishMs} ms`, publish <= CAPITAL_BUDGET.publishMs);
    for (const c of checks) lines.push(`  ${c.name}: ${c.figure} (${c.budget}) ${passFail(c.ok)}`);
    investor.agent.destroy();
    return {
      lines,
      checks,
      summary: { accountMs, accountBytes, fundMs, publishMs, valuationsMs: imported.ms, valuationsStatus: imported.status, peakRssMb: after ? after.hwmKb / 1024 : null, seededRows: history.rows },
    };
  } finally {
    await stopSignedIn(ctx, site);
  }
}
