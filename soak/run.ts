/**
 * npm run soak [-- --minutes N] [--rate R] [--sample-seconds S] [--json FILE]
 *
 * The hardening load mix (hardening/load.ts: public pages, investor
 * dashboards and document lists, 1 MB downloads, newsletter sign-ups, admin
 * approvals, uploads, deletes and exports) sent at a steady, moderate rate
 * (one request every 1/R s: soak/pace.ts) for N minutes (default 60) to the
 * production server (the compiled build, plain node, the load section's
 * settings: 256 MB heap cap, TRUST_PROXY, LOG_LEVEL=info) on a scratch
 * database and storage folder. Every S seconds (default 10) it samples the
 * server's
 *   - RSS (/proc/<pid>/status) and open file descriptors (/proc/<pid>/fd);
 *   - heap used and total, external memory and event-loop delay, from a probe
 *     loaded into the server process for the soak only (soak/probe.mjs: a line
 *     on stdout; no port, no change to the server);
 *   - mail outbox (pending and all rows) and database size (file + WAL), read
 *     from the database read-only;
 *   - CPU (server and this process),
 * prints a row per sample, then each measure's trend (least-squares slope per
 * hour, over the whole run and over its second half, after the warm-up), the
 * requests by kind, 5xx answers and other errors. It measures memory trends,
 * not latency: it may run beside other work.
 *
 * Exit codes: 0 clean; 1 a 5xx, an unexpected status, a connection error or
 * timeout, a short download, an error-level log line, a crash, or an unclean
 * exit on SIGTERM; 2 bad arguments; 130 interrupted (Ctrl-C; the summary is
 * still printed).
 *
 * Flags: --rate R requests per second (default 20, at most 200);
 * --json FILE also writes the summary and every sample as JSON; --port P first
 * port to try (default 4500); --no-build use BUILD_DIR's existing build
 * (default build/; built when missing); --keep keep the scratch folder.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { z } from "zod";
import { freePort, openDatabase, ROOT, rssKb, runContext, sleep, startServer, type AppServer, type Context, type ExitInfo } from "../hardening/harness";
import { cpuSeconds, logDrain, loadServerEnv, prepareLoadMix, type Answer, type KindName } from "../hardening/load";
import { paceMix, type PaceCounts } from "./pace";
import { slopePerHour } from "./trend";

const USAGE = "Usage: npm run soak -- [--minutes N] [--rate R] [--sample-seconds S] [--json FILE] [--port P] [--no-build] [--keep]";
const HELP = `${USAGE}

Sends the hardening load mix (hardening/load.ts) at a steady rate to the production build on scratch
data and samples the server's RSS, heap, open file descriptors, event-loop delay, mail outbox and
database size; prints a row per sample and each measure's trend (slope per hour) at the end.

  --minutes N         how long to send (default 60; 0.5 is 30 s)
  --rate R            requests per second (default 20, 1 to 200)
  --sample-seconds S  a sample every S seconds (default 10)
  --json FILE         also write the summary and the samples as JSON
  --port P            first port to try for the server (default 4500)
  --no-build          use the build in BUILD_DIR (default build/) as it is; built when missing
  --keep              keep the scratch folder (database, files)

Exit code 1 on a 5xx, any other unexpected answer or error, an error-level log line or a crash.`;
const PROBE = path.join(path.dirname(fileURLToPath(import.meta.url)), "probe.mjs");

// ─── arguments ──────────────────────────────────────────────────────────────

const number = (flag: string) => z.coerce.number({ error: `${flag} must be a number` }).refine(Number.isFinite, `${flag} must be a number`);
const Options = z
  .object({
    minutes: number("--minutes").refine((v) => v > 0 && v <= 24 * 60, "--minutes must be more than 0 and at most 1440 (24 hours)"),
    rate: number("--rate").refine((v) => Number.isInteger(v) && v >= 1 && v <= 200, "--rate must be a whole number of requests per second from 1 to 200"),
    sampleSeconds: number("--sample-seconds").refine((v) => v >= 1 && v <= 600, "--sample-seconds must be from 1 to 600"),
    port: number("--port").refine((v) => Number.isInteger(v) && v >= 1024 && v <= 65_000, "--port must be a whole number from 1024 to 65000"),
    json: z.string().min(1, "--json needs a file name").optional(),
    build: z.boolean(),
    keep: z.boolean(),
  });
type Options = z.infer<typeof Options>;

function fail(code: number, message: string): never {
  console.error(`soak: ${message}`);
  process.exit(code);
}

function parseOptions(argv: string[]): Options {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        minutes: { type: "string", default: "60" },
        rate: { type: "string", default: "20" },
        "sample-seconds": { type: "string", default: "10" },
        json: { type: "string" },
        port: { type: "string", default: "4500" },
        "no-build": { type: "boolean", default: false },
        keep: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    }));
  } catch (error) {
    fail(2, `${(error as Error).message}\n${USAGE}`);
  }
  if (values.help) {
    console.log(HELP);
    process.exit(0);
  }
  const parsed = Options.safeParse({
    minutes: values.minutes,
    rate: values.rate,
    sampleSeconds: values["sample-seconds"],
    port: values.port,
    json: values.json,
    build: !values["no-build"],
    keep: values.keep,
  });
  if (!parsed.success) fail(2, `${parsed.error.issues.map((issue) => issue.message).join("; ")}\n${USAGE}`);
  const options = parsed.data;
  if (options.minutes * 60 < 2 * options.sampleSeconds) fail(2, `the run must last at least two samples: --minutes × 60 ≥ 2 × --sample-seconds\n${USAGE}`);
  if (options.json !== undefined) {
    const dir = path.dirname(path.resolve(options.json));
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) fail(2, `--json: the folder ${dir} does not exist`);
  }
  return options;
}

// ─── what a sample reads ────────────────────────────────────────────────────

type Probe = { rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number; eldP50Ms: number | null; eldP99Ms: number | null; eldMaxMs: number | null };
const ProbeLine = z.object({
  soakProbe: z.literal(1),
  rss: z.number(),
  heapUsed: z.number(),
  heapTotal: z.number(),
  external: z.number(),
  arrayBuffers: z.number(),
  eldP50Ms: z.number().nullable(),
  eldP99Ms: z.number().nullable(),
  eldMaxMs: z.number().nullable(),
});

export type Sample = {
  /** Seconds since the load started. */
  seconds: number;
  /** Answers per second since the previous sample. */
  reqPerSecond: number;
  rssMb: number | null;
  heapUsedMb: number | null;
  heapTotalMb: number | null;
  /** Memory outside the V8 heap that JS objects hold (Buffers included). */
  externalMb: number | null;
  fds: number | null;
  loopDelayP99Ms: number | null;
  loopDelayMaxMs: number | null;
  outboxPending: number | null;
  outboxRows: number | null;
  /** data.sqlite + its WAL. */
  databaseMb: number | null;
  serverCpuPercent: number | null;
  soakCpuPercent: number;
  /** Totals so far. */
  fiveXx: number;
  errors: number;
};

const MB = 1024 * 1024;
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

function openFds(pid: number): number | null {
  try {
    return fs.readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return null;
  }
}

function fileMb(...files: string[]): number | null {
  let bytes = 0;
  let any = false;
  for (const file of files) {
    try {
      bytes += fs.statSync(file).size;
      any = true;
    } catch {
      /* the WAL may not exist at a given moment */
    }
  }
  return any ? round(bytes / MB, 2) : null;
}

/** Outbox rows still to send, and all of them (sent and logged mails stay), read-only. */
function outbox(server: AppServer): { pending: number; rows: number } | null {
  try {
    const db = openDatabase(server);
    try {
      const pending = db.prepare("select count(*) from email_outbox where status = 'pending'").pluck().get() as number;
      const rows = db.prepare("select count(*) from email_outbox").pluck().get() as number;
      return { pending, rows };
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}

// ─── printing ───────────────────────────────────────────────────────────────

const COLUMNS: Array<[title: string, width: number, cell: (s: Sample) => string]> = [
  ["t (s)", 7, (s) => s.seconds.toFixed(0)],
  ["req/s", 6, (s) => s.reqPerSecond.toFixed(1)],
  ["RSS MB", 7, (s) => fmt(s.rssMb)],
  ["heap used/total MB", 18, (s) => `${fmt(s.heapUsedMb)} / ${fmt(s.heapTotalMb)}`],
  ["ext MB", 7, (s) => fmt(s.externalMb)],
  ["fds", 5, (s) => fmt(s.fds, 0)],
  ["loop p99/max ms", 15, (s) => `${fmt(s.loopDelayP99Ms)} / ${fmt(s.loopDelayMaxMs)}`],
  ["outbox pend/rows", 16, (s) => `${fmt(s.outboxPending, 0)} / ${fmt(s.outboxRows, 0)}`],
  ["db MB", 7, (s) => fmt(s.databaseMb, 2)],
  ["CPU srv/soak %", 14, (s) => `${fmt(s.serverCpuPercent, 0)} / ${s.soakCpuPercent.toFixed(0)}`],
  ["5xx", 4, (s) => String(s.fiveXx)],
  ["err", 4, (s) => String(s.errors)],
];
const fmt = (value: number | null, digits = 1) => (value === null ? "n/a" : value.toFixed(digits));
const row = (cells: string[]) => `  ${cells.map((cell, i) => cell.padStart(COLUMNS[i]![1])).join("  ")}`;

type Measure = { key: keyof Sample; label: string; unit: string; digits: number };
const MEASURES: Measure[] = [
  { key: "rssMb", label: "RSS", unit: "MB", digits: 1 },
  { key: "heapUsedMb", label: "heap used", unit: "MB", digits: 1 },
  { key: "heapTotalMb", label: "heap total", unit: "MB", digits: 1 },
  { key: "externalMb", label: "external memory", unit: "MB", digits: 1 },
  { key: "fds", label: "open file descriptors", unit: "", digits: 1 },
  { key: "loopDelayP99Ms", label: "event-loop delay p99", unit: "ms", digits: 2 },
  { key: "outboxPending", label: "outbox pending", unit: "rows", digits: 1 },
  { key: "outboxRows", label: "outbox rows (all)", unit: "rows", digits: 0 },
  { key: "databaseMb", label: "database + WAL", unit: "MB", digits: 2 },
];

export type Trend = { label: string; unit: string; first: number | null; last: number | null; min: number | null; max: number | null; slopePerHour: number | null; secondHalfSlopePerHour: number | null };

function trends(samples: Sample[]): Trend[] {
  const half = samples.length > 0 ? samples[samples.length - 1]!.seconds / 2 : 0;
  return MEASURES.map((m) => {
    const points = samples.map((s) => ({ seconds: s.seconds, value: s[m.key] as number | null }));
    const values = points.map((p) => p.value).filter((v): v is number => v !== null);
    return {
      label: m.label,
      unit: m.unit,
      first: values[0] ?? null,
      last: values.at(-1) ?? null,
      min: values.length ? Math.min(...values) : null,
      max: values.length ? Math.max(...values) : null,
      slopePerHour: slopePerHour(points),
      secondHalfSlopePerHour: slopePerHour(points.filter((p) => p.seconds >= half)),
    };
  });
}

function printTable(lines: string[][]) {
  const widths = lines[0]!.map((_, i) => Math.max(...lines.map((l) => l[i]!.length)));
  for (const line of lines) console.log(`  ${line.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ")}`);
}

const signed = (value: number | null, digits: number) => (value === null ? "n/a" : `${value >= 0 ? "+" : ""}${value.toFixed(digits)}`);

// ─── the run ────────────────────────────────────────────────────────────────

async function main() {
  const options = parseOptions(process.argv.slice(2));
  const buildDir = path.resolve(ROOT, process.env.BUILD_DIR ?? "build");
  const serverBuild = path.join(buildDir, "server/index.js");
  if (options.build || !fs.existsSync(serverBuild)) {
    console.error(`--- building into ${path.relative(ROOT, buildDir) || "."}`);
    execFileSync("npm", ["run", "build"], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, BUILD_DIR: buildDir } });
  }

  const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), "lumen-ridge-soak-"));
  if (!options.keep) scratch = tmpRoot;
  const port = await freePort(options.port);
  const ports = [port];
  const ctx: Context = runContext({ full: false, buildDir, tmpRoot, ports });

  const seconds = Math.round(options.minutes * 60);
  /** Unanswered requests beyond which the next are skipped: five seconds' worth. */
  const maxInFlight = Math.max(20, options.rate * 5);
  const base = loadServerEnv();
  const interrupt = new AbortController();
  let interrupted = false;
  process.once("SIGINT", () => {
    interrupted = true;
    console.error("soak: interrupted; stopping the load and printing the summary (Ctrl-C reaches the server too)");
    interrupt.abort();
  });

  console.error(`--- soak: starting the server (${path.relative(ROOT, buildDir) || "."}, port ${port})`);
  const server = await startServer(ctx, {
    name: "soak",
    env: { ...base, NODE_OPTIONS: `${base.NODE_OPTIONS ?? ""} --import=${pathToFileURL(PROBE).href}`.trim(), SOAK_PROBE_MS: String(options.sampleSeconds * 1000) },
  });
  const pid = server.pid();
  let latestProbe: Probe | null = null;
  let probeLines = 0;
  /** Set once the load runs: takes a sample when the probe reports. */
  let onProbe = () => {};
  // Every 0.5 s: the probe's lines are taken out, the server's log lines counted and dropped.
  const logs = logDrain(server, (line) => {
    if (!line.startsWith('{"soakProbe"')) return false;
    try {
      latestProbe = ProbeLine.parse(JSON.parse(line));
      probeLines += 1;
      onProbe();
    } catch {
      /* not the probe's line after all: counted as a log line */
      return false;
    }
    return true;
  });

  const samples: Sample[] = [];
  const failures: string[] = [];
  let paced: PaceCounts | null = null;
  let exit: ExitInfo = { code: null, signal: null };
  let crashed = false;
  const startedAt = new Date();
  let loadStart = 0;
  let total = 0;
  let fiveXx = 0;
  /** Answers with another status than their kind's, 5xx left out. */
  let otherUnexpected = 0;
  const unexpected = new Map<string, number>();
  try {
    console.error("    soak: setting up the mix (an admin with two-factor, an approved investor, documents, pending investors)");
    const mix = await prepareLoadMix(server, randomBytes(3).toString("hex"));
    mix.setPhase("soak");
    const expected = new Map<KindName, number>(mix.kinds.map((k) => [k.name, k.expect]));
    const onAnswer = (answer: Answer) => {
      mix.onAnswer(answer);
      total += 1;
      if (answer.status >= 500) fiveXx += 1;
      if (answer.status !== expected.get(answer.kind)) {
        if (answer.status < 500) otherUnexpected += 1;
        const key = `${answer.kind}: ${answer.status}`;
        unexpected.set(key, (unexpected.get(key) ?? 0) + 1);
      }
    };

    // A sample each time the probe reports (every --sample-seconds), so the server's heap and the
    // figures read here belong together; without a probe line for two intervals, one without them.
    let lastAt = 0;
    let lastTotal = 0;
    let lastCpu = cpuSeconds(pid);
    let lastOwnCpu = process.cpuUsage();
    const takeSample = (probe: Probe | null) => {
      const now = Date.now();
      const dt = (now - lastAt) / 1000;
      if (dt <= 0) return;
      const cpu = cpuSeconds(pid);
      const ownCpu = process.cpuUsage();
      const box = outbox(server);
      const rss = rssKb(pid);
      const sample: Sample = {
        seconds: round((now - loadStart) / 1000, 1),
        reqPerSecond: round((total - lastTotal) / dt, 1),
        rssMb: rss > 0 ? round(rss / 1024) : null,
        heapUsedMb: probe ? round(probe.heapUsed / MB) : null,
        heapTotalMb: probe ? round(probe.heapTotal / MB) : null,
        externalMb: probe ? round(probe.external / MB) : null,
        fds: openFds(pid),
        loopDelayP99Ms: probe && probe.eldP99Ms !== null ? round(probe.eldP99Ms, 2) : null,
        loopDelayMaxMs: probe && probe.eldMaxMs !== null ? round(probe.eldMaxMs, 2) : null,
        outboxPending: box?.pending ?? null,
        outboxRows: box?.rows ?? null,
        databaseMb: fileMb(server.dbPath, `${server.dbPath}-wal`),
        serverCpuPercent: cpu !== null && lastCpu !== null ? round(((cpu - lastCpu) / dt) * 100, 0) : null,
        soakCpuPercent: round(((ownCpu.user - lastOwnCpu.user + ownCpu.system - lastOwnCpu.system) / 1e6 / dt) * 100, 0),
        fiveXx,
        errors: paced ? paced.errors + paced.timeouts + paced.shortDownloads : 0,
      };
      samples.push(sample);
      console.log(row(COLUMNS.map(([, , cell]) => cell(sample))));
      lastAt = now;
      lastTotal = total;
      lastCpu = cpu;
      lastOwnCpu = ownCpu;
      // What the load section checks afterwards; the soak needs none of it to grow for an hour.
      mix.sentEmails.clear();
      mix.adminSent.clear();
    };

    console.log(
      `Soak: ${options.minutes} min at ${options.rate} req/s (one request every ${(1000 / options.rate).toFixed(0)} ms, keep-alive), ` +
        `a sample every ${options.sampleSeconds} s; server pid ${pid}, heap cap ${base.NODE_OPTIONS ?? "none"}, build ${path.relative(ROOT, buildDir)}, Node ${process.version}, ${os.cpus().length} cores`,
    );
    console.log(row(COLUMNS.map(([title]) => title)));
    loadStart = Date.now();
    lastAt = loadStart;
    let probeSampled = false;
    onProbe = () => {
      if (Date.now() - loadStart < 500) return; // the line from before the load: the state the load starts from
      probeSampled = true;
      takeSample(latestProbe);
    };
    // Crash watch, and the fallback when the probe is silent.
    const watch = setInterval(() => {
      if (!server.running() && !interrupted) {
        crashed = true;
        interrupt.abort();
      }
      if (Date.now() - lastAt > 2 * options.sampleSeconds * 1000 + 1000) takeSample(null);
    }, 1000);
    try {
      const pacer = paceMix(server.url, mix.kinds, { rate: options.rate, seconds, maxInFlight, timeoutMs: 30_000, signal: interrupt.signal }, onAnswer);
      paced = pacer.counts;
      await pacer.done;
    } finally {
      clearInterval(watch);
    }
    if (!probeSampled) failures.push("the probe (soak/probe.mjs) reported nothing: heap and event-loop delay are missing");
    await sleep(1000); // requests still in flight at the stop finish on the server
    logs.drain();
  } finally {
    logs.stop();
    onProbe = () => {};
    if (server.unexpectedExits() > 0 && !interrupted) crashed = true;
    exit = await server.stop();
  }
  const wall = (Date.now() - loadStart) / 1000;

  // ── summary ───────────────────────────────────────────────────────────────
  const trend = trends(samples);
  console.log("");
  console.log(`Trend over ${samples.length} samples (${(samples.at(-1)?.seconds ?? 0).toFixed(0)} s; least-squares slope; the second half leaves out the warm-up):`);
  printTable([
    ["measure", "first", "last", "min", "max", "slope/h", "2nd half slope/h"],
    ...trend.map((t) => {
      const digits = MEASURES.find((m) => m.label === t.label)!.digits;
      const unit = t.unit ? ` ${t.unit}` : "";
      return [t.label, fmt(t.first, digits), fmt(t.last, digits), fmt(t.min, digits), fmt(t.max, digits), `${signed(t.slopePerHour, digits)}${unit}`, `${signed(t.secondHalfSlopePerHour, digits)}${unit}`];
    }),
  ]);

  const counts: PaceCounts = paced ?? { sent: 0, answered: 0, skipped: 0, errors: 0, timeouts: 0, retried: 0, shortDownloads: 0, inFlight: 0, byKind: new Map(), errorSamples: [] };
  const byKind = [...counts.byKind].map(([kind, statuses]) => ({
    kind,
    answers: [...statuses.values()].reduce((a, b) => a + b, 0),
    statuses: Object.fromEntries([...statuses].map(([status, count]) => [String(status), count])),
  }));
  console.log("");
  console.log(`Requests: ${counts.sent} sent, ${total} answered in ${wall.toFixed(0)} s (${(total / Math.max(wall, 1)).toFixed(1)}/s); skipped with ${maxInFlight} unanswered: ${counts.skipped}`);
  for (const k of byKind) console.log(`  ${k.kind.padEnd(22)} ${String(k.answers).padStart(7)}  ${Object.entries(k.statuses).map(([s, c]) => `${c} × ${s}`).join(", ")}`);
  console.log(`5xx answers: ${fiveXx}`);
  console.log(`other unexpected statuses: ${otherUnexpected}${unexpected.size ? ` (all unexpected: ${[...unexpected].map(([key, c]) => `${key} × ${c}`).join(", ")})` : ""}`);
  console.log(`connection errors / timeouts / short downloads: ${counts.errors} / ${counts.timeouts} / ${counts.shortDownloads}${counts.retried ? ` (${counts.retried} sent again after a kept-alive connection closed)` : ""}`);
  console.log(`log lines: ${logs.stats.lines} (error ${logs.stats.errorLines}, warn ${logs.stats.warnLines}), probe lines ${probeLines}`);
  console.log(`server: ${crashed ? "CRASHED" : "no crash"}; exit on SIGTERM: code ${exit.code ?? "none"}, signal ${exit.signal ?? "none"}`);

  if (fiveXx > 0) failures.push(`${fiveXx} answer(s) with a 5xx status`);
  if (otherUnexpected > 0) failures.push(`${otherUnexpected} answer(s) with another unexpected status`);
  if (counts.errors > 0 || counts.timeouts > 0) failures.push(`${counts.errors} connection error(s), ${counts.timeouts} timeout(s): ${counts.errorSamples.join(" | ")}`);
  if (counts.shortDownloads > 0) failures.push(`${counts.shortDownloads} download(s) shorter than the file`);
  if (logs.stats.errorLines > 0) failures.push(`${logs.stats.errorLines} error-level log line(s): ${logs.stats.samples.join(" | ")}`);
  if (crashed) failures.push(`the server exited during the soak (a crash or a kill); its last lines:\n${logs.stats.recent.slice(-8).map((line) => `      ${line.slice(0, 240)}`).join("\n")}`);
  else if (!interrupted && exit.code !== 0) failures.push(`the server did not exit 0 on SIGTERM (code ${exit.code}, signal ${exit.signal})`);
  if (interrupted) failures.push("interrupted before the end");

  if (options.json) {
    const summary = {
      ok: failures.length === 0,
      interrupted,
      startedAt: startedAt.toISOString(),
      options: { minutes: options.minutes, rate: options.rate, sampleSeconds: options.sampleSeconds, maxInFlight },
      node: process.version,
      seconds: round(wall, 1),
      requests: { sent: counts.sent, answered: total, skipped: counts.skipped, perSecond: round(total / Math.max(wall, 1), 2), byKind },
      fiveXx,
      unexpectedStatuses: Object.fromEntries(unexpected),
      connectionErrors: counts.errors,
      timeouts: counts.timeouts,
      shortDownloads: counts.shortDownloads,
      retried: counts.retried,
      logLines: { total: logs.stats.lines, error: logs.stats.errorLines, warn: logs.stats.warnLines },
      crashed,
      exitOnSigterm: exit,
      trend,
      samples,
      failures,
    };
    fs.writeFileSync(path.resolve(options.json), `${JSON.stringify(summary, null, 2)}\n`);
    console.log(`JSON summary: ${path.resolve(options.json)}`);
  }

  if (options.keep) console.log(`Scratch folder kept: ${tmpRoot}`);
  else fs.rmSync(tmpRoot, { recursive: true, force: true });
  console.log("");
  if (failures.length) {
    console.log(`Soak ${interrupted ? "INTERRUPTED" : "FAILED"}:`);
    for (const failure of failures) console.log(`  - ${failure}`);
  } else console.log("Soak passed: no 5xx, no errors, no crash.");
  process.exit(interrupted ? 130 : failures.length ? 1 : 0);
}

/** The scratch folder to remove if the run fails before its summary (a setup that broke). */
let scratch: string | undefined;

main().catch((error: unknown) => {
  console.error(error);
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  process.exit(1);
});
