import fs from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import Database from "better-sqlite3";
import type { Env } from "../config/env.server";
import {
  litestreamBinary,
  litestreamConfigPath,
  litestreamEnv,
  litestreamErrors,
  parseSnapshots,
  parseWalSegments,
  redactUrl,
  runLitestream,
} from "../replication/litestream.server";
import { backupTimestamp, BackupError, checkMigrations, databaseInUse, serverAnswers } from "./backup.server";

/**
 * Restore the database from its Litestream replica (`npm run db:restore --
 * --from-replica [--timestamp ISO]`, and the drill): the latest replicated state
 * or a point in time, restored by `litestream restore -o` into a fresh file in a
 * staging folder, checked (integrity_check, this checkout's migrations), and only
 * then switched into place. Any refusal or failure leaves the target as it was
 * and removes the staging folder: never a half-restored database. Decision 042.
 *
 * Only the database: the stored documents come back from their own replica
 * (storage:restore) or a db:backup folder.
 */

export type ReplicaTarget =
  /** Replace DATABASE_PATH (the server stopped; existing files moved aside only with force). */
  | { mode: "database"; force: boolean; server?: { host: string; port: number } }
  /** Into `<dir>/data.sqlite`; the folder must be empty or new (the drill's scratch folder). */
  | { mode: "folder"; dir: string };

export type ReplicaRestoreOptions = {
  env: Env;
  /** A point in time (the state the replica had received by then); absent: the latest. */
  timestamp?: Date;
  target: ReplicaTarget;
  now?: Date;
};

export type ReplicaRestoreReport = {
  /** Where the restored database now is. */
  databasePath: string;
  /** The replica URL, without a password. */
  replica: string;
  /** The point in time asked for (ISO), null for the latest. */
  timestamp: string | null;
  /** When a later time than the replica's last upload was asked for, what was restored instead. */
  note: string | null;
  /** The replica's first snapshot and last upload known to this restore (ISO). */
  replicaFrom: string;
  migrations: number;
  tables: Record<string, number>;
  movedAside: [string, string][];
  durationMs: number;
};

const FOLDER_DB_FILE = "data.sqlite";

/** Litestream's bookkeeping folder beside a database it replicates (its shadow WAL). */
const litestreamMetaDir = (databasePath: string) => path.join(path.dirname(databasePath), `.${path.basename(databasePath)}-litestream`);

export async function restoreFromReplica(options: ReplicaRestoreOptions): Promise<ReplicaRestoreReport> {
  const started = Date.now();
  const { env, target, timestamp } = options;
  const now = options.now ?? new Date();
  const stamp = backupTimestamp(now);
  const binary = litestreamBinary(env);
  const config = litestreamConfigPath(env);
  const childEnv = litestreamEnv(env);
  const replica = redactUrl(childEnv.LITESTREAM_REPLICA_URL!);
  const sourcePath = childEnv.DATABASE_PATH!; // the database the config names (its replica)

  if (timestamp && timestamp.getTime() > now.getTime() + 1_000) {
    throw new BackupError(`--timestamp ${timestamp.toISOString()} is in the future`, "out_of_range");
  }

  // ── the target: refuse before anything is read or written ──────────────────
  let finalPath: string;
  let createdDir: string | null = null;
  let existing: string[] = [];
  if (target.mode === "folder") {
    const dir = path.resolve(target.dir);
    if (fs.existsSync(dir)) {
      if (!fs.statSync(dir).isDirectory()) throw new BackupError(`${dir} is not a folder`, "exists");
      const entries = fs.readdirSync(dir);
      if (entries.length > 0) {
        throw new BackupError(`${dir} is not empty (${entries.slice(0, 3).join(", ")}${entries.length > 3 ? ", …" : ""}): restore into an empty or new folder`, "exists");
      }
    } else {
      createdDir = dir;
    }
    finalPath = path.join(dir, FOLDER_DB_FILE);
  } else {
    finalPath = sourcePath;
    if (target.server && (await serverAnswers(target.server.host, target.server.port))) {
      throw new BackupError(
        `something answers on http://${target.server.host}:${target.server.port}/healthz: the server seems to be running. Stop it first (systemctl stop lumen-ridge lumen-ridge-litestream)`,
        "in_use",
      );
    }
    if (databaseInUse(finalPath)) {
      throw new BackupError(
        `${finalPath} is open in another process (the server, or Litestream replicating it). Stop both first (systemctl stop lumen-ridge lumen-ridge-litestream)`,
        "in_use",
      );
    }
    existing = ["", "-wal", "-shm"].map((suffix) => finalPath + suffix).filter((p) => fs.existsSync(p));
    if (existing.length > 0 && !target.force) {
      throw new BackupError(
        `there is already a database at ${finalPath}. Re-run with --force to move it aside (to ${path.basename(finalPath)}.before-restore-${stamp}) and restore`,
        "exists",
      );
    }
  }

  // ── what the replica holds ───────────────────────────────────────────────────
  const listed = await runLitestream(binary, ["snapshots", "-config", config, sourcePath], childEnv);
  const listErrors = litestreamErrors(listed.stderr + listed.stdout);
  if (listed.code !== 0 || listErrors.length > 0) {
    throw new BackupError(`cannot read the replica ${replica}: ${listErrors.join("; ") || `litestream exited with ${listed.code ?? listed.signal}`}`, "not_found");
  }
  const snapshots = parseSnapshots(listed.stdout);
  if (snapshots.length === 0) {
    throw new BackupError(
      `no replica at ${replica}: it holds no snapshot of this database. Is LITESTREAM_REPLICA_URL right, and has npm run db:replicate run?`,
      "not_found",
    );
  }
  const firstSnapshot = new Date(Math.min(...snapshots.map((s) => s.createdAt.getTime())));
  const beforeFirst = () =>
    new BackupError(
      `--timestamp ${timestamp!.toISOString()} is before the replica's first snapshot (${firstSnapshot.toISOString()}): it cannot go back further (LITESTREAM_RETENTION)`,
      "out_of_range",
    );
  // Litestream prints whole seconds: a time earlier than the printed second is certainly before.
  if (timestamp && timestamp.getTime() < firstSnapshot.getTime()) throw beforeFirst();

  // ── restore into a staging folder beside the target (same disk: the switch is a rename) ──
  const staging = target.mode === "folder" ? path.join(path.dirname(finalPath), `.restoring-${stamp}`) : `${finalPath}.restoring-${stamp}`;
  const stagedFile = path.join(staging, FOLDER_DB_FILE);
  const cleanUp = async () => {
    await rm(staging, { recursive: true, force: true });
    if (createdDir) await rm(createdDir, { recursive: true, force: true });
  };
  let note: string | null = null;
  let migrations: number;
  let tables: Record<string, number>;
  try {
    await mkdir(staging, { recursive: true, mode: 0o700 });
    const restore = (at: Date | undefined) =>
      runLitestream(binary, ["restore", "-config", config, "-o", stagedFile, ...(at ? ["-timestamp", at.toISOString()] : []), sourcePath], childEnv);
    let run = await restore(timestamp);
    let errors = litestreamErrors(run.stderr + run.stdout);
    if (run.code !== 0 && timestamp && errors.some((e) => e.includes("no matching backups found"))) {
      // No generation holds that time. After the last upload: nothing changed since, so the latest state is the state then.
      const bounds = await generationBounds(binary, config, sourcePath, childEnv, snapshots);
      const lastUpload = new Date(Math.max(...bounds.map((b) => b.end.getTime())));
      // (Litestream prints whole seconds, and said no generation holds the time: at or after the last printed second is after.)
      if (timestamp.getTime() >= lastUpload.getTime()) {
        note = `the replica received nothing after ${lastUpload.toISOString()}: restored its latest state, which is the state at ${timestamp.toISOString()}`;
        await rm(staging, { recursive: true, force: true });
        await mkdir(staging, { recursive: true, mode: 0o700 });
        run = await restore(undefined);
        errors = litestreamErrors(run.stderr + run.stdout);
      } else if (timestamp.getTime() < Math.min(...bounds.map((b) => b.start.getTime()))) {
        throw beforeFirst();
      } else {
        const held = bounds.map((b) => `${b.start.toISOString()} … ${b.end.toISOString()}`).join(", ");
        throw new BackupError(`the replica holds no state at ${timestamp.toISOString()}; it covers ${held}`, "out_of_range");
      }
    }
    if (run.code !== 0 || !fs.existsSync(stagedFile)) {
      throw new BackupError(
        `the replica ${replica} could not be restored (damaged or incomplete?): ${errors.join("; ") || `litestream exited with ${run.code ?? run.signal}`}. Nothing was changed`,
        "invalid_backup",
      );
    }
    ({ migrations, tables } = verifyRestored(stagedFile, replica));
  } catch (error) {
    await cleanUp();
    throw error;
  }

  // ── switch ───────────────────────────────────────────────────────────────────
  const done: [string, string][] = [];
  const move = async (from: string, to: string) => {
    await rename(from, to);
    done.push([from, to]);
  };
  try {
    if (target.mode === "database") {
      for (const part of existing) await move(part, `${finalPath}.before-restore-${stamp}${part.slice(finalPath.length)}`);
      // Litestream's shadow WAL belongs to the database moved aside: it starts a new generation from the restored one.
      const meta = litestreamMetaDir(finalPath);
      if (fs.existsSync(meta)) await move(meta, `${meta}.before-restore-${stamp}`);
    }
    await move(stagedFile, finalPath);
  } catch (error) {
    for (const [from, to] of done.reverse()) await rename(to, from).catch(() => {});
    await cleanUp();
    throw new BackupError(`switching to the restored database failed (${(error as Error).message}); the previous state was put back`);
  }
  await rm(staging, { recursive: true, force: true });
  return {
    databasePath: finalPath,
    replica,
    timestamp: timestamp ? timestamp.toISOString() : null,
    note,
    replicaFrom: firstSnapshot.toISOString(),
    migrations,
    tables,
    movedAside: done.filter(([from]) => from !== stagedFile),
    durationMs: Date.now() - started,
  };
}

/** integrity_check, this checkout's migrations, and the rows per table of the restored file. */
function verifyRestored(file: string, replica: string): { migrations: number; tables: Record<string, number> } {
  let db: Database.Database;
  try {
    db = new Database(file, { fileMustExist: true });
  } catch (error) {
    throw new BackupError(`the file restored from ${replica} does not open as SQLite: ${(error as Error).message}`, "invalid_backup");
  }
  try {
    let integrity: { integrity_check: string }[];
    try {
      integrity = db.pragma("integrity_check") as { integrity_check: string }[];
    } catch (error) {
      throw new BackupError(`the database restored from ${replica} is damaged: ${(error as Error).message}. Nothing was changed`, "invalid_backup");
    }
    if (integrity.length !== 1 || integrity[0]?.integrity_check !== "ok") {
      throw new BackupError(
        `the database restored from ${replica} fails integrity_check: ${integrity.map((r) => r.integrity_check).slice(0, 3).join("; ")}. Nothing was changed`,
        "invalid_backup",
      );
    }
    const migrations = checkMigrations(db, `the database restored from ${replica}`);
    const names = (db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name").all() as { name: string }[]).map(
      (r) => r.name,
    );
    const tables: Record<string, number> = {};
    for (const name of names) tables[name] = (db.prepare(`select count(*) as n from "${name.replace(/"/g, '""')}"`).get() as { n: number }).n;
    return { migrations, tables };
  } finally {
    db.close();
  }
}

/** Each generation's first and last time on the replica (snapshots and WAL segments), as Litestream decides a restore target. */
async function generationBounds(
  binary: string,
  config: string,
  sourcePath: string,
  env: NodeJS.ProcessEnv,
  snapshots: ReturnType<typeof parseSnapshots>,
): Promise<{ generation: string; start: Date; end: Date }[]> {
  const listed = await runLitestream(binary, ["wal", "-config", config, sourcePath], env);
  const times = new Map<string, number[]>();
  const add = (generation: string, at: Date) => times.set(generation, [...(times.get(generation) ?? []), at.getTime()]);
  for (const s of snapshots) add(s.generation, s.createdAt);
  for (const w of parseWalSegments(listed.stdout)) add(w.generation, w.createdAt);
  return [...times].map(([generation, list]) => ({ generation, start: new Date(Math.min(...list)), end: new Date(Math.max(...list)) }));
}
