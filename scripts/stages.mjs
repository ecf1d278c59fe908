/**
 * Stages with a timing line each: `npm test` (scripts/test.mjs) and `.ci/run`
 * record every stage's wall time in one file, and the last step prints the
 * table, so a slow stage shows at a glance (DESIGN.md §6: `.ci/run` ≤ 12 minutes).
 *
 *   node scripts/stages.mjs run <name> -- <command> [args…]   run and record one stage
 *   node scripts/stages.mjs print                             print the table of the file
 *
 * The file is $STAGE_TIMINGS (default .stage-timings.json, outside test-results/,
 * which Playwright empties when it starts). Plain
 * JavaScript on purpose: it runs before anything is installed or compiled.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export const TIMINGS_FILE = path.resolve(process.env.STAGE_TIMINGS ?? ".stage-timings.json");

export function readTimings() {
  try {
    return JSON.parse(fs.readFileSync(TIMINGS_FILE, "utf8"));
  } catch {
    return [];
  }
}

/** Append one stage's line: name, seconds, ok, and an optional note (e.g. test counts). */
export function recordStage(stage) {
  const all = readTimings().filter((s) => s.name !== stage.name);
  all.push(stage);
  fs.mkdirSync(path.dirname(TIMINGS_FILE), { recursive: true });
  fs.writeFileSync(TIMINGS_FILE, JSON.stringify(all, null, 2));
}

/** Run a command with inherited output; resolves to its exit code. */
export function runCommand(command, args, { env = process.env, prefix } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: prefix ? ["ignore", "pipe", "pipe"] : "inherit" });
    if (prefix) {
      // Two stages side by side: each line says whose it is.
      for (const stream of [child.stdout, child.stderr]) {
        let rest = "";
        stream.on("data", (chunk) => {
          const lines = (rest + chunk.toString("utf8")).split("\n");
          rest = lines.pop() ?? "";
          for (const line of lines) process.stdout.write(`[${prefix}] ${line}\n`);
        });
        stream.on("end", () => {
          if (rest) process.stdout.write(`[${prefix}] ${rest}\n`);
        });
      }
    }
    child.on("exit", (code, signal) => resolve(signal ? 1 : (code ?? 1)));
    child.on("error", () => resolve(1));
  });
}

/** Run and record one stage; resolves to its exit code. */
export async function stage(name, command, args, options = {}) {
  const started = Date.now();
  const code = await runCommand(command, args, options);
  recordStage({ name, seconds: Math.round((Date.now() - started) / 100) / 10, ok: code === 0, ...(options.part ? { part: true } : {}), ...(options.note ? { note: options.note() } : {}) });
  return code;
}

export function printTimings() {
  // Stages run side by side are recorded as they end, their wall line ("a ∥ b") after them: print it first.
  const all = [];
  let parts = [];
  for (const s of readTimings()) {
    if (s.part) parts.push(s);
    else if (s.name.includes("∥")) {
      all.push(s, ...parts);
      parts = [];
    } else {
      all.push(...parts, s);
      parts = [];
    }
  }
  all.push(...parts);
  if (all.length === 0) return;
  const width = Math.max(...all.map((s) => s.name.length), 5);
  const total = all.filter((s) => !s.part).reduce((sum, s) => sum + s.seconds, 0);
  console.log("\n--- timing per stage");
  for (const s of all) {
    const time = `${s.seconds.toFixed(1).padStart(7)} s`;
    console.log(`${s.part ? "  " : ""}${s.name.padEnd(width + (s.part ? 0 : 2))} ${time}  ${s.ok ? "ok  " : "FAIL"}${s.note ? `  ${s.note}` : ""}`);
  }
  console.log(`${"total".padEnd(width + 2)} ${total.toFixed(1).padStart(7)} s  (${Math.floor(total / 60)} min ${Math.round(total % 60)} s)`);
}

const [verb, name, separator, command, ...args] = process.argv.slice(2);
if (import.meta.url === `file://${process.argv[1]}`) {
  if (verb === "print") {
    printTimings();
  } else if (verb === "record" && name) {
    // record <name> <seconds> <ok|fail> [part]: a stage timed by the caller (.ci/run's install); `part`
    // for one of stages that ran side by side (indented, not added to the total: their wall line is).
    recordStage({ name, seconds: Number(separator), ok: command === "ok", ...(args[0] === "part" ? { part: true } : {}) });
  } else if (verb === "reset") {
    fs.rmSync(TIMINGS_FILE, { force: true });
  } else if (verb === "run" && name && separator === "--" && command) {
    process.exit(await stage(name, command, args));
  } else {
    console.error("usage: node scripts/stages.mjs run <name> -- <command> [args…] | record <name> <seconds> <ok|fail> [part] | print | reset");
    process.exit(2);
  }
}
