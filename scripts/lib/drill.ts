import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { listBackups, restoreBackup } from "../../app/modules/backup/backup.server";
import { restoreFromReplica } from "../../app/modules/backup/replica-restore.server";
import type { Env } from "../../app/modules/config/env.server";
import { appRoot } from "../../app/modules/replication/litestream.server";

/**
 * The restore drill (`npm run drill`, docs/deploy.md "The restore drill"): restore
 * into a scratch folder, start the compiled app on it on a port of its own, check
 * /readyz, count the rows of the main tables, stop the app. Shared by
 * scripts/drill.ts and the hardening run's replication section.
 *
 * The drill's server is walled off from the real one: its own folder and port,
 * no SMTP_URL (mail waiting in the restored outbox is only logged, never sent),
 * no replication, and the .env file cannot fill those in (they are set, empty).
 */

/** The tables whose rows the drill prints (those this version has). */
export const MAIN_TABLES = [
  "lp_users",
  "sessions",
  "documents",
  "fund_documents",
  "pitch_submissions",
  "newsletter_subscribers",
  "entities",
  "commitments",
  "ledger_entries",
  "statements",
  "email_outbox",
  "audit_events",
] as const;

export type DrillSource = { kind: "replica"; timestamp?: Date } | { kind: "backup"; dir: string };

export type DrillOptions = {
  env: Env;
  source: DrillSource;
  /** The scratch folder (empty or new); default a fresh one under the system's temporary folder, removed at the end. */
  scratch?: string;
  /** Keep the scratch folder afterwards (always kept when given). */
  keep?: boolean;
  /** The drill server's port; default a free one. */
  port?: number;
  /** The build whose server/index.js runs (default BUILD_DIR, else build/). */
  buildDir?: string;
  /** How long the server may take to be ready. */
  readyTimeoutMs?: number;
  progress?: (line: string) => void;
};

export type DrillReport = {
  ok: boolean;
  source: string;
  scratch: string;
  kept: boolean;
  port: number;
  restore_ms: number;
  start_ms: number;
  total_ms: number;
  readyz: { status: number; body: unknown } | null;
  /** Rows per main table (null: the table does not exist in this version). */
  tables: Record<string, number | null>;
  /** Rows in every table but the bookkeeping ones (migrations, Litestream's). */
  rows: number;
  migrations: number;
  note: string | null;
  failures: string[];
};

export class DrillError extends Error {
  constructor(
    message: string,
    /** 2: bad input or environment; 3: the restore refused. */
    public readonly exitCode: 2 | 3,
  ) {
    super(message);
    this.name = "DrillError";
  }
}

export async function runDrill(options: DrillOptions): Promise<DrillReport> {
  const started = Date.now();
  const progress = options.progress ?? (() => {});
  const root = appRoot();
  const buildDir = path.resolve(root, options.buildDir ?? process.env.BUILD_DIR ?? "build");
  const serverEntry = path.join(buildDir, "server", "index.js");
  if (!fs.existsSync(serverEntry)) throw new DrillError(`${serverEntry} does not exist: run \`npm run build\` first (the drill starts the compiled app)`, 2);

  let scratch: string;
  const ownScratch = !options.scratch;
  if (options.scratch) {
    scratch = path.resolve(options.scratch);
    if (fs.existsSync(scratch) && fs.readdirSync(scratch).length > 0) throw new DrillError(`${scratch} is not empty: give the drill an empty or new folder`, 3);
  } else {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "lumen-ridge-drill-"));
  }
  const keep = Boolean(options.keep) || !ownScratch;
  const databasePath = path.join(scratch, "data.sqlite");
  const storageDir = path.join(scratch, "uploads");
  const failures: string[] = [];
  const report: DrillReport = {
    ok: false,
    source: options.source.kind === "replica" ? "replica" : `backup ${path.resolve(options.source.dir)}`,
    scratch,
    kept: keep,
    port: 0,
    restore_ms: 0,
    start_ms: 0,
    total_ms: 0,
    readyz: null,
    tables: {},
    rows: 0,
    migrations: 0,
    note: null,
    failures,
  };

  let server: ChildProcess | null = null;
  const logTail: string[] = [];
  try {
    // 1. restore into the scratch folder
    const t0 = Date.now();
    progress(`restoring from the ${report.source} into ${scratch}`);
    try {
      if (options.source.kind === "replica") {
        const restored = await restoreFromReplica({ env: options.env, timestamp: options.source.timestamp, target: { mode: "folder", dir: scratch } });
        report.note = restored.note;
        report.source = `replica ${restored.replica}${restored.timestamp ? ` at ${restored.timestamp}` : ""}`;
      } else {
        const from = await backupFolder(options.source.dir);
        report.source = `backup ${from}`;
        await restoreBackup({ from, databasePath, storageDir, force: false });
      }
    } catch (error) {
      if (ownScratch) fs.rmSync(scratch, { recursive: true, force: true });
      throw error;
    }
    fs.mkdirSync(storageDir, { recursive: true });
    report.restore_ms = Date.now() - t0;

    // 2. start the compiled app on it
    const port = options.port ?? (await freePort());
    report.port = port;
    const t1 = Date.now();
    progress(`starting ${path.relative(root, serverEntry)} on port ${port}`);
    server = spawn(process.execPath, [serverEntry], {
      cwd: root,
      env: drillServerEnv(options.env, { port, databasePath, storageDir, buildDir }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const keepTail = (chunk: Buffer) => {
      for (const line of chunk.toString("utf8").split("\n")) if (line.trim()) logTail.push(line);
      logTail.splice(0, Math.max(0, logTail.length - 20));
    };
    server.stdout!.on("data", keepTail);
    server.stderr!.on("data", keepTail);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      server!.on("exit", (code, signal) => resolve({ code, signal })),
    );

    // 3. /readyz
    const deadline = Date.now() + (options.readyTimeoutMs ?? 20_000);
    let ready: { status: number; body: unknown } | null = null;
    while (Date.now() < deadline && server.exitCode === null && server.signalCode === null) {
      ready = await getJson(port, "/readyz").catch(() => null);
      if (ready?.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    report.readyz = ready;
    report.start_ms = Date.now() - t1;
    if (ready?.status !== 200) {
      failures.push(
        server.exitCode !== null || server.signalCode !== null
          ? `the app exited (${server.exitCode ?? server.signalCode}) before /readyz answered: ${logTail.slice(-5).join(" | ")}`
          : `/readyz did not answer 200 within ${options.readyTimeoutMs ?? 20_000} ms (last: ${ready ? `${ready.status} ${JSON.stringify(ready.body)}` : "no answer"})`,
      );
    }

    // 4. count the rows (the app has the file open: a second connection reads beside it)
    if (failures.length === 0) {
      const counted = countRows(databasePath);
      report.tables = counted.tables;
      report.rows = counted.rows;
      report.migrations = counted.migrations;
      if (counted.migrations === 0) failures.push("the restored database has no migrations recorded");
    }

    // 5. stop it
    if (server.exitCode === null && server.signalCode === null) {
      server.kill("SIGTERM");
      const timer = setTimeout(() => server?.kill("SIGKILL"), 15_000);
      const exit = await exited;
      clearTimeout(timer);
      if (failures.length === 0 && exit.code !== 0) failures.push(`the app did not stop cleanly on SIGTERM (exit ${exit.code ?? exit.signal})`);
    }
    server = null;
  } finally {
    if (server && server.exitCode === null) server.kill("SIGKILL");
    if (!keep && fs.existsSync(scratch)) fs.rmSync(scratch, { recursive: true, force: true });
  }
  report.ok = failures.length === 0;
  report.total_ms = Date.now() - started;
  return report;
}

/** A backup folder, or the newest complete backup in a folder of them (BACKUP_DIR). */
async function backupFolder(dir: string): Promise<string> {
  const resolved = path.resolve(dir);
  if (fs.existsSync(path.join(resolved, "manifest.json"))) return resolved;
  const names = await listBackups(resolved);
  if (names.length === 0) throw new DrillError(`${resolved} is neither a db:backup folder nor a folder holding one`, 3);
  return path.join(resolved, names[names.length - 1]!);
}

/** The drill server's environment: nothing that reaches out of the scratch folder. */
function drillServerEnv(env: Env, where: { port: number; databasePath: string; storageDir: string; buildDir: string }): NodeJS.ProcessEnv {
  const pass = ["PATH", "HOME", "LANG", "TZ", "NODE_OPTIONS"].filter((k) => process.env[k] !== undefined);
  return {
    ...Object.fromEntries(pass.map((k) => [k, process.env[k]])),
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(where.port),
    APP_URL: `http://localhost:${where.port}`,
    DATABASE_PATH: where.databasePath,
    STORAGE_DIR: where.storageDir,
    BUILD_DIR: where.buildDir,
    // The production keys, so sealed two-factor secrets open as on the real server (nothing is sent).
    SESSION_SECRET: env.SESSION_SECRET.length >= 32 ? env.SESSION_SECRET : randomBytes(32).toString("hex"),
    TOTP_KEYS: env.TOTP_KEYS.join(","),
    LOG_LEVEL: "info",
    // Set and empty, so a .env in the checkout cannot fill them in: no mail leaves, nothing replicates.
    SMTP_URL: "",
    LITESTREAM_REPLICA_URL: "",
    TRUST_PROXY: "",
    TEST_BCRYPT_COST: "",
  };
}

function countRows(file: string): { tables: Record<string, number | null>; rows: number; migrations: number } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const names = new Set(
      (db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'").all() as { name: string }[]).map((r) => r.name),
    );
    const count = (name: string) => (db.prepare(`select count(*) as n from "${name.replace(/"/g, '""')}"`).get() as { n: number }).n;
    const tables: Record<string, number | null> = {};
    for (const name of MAIN_TABLES) tables[name] = names.has(name) ? count(name) : null;
    let rows = 0;
    for (const name of names) if (name !== "__drizzle_migrations" && !name.startsWith("_litestream_")) rows += count(name);
    return { tables, rows, migrations: names.has("__drizzle_migrations") ? count("__drizzle_migrations") : 0 };
  } finally {
    db.close();
  }
}

function getJson(port: number, pathname: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path: pathname, timeout: 2_000 }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
      res.on("end", () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON: keep the text */
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", reject);
  });
}

/** A port nothing listens on now (the system picks it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
