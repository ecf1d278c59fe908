/**
 * `npm run test:hardening`: hostile input, injection, CSRF, sessions, brute
 * force, security headers, faults, two-factor, admin:create on a registered address, the pitch form's spam trap, the daily pitch summary,
 * capital accounts (no cross-entity read, no change to a published call), watermarks without
 * qpdf, replication (Litestream, rclone) and its restores, the shipped nginx and Caddy configs in
 * front of the production build (proxy) and load against
 * the production build, each
 * section on servers of its own. Prints a table of figures per section and
 * exits 1 when any check fails.
 *
 * Flags:
 *   --full          the long parts at full size (1,000+ cases per endpoint,
 *                   60 s of load, 100 aborted uploads); the default is the CI size
 *   --only=a,b      run these sections (names as printed)
 *   --skip=a,b      run all sections but these (CI: all but load beside the browser tests)
 *   --no-build      use the existing build (BUILD_DIR, default build/) even if stale
 *   --keep          keep the scratch folder (servers' databases, files and logs)
 * Environment: BUILD_DIR (default build), HARDENING_PORT (first port, default 3700).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, ROOT, runContext, type Context, type Section, type SectionResult } from "./harness";

/**
 * Sections marked `alone` run with nothing beside them (load measures latency).
 * The others run SIDE_BY_SIDE at a time, each taking the next in the order
 * listed when one ends: most of them wait on their own servers (a server is one
 * Node thread), so one alone leaves a core idle. The order is longest first
 * (seconds at CI size on this 2-core machine), so the last to start are short.
 */
const SECTIONS: Array<{ name: string; alone?: boolean; load: () => Promise<Section> }> = [
  { name: "injection", load: async () => (await import("./injection")).section }, // ~100 s
  { name: "faults", load: async () => (await import("./faults")).section }, // ~64 s
  { name: "hostile-input", load: async () => (await import("./hostile-input")).section }, // ~39 s
  { name: "two-factor", load: async () => (await import("./two-factor")).section }, // ~31 s
  { name: "replication", load: async () => (await import("./replication")).section }, // ~20 s
  { name: "storage-replica", load: async () => (await import("./storage-replica")).section }, // ~20 s
  { name: "watermark", load: async () => (await import("./watermark")).section }, // ~20 s
  { name: "csrf", load: async () => (await import("./csrf")).section }, // ~14 s
  { name: "brute-force", load: async () => (await import("./brute-force")).section }, // ~14 s
  { name: "pitch-summary", load: async () => (await import("./pitch-summary")).section }, // ~10 s
  { name: "proxy", load: async () => (await import("./proxy")).section }, // ~9 s
  { name: "sessions", load: async () => (await import("./sessions")).section }, // ~8 s
  { name: "unsubscribe", load: async () => (await import("./unsubscribe")).section }, // ~8 s
  { name: "admin-create", load: async () => (await import("./admin-create")).section }, // ~8 s
  { name: "headers", load: async () => (await import("./headers")).section }, // ~7 s
  { name: "audience", load: async () => (await import("./audience")).section }, // ~7 s
  { name: "newsletter", load: async () => (await import("./newsletter")).section }, // ~7 s
  { name: "spam-trap", load: async () => (await import("./spam-trap")).section }, // ~6 s
  { name: "qpdf-missing", load: async () => (await import("./qpdf-missing")).section }, // ~9 s
  { name: "capital-accounts", load: async () => (await import("./capital-accounts")).section }, // ~5 s
  { name: "statements", load: async () => (await import("./statements")).section },
  { name: "load", alone: true, load: async () => (await import("./load")).section },
];
const SIDE_BY_SIDE = 3;

const argv = process.argv.slice(2);
const full = argv.includes("--full");
const keep = argv.includes("--keep");
const build = !argv.includes("--no-build");
const listArg = (flag: string) =>
  argv
    .find((a) => a.startsWith(`${flag}=`))
    ?.slice(flag.length + 1)
    .split(",")
    .filter(Boolean);
const only = listArg("--only");
const skip = listArg("--skip") ?? [];
const unknown = [...(only ?? []), ...skip].filter((name) => !SECTIONS.some((s) => s.name === name));
if (unknown.length) {
  console.error(`Unknown section(s): ${unknown.join(", ")}. Sections: ${SECTIONS.map((s) => s.name).join(", ")}`);
  process.exit(2);
}

const buildDir = path.resolve(ROOT, process.env.BUILD_DIR ?? "build");

function ensureBuild() {
  const serverBuild = path.join(buildDir, "server/index.js");
  if (!build && fs.existsSync(serverBuild)) return;
  console.error(`--- building into ${path.relative(ROOT, buildDir) || "."}`);
  execFileSync("npm", ["run", "build"], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, BUILD_DIR: buildDir } });
}

async function main() {
  ensureBuild();
  const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), "lumen-ridge-hardening-"));
  let port = Number(process.env.HARDENING_PORT ?? 3700);
  const taken = new Set<number>();
  const ports: number[] = [];
  // Ports are handed out synchronously; reserve a block up front.
  for (let i = 0; i < 60; i++) {
    const next = await freePort(port);
    if (!taken.has(next)) ports.push(next);
    taken.add(next);
    port = next + 1;
  }
  const ctx: Context = runContext({ full, buildDir, tmpRoot, ports });

  const chosen = SECTIONS.filter((s) => (!only || only.includes(s.name)) && !skip.includes(s.name));
  const results: Array<{ name: string; result: SectionResult; seconds: number }> = [];
  const started = Date.now();
  console.log(`Hardening run (${full ? "full" : "CI size; --full for the long parts"}), build ${path.relative(ROOT, buildDir)}, Node ${process.version}, ${os.cpus().length} cores`);
  const runOne = async (entry: (typeof SECTIONS)[number], beside: boolean) => {
    const t0 = Date.now();
    console.error(`--- ${entry.name}${beside ? ` (${SIDE_BY_SIDE} sections at a time)` : ""}`);
    const own: Context = { ...ctx, progress: beside ? (message) => console.error(`    [${entry.name}] ${message}`) : ctx.progress };
    let result: SectionResult;
    try {
      const section = await entry.load();
      result = await section.run(own);
    } catch (error) {
      result = { figures: [], failures: [`section crashed: ${(error as Error).stack ?? String(error)}`] };
    }
    const seconds = (Date.now() - t0) / 1000;
    results.push({ name: entry.name, result, seconds });
    printSection(entry.name, result, seconds);
  };
  // Consecutive sections that need not run alone form a group, run SIDE_BY_SIDE at a time.
  for (let i = 0; i < chosen.length; ) {
    if (chosen[i]!.alone) {
      await runOne(chosen[i]!, false);
      i += 1;
      continue;
    }
    const group: typeof chosen = [];
    while (i < chosen.length && !chosen[i]!.alone) group.push(chosen[i++]!);
    const queue = [...group];
    const beside = group.length > 1;
    await Promise.all(
      Array.from({ length: Math.min(SIDE_BY_SIDE, group.length) }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) await runOne(next, beside);
      }),
    );
  }
  results.sort((a, b) => chosen.findIndex((c) => c.name === a.name) - chosen.findIndex((c) => c.name === b.name));

  const failed = results.filter((r) => r.result.failures.length > 0);
  console.log("");
  console.log(`Summary: ${results.length - failed.length}/${results.length} sections passed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  for (const r of failed) {
    console.log(`FAILED ${r.name}:`);
    for (const failure of r.result.failures) console.log(`  - ${failure}`);
  }
  if (keep) console.log(`Scratch folder kept: ${tmpRoot}`);
  else fs.rmSync(tmpRoot, { recursive: true, force: true });
  // A section that crashed may leave a server or a mail catcher open: exit instead of waiting on them
  // (a hung run would hold CI until its time limit).
  process.exit(failed.length ? 1 : 0);
}

function printSection(name: string, result: SectionResult, seconds: number) {
  const rows = result.figures.map((f) => [f.label, String(f.value), f.budget ?? "", f.ok ? "ok" : "FAIL"]);
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i]!.length), ["check", "figure", "budget", ""][i]!.length));
  console.log("");
  console.log(`## ${name} (${seconds.toFixed(1)} s) ${result.failures.length ? "FAIL" : "PASS"}`);
  for (const row of rows) console.log(`  ${row.map((cell, i) => (i === 1 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join("  ")}`);
  for (const note of result.notes ?? []) console.log(`  · ${note}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
