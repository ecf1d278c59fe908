/**
 * The operational scripts' runner: `npm run admin:create | admin:reset-2fa | admin:reseal-2fa | db:backup | db:restore |
 * db:replicate | storage:replicate | storage:restore | drill | db:seed`
 * call `node scripts/run.mjs <name> [args]`, which runs scripts/<name>.ts.
 *
 * - Where the dev dependencies are installed (a checkout), from source with tsx: always
 *   the code in front of you, no build needed.
 * - On a server installed with `npm install --omit=dev` (no tsx), the compiled copy that
 *   `npm run build` writes next to the server, BUILD_DIR/server/<name>.js (default
 *   build/), with plain node. `node build/server/<name>.js [args]` is the same.
 *
 * Plain JavaScript on purpose: it must run before anything is compiled or installed.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const SCRIPTS = ["admin-create", "admin-reset-2fa", "admin-reseal-2fa", "db-backup", "db-restore", "db-replicate", "storage-replicate", "storage-restore", "drill", "seed"];
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const [name, ...args] = process.argv.slice(2);
if (!name || !SCRIPTS.includes(name)) {
  console.error(`Usage: node scripts/run.mjs <${SCRIPTS.join("|")}> [arguments]`);
  process.exit(2);
}

function hasTsx() {
  try {
    import.meta.resolve("tsx");
    return true;
  } catch {
    return false;
  }
}

let command;
if (hasTsx()) {
  command = ["--import", "tsx", path.join(root, "scripts", `${name}.ts`)];
} else {
  const compiled = path.resolve(root, process.env.BUILD_DIR ?? "build", "server", `${name}.js`);
  if (!fs.existsSync(compiled)) {
    console.error(`${compiled} does not exist: run \`npm run build\` first (tsx, for running from source, is not installed).`);
    process.exit(2);
  }
  command = [compiled];
}

const child = spawn(process.execPath, [...command, ...args], { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
