import { spawn } from "node:child_process";
import fs from "node:fs";
import { LitestreamError, litestreamBinary, litestreamConfigPath, litestreamEnv, redactUrl } from "../app/modules/replication/litestream.server";
import { metricsUrl } from "../app/modules/replication/status.server";
import { scriptCli, scriptFail, type Fail } from "./lib/cli";

/**
 * npm run db:replicate
 *
 * Continuous replication of DATABASE_PATH to LITESTREAM_REPLICA_URL with
 * Litestream (`litestream replicate -config deploy/litestream.yml`), in the
 * foreground: its log on stderr, SIGINT/SIGTERM passed on (Litestream finishes
 * its current upload and exits), its exit code returned. The environment is the
 * server's (/etc/lumen-ridge.env or .env), validated first; the config template
 * gets every variable it expands from here. deploy/lumen-ridge-litestream.service
 * runs the compiled copy beside the app. See docs/deploy.md, decision 042.
 *
 * Exit codes: Litestream's (0 after a signal), 2 bad arguments or environment.
 */
const usage = "Usage: npm run db:replicate   (LITESTREAM_REPLICA_URL and the other LITESTREAM_* variables: see docs/deploy.md)";
const fail: Fail = scriptFail("db:replicate", { json: false });
const { env: loadEnv } = scriptCli(fail, usage, {});

const env = loadEnv();

let binary: string;
let config: string;
let childEnv: NodeJS.ProcessEnv;
try {
  binary = litestreamBinary(env);
  config = litestreamConfigPath(env);
  childEnv = litestreamEnv(env);
} catch (error) {
  if (error instanceof LitestreamError) fail(2, error.message);
  throw error;
}

const metrics = metricsUrl(env);
console.error(
  `db:replicate: ${env.DATABASE_PATH} -> ${redactUrl(childEnv.LITESTREAM_REPLICA_URL!)} (sync every ${env.LITESTREAM_SYNC_INTERVAL}, snapshot every ${env.LITESTREAM_SNAPSHOT_INTERVAL}, kept ${env.LITESTREAM_RETENTION})${metrics ? `; metrics ${metrics}` : ""}`,
);
if (!fs.existsSync(env.DATABASE_PATH)) {
  console.error(`db:replicate: ${env.DATABASE_PATH} does not exist yet: Litestream starts replicating once the server has created it.`);
}

const child = spawn(binary, ["replicate", "-config", config], { env: childEnv, stdio: "inherit" });
let stopping: NodeJS.Signals | null = null;
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    stopping = signal;
    child.kill(signal);
  });
}
child.on("error", (error) => fail(1, `cannot run ${binary}: ${error.message}`));
child.on("exit", (code, signal) => {
  if (stopping) process.exit(code ?? 0);
  if (signal) fail(1, `litestream was killed (${signal})`);
  process.exit(code ?? 1);
});
