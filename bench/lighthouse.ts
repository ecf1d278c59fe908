/**
 * Lighthouse part of `npm run bench` (DESIGN.md §7): "Lighthouse (mobile,
 * system Chromium) on every public page: score ≥ 99 (median of 3), CLS ≤ 0.05".
 *
 * Our production server on its own port and data; system Chromium started by
 * chrome-launcher (--headless=new --no-sandbox --disable-gpu); Lighthouse's
 * default config (mobile form factor and screen, simulated "slow 4G" network
 * and 4× CPU throttling) with the performance, accessibility, best-practices
 * and SEO categories. Each page is run `runs` times and every figure is the
 * median of the runs.
 *
 * Offline: Chromium resolves no host name but localhost (--host-resolver-rules),
 * so nothing leaves the machine; requests a page makes to another origin are
 * listed. Lighthouse itself needs no download (its config, i18n and entity data
 * ship in the package).
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import type { Check } from "./files";
import { num, passFail, table } from "./format";
import { assertPortFree, getRaw, startServer, stopChild, waitForHttp, type Child } from "./proc";

export const LIGHTHOUSE_BUDGET = { performance: 99, cls: 0.05 };
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
const CHROMIUM = "/usr/bin/chromium";
/** One Lighthouse run gives up on a page after this long (it has its own, shorter, load timeouts). */
const RUN_TIMEOUT_MS = 180_000;
/** Failed runs per page that are run again. */
const MAX_RETRIES = 2;

export type LighthouseContext = {
  root: string;
  host: string;
  /** Our server's port; Chromium's debugging port is the next one. */
  port: number;
  /** The pages to run Lighthouse on (the public pages). */
  pages: readonly string[];
  workDir: string;
  serverEnv: (port: number, dataDir: string) => NodeJS.ProcessEnv;
  children: Set<Child>;
  progress: (message: string) => void;
  /** Lighthouse runs per page (the median is reported). */
  runs: number;
};

export type LighthouseResult = { lines: string[]; checks: Check[]; summary: Record<string, unknown> };

/** One run's figures (scores 0–100, times in ms). */
type RunFigures = {
  performance: number | null;
  accessibility: number | null;
  bestPractices: number | null;
  seo: number | null;
  cls: number | null;
  lcp: number | null;
  tbt: number | null;
  fcp: number | null;
  speedIndex: number | null;
  benchmarkIndex: number | null;
  /** Audits that lost points, by category: "id (score)". */
  lost: Record<string, string[]>;
  /** Audits that estimate metric savings: "id (FCP −n ms, …)", largest first. */
  savings: string[];
  /** Requests to other origins than the page's. */
  foreign: string[];
  warnings: string[];
  error?: string;
};

type PageFigures = {
  path: string;
  runs: RunFigures[];
  median: Omit<RunFigures, "lost" | "savings" | "foreign" | "warnings" | "error">;
  lost: Record<string, string[]>;
  /** Savings of the run whose performance score is the median one. */
  savings: string[];
  foreign: string[];
  warnings: string[];
  /** Runs that failed (retried). */
  errors: string[];
};

function median(values: Array<number | null>): number | null {
  const v = values.filter((x): x is number => x !== null && Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return null;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
}

function lighthouseVersion(root: string): string {
  try {
    return (createRequire(path.join(root, "package.json"))("lighthouse/package.json") as { version: string }).version;
  } catch {
    return "?";
  }
}

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>["lhr"];

function figuresOf(lhr: Lhr, pageUrl: string): RunFigures {
  const score = (id: string) => {
    const s = lhr.categories[id]?.score;
    return typeof s === "number" ? Math.round(s * 100) : null;
  };
  const value = (id: string) => {
    const v = lhr.audits[id]?.numericValue;
    return typeof v === "number" ? v : null;
  };
  const lost: Record<string, string[]> = {};
  for (const id of CATEGORIES) {
    const category = lhr.categories[id];
    if (!category) continue;
    lost[id] = category.auditRefs
      .filter((ref) => ref.weight > 0)
      .map((ref) => ({ ref, audit: lhr.audits[ref.id] }))
      .filter(({ audit }) => audit && typeof audit.score === "number" && audit.score < (id === "performance" ? 0.9 : 1))
      .map(({ ref, audit }) => `${ref.id} (${audit!.score!.toFixed(2)}${audit!.displayValue ? `, ${audit!.displayValue}` : ""})`);
  }
  const savings = Object.entries(lhr.audits)
    .map(([id, audit]) => {
      const m = (audit.metricSavings ?? {}) as Record<string, number | undefined>;
      const parts = (["FCP", "LCP", "TBT", "CLS"] as const)
        .filter((k) => typeof m[k] === "number" && m[k]! > 0)
        .map((k) => (k === "CLS" ? `CLS −${m[k]!.toFixed(3)}` : `${k} −${Math.round(m[k]!)} ms`));
      const weight = (m.FCP ?? 0) + (m.LCP ?? 0) + (m.TBT ?? 0) + (m.CLS ?? 0) * 10_000;
      return { id, parts, weight };
    })
    .filter((x) => x.parts.length > 0)
    .sort((a, b) => b.weight - a.weight)
    .map((x) => `${x.id} (${x.parts.join(", ")})`);
  const origin = new URL(pageUrl).origin;
  const foreign: string[] = [];
  const details = lhr.audits["network-requests"]?.details as { items?: Array<{ url?: string }> } | undefined;
  for (const item of details?.items ?? []) {
    if (!item.url || item.url.startsWith("data:") || item.url.startsWith("blob:")) continue;
    try {
      if (new URL(item.url).origin !== origin) foreign.push(item.url);
    } catch {
      foreign.push(item.url);
    }
  }
  return {
    performance: score("performance"),
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    seo: score("seo"),
    cls: value("cumulative-layout-shift"),
    lcp: value("largest-contentful-paint"),
    tbt: value("total-blocking-time"),
    fcp: value("first-contentful-paint"),
    speedIndex: value("speed-index"),
    benchmarkIndex: typeof lhr.environment?.benchmarkIndex === "number" ? lhr.environment.benchmarkIndex : null,
    lost,
    savings,
    foreign,
    warnings: (lhr.runWarnings ?? []).map(String),
    error: lhr.runtimeError ? `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` : undefined,
  };
}

function emptyRun(error: string): RunFigures {
  return {
    performance: null,
    accessibility: null,
    bestPractices: null,
    seo: null,
    cls: null,
    lcp: null,
    tbt: null,
    fcp: null,
    speedIndex: null,
    benchmarkIndex: null,
    lost: {},
    savings: [],
    foreign: [],
    warnings: [],
    error,
  };
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function benchLighthouse(ctx: LighthouseContext): Promise<LighthouseResult> {
  const origin = `http://${ctx.host}:${ctx.port}`;
  const chromePort = ctx.port + 1;
  await assertPortFree(ctx.port, ctx.host);
  await assertPortFree(chromePort, "127.0.0.1");
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found (apt-get install chromium)`);

  const dataDir = path.join(ctx.workDir, "server");
  fs.mkdirSync(dataDir, { recursive: true });
  // APP_URL is the origin Chromium visits, so canonical links and Origin checks see one site.
  const env = { ...ctx.serverEnv(ctx.port, dataDir), APP_URL: origin };
  ctx.progress(`lighthouse: starting our server on ${origin}`);
  const server = startServer("lighthouse server", ctx.root, env);
  ctx.children.add(server);
  let chrome: chromeLauncher.LaunchedChrome | null = null;
  let chromeChild: Child | null = null;
  const pages: PageFigures[] = [];
  let chromeVersion = "?";
  const t0 = Date.now();
  try {
    await waitForHttp(`${origin}/healthz`, server);
    // First render of each page happens here, not under Lighthouse.
    for (const p of ctx.pages) {
      const res = await getRaw(`${origin}${p}`, { "accept-encoding": "br, gzip" });
      if (res.status !== 200) throw new Error(`GET ${p} answered ${res.status}`);
    }

    ctx.progress(`lighthouse: launching ${CHROMIUM} (debugging port ${chromePort})`);
    chrome = await chromeLauncher.launch({
      chromePath: CHROMIUM,
      port: chromePort,
      handleSIGINT: false,
      logLevel: "silent",
      chromeFlags: [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        // Offline: no host name resolves but the local ones.
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
      ],
    });
    // Known to bench/run.ts's cleanup, so an interrupted run stops Chromium too.
    const launched = chrome;
    chromeChild = {
      name: "chromium",
      proc: launched.process,
      pid: launched.pid,
      output: () => "",
      exited: new Promise((resolve) => {
        if (launched.process.exitCode !== null || launched.process.signalCode !== null) resolve({ code: launched.process.exitCode, signal: launched.process.signalCode });
        else launched.process.once("exit", (code, signal) => resolve({ code, signal }));
      }),
      hasExited: () => launched.process.exitCode !== null || launched.process.signalCode !== null,
    };
    ctx.children.add(chromeChild);
    try {
      const version = (await getRaw(`http://127.0.0.1:${chromePort}/json/version`)).body.toString("utf8");
      chromeVersion = (JSON.parse(version) as { Browser?: string }).Browser ?? "?";
    } catch {
      /* informational only */
    }

    for (const p of ctx.pages) {
      const url = `${origin}${p}`;
      const runs: RunFigures[] = [];
      // A run that fails (Lighthouse's NO_NAVSTART now and then on this Chromium) is run again, up to MAX_RETRIES times per page.
      let retries = 0;
      for (let i = 1; runs.filter((r) => !r.error).length < ctx.runs && retries <= MAX_RETRIES; i++) {
        if (runs.length && runs[runs.length - 1]!.error) retries += 1;
        if (retries > MAX_RETRIES) break;
        ctx.progress(`lighthouse: ${p} run ${i} (${runs.filter((r) => !r.error).length + 1}/${ctx.runs})`);
        const started = Date.now();
        try {
          const result = await withTimeout(
            lighthouse(url, { port: chromePort, logLevel: "error", output: "json", onlyCategories: [...CATEGORIES] }),
            RUN_TIMEOUT_MS,
            `Lighthouse ${p}`,
          );
          runs.push(result ? figuresOf(result.lhr, url) : emptyRun("Lighthouse returned no result"));
        } catch (error) {
          runs.push(emptyRun((error as Error).message));
        }
        const last = runs[runs.length - 1]!;
        ctx.progress(
          `lighthouse: ${p} run ${i}: ${last.error ? `ERROR ${last.error}` : `performance ${last.performance}, CLS ${last.cls?.toFixed(3)}, LCP ${Math.round(last.lcp ?? 0)} ms, TBT ${Math.round(last.tbt ?? 0)} ms`} (${((Date.now() - started) / 1000).toFixed(0)} s)`,
        );
      }
      const ok = runs.filter((r) => !r.error);
      const med = {
        performance: median(ok.map((r) => r.performance)),
        accessibility: median(ok.map((r) => r.accessibility)),
        bestPractices: median(ok.map((r) => r.bestPractices)),
        seo: median(ok.map((r) => r.seo)),
        cls: median(ok.map((r) => r.cls)),
        lcp: median(ok.map((r) => r.lcp)),
        tbt: median(ok.map((r) => r.tbt)),
        fcp: median(ok.map((r) => r.fcp)),
        speedIndex: median(ok.map((r) => r.speedIndex)),
        benchmarkIndex: median(ok.map((r) => r.benchmarkIndex)),
      };
      // Audits that lost points in any run, with how many runs.
      const lost: Record<string, string[]> = {};
      for (const id of CATEGORIES) {
        const counts = new Map<string, { n: number; sample: string }>();
        for (const r of ok) {
          for (const entry of r.lost[id] ?? []) {
            const key = entry.split(" ")[0]!;
            counts.set(key, { n: (counts.get(key)?.n ?? 0) + 1, sample: entry });
          }
        }
        lost[id] = [...counts.values()].map(({ n, sample }) => `${sample}${ok.length > 1 ? ` in ${n}/${ok.length} runs (value of the last)` : ""}`);
      }
      const medianRun = ok.find((r) => r.performance === med.performance) ?? [...ok].sort((a, b) => Math.abs((a.performance ?? 0) - (med.performance ?? 0)) - Math.abs((b.performance ?? 0) - (med.performance ?? 0)))[0];
      pages.push({
        path: p,
        runs,
        median: med,
        lost,
        savings: medianRun?.savings ?? [],
        foreign: [...new Set(ok.flatMap((r) => r.foreign))],
        warnings: [...new Set(ok.flatMap((r) => r.warnings))],
        errors: runs.filter((r) => r.error).map((r) => r.error!),
      });
    }
  } finally {
    if (chrome) {
      try {
        chrome.kill();
      } catch {
        /* already gone */
      }
    }
    if (chromeChild) {
      await stopChild(chromeChild, 5_000);
      ctx.children.delete(chromeChild);
    }
    await stopChild(server);
    ctx.children.delete(server);
  }
  const seconds = (Date.now() - t0) / 1000;

  // ─── report ───────────────────────────────────────────────────────────────

  const out: string[] = [];
  const checks: Check[] = [];
  const fixed = (v: number | null, digits = 0, unit = "") => (v === null ? "—" : `${num(v, digits)}${unit}`);
  /** Scores are whole numbers; the median of an even number of runs may be a half. */
  const score = (v: number | null) => (v === null ? "—" : Number.isInteger(v) ? String(v) : v.toFixed(1));
  out.push("");
  out.push(
    `7. Lighthouse ${lighthouseVersion(ctx.root)} — mobile (default config: Moto G Power screen, simulated slow 4G + 4× CPU), ${chromeVersion}, median of ${ctx.runs} run${ctx.runs === 1 ? "" : "s"} per page, ${seconds.toFixed(0)} s`,
  );
  out.push("   NOTE: simulated throttling scales this machine's CPU time; on a busy shared machine TBT and the score move with the load.");
  out.push("");
  const rows = pages.map((p) => {
    const m = p.median;
    const perfOk = m.performance !== null && m.performance >= LIGHTHOUSE_BUDGET.performance;
    const clsOk = m.cls !== null && m.cls <= LIGHTHOUSE_BUDGET.cls;
    return [
      p.path,
      `${p.runs.length - p.errors.length}/${p.runs.length}`,
      score(m.performance),
      fixed(m.cls, 3),
      fixed(m.lcp, 0, " ms"),
      fixed(m.tbt, 0, " ms"),
      fixed(m.fcp, 0, " ms"),
      fixed(m.speedIndex, 0, " ms"),
      score(m.accessibility),
      score(m.bestPractices),
      score(m.seo),
      `perf ≥ ${LIGHTHOUSE_BUDGET.performance}, CLS ≤ ${LIGHTHOUSE_BUDGET.cls}`,
      passFail(perfOk && clsOk),
    ];
  });
  out.push(table(["page", ">runs ok", ">perf", ">CLS", ">LCP", ">TBT", ">FCP", ">Speed Index", ">a11y", ">best pr.", ">SEO", "budget", "result"], rows));
  const runScores = pages.map((p) => `${p.path} ${p.runs.map((r) => (r.error ? "ERR (run again)" : String(r.performance))).join(", ")}`).join("; ");
  out.push(`   performance score per run: ${runScores}; benchmarkIndex (CPU speed Lighthouse measured) ${pages.map((p) => fixed(p.median.benchmarkIndex)).join(" / ")}`);
  for (const p of pages) {
    for (const error of p.errors) out.push(`   ${p.path}: a run failed and was run again: ${error}`);
    const lostLines = CATEGORIES.filter((id) => p.lost[id]?.length).map((id) => `${id}: ${p.lost[id]!.join(", ")}`);
    out.push(`   ${p.path} audits below full marks (performance: metric scores < 0.9): ${lostLines.length ? "" : "none"}`);
    for (const line of lostLines) out.push(`     ${line}`);
    if (p.savings.length) out.push(`     estimated savings (median run): ${p.savings.slice(0, 6).join(", ")}`);
    if (p.foreign.length) out.push(`   ${p.path}: requests to other origins (blocked offline): ${p.foreign.slice(0, 5).join(", ")}${p.foreign.length > 5 ? " …" : ""}`);
    for (const warning of p.warnings) out.push(`   ${p.path}: Lighthouse warning: ${warning.slice(0, 300)}`);
  }

  for (const p of pages) {
    const m = p.median;
    checks.push({
      name: `Lighthouse performance, ${p.path}`,
      figure: m.performance === null ? "no result" : score(m.performance),
      budget: `≥ ${LIGHTHOUSE_BUDGET.performance}`,
      ok: m.performance !== null && m.performance >= LIGHTHOUSE_BUDGET.performance,
    });
    checks.push({
      name: `Lighthouse CLS, ${p.path}`,
      figure: m.cls === null ? "no result" : m.cls.toFixed(3),
      budget: `≤ ${LIGHTHOUSE_BUDGET.cls}`,
      ok: m.cls !== null && m.cls <= LIGHTHOUSE_BUDGET.cls,
    });
  }

  const round = (v: number | null, digits = 0) => (v === null ? null : Number(v.toFixed(digits)));
  const summary = {
    runsPerPage: ctx.runs,
    seconds: Math.round(seconds),
    chromium: chromeVersion,
    pages: Object.fromEntries(
      pages.map((p) => [
        p.path,
        {
          performance: p.median.performance,
          cls: round(p.median.cls, 4),
          lcpMs: round(p.median.lcp),
          tbtMs: round(p.median.tbt),
          fcpMs: round(p.median.fcp),
          speedIndexMs: round(p.median.speedIndex),
          accessibility: p.median.accessibility,
          bestPractices: p.median.bestPractices,
          seo: p.median.seo,
          performanceRuns: p.runs.map((r) => r.performance),
          failedRuns: p.errors.length,
        },
      ]),
    ),
  };
  return { lines: out, checks, summary };
}
