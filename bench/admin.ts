/**
 * Admin pages part of `npm run bench` (DESIGN.md §7): "Admin pages at 100,000
 * subscribers / 10,000 investors: each page's HTML size and server time ≤ 1.5×
 * those at 1,000; the overview ≤ 60 KB of HTML".
 *
 *   1. Two fresh databases, seeded with scripts/seed.ts: 1,000 newsletter
 *      subscribers + 100 LP users + 50 Fund II requests ("1k") and 100,000 +
 *      10,000 + 2,000 ("100k"), the bench admin in each. Our production
 *      server runs on each, both at once; the admin signs in to each through
 *      POST /api/auth/login.
 *   2. Each page of ADMIN_PAGES, as the admin: WARMUPS requests, then
 *      `requests` measured ones, alternating between the two servers (1k,
 *      100k, 1k, …) so that a change in the machine's background load hits
 *      both sides of a ratio alike. Per page and database: HTML bytes
 *      (uncompressed body, no Accept-Encoding), server time (the server's
 *      own request log, LOG_LEVEL=info: request in → response finished),
 *      wall time at the client, and the server's CPU time per request
 *      (/proc). Medians. The same for the page's `.data` URL (loaders and
 *      data encoding only, no rendering), to split loader from render time.
 *      Budgets: 100k ÷ 1k ≤ 1.5 for bytes and server time of each page, each
 *      page's HTML ≤ 150 KB at 100k (issue 23), and the overview's ≤ 60 KB.
 *   3. Information: the overview's bytes by <section>, and the full newsletter
 *      TSV export at 100k (GET /admin/email-lists/newsletter.tsv).
 *
 * A page that does not answer 200 (not built yet, or broken) is reported
 * with its status and fails its budgets.
 */
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { cpuSeconds } from "./cpu";
import type { Check } from "./files";
import { kb, num, passFail, table } from "./format";
import { assertPortFree, benchAdminLogin, createBenchAdmin, runNode, scriptArgs, startServer, stopChild, waitForHttp, type Child, type PartContext } from "./proc";

/** The admin workspace's pages (one list; /work/admin-contract.md), the overview first. */
export const ADMIN_PAGES = [
  { path: "/admin/dashboard", name: "overview" },
  { path: "/admin/investors", name: "investors" },
  // A search that finds one investor at either size: the cost of scanning 100× the rows. A
  // substring search reads every row of a status, so it is information, not a budget (decision 020).
  { path: "/admin/investors?q=LP-USER-00042", name: "investor search", info: true },
  { path: "/admin/documents", name: "documents" },
  { path: "/admin/fund-access", name: "fund access" },
  { path: "/admin/email-lists", name: "e-mail lists" },
  { path: "/admin/pitches", name: "pitches" },
  { path: "/admin/activity", name: "activity" },
  { path: "/admin/account", name: "account" },
] as const satisfies readonly { path: string; name: string; info?: boolean }[];
const OVERVIEW = ADMIN_PAGES[0].path;

/** Issue 23: every admin page ≤ 150 KB of HTML at 10,000 investors and 100,000 subscribers. */
export const ADMIN_BUDGET = { bytesRatio: 1.5, timeRatio: 1.5, overviewMaxBytes: 60 * 1024, pageMaxBytes: 150 * 1024 };

export type AdminContext = PartContext & {
  /** One port per database (1k, 100k); both servers run at once. */
  ports: [number, number];
  /** Measured requests per page and database (median), after WARMUPS. */
  requests: number;
};

export type AdminResult = { lines: string[]; checks: Check[]; summary: Record<string, unknown> };

type Scale = { label: string; subscribers: number; lpUsers: number; fundRequests: number };
const SCALES: [Scale, Scale] = [
  { label: "1k", subscribers: 1_000, lpUsers: 100, fundRequests: 50 },
  { label: "100k", subscribers: 100_000, lpUsers: 10_000, fundRequests: 2_000 },
];
export const WARMUPS = 3;
const TSV_RUNS = 5;
const TSV_PATH = "/admin/email-lists/newsletter.tsv";

// ─── helpers ────────────────────────────────────────────────────────────────

export function median(values: number[]): number {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "n/a");
const f2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : "n/a");

export type Got = { status: number; headers: http.IncomingHttpHeaders; body: Buffer; ms: number };

/** One request on the given (keep-alive) agent; wall time from send to the last body byte. */
export function request(agent: http.Agent, url: string, method: string, headers: Record<string, string>, payload?: Buffer): Promise<Got> {
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
export class RequestLog {
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
  /** The server time of the next request to `urlPath` logged from index `from` on (the line comes a little after the response). */
  async next(from: number, urlPath: string, timeoutMs = 2_000): Promise<{ ms: number; index: number } | null> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      for (let i = from; i < this.entries.length; i++) if (this.entries[i]!.path === urlPath) return { ms: this.entries[i]!.ms, index: i + 1 };
      if (Date.now() > until) return null;
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}

/** A running server, signed in, whose request log is read: what `measure` needs. */
export type Measured = {
  origin: string;
  server: Child;
  log: RequestLog;
  agent: http.Agent;
  cookie: string;
  /** Next unread request-log entry. */
  logFrom: number;
};

/** One running server on one seeded database, signed in. */
type Site = Measured & {
  scale: Scale;
  seedMs: number;
  seedOutput: string;
};

export type Series = { status: number; bytes: number[]; wallMs: number[]; serverMs: number[]; cpuMs: number; body: Buffer };

async function timedGet(site: Measured, urlPath: string, headers: Record<string, string>, into: Series | null): Promise<Got> {
  const cpu0 = cpuSeconds(site.server.pid);
  const got = await request(site.agent, `${site.origin}${urlPath}`, "GET", headers);
  // The log line of this request is consumed here, so a warm-up's line is never read as a measured one's.
  const logged = await site.log.next(site.logFrom, urlPath);
  const cpu1 = cpuSeconds(site.server.pid);
  if (logged) site.logFrom = logged.index;
  if (into) {
    into.status = got.status;
    into.bytes.push(got.body.length);
    into.wallMs.push(got.ms);
    if (logged) into.serverMs.push(logged.ms);
    if (cpu0 !== null && cpu1 !== null) into.cpuMs += (cpu1 - cpu0) * 1000;
    into.body = got.body;
  }
  return got;
}

/** WARMUPS then `n` measured GETs of `urlPath` on each site, alternating between the sites. */
export async function measure<S extends Measured>(sites: S[], urlPath: string, headers: (site: S) => Record<string, string>, n: number): Promise<Series[]> {
  const series = sites.map((): Series => ({ status: 0, bytes: [], wallMs: [], serverMs: [], cpuMs: 0, body: Buffer.alloc(0) }));
  for (let i = 0; i < WARMUPS; i++) for (const site of sites) await timedGet(site, urlPath, headers(site), null);
  for (let i = 0; i < n; i++) for (const [k, site] of sites.entries()) await timedGet(site, urlPath, headers(site), series[k]!);
  return series;
}

/** Outer byte length of every <section> with a data-testid, an id or an aria-labelledby (nested ones counted in their parents too). */
function sectionBytes(html: string): Map<string, number> {
  const out = new Map<string, number>();
  const tag = /<section\b[^>]*>|<\/section>/g;
  const stack: { name: string | null; start: number }[] = [];
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    if (m[0].startsWith("</")) {
      const open = stack.pop();
      if (open?.name) out.set(open.name, (out.get(open.name) ?? 0) + (m.index + m[0].length - open.start));
    } else {
      const name = /data-testid="([^"]+)"/.exec(m[0])?.[1] ?? /\bid="([^"]+)"/.exec(m[0])?.[1] ?? /aria-labelledby="([^"]+)"/.exec(m[0])?.[1] ?? null;
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

/** The `.data` URL React Router fetches for a page's loaders (the query stays after it). */
export function dataPath(pagePath: string): string {
  const [pathname, query] = pagePath.split("?");
  return `${pathname}.data${query ? `?${query}` : ""}`;
}

// ─── one database ───────────────────────────────────────────────────────────

/** Sign BENCH_ADMIN in through POST /api/auth/login on `agent`; the session cookie (`label` names the server in errors). */
export async function signIn(agent: http.Agent, origin: string, label: string): Promise<string> {
  const login = await request(
    agent,
    `${origin}/api/auth/login`,
    "POST",
    { "content-type": "application/json", accept: "application/json" },
    Buffer.from(JSON.stringify(await benchAdminLogin())),
  );
  if (login.status !== 200) throw new Error(`${label}: POST /api/auth/login answered ${login.status}: ${login.body.toString("utf8").slice(0, 300)}`);
  const cookie = (login.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");
  if (!cookie) throw new Error(`${label}: POST /api/auth/login set no cookie`);
  return cookie;
}

export type SeedCounts = { subscribers: number; lpUsers: number; fundRequests: number };

/**
 * The one way a bench part makes a seeded site's database: scripts/seed.ts with
 * these counts in `dataDir` (it migrates through the app and refuses
 * NODE_ENV=production), then the bench admin. Returns our server's environment
 * for `port` (LOG_LEVEL=info: the request log `measure` reads) and the seed's figures.
 */
export async function seedSite(
  ctx: PartContext,
  label: string,
  port: number,
  dataDir: string,
  counts: SeedCounts,
): Promise<{ env: NodeJS.ProcessEnv; file: string; seedMs: number; seedOutput: string }> {
  await assertPortFree(port, ctx.host);
  const env: NodeJS.ProcessEnv = { ...ctx.serverEnv(port, dataDir), LOG_LEVEL: "info" };
  ctx.progress(`${label}: seeding ${num(counts.subscribers)} subscribers, ${num(counts.lpUsers)} LP users, ${num(counts.fundRequests)} Fund II requests and the bench admin`);
  const seed = await runNode(
    scriptArgs("seed", ["--subscribers", String(counts.subscribers), "--lp-users", String(counts.lpUsers), "--fund-requests", String(counts.fundRequests)]),
    ctx.root,
    { ...env, NODE_ENV: "development" },
  );
  if (seed.code !== 0) throw new Error(`scripts/seed.ts failed (exit ${seed.code}):\n${seed.output}`);
  await createBenchAdmin(ctx.root, env);
  return { env, file: env.DATABASE_PATH!, seedMs: seed.ms, seedOutput: seed.stdout.trim() };
}

/**
 * Our server on a seeded database (`env` from seedSite): started (and known to
 * the run's cleanup), healthy, the bench admin signed in on a keep-alive agent
 * of one socket. stopSignedIn ends it.
 */
export async function startSignedIn(ctx: PartContext, name: string, env: NodeJS.ProcessEnv, healthTimeoutMs = 30_000): Promise<Measured> {
  const origin = `http://${ctx.host}:${env.PORT}`;
  ctx.progress(`${name}: starting our server on ${origin}`);
  const server = startServer(`our server (${name})`, ctx.root, env);
  ctx.children.add(server);
  const log = new RequestLog(server);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    await waitForHttp(`${origin}/healthz`, server, healthTimeoutMs);
    return { origin, server, log, agent, cookie: await signIn(agent, origin, name), logFrom: 0 };
  } catch (error) {
    await stopSignedIn(ctx, { server, agent });
    throw error;
  }
}

export async function stopSignedIn(ctx: PartContext, site: Pick<Measured, "server" | "agent">): Promise<void> {
  site.agent.destroy();
  if (!site.server.hasExited()) await stopChild(site.server).catch(() => {});
  ctx.children.delete(site.server);
}

async function startSite(ctx: AdminContext, scale: Scale, port: number): Promise<Site> {
  const seeded = await seedSite(ctx, `admin ${scale.label}`, port, path.join(ctx.workDir, scale.label), scale);
  const site = await startSignedIn(ctx, `admin ${scale.label}`, seeded.env);
  return { ...site, scale, seedMs: seeded.seedMs, seedOutput: seeded.seedOutput };
}

type PageFigures = { status: number; bytes: number; wallMs: number; serverMs: number; cpuMsPerRequest: number | null; bytesStable: boolean; wireBr: number | null };
type PageResult = {
  path: string;
  name: string;
  /** Measured and printed, but not a budget. */
  info: boolean;
  html: [PageFigures, PageFigures];
  data: [PageFigures, PageFigures];
  /** Sections and inline-script bytes of the page at each scale (the overview only). */
  sections: [Map<string, number>, Map<string, number>] | null;
  scripts: [number, number];
};

function figures(s: Series, n: number): PageFigures {
  return {
    status: s.status,
    bytes: median(s.bytes),
    wallMs: median(s.wallMs),
    serverMs: median(s.serverMs),
    cpuMsPerRequest: s.serverMs.length ? s.cpuMs / n : null,
    bytesStable: s.bytes.every((b) => b === s.bytes[0]),
    wireBr: null,
  };
}

// ─── the part ───────────────────────────────────────────────────────────────

export async function benchAdmin(ctx: AdminContext): Promise<AdminResult> {
  const t0 = Date.now();
  const sites: Site[] = [];
  const pages: PageResult[] = [];
  let tsv: { status: number; bytes: number; rows: number; wallMs: number; serverMs: number; all: number[] } | null = null;
  try {
    for (const [i, scale] of SCALES.entries()) sites.push(await startSite(ctx, scale, ctx.ports[i]!));
    for (const page of ADMIN_PAGES) {
      ctx.progress(`admin: GET ${page.path} ×${WARMUPS} warm-up + ×${ctx.requests} on each database, alternating`);
      const html = await measure(sites, page.path, (site) => ({ cookie: site.cookie, accept: "text/html" }), ctx.requests);
      ctx.progress(`admin: GET ${dataPath(page.path)} (loaders only) ×${WARMUPS} + ×${ctx.requests}`);
      const data = await measure(sites, dataPath(page.path), (site) => ({ cookie: site.cookie }), ctx.requests);
      const htmlFigures = html.map((s) => figures(s, ctx.requests)) as [PageFigures, PageFigures];
      // Wire size as a browser gets it (information only).
      for (const [k, site] of sites.entries()) {
        const wire = await request(site.agent, `${site.origin}${page.path}`, "GET", { cookie: site.cookie, accept: "text/html", "accept-encoding": "br, gzip" });
        if (wire.status === 200) htmlFigures[k]!.wireBr = wire.body.length;
      }
      const bodies = html.map((s) => s.body.toString("utf8"));
      pages.push({
        path: page.path,
        name: page.name,
        info: "info" in page && page.info,
        html: htmlFigures,
        data: data.map((s) => figures(s, ctx.requests)) as [PageFigures, PageFigures],
        sections: page.path === OVERVIEW ? [sectionBytes(bodies[0]!), sectionBytes(bodies[1]!)] : null,
        scripts: [inlineScriptBytes(bodies[0]!), inlineScriptBytes(bodies[1]!)],
      });
    }

    const large = sites[1]!;
    ctx.progress(`admin 100k: GET ${TSV_PATH} ×1 warm-up + ×${TSV_RUNS}`);
    const [t] = await measure([large], TSV_PATH, (site) => ({ cookie: site.cookie }), TSV_RUNS);
    tsv = {
      status: t!.status,
      bytes: t!.body.length,
      rows: Math.max(0, t!.body.toString("utf8").split("\n").filter(Boolean).length - 1),
      wallMs: median(t!.wallMs),
      serverMs: median(t!.serverMs),
      all: t!.wallMs,
    };
  } finally {
    for (const site of sites) await stopSignedIn(ctx, site);
  }

  // ─── report ─────────────────────────────────────────────────────────────

  const lines: string[] = [];
  const checks: Check[] = [];
  const [s, l] = SCALES;
  const budget = `≤ ${ADMIN_BUDGET.bytesRatio.toFixed(2)}`;
  lines.push("");
  lines.push(
    `6. Admin pages — signed in as an admin, on two fresh databases seeded by scripts/seed.ts: ` +
      `${num(s.subscribers)} subscribers + ${num(s.lpUsers)} LP users + ${num(s.fundRequests)} Fund II requests ("1k") and ` +
      `${num(l.subscribers)} + ${num(l.lpUsers)} + ${num(l.fundRequests)} ("100k")`,
  );
  lines.push(
    `   client: this process, one keep-alive connection per server, no Accept-Encoding (bytes = uncompressed body); per page ${WARMUPS} warm-ups then ${ctx.requests} requests ` +
      `on each server, alternating 1k/100k; medians. server ms = the server's own request log (request in → response finished); CPU = the server process's user+system time (/proc, 10 ms ticks) ÷ requests`,
  );
  lines.push("");
  const ratio = (a: number, b: number) => (a > 0 && Number.isFinite(b) ? b / a : NaN);
  const rows: string[][] = [];
  for (const p of pages) {
    const [a, b] = p.html;
    const ok200 = a.status === 200 && b.status === 200;
    const bytesRatio = ratio(a.bytes, b.bytes);
    const timeRatio = ratio(a.serverMs, b.serverMs);
    const status = ok200 ? "200" : `${a.status}/${b.status}`;
    rows.push([
      p.path,
      status,
      ok200 ? num(a.bytes) : "—",
      ok200 ? num(b.bytes) : "—",
      ok200 ? f2(bytesRatio) : "—",
      ok200 ? f1(a.serverMs) : "—",
      ok200 ? f1(b.serverMs) : "—",
      ok200 ? f2(timeRatio) : "—",
      ok200 ? `${f1(a.cpuMsPerRequest ?? NaN)} → ${f1(b.cpuMsPerRequest ?? NaN)}` : "—",
      ok200 ? `${f1(p.data[0].serverMs)} → ${f1(p.data[1].serverMs)}` : "—",
      !ok200 ? "FAIL (not 200)" : p.info ? "(info)" : passFail(bytesRatio <= ADMIN_BUDGET.bytesRatio && timeRatio <= ADMIN_BUDGET.timeRatio),
    ]);
    if (p.info && ok200) continue;
    const missing = ok200 ? "" : ` (HTTP ${a.status} at 1k, ${b.status} at 100k)`;
    checks.push({
      name: `admin ${p.name} HTML bytes 100k ÷ 1k`,
      figure: ok200 ? `${f2(bytesRatio)} (${num(a.bytes)} → ${num(b.bytes)} B)` : `no page${missing}`,
      budget,
      ok: ok200 && bytesRatio <= ADMIN_BUDGET.bytesRatio,
    });
    checks.push({
      name: `admin ${p.name} server time 100k ÷ 1k`,
      figure: ok200 ? `${f2(timeRatio)} (${f1(a.serverMs)} → ${f1(b.serverMs)} ms)` : `no page${missing}`,
      budget: `≤ ${ADMIN_BUDGET.timeRatio.toFixed(2)}`,
      ok: ok200 && timeRatio <= ADMIN_BUDGET.timeRatio,
    });
    checks.push({
      name: `admin ${p.name} HTML at 100k`,
      figure: ok200 ? kb(b.bytes) : `no page${missing}`,
      budget: `≤ ${kb(ADMIN_BUDGET.pageMaxBytes, 0)}`,
      ok: ok200 && b.bytes <= ADMIN_BUDGET.pageMaxBytes,
    });
  }
  lines.push(
    table(
      ["page", "status", ">1k bytes", ">100k bytes", ">÷", ">1k server ms", ">100k server ms", ">÷", ">CPU ms/req 1k → 100k", ">.data server ms 1k → 100k", "result"],
      rows,
    ),
  );
  const overview = pages.find((p) => p.path === OVERVIEW)!;
  const overviewBytes = overview.html[1].status === 200 ? overview.html[1].bytes : NaN;
  const overviewOk = overviewBytes <= ADMIN_BUDGET.overviewMaxBytes;
  lines.push(
    `   overview HTML at 100k: ${Number.isFinite(overviewBytes) ? `${kb(overviewBytes)} (${num(overviewBytes)} B)` : "no page"}, budget ≤ ${kb(ADMIN_BUDGET.overviewMaxBytes, 0)} — ${passFail(overviewOk)}`,
  );
  checks.push({
    name: "admin overview HTML at 100k",
    figure: Number.isFinite(overviewBytes) ? `${kb(overviewBytes)}` : "no page",
    budget: `≤ ${kb(ADMIN_BUDGET.overviewMaxBytes, 0)}`,
    ok: overviewOk,
  });
  for (const p of pages) {
    for (const [k, f] of p.html.entries()) if (f.status === 200 && !f.bytesStable) lines.push(`   NOTE: ${p.path} (${SCALES[k]!.label}): the HTML size varied between requests; the median is used.`);
  }
  lines.push(
    `   wall ms (client, medians) 1k → 100k: ${pages.filter((p) => p.html[0].status === 200).map((p) => `${p.path} ${f1(p.html[0].wallMs)} → ${f1(p.html[1].wallMs)}`).join(" · ")}`,
  );
  lines.push(
    `   brotli on the wire 1k → 100k: ${pages.filter((p) => p.html[0].wireBr !== null).map((p) => `${p.path} ${num(p.html[0].wireBr!)} → ${num(p.html[1].wireBr ?? NaN)} B`).join(" · ")}`,
  );
  lines.push(`   inline <script> bytes (hydration data + manifest) 1k → 100k: ${pages.filter((p) => p.html[0].status === 200).map((p) => `${p.path} ${num(p.scripts[0])} → ${num(p.scripts[1])}`).join(" · ")}`);
  if (os.loadavg()[0]! > os.cpus().length * 0.75) {
    lines.push(
      `   NOTE: the machine is busy (load avg ${os.loadavg()[0]!.toFixed(2)} on ${os.cpus().length} CPUs): times are noisy; both databases were measured alternately, so the ratios see the same load.`,
    );
  }

  if (overview.sections) {
    lines.push("");
    lines.push("   Overview bytes by <section> (outer HTML; nested sections are also inside their parents), largest at 100k first");
    const [a, b] = overview.sections;
    const names = [...new Set([...a.keys(), ...b.keys()])].sort((x, y) => (b.get(y) ?? 0) - (b.get(x) ?? 0));
    const secRows = names.map((n) => [n, num(a.get(n) ?? 0), num(b.get(n) ?? 0)]);
    secRows.push(["(inline <script>: hydration data + manifest)", num(overview.scripts[0]), num(overview.scripts[1])]);
    lines.push(table([">section", ">1k bytes", ">100k bytes"], secRows, "   "));
  }

  lines.push("");
  if (tsv && tsv.status === 200) {
    lines.push(
      `   Full newsletter TSV at ${num(l.subscribers)} subscribers (no budget): GET ${TSV_PATH} ${num(tsv.rows)} rows, ${kb(tsv.bytes)}, ` +
        `${f1(tsv.wallMs)} ms wall · ${f1(tsv.serverMs)} ms server (median of ${TSV_RUNS}; wall per run ${tsv.all.map(f1).join(", ")})`,
    );
  } else lines.push(`   Full newsletter TSV: GET ${TSV_PATH} answered ${tsv?.status ?? "nothing"}`);
  lines.push(`   seeding: ${sites.map((x) => `${x.scale.label} ${f1(x.seedMs / 1000)} s (${x.seedOutput.split("\n")[0] ?? ""})`).join(" · ")}`);
  lines.push(`   part took ${((Date.now() - t0) / 1000).toFixed(0)} s`);

  const round = (n: number | null, d = 2) => (n !== null && Number.isFinite(n) ? Number(n.toFixed(d)) : null);
  const fig = (f: PageFigures) => ({ status: f.status, htmlBytes: f.bytes, htmlBrBytes: f.wireBr, serverMs: round(f.serverMs), wallMs: round(f.wallMs), cpuMsPerRequest: round(f.cpuMsPerRequest) });
  const summary = {
    requests: ctx.requests,
    scales: SCALES,
    pages: Object.fromEntries(
      pages.map((p) => [
        p.path,
        {
          "1k": fig(p.html[0]),
          "100k": fig(p.html[1]),
          dataServerMs: [round(p.data[0].serverMs), round(p.data[1].serverMs)],
          ratios: { htmlBytes: round(ratio(p.html[0].bytes, p.html[1].bytes), 3), serverTime: round(ratio(p.html[0].serverMs, p.html[1].serverMs), 3) },
        },
      ]),
    ),
    overviewBytes100k: Number.isFinite(overviewBytes) ? overviewBytes : null,
    tsv100k: tsv ? { status: tsv.status, bytes: tsv.bytes, rows: tsv.rows, wallMs: round(tsv.wallMs), serverMs: round(tsv.serverMs) } : null,
  };
  return { lines, checks, summary };
}
