/**
 * Lighthouse part of `npm run bench` (DESIGN.md §7): "Lighthouse (mobile,
 * system Chromium) on every public page: score ≥ 99 (median of 3), CLS ≤ 0.05".
 * Run on every page of the site frame (LIGHTHOUSE_PAGES): the public pages,
 * the sign-in, registration and fund sign-up pages, and the two pages behind
 * the newsletter's mailed links, each with a real token (decision 032):
 *
 *   - the server sends its mail to an SMTP catcher (tests/helpers/smtp.ts);
 *     two addresses subscribe through POST /api/newsletter and the
 *     confirmation links are read from the caught mails. The first link is
 *     the confirmation page Lighthouse opens (a GET only shows the button;
 *     the token stays usable); the second is confirmed by POSTing its form as
 *     a browser does, and that subscriber's unsubscribe link is read from the
 *     admin's CSV export of the newsletter list ('Unsubscribe URL').
 *   - every page must answer 200 (Lighthouse errors on a 4xx page).
 *
 * Pages that ask not to be indexed (robots meta or X-Robots-Tag with
 * noindex: the sign-in, account and mailed-link pages) lose most of the SEO
 * score for that alone (is-crawlable); their SEO column says "exempt
 * (noindex)" and only their other SEO audits below full marks are listed.
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
import http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { request, signIn } from "./admin";
import type { Check } from "./files";
import { num, passFail, table } from "./format";
import { assertPortFree, createBenchAdmin, getRaw, sleep, startServer, stopChild, waitForHttp, type Child, type RawResponse } from "./proc";
import { publicPages } from "../app/content/sitemap";
import { startSmtpServer, type SmtpTestServer } from "../tests/helpers/smtp";

export const LIGHTHOUSE_BUDGET = { performance: 99, cls: 0.05 };
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
const CHROMIUM = "/usr/bin/chromium";
/** One Lighthouse run gives up on a page after this long (it has its own, shorter, load timeouts). */
const RUN_TIMEOUT_MS = 180_000;
/** Failed runs per page that are run again. */
const MAX_RETRIES = 2;

/**
 * The other pages of the site frame that answer 200 without a session: the newsletter page, sign-in, registration,
 * the two-factor step (without a password step: its "sign-in expired" state) and the fund sign-ups (all noindex but the newsletter page).
 */
export const FRAME_PAGES = ["/newsletter", "/lp/login", "/lp/register", "/lp/forgot-password", "/admin/login", "/login/two-factor", "/fund-i/signup", "/fund-ii/signup"] as const;
/** The pages behind the newsletter's mailed links; their ?token= is made at run time (a real subscription). */
export const MAIL_LINK_PAGES = ["/newsletter/confirm", "/unsubscribe/newsletter"] as const;
/** Every page Lighthouse runs on (the default of --pages). */
export const LIGHTHOUSE_PAGES: readonly string[] = [...publicPages, ...FRAME_PAGES, ...MAIL_LINK_PAGES];
const isMailLinkPage = (p: string) => (MAIL_LINK_PAGES as readonly string[]).includes(p);
/** How a page is named in the report: the mailed-link pages with their (elided) token. */
const label = (p: string) => (isMailLinkPage(p) ? `${p}?token=…` : p);

export type LighthouseContext = {
  root: string;
  host: string;
  /** Our server's port; Chromium's debugging port is the next one. */
  port: number;
  /** The SMTP catcher's port (the mailed-link pages only). */
  mailPort: number;
  /** The pages to run Lighthouse on (of LIGHTHOUSE_PAGES). */
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
  /** Why the page asks not to be indexed ("robots meta", "X-Robots-Tag"), or null. */
  noindex: string | null;
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

/** Why a page asks search engines not to index it (X-Robots-Tag header or robots meta with noindex), or null. */
export function noindexOf(res: RawResponse): string | null {
  const header = res.headers["x-robots-tag"];
  if ((Array.isArray(header) ? header.join(", ") : (header ?? "")).toLowerCase().includes("noindex")) return "X-Robots-Tag";
  const encoding = res.headers["content-encoding"];
  const html = (encoding === "br" ? brotliDecompressSync(res.body) : encoding === "gzip" ? gunzipSync(res.body) : res.body).toString("utf8");
  for (const [tag] of html.matchAll(/<meta\b[^>]*>/gi)) {
    const name = /\bname\s*=\s*["']?([^"'\s>]+)/i.exec(tag)?.[1]?.toLowerCase();
    const content = /\bcontent\s*=\s*["']([^"']*)["']/i.exec(tag)?.[1]?.toLowerCase() ?? "";
    if ((name === "robots" || name === "googlebot") && content.includes("noindex")) return "robots meta";
  }
  return null;
}

/**
 * Real links for the newsletter's mailed-link pages wanted in `pages`: the
 * path and query (?token=…) of each. Two addresses subscribe over the API;
 * the first one's confirmation link is left unused (its page); the second is
 * confirmed through its form, and its unsubscribe link comes from the
 * admin's newsletter CSV.
 */
async function mailLinks(origin: string, mail: SmtpTestServer, pages: readonly string[], progress: (m: string) => void): Promise<Map<string, string>> {
  const links = new Map<string, string>();
  const agent = new http.Agent({ keepAlive: true });
  try {
    const stamp = Date.now().toString(36);
    const pending = `bench-lighthouse-pending-${stamp}@example.com`;
    const member = `bench-lighthouse-member-${stamp}@example.com`;
    const json = { "content-type": "application/json", accept: "application/json" };
    for (const email of [pending, member]) {
      const answer = await request(agent, `${origin}/api/newsletter`, "POST", json, Buffer.from(JSON.stringify({ email })));
      if (answer.status !== 202) throw new Error(`POST /api/newsletter (${email}) answered ${answer.status}: ${answer.body.toString("utf8").slice(0, 200)}`);
    }
    const confirmPath = async (email: string): Promise<string> => {
      const started = Date.now();
      while (Date.now() - started < 30_000) {
        const text = mail.to(email)[0]?.text;
        const link = text ? /https?:\/\/\S+\/newsletter\/confirm\?token=[A-Za-z0-9_-]+/.exec(text)?.[0] : undefined;
        if (link) return `${new URL(link).pathname}${new URL(link).search}`;
        if (text) throw new Error(`the confirmation mail to ${email} has no /newsletter/confirm link:\n${text.slice(0, 500)}`);
        await sleep(100);
      }
      throw new Error(`no confirmation mail to ${email} within 30 s (${mail.received.length} mail(s) caught)`);
    };
    progress("lighthouse: two newsletter sign-ups; confirmation links read from the caught mails");
    links.set("/newsletter/confirm", await confirmPath(pending));
    if (pages.includes("/unsubscribe/newsletter")) {
      // The confirmation form's POST, as a browser sends it (same origin, form-encoded, no fields).
      const form = { "content-type": "application/x-www-form-urlencoded", origin, "sec-fetch-site": "same-origin", "sec-fetch-mode": "navigate", accept: "text/html" };
      const confirmed = await request(agent, `${origin}${await confirmPath(member)}`, "POST", form, Buffer.alloc(0));
      if (confirmed.status !== 303) throw new Error(`the confirmation POST answered ${confirmed.status} (expected 303): ${confirmed.body.toString("utf8").slice(0, 200)}`);
      progress("lighthouse: signing the bench admin in for the newsletter CSV's unsubscribe link");
      const cookie = await signIn(agent, origin, "lighthouse server");
      const csv = await request(agent, `${origin}/admin/email-lists/newsletter.csv`, "GET", { cookie });
      if (csv.status !== 200) throw new Error(`GET /admin/email-lists/newsletter.csv answered ${csv.status}`);
      const [head = "", ...rows] = csv.body.toString("utf8").replace(/^\uFEFF/, "").split("\r\n");
      const column = head.split(",").indexOf("Unsubscribe URL");
      const link = rows.find((row) => row.includes(member))?.split(",")[column];
      if (column < 0 || !link) throw new Error(`the newsletter CSV has no unsubscribe link for ${member}:\n${csv.body.toString("utf8").slice(0, 500)}`);
      links.set("/unsubscribe/newsletter", `${new URL(link).pathname}${new URL(link).search}`);
    }
  } finally {
    agent.destroy();
  }
  return links;
}

export async function benchLighthouse(ctx: LighthouseContext): Promise<LighthouseResult> {
  const origin = `http://${ctx.host}:${ctx.port}`;
  const chromePort = ctx.port + 1;
  await assertPortFree(ctx.port, ctx.host);
  await assertPortFree(chromePort, "127.0.0.1");
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found (apt-get install chromium)`);

  const dataDir = path.join(ctx.workDir, "server");
  fs.mkdirSync(dataDir, { recursive: true });
  // APP_URL is the origin Chromium visits, so canonical links, mailed links and Origin checks see one site.
  const env: NodeJS.ProcessEnv = { ...ctx.serverEnv(ctx.port, dataDir), APP_URL: origin };
  // The mailed-link pages need real tokens: the server mails to a catcher here, and the bench admin reads the newsletter CSV.
  let mail: SmtpTestServer | null = null;
  const wantsMail = ctx.pages.some(isMailLinkPage);
  if (wantsMail) {
    await assertPortFree(ctx.mailPort, "127.0.0.1");
    mail = await startSmtpServer({ port: ctx.mailPort });
    env.SMTP_URL = `smtp://127.0.0.1:${ctx.mailPort}`;
    if (ctx.pages.includes("/unsubscribe/newsletter")) await createBenchAdmin(ctx.root, env);
  }
  ctx.progress(`lighthouse: starting our server on ${origin}${mail ? ` (mail to the SMTP catcher on port ${ctx.mailPort})` : ""}`);
  const server = startServer("lighthouse server", ctx.root, env);
  ctx.children.add(server);
  let chrome: chromeLauncher.LaunchedChrome | null = null;
  let chromeChild: Child | null = null;
  const pages: PageFigures[] = [];
  let chromeVersion = "?";
  const t0 = Date.now();
  /** Path and query Lighthouse opens for each page. */
  const targets = new Map<string, string>(ctx.pages.map((p) => [p, p]));
  const noindex = new Map<string, string | null>();
  try {
    await waitForHttp(`${origin}/healthz`, server);
    if (mail) for (const [p, target] of await mailLinks(origin, mail, ctx.pages, ctx.progress)) if (targets.has(p)) targets.set(p, target);
    // First render of each page happens here, not under Lighthouse; each must answer 200 (Lighthouse errors on a 4xx page).
    for (const p of ctx.pages) {
      const res = await getRaw(`${origin}${targets.get(p)!}`, { "accept-encoding": "br, gzip" });
      if (res.status !== 200) throw new Error(`GET ${label(p)} answered ${res.status}`);
      noindex.set(p, noindexOf(res));
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
      const url = `${origin}${targets.get(p)!}`;
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
        noindex: noindex.get(p) ?? null,
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
    await mail?.stop();
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
      label(p.path),
      `${p.runs.length - p.errors.length}/${p.runs.length}`,
      score(m.performance),
      fixed(m.cls, 3),
      fixed(m.lcp, 0, " ms"),
      fixed(m.tbt, 0, " ms"),
      fixed(m.fcp, 0, " ms"),
      fixed(m.speedIndex, 0, " ms"),
      score(m.accessibility),
      score(m.bestPractices),
      p.noindex ? "exempt (noindex)" : score(m.seo),
      `perf ≥ ${LIGHTHOUSE_BUDGET.performance}, CLS ≤ ${LIGHTHOUSE_BUDGET.cls}`,
      passFail(perfOk && clsOk),
    ];
  });
  out.push(table(["page", ">runs ok", ">perf", ">CLS", ">LCP", ">TBT", ">FCP", ">Speed Index", ">a11y", ">best pr.", ">SEO", "budget", "result"], rows));
  const runScores = pages.map((p) => `${label(p.path)} ${p.runs.map((r) => (r.error ? "ERR (run again)" : String(r.performance))).join(", ")}`).join("; ");
  out.push(`   performance score per run: ${runScores}; benchmarkIndex (CPU speed Lighthouse measured) ${pages.map((p) => fixed(p.median.benchmarkIndex)).join(" / ")}`);
  const exempt = pages.filter((p) => p.noindex);
  if (exempt.length) {
    out.push(
      `   SEO exempt (noindex) on ${exempt.length} page${exempt.length === 1 ? "" : "s"} (decision 032): they ask not to be indexed, which Lighthouse's is-crawlable audit scores as an SEO failure; their other SEO audits are still listed. ` +
        `SEO scores: ${exempt.map((p) => `${label(p.path)} ${score(p.median.seo)} (${p.noindex})`).join(", ")}`,
    );
  }
  for (const p of pages) {
    const name = label(p.path);
    for (const error of p.errors) out.push(`   ${name}: a run failed and was run again: ${error}`);
    const lostOf = (id: (typeof CATEGORIES)[number]) => (id === "seo" && p.noindex ? (p.lost[id] ?? []).filter((entry) => !entry.startsWith("is-crawlable ")) : (p.lost[id] ?? []));
    const lostLines = CATEGORIES.filter((id) => lostOf(id).length).map((id) => `${id}${id === "seo" && p.noindex ? " (exempt, noindex)" : ""}: ${lostOf(id).join(", ")}`);
    out.push(`   ${name} audits below full marks (performance: metric scores < 0.9${p.noindex ? "; SEO's is-crawlable left out: noindex" : ""}): ${lostLines.length ? "" : "none"}`);
    for (const line of lostLines) out.push(`     ${line}`);
    if (p.savings.length) out.push(`     estimated savings (median run): ${p.savings.slice(0, 6).join(", ")}`);
    if (p.foreign.length) out.push(`   ${name}: requests to other origins (blocked offline): ${p.foreign.slice(0, 5).join(", ")}${p.foreign.length > 5 ? " …" : ""}`);
    for (const warning of p.warnings) out.push(`   ${name}: Lighthouse warning: ${warning.slice(0, 300)}`);
  }

  for (const p of pages) {
    const m = p.median;
    checks.push({
      name: `Lighthouse performance, ${label(p.path)}`,
      figure: m.performance === null ? "no result" : score(m.performance),
      budget: `≥ ${LIGHTHOUSE_BUDGET.performance}`,
      ok: m.performance !== null && m.performance >= LIGHTHOUSE_BUDGET.performance,
    });
    checks.push({
      name: `Lighthouse CLS, ${label(p.path)}`,
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
          seoExempt: p.noindex ? `noindex (${p.noindex})` : null,
          performanceRuns: p.runs.map((r) => r.performance),
          failedRuns: p.errors.length,
        },
      ]),
    ),
  };
  return { lines: out, checks, summary };
}
