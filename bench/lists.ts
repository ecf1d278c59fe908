/**
 * Admin lists part of `npm run bench` (DESIGN.md §7, issue 6): "Admin lists at
 * 100,000 subscribers: dashboard HTML size and server time ≤ 1.5× those at
 * 1,000".
 *
 *   1. Two fresh databases, seeded with scripts/seed.ts: 1,000 newsletter
 *      subscribers (+ 100 LP users, 50 Fund II requests) and 100,000
 *      (+ 10,000 LP users, 2,000 Fund II requests), an admin in each
 *      (scripts/admin-create.ts). Our production server runs on each in turn,
 *      the admin signs in through POST /api/auth/login, and GET /admin/dashboard
 *      is measured: HTML bytes (uncompressed body, no Accept-Encoding) and
 *      time (median of N sequential requests after 3 warm-ups, from a
 *      keep-alive client on localhost: wall time per request here, and the
 *      server's own time from its request log, LOG_LEVEL=info). Ratios
 *      100k ÷ 1k, budget ≤ 1.5 each. GET /admin/dashboard.data (loaders only,
 *      no rendering) is measured the same way, to split loader from render time.
 *   2. The full TSV at 100,000: GET /admin/email-lists/newsletter.tsv as the
 *      admin (median of 5), and in-process readAllRows + toTsv against the
 *      same database (bench/lists-inproc.ts). Reported, no budget.
 *   3. Where the time goes: the dashboard loader's reads timed in-process on
 *      each database, and the page's bytes by <section>.
 */
import { spawn } from "node:child_process";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { cpuSeconds } from "./cpu";
import type { Check } from "./files";
import { kb, num, passFail, table } from "./format";
import { assertPortFree, startChild, stopChild, waitForHttp, type Child } from "./proc";

export type ListsContext = {
  root: string;
  host: string;
  /** One port per database (the servers run one after the other). */
  ports: [number, number];
  /** An empty directory for this part (databases, storage); the caller removes it. */
  workDir: string;
  serverEnv: (port: number, dataDir: string) => NodeJS.ProcessEnv;
  children: Set<Child>;
  progress: (message: string) => void;
  /** Measured dashboard requests per database (median), after WARMUPS. */
  requests: number;
};

export type ListsResult = { lines: string[]; checks: Check[]; summary: Record<string, unknown> };

export const LISTS_BUDGET = { bytesRatio: 1.5, timeRatio: 1.5 };

type Scale = { label: string; subscribers: number; lpUsers: number; fundRequests: number };
const SCALES: [Scale, Scale] = [
  { label: "1k", subscribers: 1_000, lpUsers: 100, fundRequests: 50 },
  { label: "100k", subscribers: 100_000, lpUsers: 10_000, fundRequests: 2_000 },
];
const WARMUPS = 3;
const TSV_RUNS = 5;
const INPROC_RUNS = 5;
const DASHBOARD = "/admin/dashboard";
const DASHBOARD_DATA = "/admin/dashboard.data";
const TSV_PATH = "/admin/email-lists/newsletter.tsv";
const ADMIN = { email: "bench-admin@lumenridge.example", name: "Bench Admin", password: "bench-only-password-1234" };

// ─── helpers ────────────────────────────────────────────────────────────────

function median(values: number[]): number {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "n/a");
const f2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : "n/a");

function runNode(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string; stdout: string; ms: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    let stdout = "";
    child.stdout.on("data", (c: Buffer) => {
      output += c.toString("utf8");
      stdout += c.toString("utf8");
    });
    child.stderr.on("data", (c: Buffer) => (output += c.toString("utf8")));
    child.on("error", (error) => resolve({ code: null, output: `${output}\n${String(error)}`, stdout, ms: Date.now() - started }));
    child.on("exit", (code) => resolve({ code, output, stdout, ms: Date.now() - started }));
  });
}

function lastJson<T>(stdout: string): T {
  const line = stdout.trim().split("\n").filter(Boolean).pop() ?? "";
  return JSON.parse(line) as T;
}

type Got = { status: number; headers: http.IncomingHttpHeaders; body: Buffer; ms: number };

/** One request on the given (keep-alive) agent; wall time from send to the last body byte. */
function request(agent: http.Agent, url: string, method: string, headers: Record<string, string>, payload?: Buffer): Promise<Got> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const req = http.request(url, { method, agent, headers: payload ? { ...headers, "content-length": String(payload.length) } : headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), ms: Number(process.hrtime.bigint() - t0) / 1e6 }),
      );
      res.on("error", reject);
    });
    req.setTimeout(120_000, () => req.destroy(new Error(`timeout: ${method} ${url}`)));
    req.on("error", reject);
    req.end(payload);
  });
}

/** The server's request log (LOG_LEVEL=info: one JSON line per request with its own `ms`). */
class RequestLog {
  private buffer = "";
  readonly entries: { path: string; status: number; ms: number }[] = [];
  constructor(child: Child) {
    child.proc.stdout!.on("data", (chunk: Buffer) => {
      this.buffer += chunk.toString("utf8");
      const lines = this.buffer.split("\n");
      this.buffer = lines.pop() ?? "";
      for (const line of lines) {
        if (!line.startsWith("{")) continue;
        try {
          const e = JSON.parse(line) as { path?: unknown; status?: unknown; ms?: unknown };
          if (typeof e.path === "string" && typeof e.ms === "number") this.entries.push({ path: e.path, status: Number(e.status), ms: e.ms });
        } catch {
          /* not a log line */
        }
      }
    });
  }
  /** The log entry of the next request to `path` after index `from` (waits a little: the line is written at 'finish'). */
  async next(from: number, urlPath: string, timeoutMs = 2_000): Promise<{ ms: number; index: number } | null> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      for (let i = from; i < this.entries.length; i++) if (this.entries[i]!.path === urlPath) return { ms: this.entries[i]!.ms, index: i + 1 };
      if (Date.now() > until) return null;
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}

type Timed = { wallMs: number[]; serverMs: number[]; cpuMsPerRequest: number | null; bytes: number[]; statuses: number[] };

/** `warmups` then `n` sequential GETs on one keep-alive connection, each with its wall time and the server's logged time. */
async function timeGets(
  agent: http.Agent,
  origin: string,
  urlPath: string,
  headers: Record<string, string>,
  log: RequestLog,
  pid: number,
  warmups: number,
  n: number,
): Promise<Timed & { last: Got }> {
  let last: Got | null = null;
  // Each request's log line is consumed after it (the lines arrive through a pipe, a little after the
  // response): a warm-up's line must not be read as a measured request's.
  let from = log.entries.length;
  for (let i = 0; i < warmups; i++) {
    last = await request(agent, `${origin}${urlPath}`, "GET", headers);
    from = (await log.next(from, urlPath))?.index ?? log.entries.length;
  }
  const out: Timed = { wallMs: [], serverMs: [], cpuMsPerRequest: null, bytes: [], statuses: [] };
  const cpu0 = cpuSeconds(pid);
  for (let i = 0; i < n; i++) {
    const got = await request(agent, `${origin}${urlPath}`, "GET", headers);
    last = got;
    out.wallMs.push(got.ms);
    out.bytes.push(got.body.length);
    out.statuses.push(got.status);
    const logged = await log.next(from, urlPath);
    if (logged) {
      out.serverMs.push(logged.ms);
      from = logged.index;
    }
  }
  const cpu1 = cpuSeconds(pid);
  out.cpuMsPerRequest = cpu0 !== null && cpu1 !== null ? ((cpu1 - cpu0) * 1000) / n : null;
  return { ...out, last: last! };
}

/** Outer byte length of every <section> with a data-testid or an id (nested ones counted in their parents too). */
function sectionBytes(html: string): Map<string, number> {
  const out = new Map<string, number>();
  const tag = /<section\b[^>]*>|<\/section>/g;
  const stack: { name: string | null; start: number }[] = [];
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    if (m[0].startsWith("</")) {
      const open = stack.pop();
      if (open?.name) out.set(open.name, (out.get(open.name) ?? 0) + (m.index + m[0].length - open.start));
    } else {
      const name = /data-testid="([^"]+)"/.exec(m[0])?.[1] ?? /\bid="([^"]+)"/.exec(m[0])?.[1] ?? null;
      stack.push({ name, start: m.index });
    }
  }
  return out;
}

/** Bytes inside inline <script> elements (the loader data React Router streams for hydration, and the route manifest). */
function inlineScriptBytes(html: string): number {
  let n = 0;
  for (const m of html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) n += Buffer.byteLength(m[1] ?? "");
  return n;
}

// ─── one database ───────────────────────────────────────────────────────────

type ScaleResult = {
  scale: Scale;
  seedMs: number;
  seedOutput: string;
  sectionPresent: boolean;
  html: { status: number; bytes: number; wallMs: number; serverMs: number; cpuMsPerRequest: number | null; allWall: number[]; allServer: number[]; wireBr: number | null; bytesStable: boolean };
  data: { status: number; bytes: number; wallMs: number; serverMs: number };
  sections: Map<string, number>;
  scripts: number;
  tsv: { status: number; bytes: number; lines: number; wallMs: number; serverMs: number; all: number[] } | null;
  reads: InprocReads;
  inprocTsv: InprocTsv | null;
};

type InprocReads = { reads: { name: string; rows: number; ms: number }[] };
type InprocTsv = { rows: number; tsvBytes: number; readAllRowsMs: number; toTsvMs: number; totalMs: number; totalAllMs: number[] };

async function measureScale(ctx: ListsContext, scale: Scale, port: number, withTsv: boolean): Promise<ScaleResult> {
  const { progress } = ctx;
  const origin = `http://${ctx.host}:${port}`;
  await assertPortFree(port, ctx.host);
  const dataDir = path.join(ctx.workDir, scale.label);
  const env = { ...ctx.serverEnv(port, dataDir), LOG_LEVEL: "info" };

  // Seed (scripts/seed.ts refuses NODE_ENV=production), then the admin.
  progress(`lists ${scale.label}: seeding ${num(scale.subscribers)} subscribers, ${num(scale.lpUsers)} LP users, ${num(scale.fundRequests)} Fund II requests`);
  const seed = await runNode(
    ["--import", "tsx", "scripts/seed.ts", "--subscribers", String(scale.subscribers), "--lp-users", String(scale.lpUsers), "--fund-requests", String(scale.fundRequests)],
    ctx.root,
    { ...env, NODE_ENV: "development" },
  );
  if (seed.code !== 0) throw new Error(`scripts/seed.ts failed (exit ${seed.code}):\n${seed.output}`);
  const created = await runNode(["--import", "tsx", "scripts/admin-create.ts", "--email", ADMIN.email, "--name", ADMIN.name, "--password", ADMIN.password], ctx.root, env);
  if (created.code !== 0) throw new Error(`admin:create failed (exit ${created.code}):\n${created.output}`);

  progress(`lists ${scale.label}: starting our server on ${origin}`);
  const server = startChild(`our server (lists ${scale.label})`, process.execPath, ["--import", "tsx", "server/index.ts"], { cwd: ctx.root, env });
  ctx.children.add(server);
  const log = new RequestLog(server);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    await waitForHttp(`${origin}/healthz`, server);

    const login = await request(agent, `${origin}/api/auth/login`, "POST", { "content-type": "application/json", accept: "application/json" }, Buffer.from(JSON.stringify({ email: ADMIN.email, password: ADMIN.password })));
    if (login.status !== 200) throw new Error(`POST /api/auth/login answered ${login.status}: ${login.body.toString("utf8").slice(0, 300)}`);
    const cookie = (login.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");
    if (!cookie) throw new Error("POST /api/auth/login set no cookie");
    const headers = { cookie, accept: "text/html" };

    progress(`lists ${scale.label}: GET ${DASHBOARD} ×${WARMUPS} warm-up + ×${ctx.requests}`);
    const page = await timeGets(agent, origin, DASHBOARD, headers, log, server.pid, WARMUPS, ctx.requests);
    if (page.last.status !== 200) throw new Error(`GET ${DASHBOARD} answered ${page.last.status}: ${page.last.body.toString("utf8").slice(0, 300)}`);
    const html = page.last.body.toString("utf8");
    if (page.last.headers["content-encoding"]) throw new Error(`GET ${DASHBOARD} without Accept-Encoding came back ${page.last.headers["content-encoding"]}`);

    progress(`lists ${scale.label}: GET ${DASHBOARD_DATA} (loaders only) ×${WARMUPS} warm-up + ×${ctx.requests}`);
    const data = await timeGets(agent, origin, DASHBOARD_DATA, { cookie }, log, server.pid, WARMUPS, ctx.requests);

    // Wire size as a browser gets it (information only).
    const wire = await request(agent, `${origin}${DASHBOARD}`, "GET", { ...headers, "accept-encoding": "br, gzip" });

    let tsv: ScaleResult["tsv"] = null;
    if (withTsv) {
      progress(`lists ${scale.label}: GET ${TSV_PATH} ×1 warm-up + ×${TSV_RUNS}`);
      const t = await timeGets(agent, origin, TSV_PATH, { cookie }, log, server.pid, 1, TSV_RUNS);
      if (t.last.status !== 200) throw new Error(`GET ${TSV_PATH} answered ${t.last.status}: ${t.last.body.toString("utf8").slice(0, 300)}`);
      tsv = {
        status: t.last.status,
        bytes: t.last.body.length,
        lines: t.last.body.toString("utf8").split("\n").length,
        wallMs: median(t.wallMs),
        serverMs: median(t.serverMs),
        all: t.wallMs,
      };
    }

    agent.destroy();
    progress(`lists ${scale.label}: stopping the server`);
    await stopChild(server);
    ctx.children.delete(server);

    // In-process, with the server stopped (nothing else on the database or the CPU).
    const childEnv = { ...env, NODE_ENV: "development", LOG_LEVEL: "silent" };
    progress(`lists ${scale.label}: timing the dashboard loader's reads in-process (bench/lists-inproc.ts reads)`);
    const readsRun = await runNode(["--import", "tsx", "bench/lists-inproc.ts", "reads", String(INPROC_RUNS)], ctx.root, childEnv);
    if (readsRun.code !== 0) throw new Error(`bench/lists-inproc.ts reads failed (exit ${readsRun.code}):\n${readsRun.output}`);
    let inprocTsv: InprocTsv | null = null;
    if (withTsv) {
      progress(`lists ${scale.label}: readAllRows + toTsv in-process (bench/lists-inproc.ts tsv)`);
      const tsvRun = await runNode(["--import", "tsx", "bench/lists-inproc.ts", "tsv", String(TSV_RUNS)], ctx.root, childEnv);
      if (tsvRun.code !== 0) throw new Error(`bench/lists-inproc.ts tsv failed (exit ${tsvRun.code}):\n${tsvRun.output}`);
      inprocTsv = lastJson<InprocTsv>(tsvRun.stdout);
    }

    return {
      scale,
      seedMs: seed.ms,
      seedOutput: seed.stdout.trim(),
      sectionPresent: html.includes('data-testid="email-list-newsletter"'),
      html: {
        status: page.last.status,
        bytes: median(page.bytes),
        wallMs: median(page.wallMs),
        serverMs: median(page.serverMs),
        cpuMsPerRequest: page.cpuMsPerRequest,
        allWall: page.wallMs,
        allServer: page.serverMs,
        wireBr: wire.status === 200 ? wire.body.length : null,
        bytesStable: page.bytes.every((b) => b === page.bytes[0]),
      },
      data: { status: data.last.status, bytes: median(data.bytes), wallMs: median(data.wallMs), serverMs: median(data.serverMs) },
      sections: sectionBytes(html),
      scripts: inlineScriptBytes(html),
      tsv,
      reads: lastJson<InprocReads>(readsRun.stdout),
      inprocTsv,
    };
  } finally {
    agent.destroy();
    if (!server.hasExited()) await stopChild(server).catch(() => {});
    ctx.children.delete(server);
  }
}

// ─── the part ───────────────────────────────────────────────────────────────

export async function benchLists(ctx: ListsContext): Promise<ListsResult> {
  const t0 = Date.now();
  const small = await measureScale(ctx, SCALES[0], ctx.ports[0], false);
  const large = await measureScale(ctx, SCALES[1], ctx.ports[1], true);

  const lines: string[] = [];
  const checks: Check[] = [];
  const s = small.scale;
  const l = large.scale;
  lines.push("");
  lines.push(
    `6. Admin lists (issue 6) — GET ${DASHBOARD} signed in as an admin, on two fresh databases seeded by scripts/seed.ts: ` +
      `${num(s.subscribers)} subscribers + ${num(s.lpUsers)} LP users + ${num(s.fundRequests)} Fund II requests ("1k") and ` +
      `${num(l.subscribers)} + ${num(l.lpUsers)} + ${num(l.fundRequests)} ("100k")`,
  );
  lines.push(
    `   client: this process, one keep-alive connection, no Accept-Encoding (bytes = uncompressed body); ${WARMUPS} warm-ups then median of ${ctx.requests}; ` +
      `wall = send → last byte here; server = the server's own request log (LOG_LEVEL=info, request in → response finished)`,
  );
  for (const r of [small, large]) {
    if (!r.sectionPresent) lines.push(`   NOTE (${r.scale.label}): the page has no 'Email Lists (Copy & Export)' tables (data-testid="email-list-newsletter" not found).`);
    if (!r.html.bytesStable) lines.push(`   NOTE (${r.scale.label}): the HTML size varied between requests; the median is used.`);
  }
  lines.push("");
  const cpu = (v: number | null) => (v === null ? "n/a" : f1(v));
  lines.push(
    table(
      ["database", ">HTML bytes", ">br on the wire", ">wall ms", ">server ms", ">server CPU ms/req", ">.data bytes", ">.data wall ms", ">.data server ms", ">seed s"],
      [small, large].map((r) => [
        r.scale.label,
        num(r.html.bytes),
        r.html.wireBr === null ? "n/a" : num(r.html.wireBr),
        f2(r.html.wallMs),
        f2(r.html.serverMs),
        cpu(r.html.cpuMsPerRequest),
        num(r.data.bytes),
        f2(r.data.wallMs),
        f2(r.data.serverMs),
        f1(r.seedMs / 1000),
      ]),
    ),
  );
  lines.push("");
  const bytesRatio = small.html.bytes ? large.html.bytes / small.html.bytes : NaN;
  const serverRatio = small.html.serverMs ? large.html.serverMs / small.html.serverMs : NaN;
  const wallRatio = small.html.wallMs ? large.html.wallMs / small.html.wallMs : NaN;
  const cpuRatio = small.html.cpuMsPerRequest && large.html.cpuMsPerRequest !== null ? large.html.cpuMsPerRequest / small.html.cpuMsPerRequest : NaN;
  const haveServerTime = Number.isFinite(serverRatio);
  const timeRatio = haveServerTime ? serverRatio : wallRatio;
  const okStatus = small.html.status === 200 && large.html.status === 200;
  const bytesOk = okStatus && bytesRatio <= LISTS_BUDGET.bytesRatio;
  const serverOk = okStatus && serverRatio <= LISTS_BUDGET.timeRatio;
  const wallOk = okStatus && wallRatio <= LISTS_BUDGET.timeRatio;
  const budget = `≤ ${LISTS_BUDGET.bytesRatio.toFixed(2)}`;
  lines.push(
    table(
      ["dashboard", ">1k", ">100k", ">100k ÷ 1k", "budget", "result"],
      [
        ["HTML bytes", num(small.html.bytes), num(large.html.bytes), f2(bytesRatio), budget, passFail(bytesOk)],
        ["server time ms (median, server's log)", f2(small.html.serverMs), f2(large.html.serverMs), f2(serverRatio), budget, haveServerTime ? passFail(serverOk) : "n/a"],
        ["wall time ms (median, client)", f2(small.html.wallMs), f2(large.html.wallMs), f2(wallRatio), budget, passFail(wallOk)],
        ["(info) server CPU ms per request", cpu(small.html.cpuMsPerRequest), cpu(large.html.cpuMsPerRequest), f2(cpuRatio), "—", "—"],
      ],
    ),
  );
  if (os.loadavg()[0]! > os.cpus().length * 0.75) {
    lines.push(
      `   NOTE: the machine is busy (load avg ${os.loadavg()[0]!.toFixed(2)} on ${os.cpus().length} CPUs): times are noisy; server CPU ms per request (from /proc, 10 ms ticks summed over the run) is the steadier figure.`,
    );
  }
  checks.push({ name: "dashboard HTML bytes 100k ÷ 1k", figure: `${f2(bytesRatio)} (${num(small.html.bytes)} → ${num(large.html.bytes)} B)`, budget, ok: bytesOk });
  checks.push({
    name: `dashboard server time 100k ÷ 1k${haveServerTime ? "" : " (wall: no server log)"}`,
    figure: `${f2(timeRatio)} (${f1(haveServerTime ? small.html.serverMs : small.html.wallMs)} → ${f1(haveServerTime ? large.html.serverMs : large.html.wallMs)} ms)`,
    budget,
    ok: haveServerTime ? serverOk : wallOk,
  });
  for (const r of [small, large]) if (r.data.status !== 200) lines.push(`   NOTE (${r.scale.label}): GET ${DASHBOARD_DATA} answered ${r.data.status}: the loader/render split below is not meaningful.`);
  lines.push(`   wall ms per request — 1k: ${small.html.allWall.map(f1).join(", ")} · 100k: ${large.html.allWall.map(f1).join(", ")}`);
  lines.push(
    `   split (medians, server's log): loaders + data encoding (GET ${DASHBOARD_DATA}) 1k ${f1(small.data.serverMs)} ms → 100k ${f1(large.data.serverMs)} ms; ` +
      `the rest of the page (render, ≈ page − .data) 1k ${f1(small.html.serverMs - small.data.serverMs)} ms → 100k ${f1(large.html.serverMs - large.data.serverMs)} ms`,
  );

  // Where the bytes are.
  lines.push("");
  lines.push("   Page bytes by <section> (outer HTML; nested sections are also inside their parents), largest at 100k first");
  const names = [...new Set([...small.sections.keys(), ...large.sections.keys()])].sort((a, b) => (large.sections.get(b) ?? 0) - (large.sections.get(a) ?? 0));
  const secRows = names.map((n) => {
    const a = small.sections.get(n) ?? 0;
    const b = large.sections.get(n) ?? 0;
    return [n, num(a), num(b), a ? f1(b / a) : "—"];
  });
  secRows.push(["(inline <script>: hydration data + manifest)", num(small.scripts), num(large.scripts), small.scripts ? f1(large.scripts / small.scripts) : "—"]);
  lines.push(table([">section", ">1k bytes", ">100k bytes", ">× growth"], secRows, "   "));

  // Where the time is.
  lines.push("");
  lines.push(`   The dashboard loader's reads, in-process (bench/lists-inproc.ts, server stopped; median of ${INPROC_RUNS} after a warm-up)`);
  const readNames = [...new Set([...small.reads.reads.map((r) => r.name), ...large.reads.reads.map((r) => r.name)])];
  const find = (r: ScaleResult, n: string) => r.reads.reads.find((x) => x.name === n);
  lines.push(
    table(
      ["read", ">1k rows", ">1k ms", ">100k rows", ">100k ms"],
      readNames.map((n) => {
        const a = find(small, n);
        const b = find(large, n);
        return [n, a ? num(a.rows) : "—", a ? a.ms.toFixed(2) : "—", b ? num(b.rows) : "—", b ? b.ms.toFixed(2) : "—"];
      }),
      "   ",
    ),
  );

  // TSV.
  lines.push("");
  lines.push(`   Full newsletter TSV at ${num(l.subscribers)} subscribers (no budget)`);
  const tsvRows: string[][] = [];
  if (large.tsv) {
    tsvRows.push([
      `GET ${TSV_PATH} (admin, median of ${TSV_RUNS} after a warm-up)`,
      num(large.tsv.lines - 1),
      num(large.tsv.bytes),
      `${f1(large.tsv.wallMs)} wall · ${f1(large.tsv.serverMs)} server`,
    ]);
  }
  if (large.inprocTsv) {
    const t = large.inprocTsv;
    tsvRows.push([`in-process readAllRows + toTsv (median of ${TSV_RUNS} after a warm-up)`, num(t.rows), num(t.tsvBytes), `${f1(t.totalMs)} (readAllRows ${f1(t.readAllRowsMs)} + toTsv ${f1(t.toTsvMs)})`]);
  }
  lines.push(table(["how", ">rows", ">bytes", ">ms"], tsvRows, "   "));
  if (large.tsv) lines.push(`   GET wall ms per run: ${large.tsv.all.map(f1).join(", ")} · ${kb(large.tsv.bytes)}`);
  lines.push(`   seeding: ${small.seedOutput.split("\n")[0] ?? ""} · ${large.seedOutput.split("\n")[0] ?? ""}`);
  lines.push(`   part took ${((Date.now() - t0) / 1000).toFixed(0)} s`);

  const round = (n: number, d = 2) => (Number.isFinite(n) ? Number(n.toFixed(d)) : null);
  const fig = (r: ScaleResult) => ({
    subscribers: r.scale.subscribers,
    lpUsers: r.scale.lpUsers,
    fundRequests: r.scale.fundRequests,
    htmlBytes: r.html.bytes,
    htmlBrBytes: r.html.wireBr,
    wallMs: round(r.html.wallMs),
    serverMs: round(r.html.serverMs),
    cpuMsPerRequest: r.html.cpuMsPerRequest === null ? null : round(r.html.cpuMsPerRequest),
    dataBytes: r.data.bytes,
    dataServerMs: round(r.data.serverMs),
    emailListsSection: r.sectionPresent,
  });
  const summary = {
    requests: ctx.requests,
    small: fig(small),
    large: fig(large),
    ratios: { htmlBytes: round(bytesRatio, 3), serverTime: round(serverRatio, 3), wallTime: round(wallRatio, 3), serverCpu: round(cpuRatio, 3) },
    tsv100k: {
      http: large.tsv ? { bytes: large.tsv.bytes, wallMs: round(large.tsv.wallMs), serverMs: round(large.tsv.serverMs) } : null,
      inProcess: large.inprocTsv ? { rows: large.inprocTsv.rows, readAllRowsMs: large.inprocTsv.readAllRowsMs, toTsvMs: large.inprocTsv.toTsvMs, totalMs: large.inprocTsv.totalMs } : null,
    },
  };
  return { lines, checks, summary };
}
