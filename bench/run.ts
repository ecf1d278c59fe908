/**
 * `npm run bench`: the performance budgets of DESIGN.md §7, measured in one
 * run and printed as a table with PASS/FAIL.
 *
 *   1. Public pages under load (GET / and GET /portfolio): our production
 *      server against a bare node:http server sending the same (compressed)
 *      bytes. Budget: server CPU time per request, bare ÷ ours ≥ 0.80. req/s
 *      is printed too, as information: on 2 cores the load generator (this
 *      process) caps it.
 *   2. brotli size of the home page HTML;
 *   3. page JS (gzip) of each public page against the React Router + React
 *      baseline of the same build, and portal chunks on public pages;
 *   4. the server's RSS before and after the load;
 *   5. documents (bench/files.ts): 50 MB download MB/s against a bare
 *      node:http + fs.createReadStream server, the server's RSS during
 *      concurrent downloads and during a 50 MB upload, and a 50 MB + 1 byte
 *      upload refused with nothing left behind.
 *   6. admin pages (bench/admin.ts): each admin workspace page's HTML bytes
 *      and server time at 100,000 subscribers / 10,000 investors against
 *      1,000 (fresh seeded databases), ≤ 1.5× each, and the overview's HTML
 *      ≤ 60 KB; the full newsletter TSV as information.
 *   7. Lighthouse (bench/lighthouse.ts): mobile, system Chromium, on every
 *      page of the site frame (the public pages, sign-in, registration and
 *      fund sign-up pages, and the newsletter's mailed-link pages with real
 *      tokens): performance score ≥ 99 and CLS ≤ 0.05 (median of
 *      --lighthouse-runs runs), with FCP, LCP, TBT and the other categories
 *      (SEO exempt on noindex pages, decision 032).
 *   8. admin activity (bench/activity.ts): /admin/activity at 1,000,000
 *      audit_events rows (a fresh seeded database, no ANALYZE): server time
 *      of the first page and of a filtered page (one actor, one event, one
 *      month) ≤ 50 ms each; their .data times, the filtered CSV export and
 *      the query plans of both pages as information.
 *   9. watermark (bench/watermark.ts): a 50 MB, 500-page PDF uploaded with
 *      watermark=on: stamp + whole download time (median of 3), the server's
 *      and server + qpdf RSS growth while stamping ≤ 2.5× the file, GET / p99
 *      (µs, bench/latency.ts) while stamping in a loop ≤ 2× idle, and
 *      publishing to 1,000 investors.
 *  10. pitches (bench/pitches.ts): the pitch inbox at 100,000 pitches (a fresh
 *      seeded database, due times from the clock): server time of GET
 *      /api/pitches and GET /api/pitches?overdue=1 as an admin ≤ 50 ms each;
 *      the expected SQL's plans as information.
 *
 * How the server is started: bench/proc.ts (serverArgs), in one place.
 *
 * Flags: --no-build (reuse build-bench/ when it exists), --strict (exit 1 when
 * a budget fails), --only=pages|files|admin|lighthouse|activity|watermark|pitches|capital|statements|history (one part), --duration=S (one
 * round of page load per server), --warmup=S, --rounds=N (page load rounds,
 * alternating ours/bare), --connections=N (page load, for quick trials), --runs=N (sequential
 * downloads per server), --concurrency=N (downloads at once), --requests=N
 * (measured requests per admin, activity and pitches page and database),
 * --lighthouse-runs=N (runs per page, median reported; default 3),
 * --pages=/a,/b (Lighthouse on these pages only, for quick trials; a
 * mailed-link page is named without its token: --pages=/newsletter/confirm),
 * --ports=N (first of the 12 ports the servers use: N … N+11; default 3400).
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from "node:zlib";
import { cpuSeconds, machineBusySeconds } from "./cpu";
import { benchActivity } from "./activity";
import { benchAdmin } from "./admin";
import { benchFiles, type Check } from "./files";
import { benchLighthouse, LIGHTHOUSE_PAGES } from "./lighthouse";
import { benchPitches } from "./pitches";
import { benchCapital } from "./capital";
import { benchStatements } from "./statements";
import { benchHistoryImport } from "./history-import";
import { benchWatermark } from "./watermark";
import { kb, mb, num, passFail, ratio, table } from "./format";
import { ClientBuild, isPortalChunk, pageScripts, reactRouterBaseline, type Baseline, type InlineScript } from "./page-js";
import { assertPortFree, getRaw, readMemory, startChild, startServer, stopChild, waitForHttp, waitForLine, type Child, type Memory, type RawResponse } from "./proc";
import type { StaticSpec } from "./static-server";
import { publicPages } from "../app/content/sitemap";

// ─── configuration ──────────────────────────────────────────────────────────

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** BENCH_BUILD_DIR picks another build folder (e.g. a helper's own) than build-bench/. */
const BUILD_DIR_NAME = process.env.BENCH_BUILD_DIR || "build-bench";
const BUILD_DIR = path.join(ROOT, BUILD_DIR_NAME);
const HOST = "127.0.0.1";
/** The ports, from --ports=N: pages N, N+1; documents N+2, N+3; admin N+4, N+5; Lighthouse N+6 (Chromium N+7, SMTP catcher N+11); activity N+8; watermark N+9; pitches N+10. */
type Ports = { ours: number; base: number; filesOurs: number; filesBase: number; admin: [number, number]; lighthouse: number; lighthouseMail: number; activity: number; watermark: number; pitches: number; capital: number; statements: number; history: number };
function portsFrom(first: number): Ports {
  return {
    ours: first,
    base: first + 1,
    filesOurs: first + 2,
    filesBase: first + 3,
    admin: [first + 4, first + 5],
    lighthouse: first + 6,
    lighthouseMail: first + 11,
    activity: first + 8,
    watermark: first + 9,
    pitches: first + 10,
    capital: first + 12,
    statements: first + 13,
    history: first + 14,
  };
}

const LOAD_PATHS = ["/", "/portfolio"];
const PUBLIC_PAGES: readonly string[] = publicPages;

const BUDGET = {
  cpuRatio: 0.8,
  homeBrotli: Math.round(14.6 * 1024), // 14,950 bytes
  pageJsRatio: 1.15,
};

type Part = "pages" | "files" | "admin" | "lighthouse" | "activity" | "watermark" | "pitches" | "capital" | "statements" | "history";
const PARTS: readonly Part[] = ["pages", "files", "admin", "lighthouse", "activity", "watermark", "pitches", "capital", "statements", "history"];
type Options = {
  build: boolean;
  strict: boolean;
  only: Part | null;
  duration: number;
  warmup: number;
  connections: number;
  rounds: number;
  rate: number;
  runs: number;
  concurrency: number;
  requests: number;
  lighthouseRuns: number;
  lighthousePages: string[];
  ports: Ports;
};

function parseOptions(argv: string[]): Options {
  const opts: Options = { build: true, strict: false, only: null, duration: 5, warmup: 2, rounds: 3, rate: 0, connections: 50, runs: 9, concurrency: 8, requests: 15, lighthouseRuns: 3, lighthousePages: [...LIGHTHOUSE_PAGES], ports: portsFrom(3400) };
  for (const arg of argv) {
    const [name, value] = arg.split("=", 2) as [string, string | undefined];
    const positive = (label: string) => {
      const n = Number(value);
      if (!value || !Number.isFinite(n) || n <= 0) fatal(`${label} needs a positive number, e.g. ${label}=5`);
      return n;
    };
    if (name === "--no-build") opts.build = false;
    else if (name === "--strict") opts.strict = true;
    else if (name === "--duration") opts.duration = positive(name);
    else if (name === "--warmup") opts.warmup = positive(name);
    else if (name === "--rounds") opts.rounds = Math.round(positive(name));
    else if (name === "--rate") opts.rate = Math.round(positive(name));
    else if (name === "--connections") opts.connections = Math.round(positive(name));
    else if (name === "--runs") opts.runs = Math.round(positive(name));
    else if (name === "--concurrency") opts.concurrency = Math.round(positive(name));
    else if (name === "--requests") opts.requests = Math.round(positive(name));
    else if (name === "--lighthouse-runs") opts.lighthouseRuns = Math.round(positive(name));
    else if (name === "--ports") opts.ports = portsFrom(Math.round(positive(name)));
    else if (name === "--pages") {
      const wanted = (value ?? "").split(",").filter(Boolean);
      const unknown = wanted.filter((p) => !LIGHTHOUSE_PAGES.includes(p));
      if (!wanted.length || unknown.length) fatal(`--pages needs pages of the site frame (${LIGHTHOUSE_PAGES.join(",")}), e.g. --pages=/,/team`);
      opts.lighthousePages = wanted;
    }
    else if (name === "--only") {
      const part = PARTS.find((p) => p === value);
      if (!part) fatal(`--only needs ${PARTS.join(", ")}, e.g. --only=admin`);
      opts.only = part;
    } else if (name === "--help" || name === "-h") {
      console.log(
        "usage: npm run bench -- [--no-build] [--strict] [--only=pages|files|admin|lighthouse|activity|watermark|pitches|capital|statements|history] [--duration=5] [--warmup=2] [--rounds=3] [--connections=50] [--runs=9] [--concurrency=8] [--requests=15] [--lighthouse-runs=3] [--pages=/,/team] [--ports=3400]",
      );
      process.exit(0);
    } else fatal(`unknown option ${arg} (try --help)`);
  }
  return opts;
}

// ─── autocannon (CommonJS, no bundled types) ───────────────────────────────

type Histogram = { mean: number; stddev: number; min: number; max: number; total: number; p50: number; p99: number; p97_5: number };
type AutocannonResult = {
  requests: Histogram & { sent: number };
  latency: Histogram;
  throughput: Histogram;
  errors: number;
  timeouts: number;
  non2xx: number;
  duration: number;
  statusCodeStats: Record<string, { count: number }>;
};
type Autocannon = (opts: Record<string, unknown>, cb: (err: Error | null, result: AutocannonResult) => void) => { stop: () => void };
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

/** `rate`: requests per second offered over all connections (0: as fast as the client goes). */
function cannon(url: string, seconds: number, connections: number, rate = 0): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, connections, duration: seconds, pipelining: 1, headers: { "accept-encoding": "br, gzip" }, ...(rate > 0 ? { overallRate: rate } : {}) },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

// ─── small helpers ──────────────────────────────────────────────────────────

function progress(message: string) {
  process.stderr.write(`· ${message}\n`);
}

function fatal(message: string): never {
  console.error(`bench: ${message}`);
  process.exit(2);
}

function header(res: RawResponse, name: string): string | undefined {
  const v = res.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(", ") : v;
}

function decode(res: RawResponse): Buffer {
  const encoding = header(res, "content-encoding");
  if (encoding === "br") return brotliDecompressSync(res.body);
  if (encoding === "gzip") return gunzipSync(res.body);
  return res.body;
}

/** Bytes of the response head as sent (status line + headers), approximated from the parsed headers. */
function headBytes(res: RawResponse): number {
  let n = "HTTP/1.1 200 OK\r\n".length + 2;
  for (const [k, v] of Object.entries(res.headers)) {
    for (const value of Array.isArray(v) ? v : [v ?? ""]) n += k.length + 2 + value.length + 2;
  }
  return n;
}

function gitDescribe(): string {
  try {
    const sha = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain"], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    return dirty ? `${sha}+dirty` : sha;
  } catch {
    return "unknown";
  }
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string; ms: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (output += c.toString("utf8")));
    child.on("error", (error) => resolve({ code: null, output: `${output}\n${String(error)}`, ms: Date.now() - started }));
    child.on("exit", (code) => resolve({ code, output, ms: Date.now() - started }));
  });
}

// ─── cleanup ────────────────────────────────────────────────────────────────

const children = new Set<Child>();
let tempDir: string | null = null;

async function cleanup() {
  for (const child of children) {
    await stopChild(child).catch(() => {});
    children.delete(child);
  }
  if (tempDir) {
    fs.rmSync(tempDir, { recursive: true, force: true });
    tempDir = null;
  }
}

let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\nbench: ${signal}, stopping servers…`);
    void cleanup().finally(() => process.exit(130));
  });
}

// ─── measurements ───────────────────────────────────────────────────────────

type LoadFigures = {
  server: "ours" | "baseline";
  path: string;
  rps: number;
  total: number;
  p50: number;
  p99: number;
  bytesPerResponse: number;
  non2xx: number;
  errors: number;
  serverCpu: number | null; // fraction of one core
  clientCpu: number; // fraction of one core (this process: autocannon)
  otherCpu: number | null; // fraction of one core used by every other process on the machine
  serverCpuPerRequestUs: number | null;
  /** CPU µs per request of each round. */
  roundsUs: Array<number | null>;
};

type Round = { r: AutocannonResult; wall: number; serverSeconds: number | null; clientSeconds: number; machineSeconds: number | null };

async function loadRound(origin: string, pid: number, urlPath: string, opts: Options): Promise<Round> {
  const cpu0 = cpuSeconds(pid);
  const machine0 = machineBusySeconds();
  const client0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const r = await cannon(`${origin}${urlPath}`, opts.duration, opts.connections, opts.rate);
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu1 = cpuSeconds(pid);
  const machine1 = machineBusySeconds();
  const client = process.cpuUsage(client0);
  return {
    r,
    wall,
    serverSeconds: cpu0 !== null && cpu1 !== null ? cpu1 - cpu0 : null,
    clientSeconds: (client.user + client.system) / 1e6,
    machineSeconds: machine0 !== null && machine1 !== null ? machine1 - machine0 : null,
  };
}

/** The rounds of one server on one path, summed: CPU per request is total server CPU ÷ total requests. */
function sumRounds(server: "ours" | "baseline", urlPath: string, rounds: Round[]): LoadFigures {
  const total = rounds.reduce((n, x) => n + x.r.requests.total, 0);
  const wall = rounds.reduce((n, x) => n + x.wall, 0);
  const bytes = rounds.reduce((n, x) => n + x.r.throughput.total, 0);
  const serverSeconds = rounds.every((x) => x.serverSeconds !== null) ? rounds.reduce((n, x) => n + x.serverSeconds!, 0) : null;
  const clientSeconds = rounds.reduce((n, x) => n + x.clientSeconds, 0);
  const machineSeconds = rounds.every((x) => x.machineSeconds !== null) ? rounds.reduce((n, x) => n + x.machineSeconds!, 0) : null;
  const latency = (key: "p50" | "p99") => Math.max(...rounds.map((x) => x.r.latency[key]));
  return {
    server,
    path: urlPath,
    rps: wall ? total / wall : 0,
    total,
    p50: latency("p50"),
    p99: latency("p99"),
    bytesPerResponse: total ? bytes / total : 0,
    non2xx: rounds.reduce((n, x) => n + x.r.non2xx, 0),
    errors: rounds.reduce((n, x) => n + x.r.errors + x.r.timeouts, 0),
    serverCpu: serverSeconds !== null ? serverSeconds / wall : null,
    clientCpu: clientSeconds / wall,
    otherCpu: serverSeconds !== null && machineSeconds !== null ? Math.max(0, machineSeconds - serverSeconds - clientSeconds) / wall : null,
    serverCpuPerRequestUs: serverSeconds !== null && total ? (serverSeconds / total) * 1e6 : null,
    roundsUs: rounds.map((x) => (x.serverSeconds !== null && x.r.requests.total ? (x.serverSeconds / x.r.requests.total) * 1e6 : null)),
  };
}

/**
 * Load both servers on one path: a warm-up each, then `rounds` rounds of
 * `duration` seconds, ours and bare in turn (the order swaps every round), so
 * that a change in the machine's background load hits both sides alike.
 */
async function loadPair(ours: { origin: string; pid: number }, base: { origin: string; pid: number }, urlPath: string, opts: Options): Promise<[LoadFigures, LoadFigures]> {
  progress(`${urlPath}: warm-up ${opts.warmup} s each`);
  await cannon(`${ours.origin}${urlPath}`, opts.warmup, opts.connections);
  await cannon(`${base.origin}${urlPath}`, opts.warmup, opts.connections);
  const oursRounds: Round[] = [];
  const baseRounds: Round[] = [];
  for (let i = 0; i < opts.rounds; i++) {
    progress(`${urlPath}: round ${i + 1}/${opts.rounds}, ${opts.duration} s each, ${opts.connections} connections`);
    if (i % 2 === 0) {
      oursRounds.push(await loadRound(ours.origin, ours.pid, urlPath, opts));
      baseRounds.push(await loadRound(base.origin, base.pid, urlPath, opts));
    } else {
      baseRounds.push(await loadRound(base.origin, base.pid, urlPath, opts));
      oursRounds.push(await loadRound(ours.origin, ours.pid, urlPath, opts));
    }
  }
  return [sumRounds("ours", urlPath, oursRounds), sumRounds("baseline", urlPath, baseRounds)];
}

type Captured = {
  path: string;
  status: number;
  contentType: string;
  contentEncoding: string | null;
  pageCache: string | null;
  /** The response's own headers (not the per-connection or per-response ones), for the baseline to send too. */
  pageHeaders: Record<string, string>;
  /** Body as sent with Accept-Encoding: br. */
  wire: Buffer;
  html: string;
  headBytes: number;
  error?: string;
};

/** Headers any server sends on its own, or that differ per response: not part of the page's answer. */
const PER_RESPONSE_HEADERS = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length", "x-request-id"]);

/** The headers that make up a page's answer (content, caching, security), as the baseline sends them too. */
function pageHeaders(res: RawResponse): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(res.headers)) {
    if (!PER_RESPONSE_HEADERS.has(name)) out[name] = header(res, name)!;
  }
  return out;
}

async function capture(origin: string, urlPath: string): Promise<Captured> {
  try {
    const res = await getRaw(`${origin}${urlPath}`, { "accept-encoding": "br" });
    return {
      path: urlPath,
      status: res.status,
      contentType: header(res, "content-type") ?? "application/octet-stream",
      contentEncoding: header(res, "content-encoding") ?? null,
      pageCache: header(res, "x-page-cache") ?? null,
      pageHeaders: pageHeaders(res),
      wire: res.body,
      html: decode(res).toString("utf8"),
      headBytes: headBytes(res),
    };
  } catch (error) {
    return {
      path: urlPath,
      status: 0,
      contentType: "",
      contentEncoding: null,
      pageCache: null,
      pageHeaders: {},
      wire: Buffer.alloc(0),
      html: "",
      headBytes: 0,
      error: (error as Error).message,
    };
  }
}

type PageJs = {
  path: string;
  status: number;
  htmlBytes: number;
  htmlBrotli: number;
  htmlBrotliServed: boolean;
  files: string[];
  missing: string[];
  inline: InlineScript[];
  gzip: number;
  ratio: number;
  portal: string[];
  external: string[];
  error?: string;
};

function brotliOf(c: Captured): { bytes: number; served: boolean } {
  if (c.contentEncoding === "br") return { bytes: c.wire.byteLength, served: true };
  const q11 = brotliCompressSync(Buffer.from(c.html), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
  return { bytes: q11.byteLength, served: false };
}

function analysePages(pages: Captured[], build: ClientBuild, origin: string): { baseline: Baseline; pages: PageJs[] } {
  const scripts = new Map(pages.map((p) => [p.path, pageScripts(p.html, origin)]));
  const firstManifest = [...scripts.values()].find((s) => s.inlineManifest)?.inlineManifest ?? null;
  const baseline = reactRouterBaseline(build, firstManifest);
  const out = pages.map((p): PageJs => {
    const s = scripts.get(p.path)!;
    const { files, missing } = build.closure(s.urls.map((u) => build.fileForUrl(u)));
    const inline = s.inlineModules;
    const gzip = files.reduce((sum, f) => sum + build.measure(f).gzip, 0) + inline.reduce((sum, i) => sum + i.gzip, 0);
    const br = brotliOf(p);
    return {
      path: p.path,
      status: p.status,
      htmlBytes: Buffer.byteLength(p.html),
      htmlBrotli: br.bytes,
      htmlBrotliServed: br.served,
      files,
      missing,
      inline,
      gzip,
      ratio: baseline.gzip ? gzip / baseline.gzip : 0,
      portal: files.filter(isPortalChunk),
      external: s.external,
      error: p.error,
    };
  });
  return { baseline, pages: out };
}

// ─── public pages (parts 1–4) ───────────────────────────────────────────────

type PartResult = { lines: string[]; checks: Check[]; summary: Record<string, unknown> };
type ServerEnv = (port: number, dataDir: string) => NodeJS.ProcessEnv;

async function benchPages(opts: Options, serverEnv: ServerEnv, baseEnv: NodeJS.ProcessEnv, workDir: string): Promise<PartResult> {
  const OUR_ORIGIN = `http://${HOST}:${opts.ports.ours}`;
  const BASE_ORIGIN = `http://${HOST}:${opts.ports.base}`;
  await assertPortFree(opts.ports.ours, HOST);
  await assertPortFree(opts.ports.base, HOST);
  const ourEnv = serverEnv(opts.ports.ours, workDir);
  progress(`starting our server on ${OUR_ORIGIN}`);
  const ours = startServer("our server", ROOT, ourEnv);
  children.add(ours);
  const startupMs = await waitForHttp(`${OUR_ORIGIN}/healthz`, ours);

  // Capture every public page once (Accept-Encoding: br, as a browser sends).
  progress("fetching the public pages");
  const pages: Captured[] = [];
  for (const p of PUBLIC_PAGES) pages.push(await capture(OUR_ORIGIN, p));
  const rssIdle = readMemory(ours.pid);

  // Brotli of the home page, and page JS.
  const home = pages.find((p) => p.path === "/")!;
  if (home.error) throw new Error(`GET / failed: ${home.error}\n${ours.output()}`);
  const homeBr = brotliOf(home);
  const build = new ClientBuild(path.join(BUILD_DIR, "client"));
  const js = analysePages(pages, build, OUR_ORIGIN);

  // Baseline: the same bytes and headers from a bare node:http server, in its own process
  // (not in this one, where it would share an event loop with autocannon).
  const spec: StaticSpec = { host: HOST, port: opts.ports.base, routes: {} };
  for (const [i, p] of LOAD_PATHS.entries()) {
    const c = pages.find((x) => x.path === p)!;
    if (c.error) throw new Error(`GET ${p} failed: ${c.error}\n${ours.output()}`);
    if (c.status !== 200) throw new Error(`GET ${p} answered ${c.status}: the load needs a page that answers 200\n${ours.output()}`);
    const file = path.join(workDir, `body-${i}.bin`);
    fs.writeFileSync(file, c.wire);
    // The same answer: the page's headers too (content, caching and the security headers DESIGN.md §4
    // asks of every response), so the ratio is what our server adds (decision 021).
    spec.routes[p] = { file, status: c.status, headers: c.pageHeaders };
  }
  const specFile = path.join(workDir, "static-spec.json");
  fs.writeFileSync(specFile, JSON.stringify(spec));
  progress(`starting the baseline server on ${BASE_ORIGIN}`);
  const base = startChild("baseline server", process.execPath, ["--import", "tsx", path.join(ROOT, "bench/static-server.ts"), specFile], {
    cwd: ROOT,
    env: baseEnv,
  });
  children.add(base);
  await waitForLine(base, "ready");
  for (const p of LOAD_PATHS) {
    const check = await getRaw(`${BASE_ORIGIN}${p}`, { "accept-encoding": "br, gzip" });
    if (!check.body.equals(pages.find((x) => x.path === p)!.wire)) throw new Error(`baseline server does not send the captured bytes for ${p}`);
  }

  // Load: one server at a time (the other one idles), in alternating rounds.
  const loads: LoadFigures[] = [];
  const rssBefore = readMemory(ours.pid);
  for (const p of LOAD_PATHS) {
    loads.push(...(await loadPair({ origin: OUR_ORIGIN, pid: ours.pid }, { origin: BASE_ORIGIN, pid: base.pid }, p, opts)));
  }
  const rssAfter = readMemory(ours.pid);
  const cacheAfter: Record<string, string | null> = {};
  for (const p of LOAD_PATHS) {
    const res = await getRaw(`${OUR_ORIGIN}${p}`, { "accept-encoding": "br, gzip" });
    cacheAfter[p] = header(res, "x-page-cache") ?? null;
  }
  const loadAvgAfter = os.loadavg();

  progress("stopping the servers");
  const ourStop = await stopChild(ours);
  children.delete(ours);
  await stopChild(base);
  children.delete(base);


  // ─── report ───────────────────────────────────────────────────────────────

  const checks: Check[] = [];
  const out: string[] = [];
  const cpuCount = os.cpus().length;
  const fmtLoad = (l: number[]) => l.map((x) => x.toFixed(2)).join(" ");
  out.push("");
  out.push(`Public pages — our server ready in ${startupMs} ms; load avg (1/5/15 min) ${fmtLoad(loadAvgAfter)} after the load`);

  // 1. Throughput.
  out.push("");
  out.push(
    `1. Public pages under load — autocannon in this process, ${opts.connections} connections, accept-encoding: br, gzip; per path ${opts.warmup} s warm-up each, then ${opts.rounds} rounds of ${opts.duration} s, ours and bare in turn`,
  );
  out.push(`   NOTE: the load generator (this process) and the servers share this machine's ${cpuCount} CPUs; one server is loaded at a time.`);
  out.push("   CPU columns are % of one core over the measured run; \"other\" is every other process on the machine (noise).");
  out.push("");
  const cpu = (v: number | null) => (v === null ? "n/a" : `${Math.round(v * 100)}%`);
  out.push(
    table(
      ["server", "path", ">req/s (mean)", ">requests", ">p50 ms", ">p99 ms", ">bytes/resp", ">non-2xx", ">errors", ">server CPU", ">CPU µs/req", ">client CPU", ">other CPU"],
      loads.map((l) => [
        l.server === "ours" ? "ours" : "bare node:http",
        l.path,
        num(l.rps),
        num(l.total),
        num(l.p50, Number.isInteger(l.p50) ? 0 : 1),
        num(l.p99, Number.isInteger(l.p99) ? 0 : 1),
        num(l.bytesPerResponse),
        num(l.non2xx),
        num(l.errors),
        cpu(l.serverCpu),
        l.serverCpuPerRequestUs === null ? "n/a" : num(l.serverCpuPerRequestUs),
        cpu(l.clientCpu),
        cpu(l.otherCpu),
      ]),
    ),
  );
  const saturated = loads.filter((l) => l.clientCpu >= 0.9);
  if (saturated.length) {
    out.push(
      `   NOTE: the load generator used ≥ 90% of a core during ${saturated.map((l) => `${l.server === "ours" ? "ours" : "bare"} ${l.path}`).join(", ")}: those req/s are capped by the client, not the server.`,
    );
  }
  const noisiest = Math.max(0, ...loads.map((l) => l.otherCpu ?? 0));
  if (noisiest > 0.2) {
    out.push(
      `   WARNING: other processes used up to ${Math.round(noisiest * 100)}% of a core during a run: req/s figures are noisy. CPU µs/req is the steadier figure; re-run on a quiet machine.`,
    );
  }
  out.push("");
  const cpuRows: string[][] = [];
  const cpuRatios: Record<string, number | null> = {};
  for (const p of LOAD_PATHS) {
    const o = loads.find((l) => l.server === "ours" && l.path === p)!;
    const b = loads.find((l) => l.server === "baseline" && l.path === p)!;
    const cpuRatio = o.serverCpuPerRequestUs && b.serverCpuPerRequestUs ? b.serverCpuPerRequestUs / o.serverCpuPerRequestUs : null;
    cpuRatios[p] = cpuRatio;
    const clean = o.non2xx === 0 && o.errors === 0;
    const ok = cpuRatio !== null && cpuRatio >= BUDGET.cpuRatio && clean;
    const rpsRatio = b.rps ? o.rps / b.rps : 0;
    const us = (l: LoadFigures) => (l.serverCpuPerRequestUs === null ? "n/a" : num(l.serverCpuPerRequestUs));
    cpuRows.push([
      p,
      us(o),
      us(b),
      cpuRatio === null ? "n/a" : cpuRatio.toFixed(2),
      `≥ ${BUDGET.cpuRatio.toFixed(2)}`,
      passFail(ok) + (clean ? "" : " (errors/non-2xx)"),
      rpsRatio.toFixed(2),
    ]);
    checks.push({
      name: `server CPU per request bare ÷ ours, GET ${p}`,
      figure: cpuRatio === null ? "n/a (no /proc)" : `${cpuRatio.toFixed(2)} (${us(b)} ÷ ${us(o)} µs)`,
      budget: `≥ ${BUDGET.cpuRatio.toFixed(2)}`,
      ok,
    });
  }
  out.push(table(["path", ">ours CPU µs/req", ">bare CPU µs/req", ">bare ÷ ours", "budget", "result", ">(info) req/s ours ÷ bare"], cpuRows));
  out.push(
    "   CPU µs/req = the server process's user + system time (/proc, all rounds) ÷ requests answered; the budget. req/s is capped by the load generator, information only.",
  );
  const perRound = (l: LoadFigures) => l.roundsUs.map((x) => (x === null ? "n/a" : num(x))).join(", ");
  for (const p of LOAD_PATHS) {
    const o = loads.find((l) => l.server === "ours" && l.path === p)!;
    const b = loads.find((l) => l.server === "baseline" && l.path === p)!;
    out.push(`   per round, ${p}: ours ${perRound(o)} · bare ${perRound(b)} µs/req`);
  }
  const cacheNote = LOAD_PATHS.map((p) => `${p}: ${cacheAfter[p] ?? "no X-Page-Cache header"}`).join(", ");
  out.push(`   page cache after the load (X-Page-Cache): ${cacheNote}`);
  const ourHome = loads.find((l) => l.server === "ours" && l.path === "/")!;
  const baseHome = loads.find((l) => l.server === "baseline" && l.path === "/")!;
  out.push(
    `   response size on the wire, GET /: ours ${num(ourHome.bytesPerResponse)} B vs bare ${num(baseHome.bytesPerResponse)} B (same body; the difference is response headers)`,
  );

  // 2. HTML brotli.
  out.push("");
  out.push("2. Home page HTML, brotli (as served with Accept-Encoding: br)");
  const brOk = homeBr.bytes <= BUDGET.homeBrotli;
  out.push(
    table(
      ["page", ">HTML", ">brotli", "how", "budget", "result"],
      [
        [
          "/",
          kb(Buffer.byteLength(home.html)),
          `${kb(homeBr.bytes, 2)} (${num(homeBr.bytes)} B)`,
          homeBr.served ? "as served (Content-Encoding: br)" : `NOT brotli'd by the server (Content-Encoding: ${home.contentEncoding ?? "none"}); zlib q11 here`,
          `≤ 14.6 KB (${num(BUDGET.homeBrotli)} B)`,
          passFail(brOk),
        ],
      ],
    ),
  );
  checks.push({ name: "home HTML brotli", figure: `${num(homeBr.bytes)} B`, budget: `≤ ${num(BUDGET.homeBrotli)} B`, ok: brOk });

  // 3. Page JS.
  out.push("");
  const bl = js.baseline;
  out.push(`3. Page JS (gzip -9 of the ${BUILD_DIR_NAME}/client files) vs the React Router + React baseline`);
  out.push(`   baseline ${kb(bl.gzip, 2)}: ${bl.files.map((f) => `${path.posix.basename(f)} ${kb(build.measure(f).gzip)}`).join(" + ")}`);
  out.push(`   (entry found via ${bl.source}; route manifest file: ${bl.manifestFile ? path.posix.basename(bl.manifestFile) : "none found"})`);
  out.push(
    "   page JS = modulepreload hrefs + <script src> + imports of inline module scripts, with their static imports, + the inline module script (route manifest)",
  );
  out.push("");
  const jsRows = js.pages.map((p) => {
    const ok = !p.error && p.ratio <= BUDGET.pageJsRatio;
    const brMark = p.htmlBrotliServed ? "" : "*";
    return [
      p.path,
      p.error ? "ERR" : String(p.status),
      p.error ? "—" : `${kb(p.htmlBrotli)}${brMark}`,
      String(p.files.length),
      p.error ? "—" : kb(p.gzip),
      p.error ? "—" : ratio(p.ratio),
      `≤ ${BUDGET.pageJsRatio.toFixed(2)}×`,
      p.error ? "FAIL (fetch failed)" : passFail(ok),
    ];
  });
  out.push(table(["page", "status", ">HTML br", ">JS files", ">JS gzip", ">÷ baseline", "budget", "result"], jsRows));
  if (js.pages.some((p) => !p.htmlBrotliServed && !p.error)) out.push("   * the server did not brotli this page; size from zlib brotli q11 here");
  for (const p of js.pages) {
    if (p.error) out.push(`   ${p.path}: ${p.error}`);
    if (p.external.length) out.push(`   ${p.path}: scripts from other origins (not measured): ${p.external.join(", ")}`);
    if (p.missing.length) out.push(`   ${p.path}: referenced JS not in the build: ${p.missing.join(", ")}`);
    if (p.status !== 200 && !p.error) out.push(`   ${p.path}: HTTP ${p.status} (placeholder or error page?) — measured anyway`);
  }
  const failingPages = js.pages.filter((p) => p.error || p.ratio > BUDGET.pageJsRatio);
  const worst = [...js.pages].sort((a, b) => b.ratio - a.ratio)[0];
  checks.push({
    name: `page JS ÷ baseline (${js.pages.length} pages)`,
    figure: worst ? `worst ${ratio(worst.ratio)} ${worst.path}` : "n/a",
    budget: `≤ ${BUDGET.pageJsRatio.toFixed(2)}× each`,
    ok: failingPages.length === 0,
  });

  // What the pages load beyond the baseline.
  const baselineSet = new Set(bl.files);
  const extra = new Map<string, string[]>();
  for (const p of js.pages) for (const f of p.files) if (!baselineSet.has(f)) extra.set(f, [...(extra.get(f) ?? []), p.path]);
  out.push("");
  out.push("   JS beyond the baseline (largest first):");
  const extraRows = [...extra.entries()]
    .map(([f, on]) => ({ f, on, gz: build.measure(f).gzip }))
    .sort((a, b) => b.gz - a.gz)
    .map(({ f, on, gz }) => [path.posix.basename(f), kb(gz, 2), on.length === js.pages.length ? "every page" : on.join(" ")]);
  const inlineMax = Math.max(0, ...js.pages.flatMap((p) => p.inline.map((i) => i.gzip)));
  extraRows.push(["(inline module script, per page)", `≤ ${kb(inlineMax, 2)}`, "every page"]);
  out.push(table(["chunk", ">gzip", "loaded by"], extraRows, "   "));

  // Portal code.
  const portal = [...new Set(js.pages.flatMap((p) => p.portal))].sort();
  out.push("");
  out.push(
    `   portal code on public pages (chunks named lp-*, admin-*, *portal*): ${
      portal.length ? portal.map((f) => `${path.posix.basename(f)} (on ${js.pages.filter((p) => p.portal.includes(f)).map((p) => p.path).join(" ")})`).join(", ") : "none"
    } — ${passFail(portal.length === 0)}`,
  );
  checks.push({ name: "portal code on public pages", figure: portal.length ? `${portal.length} chunk(s)` : "none", budget: "none", ok: portal.length === 0 });

  // 4. Memory.
  out.push("");
  out.push(`4. Our server's memory (/proc/${ours.pid}/status)`);
  const m = (x: Memory | null, key: keyof Memory) => (x ? mb(x[key]) : "n/a");
  out.push(
    table(
      ["when", ">VmRSS", ">VmHWM (peak)"],
      [
        ["after start + fetching 12 pages", m(rssIdle, "rssKb"), m(rssIdle, "hwmKb")],
        ["before the load", m(rssBefore, "rssKb"), m(rssBefore, "hwmKb")],
        ["after the load", m(rssAfter, "rssKb"), m(rssAfter, "hwmKb")],
      ],
    ),
  );
  if (rssBefore && rssAfter) {
    out.push(
      `   growth over the load: ${((rssAfter.rssKb - rssBefore.rssKb) / 1024).toFixed(1)} MB (one reading each side; it moves with V8's heap sizing and GC, so growth alone is not a leak)`,
    );
  }
  out.push(
    `   our server stopped on SIGTERM: exit ${ourStop.code ?? "-"}${ourStop.signal ? ` (signal ${ourStop.signal})` : ""}${ourStop.killed ? " — did NOT exit within 15 s, killed" : ""}`,
  );

  const summary = {
    connections: opts.connections,
    durationS: opts.duration,
    loadAvgAfterLoad: loadAvgAfter.map((l) => Number(l.toFixed(2))),
    throughput: Object.fromEntries(
      LOAD_PATHS.map((p) => {
        const o = loads.find((l) => l.server === "ours" && l.path === p)!;
        const b = loads.find((l) => l.server === "baseline" && l.path === p)!;
        const fig = (l: LoadFigures) => ({
          rps: Math.round(l.rps),
          p50: l.p50,
          p99: l.p99,
          non2xx: l.non2xx,
          errors: l.errors,
          bytes: Math.round(l.bytesPerResponse),
          cpuUsPerReq: l.serverCpuPerRequestUs === null ? null : Math.round(l.serverCpuPerRequestUs),
          otherCpu: l.otherCpu === null ? null : Number(l.otherCpu.toFixed(2)),
        });
        return [p, { ours: fig(o), bare: fig(b), cpuRatio: cpuRatios[p] === null ? null : Number(cpuRatios[p]!.toFixed(3)), rpsRatio: b.rps ? Number((o.rps / b.rps).toFixed(3)) : null }];
      }),
    ),
    homeHtmlBrotliBytes: homeBr.bytes,
    homeHtmlBrotliServed: homeBr.served,
    baselineJsGzipBytes: bl.gzip,
    pageJs: Object.fromEntries(js.pages.map((p) => [p.path, { status: p.status, gzipBytes: p.gzip, ratio: Number(p.ratio.toFixed(3)), htmlBrotliBytes: p.htmlBrotli }])),
    portalChunks: portal.map((f) => path.posix.basename(f)),
    rssKb: { before: rssBefore?.rssKb ?? null, after: rssAfter?.rssKb ?? null, peak: rssAfter?.hwmKb ?? null },
  };
  return { lines: out, checks, summary };
}

// ─── main ───────────────────────────────────────────────────────────────────

async function main() {
  const opts = parseOptions(process.argv.slice(2));
  const startedAt = new Date();
  const t0 = Date.now();
  const loadAvgStart = os.loadavg();

  // Build.
  const haveBuild = fs.existsSync(path.join(BUILD_DIR, "server/index.js")) && fs.existsSync(path.join(BUILD_DIR, "client"));
  let buildNote: string;
  if (!opts.build && haveBuild) {
    buildNote = `reused ${BUILD_DIR_NAME}/ (--no-build), built ${fs.statSync(path.join(BUILD_DIR, "server/index.js")).mtime.toISOString()}`;
  } else {
    if (!opts.build) progress(`--no-build given but ${BUILD_DIR_NAME}/ is missing: building`);
    progress(`building into ${BUILD_DIR_NAME}/ (BUILD_DIR=${BUILD_DIR_NAME} npm run build)`);
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const result = await run(npm, ["run", "build"], { ...process.env, BUILD_DIR: BUILD_DIR_NAME });
    if (result.code !== 0) {
      console.error(result.output);
      fatal(`build failed (exit ${result.code})`);
    }
    buildNote = `fresh build into ${BUILD_DIR_NAME}/ in ${(result.ms / 1000).toFixed(1)} s`;
  }

  tempDir = fs.mkdtempSync(path.join(os.tmpdir(), "lumen-bench-"));
  const baseEnv: NodeJS.ProcessEnv = {};
  for (const key of ["PATH", "HOME", "TMPDIR", "LANG", "SYSTEMROOT"]) if (process.env[key]) baseEnv[key] = process.env[key];
  const serverEnv: ServerEnv = (port, dataDir) => ({
    ...baseEnv,
    NODE_ENV: "production",
    PORT: String(port),
    HOST,
    APP_URL: `http://localhost:${port}`,
    SESSION_SECRET: "bench-only-session-secret-0123456789abcdef",
    DATABASE_PATH: path.join(dataDir, "data.sqlite"),
    STORAGE_DIR: path.join(dataDir, "uploads"),
    LOG_LEVEL: "silent",
    BUILD_DIR: BUILD_DIR_NAME,
  });

  const parts: Part[] = opts.only ? [opts.only] : [...PARTS];
  const pages = parts.includes("pages") ? await benchPages(opts, serverEnv, baseEnv, tempDir) : null;
  let files: PartResult | null = null;
  if (parts.includes("files")) {
    const workDir = path.join(tempDir, "files");
    fs.mkdirSync(workDir);
    files = await benchFiles({
      root: ROOT,
      host: HOST,
      ourPort: opts.ports.filesOurs,
      basePort: opts.ports.filesBase,
      workDir,
      serverEnv,
      baseEnv,
      children,
      progress,
      runs: opts.runs,
      concurrency: opts.concurrency,
    });
  }
  let admin: PartResult | null = null;
  if (parts.includes("admin")) {
    const workDir = path.join(tempDir, "admin");
    fs.mkdirSync(workDir);
    admin = await benchAdmin({
      root: ROOT,
      host: HOST,
      ports: opts.ports.admin,
      workDir,
      serverEnv,
      children,
      progress,
      requests: opts.requests,
    });
  }
  let lighthouseResult: PartResult | null = null;
  if (parts.includes("lighthouse")) {
    const workDir = path.join(tempDir, "lighthouse");
    fs.mkdirSync(workDir);
    lighthouseResult = await benchLighthouse({
      root: ROOT,
      host: HOST,
      port: opts.ports.lighthouse,
      mailPort: opts.ports.lighthouseMail,
      pages: opts.lighthousePages,
      workDir,
      serverEnv,
      children,
      progress,
      runs: opts.lighthouseRuns,
    });
  }
  // The parts that each run their own server on a port of their own, in this order.
  const runDir = tempDir;
  const partContext = (part: string, port: number) => {
    const workDir = path.join(runDir, part);
    fs.mkdirSync(workDir);
    return { root: ROOT, host: HOST, port, workDir, serverEnv, children, progress, requests: opts.requests };
  };
  const serverParts: { part: Part; run: () => Promise<PartResult> }[] = [
    { part: "activity", run: () => benchActivity(partContext("activity", opts.ports.activity)) },
    { part: "watermark", run: () => benchWatermark(partContext("watermark", opts.ports.watermark)) },
    { part: "pitches", run: () => benchPitches(partContext("pitches", opts.ports.pitches)) },
    { part: "capital", run: () => benchCapital(partContext("capital", opts.ports.capital)) },
    { part: "statements", run: () => benchStatements(partContext("statements", opts.ports.statements)) },
    { part: "history", run: () => benchHistoryImport(partContext("history", opts.ports.history)) },
  ];
  const later = new Map<Part, PartResult>();
  for (const { part, run } of serverParts) if (parts.includes(part)) later.set(part, await run());
  const loadAvgAfter = os.loadavg();

  await cleanup();
  const totalSeconds = (Date.now() - t0) / 1000;

  // ─── report ───────────────────────────────────────────────────────────────

  const checks: Check[] = [...(pages?.checks ?? []), ...(files?.checks ?? []), ...(admin?.checks ?? []), ...(lighthouseResult?.checks ?? []), ...[...later.values()].flatMap((r) => r.checks)];
  const out: string[] = [];
  const cpuCount = os.cpus().length;
  const fmtLoad = (l: number[]) => l.map((x) => x.toFixed(2)).join(" ");

  out.push("");
  out.push(`Lumen Ridge — performance budgets (DESIGN.md §7), ${startedAt.toISOString()}${opts.only ? ` — only ${opts.only} (--only)` : ""}`);
  out.push(`  commit ${gitDescribe()} · node ${process.version} · ${cpuCount} CPU${cpuCount === 1 ? "" : "s"} (${os.cpus()[0]?.model.trim() ?? "?"}) · load avg (1/5/15 min) ${fmtLoad(loadAvgStart)} at start, ${fmtLoad(loadAvgAfter)} at the end`);
  out.push(`  ${buildNote}`);
  if (pages) out.push(...pages.lines);
  if (files) out.push(...files.lines);
  if (admin) out.push(...admin.lines);
  if (lighthouseResult) out.push(...lighthouseResult.lines);
  for (const result of later.values()) out.push(...result.lines);

  // Budgets.
  out.push("");
  out.push("Budgets");
  out.push(table(["check", ">figure", "budget", "result"], checks.map((c) => [c.name, c.figure, c.budget, passFail(c.ok)])));
  const failed = checks.filter((c) => !c.ok);
  out.push("");
  out.push(
    `${failed.length ? `${failed.length} of ${checks.length} budgets FAIL` : `all ${checks.length} budgets PASS`} · run took ${totalSeconds.toFixed(0)} s${
      failed.length && !opts.strict ? " · exit 0 (use --strict to fail the run)" : ""
    }`,
  );
  console.log(out.join("\n"));

  const summary = {
    bench: "budgets",
    parts,
    time: startedAt.toISOString(),
    commit: gitDescribe(),
    node: process.version,
    cpus: cpuCount,
    build: buildNote.startsWith("fresh") ? "fresh" : "reused",
    loadAvg: { start: loadAvgStart.map((l) => Number(l.toFixed(2))), end: loadAvgAfter.map((l) => Number(l.toFixed(2))) },
    ...(pages?.summary ?? {}),
    ...(files ? { files: files.summary } : {}),
    ...(admin ? { admin: admin.summary } : {}),
    ...(lighthouseResult ? { lighthouse: lighthouseResult.summary } : {}),
    ...Object.fromEntries([...later].map(([part, result]) => [part, result.summary])),
    budgetsFailed: failed.map((c) => c.name),
    pass: failed.length === 0,
    seconds: Math.round(totalSeconds),
  };
  console.log(JSON.stringify(summary));
  return opts.strict && failed.length ? 1 : 0;
}

main()
  .then((code) => {
    process.exitCode = code;
  })
  .catch(async (error) => {
    console.error(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    await cleanup();
    process.exitCode = 2;
  });
