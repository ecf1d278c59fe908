/**
 * `npm test`: every check a change must pass, with a timing line per stage at
 * the end (scripts/stages.mjs):
 *
 *   1. React Router's type generation;
 *   2. typecheck and lint, at idle priority beside everything after
 *      (decision 040): the build and the suites never keep both cores busy
 *      all the time, and these two fill the gaps. Their output shows as it
 *      comes; when one fails, no further stage starts;
 *   3. what the suites need, on two lanes: the production build, and the
 *      native addons when they are missing (`npm rebuild`: better-sqlite3
 *      compiles SQLite, a minute of one core; .ci/run compiles it beside npm
 *      install instead, decision 040);
 *   4. Vitest (unit and integration), which keeps both cores busy on its own;
 *   5. Playwright against that build (projects js, no-js and api in one run;
 *      a line per project: its tests and the time it kept the workers busy).
 *
 * Stops at the first stage that fails. Plain JavaScript: it runs before
 * anything is compiled. `npm run test:hardening` is separate (.ci/run runs it after).
 */
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { printTimings, recordStage, stage, TIMINGS_FILE } from "./stages.mjs";

const npx = (...args) => ({ command: "npx", args });
const npm = (...args) => ({ command: "npm", args });
const seconds = (since) => Math.round((Date.now() - since) / 100) / 10;
const timingFile = path.resolve("test-results/e2e-timing.json");
/** better-sqlite3's compiled addon: missing after `npm install --ignore-scripts`. */
const NATIVE_ADDON = "node_modules/better-sqlite3/build/Release/better_sqlite3.node";

/**
 * .ci/run installs the Debian packages the suites use (qpdf, mutool, Chromium)
 * beside npm install and the checks, and names a file that will hold apt-get's
 * exit code: wait for it before the suites. Without the variable, nothing to wait for.
 */
async function prerequisitesReady() {
  const file = process.env.TEST_PREREQUISITES_DONE;
  if (!file) return true;
  const started = Date.now();
  while (!fs.existsSync(file)) await new Promise((resolve) => setTimeout(resolve, 250));
  const ok = fs.readFileSync(file, "utf8").trim() === "0";
  recordStage({ name: "waiting for the Debian packages", seconds: seconds(started), ok });
  if (!ok) console.error("The Debian packages the suites need did not install (see apt-get's output at the end).");
  return ok;
}

/**
 * The command line that runs a command at idle priority: SCHED_IDLE (util-linux's chrt), which
 * the scheduler gives only the time no other process wants; else nice 19; else as it is.
 */
function atIdlePriority(command, args) {
  const has = (tool) => spawnSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" }).status === 0;
  if (has("chrt")) return { command: "chrt", args: ["--idle", "0", command, ...args] };
  if (has("nice")) return { command: "nice", args: ["-n", "19", command, ...args] };
  return { command, args };
}

async function main() {
  // .ci/run records its own stages (install, hardening) in the same file around this one.
  if (!process.env.STAGE_TIMINGS_KEEP) fs.rmSync(TIMINGS_FILE, { force: true });

  // React Router's route types first (2 s): typecheck and lint start from them.
  if ((await stage("typegen", "npx", ["react-router", "typegen"])) !== 0) return 1;

  // Typecheck and lint at idle priority beside the suites; a failure stops the run at the next stage.
  const BESIDE = "typecheck ∥ lint at idle priority, beside the suites (the wait after them)";
  const failedBeside = [];
  const beside = Promise.all(
    [
      { name: "typecheck", ...npx("tsc"), prefix: "tsc" },
      { name: "lint", ...npm("run", "--silent", "lint"), prefix: "lint" },
    ].map(async (job) => {
      const idle = atIdlePriority(job.command, job.args);
      const code = await stage(job.name, idle.command, idle.args, { prefix: job.prefix, part: true, group: BESIDE });
      if (code !== 0) failedBeside.push(job.name);
    }),
  );
  /** Run a suite unless typecheck or lint has failed by now. */
  const suite = async (run) => (failedBeside.length > 0 ? 1 : run());
  /** Wait for typecheck and lint; the run passes when they and the suites did. */
  const finish = async (code) => {
    const waited = Date.now();
    await beside;
    recordStage({ name: BESIDE, seconds: seconds(waited), ok: failedBeside.length === 0 });
    if (failedBeside.length > 0) console.error(`\n${failedBeside.join(" and ")} failed: their output is above, prefixed [tsc] and [lint].`);
    return code === 0 && failedBeside.length === 0 ? 0 : 1;
  };

  // What the suites need, side by side: the build, and the native addons when missing (after a failure
  // the other still ends, and nothing further starts).
  const checks = [
    ...(fs.existsSync(NATIVE_ADDON) ? [] : [{ name: "native addons (npm rebuild)", ...npm("rebuild", "--no-audit", "--no-fund"), prefix: "native" }]),
    { name: "build", ...npm("run", "--silent", "build"), prefix: "build" },
  ];
  const started = Date.now();
  const codes = await Promise.all(checks.map((job) => stage(job.name, job.command, job.args, { prefix: job.prefix, part: checks.length > 1 })));
  const built = codes.every((code) => code === 0);
  if (checks.length > 1) recordStage({ name: checks.map((job) => job.prefix).join(" ∥ "), seconds: seconds(started), ok: built });
  if (!built) return finish(1);

  if (!(await prerequisitesReady())) return finish(1);
  if ((await suite(() => stage("unit/integration (vitest)", "npx", ["vitest", "run"]))) !== 0) return finish(1);

  fs.rmSync(timingFile, { force: true });
  const e2e = await suite(() => stage("e2e (playwright)", "npx", ["playwright", "test"], { env: { ...process.env, E2E_TIMING_FILE: timingFile } }));
  try {
    const { projects } = JSON.parse(fs.readFileSync(timingFile, "utf8"));
    for (const [name, p] of Object.entries(projects)) {
      recordStage({
        name: `playwright ${name}`,
        seconds: Math.round(p.busyMs / 100) / 10,
        ok: p.failed === 0,
        part: true,
        group: "e2e (playwright)",
        note: `${p.passed} passed, ${p.failed} failed, ${p.flaky} flaky, ${p.skipped} skipped; worker-seconds, done ${Math.round((p.startOffsetMs + p.spanMs) / 1000)} s into the run`,
      });
    }
  } catch {
    // No figures (the run did not start): the stage line says enough.
  }
  return finish(e2e);
}

const code = await main();
// Under .ci/run the table is printed once, at its end (after the hardening run).
if (!process.env.STAGE_TIMINGS_KEEP) printTimings();
process.exit(code);
