import { spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Env } from "../config/env.server";

/**
 * The one place that knows how to run Litestream (v0.3.13, from @flydotio/litestream):
 * where its binary is, which config it reads, the environment that config expands,
 * and how to read its answers. Used by `npm run db:replicate`, the replica restore
 * (modules/backup/replica-restore.server.ts) and the drill. Decision 042.
 */

export class LitestreamError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LitestreamError";
  }
}

/** Is replication configured for this environment? */
export const replicationOn = (env: Env): boolean => Boolean(env.LITESTREAM_REPLICA_URL);

/**
 * The folder of the checkout (package.json and deploy/ beside each other), found
 * from this module's place: app/modules/replication/ from source, build/server/
 * or build/server/chunks/ compiled.
 */
export function appRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (fs.existsSync(path.join(dir, "package.json")) && fs.existsSync(path.join(dir, "deploy"))) return dir;
    dir = path.dirname(dir);
  }
  return process.cwd();
}

/**
 * The Litestream binary: LITESTREAM_BIN, else the platform package that
 * @flydotio/litestream installs (its own `litestream` wrapper script loses the
 * exit code, so it is not used).
 */
export function litestreamBinary(env: Pick<Env, "LITESTREAM_BIN">): string {
  if (env.LITESTREAM_BIN) {
    if (!isExecutable(env.LITESTREAM_BIN)) throw new LitestreamError(`LITESTREAM_BIN=${env.LITESTREAM_BIN} is not an executable file`);
    return env.LITESTREAM_BIN;
  }
  const pkg = `@flydotio/litestream-${process.platform}-${process.arch}`;
  let binary: string;
  try {
    binary = path.join(path.dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`)), "litestream");
  } catch {
    throw new LitestreamError(
      `the Litestream binary for ${process.platform}-${process.arch} is not installed (${pkg}, an optional dependency of @flydotio/litestream): run \`npm install\` on this machine, or set LITESTREAM_BIN to a litestream v0.3 binary`,
    );
  }
  if (!isExecutable(binary)) throw new LitestreamError(`${binary} is missing or not executable: reinstall with \`npm install\`, or set LITESTREAM_BIN`);
  return binary;
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The config template: LITESTREAM_CONFIG, else deploy/litestream.yml of the checkout. */
export function litestreamConfigPath(env: Pick<Env, "LITESTREAM_CONFIG">): string {
  const file = path.resolve(env.LITESTREAM_CONFIG ?? path.join(appRoot(), "deploy", "litestream.yml"));
  if (!fs.existsSync(file)) throw new LitestreamError(`the Litestream config ${file} does not exist (LITESTREAM_CONFIG)`);
  return file;
}

/**
 * The environment Litestream runs with: this process's (credentials such as
 * LITESTREAM_ACCESS_KEY_ID / LITESTREAM_SECRET_ACCESS_KEY pass through, never on a
 * command line) plus every variable deploy/litestream.yml expands, with the
 * validated values and their defaults, so the template never sees an unset one.
 */
export function litestreamEnv(env: Env, overrides: { databasePath?: string; replicaUrl?: string } = {}): NodeJS.ProcessEnv {
  const replicaUrl = overrides.replicaUrl ?? env.LITESTREAM_REPLICA_URL;
  if (!replicaUrl) {
    throw new LitestreamError(
      "LITESTREAM_REPLICA_URL is not set: name the replica, e.g. s3://bucket/lumen-ridge, sftp://user@host/lumen-ridge or file:///var/backups/lumen-ridge/replica (see docs/deploy.md, Continuous replication)",
    );
  }
  return {
    ...process.env,
    DATABASE_PATH: path.resolve(overrides.databasePath ?? env.DATABASE_PATH),
    LITESTREAM_REPLICA_URL: replicaUrl,
    LITESTREAM_METRICS_ADDR: env.LITESTREAM_METRICS_ADDR === "off" ? "" : env.LITESTREAM_METRICS_ADDR,
    LITESTREAM_SYNC_INTERVAL: env.LITESTREAM_SYNC_INTERVAL,
    LITESTREAM_MONITOR_INTERVAL: env.LITESTREAM_MONITOR_INTERVAL,
    LITESTREAM_SNAPSHOT_INTERVAL: env.LITESTREAM_SNAPSHOT_INTERVAL,
    LITESTREAM_RETENTION: env.LITESTREAM_RETENTION,
    LITESTREAM_ENDPOINT: env.LITESTREAM_ENDPOINT ?? "",
    LITESTREAM_REGION: env.LITESTREAM_REGION ?? "",
    LITESTREAM_SFTP_KEY_PATH: env.LITESTREAM_SFTP_KEY_PATH ?? "",
  };
}

/** A replica URL fit to print: the password (SFTP) and any query removed. */
export function redactUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.password) url.password = "***";
    url.search = "";
    return url.toString();
  } catch {
    return "(invalid URL)";
  }
}

export type LitestreamRun = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/** Run a Litestream command to its end and collect what it printed. */
export function runLitestream(binary: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 10 * 60_000): Promise<LitestreamRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new LitestreamError(`cannot run ${binary}: ${error.message}`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/**
 * The `error=` values of Litestream's ERROR log lines (slog text format), e.g.
 * `no matching backups found` or `cannot restore snapshot: lz4: bad magic number`.
 */
export function litestreamErrors(output: string): string[] {
  const errors: string[] = [];
  for (const line of output.split("\n")) {
    if (!/\blevel=ERROR\b/.test(line)) continue;
    const quoted = /\berror="((?:[^"\\]|\\.)*)"/.exec(line);
    const bare = /\berror=(\S+)/.exec(line);
    const raw = quoted ? quoted[1]!.replace(/\\n/g, " ").replace(/\\t/g, " ").replace(/\\(.)/g, "$1") : bare?.[1];
    const msg = /\bmsg="((?:[^"\\]|\\.)*)"/.exec(line)?.[1] ?? /\bmsg=(\S+)/.exec(line)?.[1] ?? "";
    if (raw) errors.push(msg && msg !== "failed to run" ? `${msg}: ${raw}` : raw);
    else if (msg) errors.push(msg);
  }
  return errors;
}

export type ReplicaSnapshot = { replica: string; generation: string; index: number; size: number; createdAt: Date };
export type ReplicaWalSegment = { replica: string; generation: string; index: number; offset: number; size: number; createdAt: Date };

/** The rows of `litestream snapshots` (replica, generation, index, size, created). */
export function parseSnapshots(stdout: string): ReplicaSnapshot[] {
  const rows: ReplicaSnapshot[] = [];
  for (const line of stdout.split("\n")) {
    const cells = line.trim().split(/\s+/);
    if (cells.length !== 5 || !/^[0-9a-f]{16}$/.test(cells[1]!)) continue;
    const createdAt = new Date(cells[4]!);
    if (Number.isNaN(createdAt.getTime())) continue;
    rows.push({ replica: cells[0]!, generation: cells[1]!, index: Number(cells[2]), size: Number(cells[3]), createdAt });
  }
  return rows;
}

/** The rows of `litestream wal` (replica, generation, index, offset, size, created). */
export function parseWalSegments(stdout: string): ReplicaWalSegment[] {
  const rows: ReplicaWalSegment[] = [];
  for (const line of stdout.split("\n")) {
    const cells = line.trim().split(/\s+/);
    if (cells.length !== 6 || !/^[0-9a-f]{16}$/.test(cells[1]!)) continue;
    const createdAt = new Date(cells[5]!);
    if (Number.isNaN(createdAt.getTime())) continue;
    rows.push({ replica: cells[0]!, generation: cells[1]!, index: Number(cells[2]), offset: Number(cells[3]), size: Number(cells[4]), createdAt });
  }
  return rows;
}
