/**
 * `npm run bench`: the performance budgets of DESIGN.md §7 for the public
 * pages, measured in one run and printed as a table with PASS/FAIL.
 *
 *   1. req/s of GET / and GET /portfolio on the production server, against a
 *      bare node:http server sending the same (compressed) bytes;
 *   2. brotli size of the home page HTML;
 *   3. page JS (gzip) of each public page against the React Router + React
 *      baseline of the same build, and portal chunks on public pages;
 *   4. the server's RSS before and after the load;
 *   5. documents (bench/files.ts): 50 MB download MB/s against a bare
 *      node:http + fs.createReadStream server, the server's RSS during
 *      concurrent downloads and during a 50 MB upload, and a 50 MB + 1 byte
 *      upload refused with nothing left behind.
 *   6. admin lists (bench/lists.ts): GET /admin/dashboard HTML bytes and
 *      server time at 100,000 newsletter subscribers against 1,000 (fresh
 *      seeded databases), and the time to build the full newsletter TSV.
 *   7. Lighthouse (bench/lighthouse.ts): mobile, system Chromium, on / and
 *      /portfolio: performance score ≥ 95 and CLS ≤ 0.05 (median of
 *      --lighthouse-runs runs), with LCP, TBT and the other category scores.
 *
 * Flags: --no-build (reuse build-bench/ when it exists), --strict (exit 1 when
 * a budget fails), --only=pages|files|lists|lighthouse (one part), --duration=S, --warmup=S,
 * --connections=N (page load, for quick trials), --runs=N (sequential
 * downloads per server), --concurrency=N (downloads at once), --requests=N
 * (measured dashboard requests per database in the lists part),
 * --lighthouse-runs=N (runs per page, median reported; default 3),
 * --lighthouse-port=N (our server for Lighthouse; Chromium's debugging port is N+1).
 * The last line of output is a JSON summary.
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from "node:zlib";
import { cpuSeconds, machineBusySeconds } from "./cpu";
import { benchFiles, type Check } from "./files";
import { benchLighthouse } from "./lighthouse";
import { benchLists } from "./lists";
import { kb, mb, num, passFail, ratio, table } from "./format";
import { ClientBuild, isPortalChunk, pageScripts, reactRouterBaseline, type Baseline, type InlineScript } from "./page-js";
import { assertPortFree, getRaw, readMemory, startChild, stopChild, waitForHttp, waitForLine, type Child, type Memory, type RawResponse } from "./proc";
import type { StaticSpec } from "./static-server";
import { publicPages } from "../app/content/sitemap";

// ─── configuration ──────────────────────────────────────────────────────────

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** BENCH_BUILD_DIR picks another build folder (e.g. a helper's own) than build-bench/. */
const BUILD_DIR_NAME = process.env.BENCH_BUILD_DIR || "build-bench";
const BUILD_DIR = path.join(ROOT, BUILD_DIR_NAME);
const HOST = "127.0.0.1";
const OUR_PORT = 3400;
const BASE_PORT = 3401;
const OUR_ORIGIN = `http://${HOST}:${OUR_PORT}`;
const BASE_ORIGIN = `http://${HOST}:${BASE_PORT}`;
/** The documents part runs its own servers (fresh memory, its own database and storage). */
const FILES_OUR_PORT = 3810;
const FILES_BASE_PORT = 3811;
/** The admin lists part: one server per seeded database (1k, then 100k), one after the other. */
const LISTS_PORTS: [number, number] = [3840, 3841];
/** The Lighthouse part: our server, and Chromium's debugging port (+1). */
const LIGHTHOUSE_PORT = 3870;

const LOAD_PATHS = ["/", "/portfolio"];
const PUBLIC_PAGES: readonly string[] = publicPages;

const BUDGET = {
  rpsRatio: 0.8,
  homeBrotli: Math.round(14.6 * 1024), // 14,950 bytes
  pageJsRatio: 1.15,
};

type Part = "pages" | "files" | "lists" | "lighthouse";
const PARTS: readonly Part[] = ["pages", "files", "lists", "lighthouse"];
type Options = {
  build: boolean;
  strict: boolean;
  only: Part | null;
  duration: number;
  warmup: number;
  connections: number;
  runs: number;
  concurrency: number;
  requests: number;
  lighthouseRuns: number;
  lighthousePort: number;
};

function parseOptions(argv: string[]): Options {
  const opts: Options = { build: true, strict: false, only: null, duration: 10, warmup: 2, connections: 50, runs: 9, concurrency: 8, requests: 15, lighthouseRuns: 3, lighthousePort: LIGHTHOUSE_PORT };
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
    else if (name === "--connections") opts.connections = Math.round(positive(name));
    else if (name === "--runs") opts.runs = Math.round(positive(name));
    else if (name === "--concurrency") opts.concurrency = Math.round(positive(name));
    else if (name === "--requests") opts.requests = Math.round(positive(name));
    else if (name === "--lighthouse-runs") opts.lighthouseRuns = Math.round(positive(name));
    else if (name === "--lighthouse-port") opts.lighthousePort = Math.round(positive(name));
    else if (name === "--only") {
      const part = PARTS.find((p) => p === value);
      if (!part) fatal(`--only needs ${PARTS.join(", ")}, e.g. --only=lists`);
      opts.only = part;
    } else if (name === "--help" || name === "-h") {
      console.log(
        "usage: npm run bench -- [--no-build] [--strict] [--only=pages|files|lists|lighthouse] [--duration=10] [--warmup=2] [--connections=50] [--runs=9] [--concurrency=8] [--requests=15] [--lighthouse-runs=3] [--lighthouse-port=3870]",
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

function cannon(url: string, seconds: number, connections: number): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, connections, duration: seconds, pipelining: 1, headers: { "accept-encoding": "br, gzip" } },
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
};

async function load(server: "ours" | "baseline", origin: string, pid: number, urlPath: string, opts: Options): Promise<LoadFigures> {
  const url = `${origin}${urlPath}`;
  progress(`${server} ${urlPath}: warm-up ${opts.warmup} s`);
  await cannon(url, opts.warmup, opts.connections);
  progress(`${server} ${urlPath}: load ${opts.duration} s, ${opts.connections} connections`);
  const cpu0 = cpuSeconds(pid);
  const machine0 = machineBusySeconds();
  const client0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const r = await cannon(url, opts.duration, opts.connections);
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu1 = cpuSeconds(pid);
  const machine1 = machineBusySeconds();
  const client = process.cpuUsage(client0);
  const serverSeconds = cpu0 !== null && cpu1 !== null ? cpu1 - cpu0 : null;
  const clientSeconds = (client.user + client.system) / 1e6;
  return {
    server,
    path: urlPath,
    rps: r.requests.mean,
    total: r.requests.total,
    p50: r.latency.p50,
    p99: r.latency.p99,
    bytesPerResponse: r.requests.total ? r.throughput.total / r.requests.total : 0,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    serverCpu: serverSeconds !== null ? serverSeconds / wall : null,
    clientCpu: clientSeconds / wall,
    otherCpu:
      serverSeconds !== null && machine0 !== null && machine1 !== null
        ? Math.max(0, machine1 - machine0 - serverSeconds - clientSeconds) / wall
        : null,
    serverCpuPerRequestUs: serverSeconds !== null && r.requests.total ? (serverSeconds / r.requests.total) * 1e6 : null,
  };
}

type Captured = {
  path: string;
  status: number;
  contentType: string;
  contentEncoding: string | null;
  pageCache: string | null;
  /** Body as sent with Accept-Encoding: br. */
  wire: Buffer;
  html: string;
  headBytes: number;
  error?: string;
};

async function capture(urlPath: string): Promise<Captured> {
  try {
    const res = await getRaw(`${OUR_ORIGIN}${urlPath}`, { "accept-encoding": "br" });
    return {
      path: urlPath,
      status: res.status,
      contentType: header(res, "content-type") ?? "application/octet-stream",
      contentEncoding: header(res, "content-encoding") ?? null,
      pageCache: header(res, "x-page-cache") ?? null,
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

function analysePages(pages: Captured[], build: ClientBuild): { baseline: Baseline; pages: PageJs[] } {
  const scripts = new Map(pages.map((p) => [p.path, pageScripts(p.html, OUR_ORIGIN)]));
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
  await assertPortFree(OUR_PORT, HOST);
  await assertPortFree(BASE_PORT, HOST);
  const ourEnv = serverEnv(OUR_PORT, workDir);
  progress(`starting our server on ${OUR_ORIGIN}`);
  const ours = startChild("our server", process.execPath, ["--import", "tsx", "server/index.ts"], { cwd: ROOT, env: ourEnv });
  children.add(ours);
  const startupMs = await waitForHttp(`${OUR_ORIGIN}/healthz`, ours);

  // Capture every public page once (Accept-Encoding: br, as a browser sends).
  progress("fetching the public pages");
  const pages: Captured[] = [];
  for (const p of PUBLIC_PAGES) pages.push(await capture(p));
  const rssIdle = readMemory(ours.pid);

  // Brotli of the home page, and page JS.
  const home = pages.find((p) => p.path === "/")!;
  if (home.error) throw new Error(`GET / failed: ${home.error}\n${ours.output()}`);
  const homeBr = brotliOf(home);
  const build = new ClientBuild(path.join(BUILD_DIR, "client"));
  const js = analysePages(pages, build);

  // Baseline: the same bytes from a bare node:http server, in its own process
  // (not in this one, where it would share an event loop with autocannon).
  const spec: StaticSpec = { host: HOST, port: BASE_PORT, routes: {} };
  for (const [i, p] of LOAD_PATHS.entries()) {
    const c = pages.find((x) => x.path === p)!;
    if (c.error) throw new Error(`GET ${p} failed: ${c.error}\n${ours.output()}`);
    const file = path.join(workDir, `body-${i}.bin`);
    fs.writeFileSync(file, c.wire);
    const headers: Record<string, string> = { "Content-Type": c.contentType };
    if (c.contentEncoding) headers["Content-Encoding"] = c.contentEncoding;
    spec.routes[p] = { file, status: c.status, headers };
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

  // Load: one server at a time (the other one idles), ours then bare for each
  // path, so a change in background load hits both sides of a ratio alike.
  const loads: LoadFigures[] = [];
  const rssBefore = readMemory(ours.pid);
  let rssAfter: Memory | null = null;
  for (const p of LOAD_PATHS) {
    loads.push(await load("ours", OUR_ORIGIN, ours.pid, p, opts));
    if (p === LOAD_PATHS[LOAD_PATHS.length - 1]) rssAfter = readMemory(ours.pid);
    loads.push(await load("baseline", BASE_ORIGIN, base.pid, p, opts));
  }
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
    `1. Throughput — autocannon in this process, ${opts.connections} connections, ${opts.warmup} s warm-up then ${opts.duration} s, accept-encoding: br, gzip`,
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
  const rpsRows: string[][] = [];
  const rpsRatios: Record<string, number> = {};
  for (const p of LOAD_PATHS) {
    const o = loads.find((l) => l.server === "ours" && l.path === p)!;
    const b = loads.find((l) => l.server === "baseline" && l.path === p)!;
    const r = b.rps ? o.rps / b.rps : 0;
    rpsRatios[p] = r;
    const clean = o.non2xx === 0 && o.errors === 0;
    const ok = r >= BUDGET.rpsRatio && clean;
    const cpuRatio = o.serverCpuPerRequestUs && b.serverCpuPerRequestUs ? (b.serverCpuPerRequestUs / o.serverCpuPerRequestUs).toFixed(2) : "n/a";
    rpsRows.push([p, num(o.rps), num(b.rps), r.toFixed(2), `≥ ${BUDGET.rpsRatio.toFixed(2)}`, passFail(ok) + (clean ? "" : " (errors/non-2xx)"), cpuRatio]);
    checks.push({ name: `req/s ours ÷ bare, GET ${p}`, figure: r.toFixed(2), budget: `≥ ${BUDGET.rpsRatio.toFixed(2)}`, ok });
  }
  out.push(table(["path", ">ours req/s", ">bare req/s", ">ours ÷ bare", "budget", "result", ">(info) bare ÷ ours CPU µs/req"], rpsRows));
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
        return [p, { ours: fig(o), bare: fig(b), ratio: Number(rpsRatios[p]!.toFixed(3)) }];
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
  // Our server: node with the tsx loader (what `npx tsx` runs, without the
  // wrapper process, so the pid is the server's own).
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
      ourPort: FILES_OUR_PORT,
      basePort: FILES_BASE_PORT,
      workDir,
      serverEnv,
      baseEnv,
      children,
      progress,
      runs: opts.runs,
      concurrency: opts.concurrency,
    });
  }
  let lists: PartResult | null = null;
  if (parts.includes("lists")) {
    const workDir = path.join(tempDir, "lists");
    fs.mkdirSync(workDir);
    lists = await benchLists({
      root: ROOT,
      host: HOST,
      ports: LISTS_PORTS,
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
      port: opts.lighthousePort,
      workDir,
      serverEnv,
      children,
      progress,
      runs: opts.lighthouseRuns,
    });
  }
  const loadAvgAfter = os.loadavg();

  await cleanup();
  const totalSeconds = (Date.now() - t0) / 1000;

  // ─── report ───────────────────────────────────────────────────────────────

  const checks: Check[] = [...(pages?.checks ?? []), ...(files?.checks ?? []), ...(lists?.checks ?? []), ...(lighthouseResult?.checks ?? [])];
  const out: string[] = [];
  const cpuCount = os.cpus().length;
  const fmtLoad = (l: number[]) => l.map((x) => x.toFixed(2)).join(" ");

  out.push("");
  out.push(`Lumen Ridge — performance budgets (DESIGN.md §7), ${startedAt.toISOString()}${opts.only ? ` — only ${opts.only} (--only)` : ""}`);
  out.push(`  commit ${gitDescribe()} · node ${process.version} · ${cpuCount} CPU${cpuCount === 1 ? "" : "s"} (${os.cpus()[0]?.model.trim() ?? "?"}) · load avg (1/5/15 min) ${fmtLoad(loadAvgStart)} at start, ${fmtLoad(loadAvgAfter)} at the end`);
  out.push(`  ${buildNote}`);
  if (pages) out.push(...pages.lines);
  if (files) out.push(...files.lines);
  if (lists) out.push(...lists.lines);
  if (lighthouseResult) out.push(...lighthouseResult.lines);

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
    ...(lists ? { lists: lists.summary } : {}),
    ...(lighthouseResult ? { lighthouse: lighthouseResult.summary } : {}),
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
