/**
 * `npm test`: every check a change must pass, in the order that fails fastest,
 * with a timing line per stage at the end (scripts/stages.mjs):
 *
 *   1. typecheck and lint, side by side (after React Router's type generation,
 *      which both read);
 *   2. Vitest (unit and integration) beside the production build;
 *   3. Playwright against that build (projects js, no-js and api in one run;
 *      a line per project: its tests and the time it kept the workers busy).
 *
 * Stops at the first stage that fails. Plain JavaScript: it runs before
 * anything is compiled. `npm run test:hardening` is separate (.ci/run runs it after).
 */
import fs from "node:fs";
import path from "node:path";
import { printTimings, recordStage, stage, TIMINGS_FILE } from "./stages.mjs";

const npx = (...args) => ["npx", args];
const seconds = (since) => Math.round((Date.now() - since) / 100) / 10;
const timingFile = path.resolve("test-results/e2e-timing.json");

async function main() {
  // .ci/run records its own stages (install, hardening) in the same file around this one.
  if (!process.env.STAGE_TIMINGS_KEEP) fs.rmSync(TIMINGS_FILE, { force: true });
  if ((await stage("typegen", ...npx("react-router", "typegen"))) !== 0) return 1;

  // tsc and ESLint each keep one core busy for about as long: side by side on two cores.
  const started = Date.now();
  const [typecheck, lint] = await Promise.all([
    stage("typecheck", ...npx("tsc"), { prefix: "tsc", part: true }),
    stage("lint", "npm", ["run", "--silent", "lint"], { prefix: "lint", part: true }),
  ]);
  recordStage({ name: "typecheck ∥ lint", seconds: seconds(started), ok: typecheck === 0 && lint === 0 });
  if (typecheck !== 0 || lint !== 0) return 1;

  // The build (one core for about 15 s) beside Vitest, which leaves some of its time idle (bcrypt on
  // libuv's threads, child processes): Playwright needs both.
  const besideStarted = Date.now();
  const [unit, build] = await Promise.all([
    stage("unit/integration (vitest)", ...npx("vitest", "run"), { part: true }),
    stage("build", "npm", ["run", "--silent", "build"], { prefix: "build", part: true }),
  ]);
  recordStage({ name: "vitest ∥ build", seconds: seconds(besideStarted), ok: unit === 0 && build === 0 });
  if (unit !== 0 || build !== 0) return 1;

  fs.rmSync(timingFile, { force: true });
  const e2e = await stage("e2e (playwright)", ...npx("playwright", "test"), { env: { ...process.env, E2E_TIMING_FILE: timingFile } });
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
  return e2e;
}

const code = await main();
// Under .ci/run the table is printed once, at its end (after the hardening run).
if (!process.env.STAGE_TIMINGS_KEEP) printTimings();
process.exit(code);
