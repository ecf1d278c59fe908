/**
 * `npm test`: every check a change must pass, in the order that fails fastest,
 * with a timing line per stage at the end (scripts/stages.mjs):
 *
 *   1. the checks, on two lanes (the machine has two cores and each of these
 *      keeps one busy), each job taking the first free lane once what it needs
 *      is done: the native addons when they are missing (`npm rebuild`; .ci/run
 *      installs with --ignore-scripts so that better-sqlite3's compile, at -O1,
 *      runs beside the rest), React Router's type generation, then lint,
 *      typecheck and the production build;
 *   2. Vitest (unit and integration), which keeps both cores busy on its own;
 *   3. Playwright against that build (projects js, no-js and api in one run;
 *      a line per project: its tests and the time it kept the workers busy),
 *      with `npm run soak` beside it when SOAK_MINUTES is set (.ci/run: 2).
 *
 * Stops at the first stage that fails. Plain JavaScript: it runs before
 * anything is compiled. `npm run test:hardening` is separate (.ci/run runs it after).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { printTimings, recordStage, stage, TIMINGS_FILE } from "./stages.mjs";

const npx = (...args) => ({ command: "npx", args });
const npm = (...args) => ({ command: "npm", args });
const seconds = (since) => Math.round((Date.now() - since) / 100) / 10;
const timingFile = path.resolve("test-results/e2e-timing.json");
const LANES = 2;
/** better-sqlite3's compiled addon: missing after `npm install --ignore-scripts`. */
const NATIVE_ADDON = "node_modules/better-sqlite3/build/Release/better_sqlite3.node";

/**
 * Run jobs on LANES lanes, in list order, each once the jobs it needs have
 * passed; after a failure nothing new starts. Resolves to true when all passed.
 */
function runOnLanes(jobs) {
  const passed = new Set();
  const waiting = [...jobs];
  let running = 0;
  let failed = false;
  return new Promise((resolve) => {
    const fill = () => {
      while (!failed && running < LANES) {
        const index = waiting.findIndex((job) => (job.needs ?? []).every((name) => passed.has(name)));
        if (index < 0) break;
        const [job] = waiting.splice(index, 1);
        running += 1;
        void stage(job.name, job.command, job.args, { prefix: job.prefix, part: true, ...(job.env ? { env: job.env } : {}) }).then((code) => {
          running -= 1;
          if (code === 0) passed.add(job.name);
          else failed = true;
          fill();
        });
      }
      // Done, or stuck (a job needs one that never ran): either way nothing is left to start.
      if (running === 0) resolve(!failed && waiting.length === 0);
    };
    fill();
  });
}

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

async function main() {
  // .ci/run records its own stages (install, hardening) in the same file around this one.
  if (!process.env.STAGE_TIMINGS_KEEP) fs.rmSync(TIMINGS_FILE, { force: true });

  // In this order the two lanes end together: the compile then typecheck on one (41 + 28 s), the
  // types, lint and the build on the other (2 + 42 + 15 s). SQLite compiles at -O1 here: half the
  // time of -O3 (78 → 41 s), and our queries run as fast (decision 040); `npm install` on a
  // developer's machine or the VPS compiles it as better-sqlite3 ships.
  const checks = [
    ...(fs.existsSync(NATIVE_ADDON)
      ? []
      : [{ name: "native addons (npm rebuild)", ...npm("rebuild", "--no-audit", "--no-fund"), env: { ...process.env, CFLAGS: "-O1" }, prefix: "native" }]),
    { name: "typegen", ...npx("react-router", "typegen"), prefix: "typegen" },
    { name: "lint", ...npm("run", "--silent", "lint"), needs: ["typegen"], prefix: "lint" },
    { name: "typecheck", ...npx("tsc"), needs: ["typegen"], prefix: "tsc" },
    { name: "build", ...npm("run", "--silent", "build"), prefix: "build" },
  ];
  const started = Date.now();
  const checked = await runOnLanes(checks);
  recordStage({ name: checks.map((job) => job.prefix).join(" ∥ "), seconds: seconds(started), ok: checked, note: `${LANES} lanes` });
  if (!checked) return 1;

  if (!(await prerequisitesReady())) return 1;
  if ((await stage("unit/integration (vitest)", "npx", ["vitest", "run"])) !== 0) return 1;

  fs.rmSync(timingFile, { force: true });
  const soak = startSoakBeside();
  const e2e = await stage("e2e (playwright)", "npx", ["playwright", "test"], { env: { ...process.env, E2E_TIMING_FILE: timingFile } });
  const soakCode = soak ? await soak : 0;
  try {
    const { projects } = JSON.parse(fs.readFileSync(timingFile, "utf8"));
    for (const [name, p] of Object.entries(projects)) {
      recordStage({
        name: `playwright ${name}`,
        seconds: Math.round(p.busyMs / 100) / 10,
        ok: p.failed === 0,
        part: true,
        note: `${p.passed} passed, ${p.failed} failed, ${p.flaky} flaky, ${p.skipped} skipped; worker-seconds, done ${Math.round((p.startOffsetMs + p.spanMs) / 1000)} s into the run`,
      });
    }
  } catch {
    // No figures (the run did not start): the stage line says enough.
  }
  return e2e || soakCode;
}

/**
 * SOAK_MINUTES (set by .ci/run): `npm run soak` for that long beside the browser tests, at its
 * moderate rate or SOAK_RATE requests a second (it samples the server's memory and descriptors, not latency, and costs the
 * suites about 25 core-seconds for 2 minutes at 10 a second), on its own server and scratch data from the same
 * build. Its output is printed in one piece when it ends; resolves to its exit code (1 on a 5xx,
 * an error or a crash), which fails `npm test` as a failed suite would.
 */
function startSoakBeside() {
  const minutes = process.env.SOAK_MINUTES;
  if (!minutes) return null;
  const started = Date.now();
  // Its own folder: Playwright empties test-results/ as it starts.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lumen-ridge-soak-"));
  const log = path.join(dir, "soak.log");
  const out = fs.openSync(log, "w");
  const rate = process.env.SOAK_RATE ? ["--rate", process.env.SOAK_RATE] : [];
  const child = spawn("npx", ["tsx", "soak/run.ts", "--minutes", minutes, ...rate, "--no-build", "--json", path.join(dir, "soak.json")], { stdio: ["ignore", out, out] });
  return new Promise((resolve) => {
    const done = (code) => {
      fs.closeSync(out);
      console.log(`\n--- npm run soak -- --minutes ${minutes} (beside the e2e stage; its figures as JSON in ${dir}/soak.json)`);
      try {
        process.stdout.write(fs.readFileSync(log, "utf8"));
      } catch (error) {
        console.log(`(its output could not be read: ${error.message})`);
      }
      recordStage({ name: `soak, ${minutes} min (beside e2e)`, seconds: seconds(started), ok: code === 0, part: true });
      resolve(code);
    };
    child.on("exit", (code, signal) => done(signal ? 1 : (code ?? 1)));
    child.on("error", () => done(1));
  });
}

const code = await main();
// Under .ci/run the table is printed once, at its end (after the hardening run).
if (!process.env.STAGE_TIMINGS_KEEP) printTimings();
process.exit(code);
