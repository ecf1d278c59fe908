/**
 * History import part of `npm run bench` (issue 25 §5): a firm bringing a
 * grown fund's history into the portal at once. Information (no budget):
 * the time of the preview (upload and every check) and of the import
 * (everything checked again, then written in one transaction), the files'
 * sizes, and the server's RSS before and its peak (VmHWM) after each step.
 *
 *   1. One fresh database (scripts/seed.ts, the bench admin), then, inserted
 *      here: 2,000 entities, each with an approved owner (so a mail would have
 *      someone to go to) and a commitment in Fund II from the first quarter.
 *   2. Two CSV files made here: the history — 40 quarters up to the last one
 *      over, each a call per entity (its notice, due date and reference), its
 *      payment in full and a valuation at the quarter end: 240,000 rows, the
 *      entities named by name — and the P&L of those quarters (80,000 rows),
 *      which ties every quarter out.
 *   3. Our production server on it; the admin posts the two files to the
 *      import page as its form does without JavaScript (multipart), reads the
 *      confirm form's fields from the preview's HTML, and confirms (a 303 to
 *      the fund's page). The database is then counted: 40 calls, 80,000
 *      payments, valuations and P&L rows, and not one mail queued.
 */
import http from "node:http";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { seedSite, startSignedIn, stopSignedIn, request, type AdminResult } from "./admin";
import type { Check } from "./files";
import { kb, num, passFail } from "./format";
import { readMemory, type Memory, type PartContext } from "./proc";
import { openDatabase } from "../db/client";
import { previousQuarter, quarterEnd, quarterOf, quarterStart } from "../app/modules/statements/quarter";

export type HistoryImportContext = PartContext & { port: number };

const ENTITIES = 2_000;
const QUARTERS = 40;
const FUND = "fund-ii";
const PAGE = `/admin/funds/${FUND}/import`;

/** `days` after a 'YYYY-MM-DD' date. */
function plusDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Minor units as the file's decimal text ("12500.00"). */
function decimal(minor: bigint): string {
  const negative = minor < 0n;
  const abs = negative ? -minor : minor;
  return `${negative ? "-" : ""}${abs / 100n}.${String(abs % 100n).padStart(2, "0")}`;
}

/** The 40 quarters up to the last one over (today in Zurich). */
function benchQuarters(): string[] {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Zurich", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
  let quarter = previousQuarter(quarterOf(today));
  const quarters = [quarter];
  while (quarters.length < QUARTERS) quarters.unshift((quarter = previousQuarter(quarter)));
  return quarters;
}

type Bench = { names: string[]; weights: bigint[] };

function seedEntities(file: string, acceptedOn: string): Bench & { ms: number } {
  const t0 = Date.now();
  const sqlite = openDatabase(file).$client;
  try {
    const { hash } = sqlite.prepare("SELECT password_hash AS hash FROM lp_users WHERE is_admin = 1 LIMIT 1").get() as { hash: string };
    const fundId = (sqlite.prepare("SELECT id FROM funds WHERE slug = ?").get(FUND) as { id: string }).id;
    const user = sqlite.prepare("INSERT INTO lp_users (id, email, password_hash, name, is_admin, status, created_at, confirmed_at) VALUES (?, ?, ?, ?, 0, 'approved', ?, ?)");
    const entity = sqlite.prepare("INSERT INTO entities (id, name, kind) VALUES (?, ?, 'company')");
    const member = sqlite.prepare("INSERT INTO entity_members (entity_id, user_id, role) VALUES (?, ?, 'owner')");
    const commitment = sqlite.prepare("INSERT INTO commitments (id, entity_id, fund_id, amount_minor, accepted_on) VALUES (?, ?, ?, ?, ?)");
    const change = sqlite.prepare("INSERT INTO commitment_changes (id, commitment_id, amount_minor, effective_on) VALUES (?, ?, ?, ?)");
    const bench: Bench = { names: [], weights: [] };
    sqlite.transaction(() => {
      const now = Date.now();
      for (let i = 0; i < ENTITIES; i++) {
        const id = randomUUID();
        const owner = randomUUID();
        const name = `History Entity ${String(i + 1).padStart(4, "0")} AG`;
        const weight = 100_000_000n + BigInt(i) * 10_000n;
        entity.run(id, name);
        user.run(owner, `history-owner-${i + 1}@bench.example`, hash, `Owner ${i + 1}`, now, now);
        member.run(id, owner);
        const commitmentId = randomUUID();
        commitment.run(commitmentId, id, fundId, Number(weight), acceptedOn);
        change.run(randomUUID(), commitmentId, Number(weight), acceptedOn);
        bench.names.push(name);
        bench.weights.push(weight);
      }
    })();
    sqlite.pragma("wal_checkpoint(TRUNCATE)");
    return { ...bench, ms: Date.now() - t0 };
  } finally {
    sqlite.close();
  }
}

/**
 * The two files: per quarter and entity a call (2 % of the commitment), its
 * payment in full and the NAV at the quarter end; the P&L (a 0.25 % fee, $50
 * of expenses, a 2 % unrealised gain on the NAV before) ties each quarter out.
 */
function makeFiles(bench: Bench, quarters: string[]): { history: Buffer; pnl: Buffer; rows: number; pnlRows: number } {
  const history: string[] = ["entity,event,date,due_date,reference,type,recallable,amount"];
  const pnl: string[] = ["entity,fund,quarter,management_fees,partnership_expenses,other_income,realized_gain,unrealized_gain_change,carried_interest_change"];
  const nav = bench.weights.map(() => 0n);
  quarters.forEach((quarter, q) => {
    const start = quarterStart(quarter);
    const notice = plusDays(start, 9);
    const due = plusDays(start, 24);
    const paid = plusDays(start, 20);
    const end = quarterEnd(quarter);
    const reference = `Call ${q + 1}`;
    bench.names.forEach((name, i) => {
      const called = bench.weights[i]! / 50n;
      const fee = -(bench.weights[i]! / 400n);
      const expenses = -5_000n;
      const gain = (nav[i]! * 2n) / 100n;
      history.push(`${name},call,${notice},${due},${reference},investment,,${decimal(called)}`);
      history.push(`${name},payment,${paid},,${reference},,,${decimal(called)}`);
      nav[i] = nav[i]! + called + fee + expenses + gain;
      history.push(`${name},valuation,${end},,,,,${decimal(nav[i]!)}`);
      pnl.push(`${name},${FUND},${quarter},${decimal(fee)},${decimal(expenses)},0.00,0.00,${decimal(gain)},0.00`);
    });
  });
  return { history: Buffer.from(`${history.join("\n")}\n`), pnl: Buffer.from(`${pnl.join("\n")}\n`), rows: history.length - 1, pnlRows: pnl.length - 1 };
}

function multipart(fields: Record<string, string>, files: Record<string, { name: string; bytes: Buffer }>): { body: Buffer; type: string } {
  const boundary = `----bench${randomUUID().replace(/-/g, "")}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  for (const [name, file] of Object.entries(files)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file.name}"\r\nContent-Type: text/csv\r\n\r\n`), file.bytes, Buffer.from("\r\n"));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

/** A hidden field's value in the preview's HTML (the confirm form's). */
function hiddenField(html: string, name: string): string | null {
  return new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? null;
}

type Counted = { calls: number; allocations: number; payments: number; valuations: number; pnl: number; mails: number };

function countRows(file: string): Counted {
  const sqlite = openDatabase(file).$client;
  try {
    const n = (sql: string) => (sqlite.prepare(sql).get() as { n: number }).n;
    return {
      calls: n("SELECT count(*) AS n FROM ledger_entries WHERE kind = 'call' AND status = 'published'"),
      allocations: n("SELECT count(*) AS n FROM ledger_allocations"),
      payments: n("SELECT count(*) AS n FROM call_payments"),
      valuations: n("SELECT count(*) AS n FROM valuations"),
      pnl: n("SELECT count(*) AS n FROM pnl_rows"),
      mails: n("SELECT count(*) AS n FROM email_outbox"),
    };
  } finally {
    sqlite.close();
  }
}

const mbOf = (memory: Memory | null, key: keyof Memory) => (memory ? (memory[key] / 1024).toFixed(0) : "?");

/**
 * While `during` runs: GET /healthz one at a time on an agent of its own, and
 * the longest answer — how long the server's event loop was held up (the
 * upload's reading yields between pieces; the import's transaction does not).
 */
async function longestWait<T>(origin: string, during: Promise<T>): Promise<{ result: T; maxMs: number; polls: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let done = false;
  let maxMs = 0;
  let polls = 0;
  const poll = (async () => {
    while (!done) {
      const got = await request(agent, `${origin}/healthz`, "GET", {});
      maxMs = Math.max(maxMs, got.ms);
      polls += 1;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  try {
    const result = await during;
    return { result, maxMs, polls };
  } finally {
    done = true;
    await poll;
    agent.destroy();
  }
}

export async function benchHistoryImport(ctx: HistoryImportContext): Promise<AdminResult> {
  const t0 = Date.now();
  const quarters = benchQuarters();
  const seeded = await seedSite(ctx, "history-import", ctx.port, path.join(ctx.workDir, "history-import"), { subscribers: 10, lpUsers: 10, fundRequests: 0 });
  ctx.progress(`history-import: inserting ${num(ENTITIES)} entities with an owner and a commitment in Fund II`);
  const bench = seedEntities(seeded.file, quarterStart(quarters[0]!));
  const files = makeFiles(bench, quarters);
  const mailsBefore = countRows(seeded.file).mails;
  const site = await startSignedIn(ctx, "history-import", seeded.env);
  const lines: string[] = [];
  const checks: Check[] = [];
  try {
    const pid = site.server.pid;
    const before = readMemory(pid);
    ctx.progress(`history-import: previewing ${num(files.rows)} history rows (${kb(files.history.length)}) and ${num(files.pnlRows)} P&L rows (${kb(files.pnl.length)})`);
    const form = multipart({ intent: "history-import", step: "preview" }, { history: { name: "history.csv", bytes: files.history }, pnl: { name: "pnl.csv", bytes: files.pnl } });
    const previewed = await longestWait(site.origin, request(site.agent, `${site.origin}${PAGE}`, "POST", { cookie: site.cookie, accept: "text/html", "content-type": form.type }, form.body));
    const preview = previewed.result;
    const afterPreview = readMemory(pid);
    const html = preview.body.toString("utf8");
    const confirmFields = { upload: hiddenField(html, "upload"), hash: hiddenField(html, "hash"), signature: hiddenField(html, "signature") };
    if (preview.status !== 200 || !confirmFields.upload || !confirmFields.hash || confirmFields.signature === null) {
      throw new Error(`history-import: the preview answered ${preview.status} without a confirm form: ${html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").slice(0, 600)}`);
    }
    ctx.progress("history-import: confirming (everything checked again, then written in one transaction)");
    const body = new URLSearchParams({ intent: "history-import", step: "confirm", ...(confirmFields as Record<string, string>), names: "history.csv + pnl.csv" }).toString();
    const confirmed = await longestWait(
      site.origin,
      request(site.agent, `${site.origin}${PAGE}`, "POST", { cookie: site.cookie, accept: "text/html", "content-type": "application/x-www-form-urlencoded" }, Buffer.from(body)),
    );
    const imported = confirmed.result;
    const after = readMemory(pid);
    const counted = countRows(seeded.file);

    const expected = { calls: QUARTERS, payments: ENTITIES * QUARTERS, valuations: ENTITIES * QUARTERS, pnl: ENTITIES * QUARTERS };
    const complete = imported.status === 303 && counted.calls === expected.calls && counted.payments === expected.payments && counted.valuations === expected.valuations && counted.pnl === expected.pnl;
    lines.push("", "History import (issue 25 §5)");
    lines.push(`  ${num(ENTITIES)} entities × ${QUARTERS} quarters (${quarters[0]} to ${quarters.at(-1)}); entities seeded in ${(bench.ms / 1000).toFixed(1)} s`);
    lines.push(`  files: history ${num(files.rows)} rows, ${kb(files.history.length)}; P&L ${num(files.pnlRows)} rows, ${kb(files.pnl.length)}`);
    lines.push(`  preview (upload and every check): ${preview.status}, ${(preview.ms / 1000).toFixed(1)} s; HTML ${kb(preview.body.length)}; GET /healthz meanwhile at worst ${previewed.maxMs.toFixed(0)} ms`);
    lines.push(`  import (read and checked again, written in one transaction): ${imported.status}, ${(imported.ms / 1000).toFixed(1)} s; GET /healthz meanwhile at worst ${confirmed.maxMs.toFixed(0)} ms`);
    lines.push(`  server RSS ${mbOf(before, "rssKb")} MB before; peak ${mbOf(afterPreview, "hwmKb")} MB after the preview, ${mbOf(after, "hwmKb")} MB after the import (RSS then ${mbOf(after, "rssKb")} MB)`);
    lines.push(
      `  written: ${num(counted.calls)} calls (${num(counted.allocations)} allocations), ${num(counted.payments)} payments, ${num(counted.valuations)} valuations, ${num(counted.pnl)} P&L rows; mails queued: ${num(counted.mails - mailsBefore)}`,
    );
    lines.push(`  part took ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    const check = (name: string, figure: string, budget: string, ok: boolean) => checks.push({ name, figure, budget, ok });
    check("history import writes everything", complete ? "all rows" : "incomplete", "all rows", complete);
    check("history import queues no mail", num(counted.mails - mailsBefore), "0", counted.mails === mailsBefore);
    for (const c of checks) lines.push(`  ${c.name}: ${c.figure} (${c.budget}) ${passFail(c.ok)}`);
    return {
      lines,
      checks,
      summary: {
        entities: ENTITIES,
        quarters: QUARTERS,
        historyRows: files.rows,
        historyBytes: files.history.length,
        pnlRows: files.pnlRows,
        pnlBytes: files.pnl.length,
        previewMs: preview.ms,
        previewStatus: preview.status,
        importMs: imported.ms,
        healthzWorstDuringPreviewMs: previewed.maxMs,
        healthzWorstDuringImportMs: confirmed.maxMs,
        importStatus: imported.status,
        rssBeforeMb: before ? before.rssKb / 1024 : null,
        peakRssAfterPreviewMb: afterPreview ? afterPreview.hwmKb / 1024 : null,
        peakRssMb: after ? after.hwmKb / 1024 : null,
        written: counted,
      },
    };
  } finally {
    await stopSignedIn(ctx, site);
  }
}


