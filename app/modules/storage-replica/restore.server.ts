import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isNotNull } from "drizzle-orm";
import { documents, fundDocuments, pitchSubmissions } from "../../../db/schema";
import { backupTimestamp, databaseInUse, serverAnswers } from "../backup/backup.server";
import { getEnv } from "../config/env.server";
import { closeDb, getDb } from "../db/connection.server";
import { reconcileStorage } from "../storage/reconcile.server";
import { STORED_PATH } from "../storage/storage.server";
import { displayReplica, listedFiles, RCLONE_DIR_NOT_FOUND, rcloneFailure, ReplicaError, runRclone } from "./rclone.server";
import { AREA_FILTERS, checkApart, localAreaFiles, replicaPath, RESTORE_MARKER } from "./replica.server";

/**
 * `npm run storage:restore`: the replica's current/ back into STORAGE_DIR (the
 * process's environment, as the server's start-up reads it), checked with
 * `rclone check`, then the start-up reconcile against DATABASE_PATH. A row whose
 * file current/ lacks (a database restored to a point before a deletion) gets
 * it from the newest deleted/<day>/ that holds it; rows still without a file
 * are reported.
 *
 * Refuses while the server runs, and a STORAGE_DIR that already holds stored
 * files unless `force` (then files the copy would replace go to
 * `<STORAGE_DIR>.before-restore-<timestamp>/`; nothing is deleted by the copy).
 */

export type RestoreStorageOptions = { replica: string; force: boolean; now?: Date };

export type RestoreStorageReport = {
  replica: string;
  storageDir: string;
  /** Files in the replica's current/. */
  replicaFiles: number;
  /** Files copied into STORAGE_DIR (the others were there already), and their bytes. */
  restored: number;
  restoredBytes: number;
  /** Files the copy replaced (with force), kept in `movedAsideTo`. */
  replaced: number;
  movedAsideTo: string | null;
  /** Files `rclone check` found identical in STORAGE_DIR and current/. */
  verified: number;
  /** Files taken from deleted/<day>/ for rows current/ had no file for. */
  recovered: { path: string; day: string }[];
  /** null when there is no database at DATABASE_PATH yet (the server's start-up reconciles then). */
  reconcile: { orphanFilesRemoved: number; rowsWithoutFile: string[] } | null;
  durationMs: number;
};

export async function restoreStorage(options: RestoreStorageOptions): Promise<RestoreStorageReport> {
  const started = Date.now();
  const env = getEnv();
  const storageDir = env.STORAGE_DIR;
  const { replica } = options;
  const shown = displayReplica(replica);
  checkApart(replica, storageDir);

  // ── refusals, before anything is written ────────────────────────────────
  if (fs.existsSync(storageDir) && !fs.statSync(storageDir).isDirectory()) {
    throw new ReplicaError(`STORAGE_DIR (${storageDir}) is not a folder`, "usage");
  }
  if (await serverAnswers(env.HOST, env.PORT)) {
    throw new ReplicaError(
      `something answers on http://${env.HOST}:${env.PORT}/healthz: the server seems to be running. Stop it first (systemctl stop lumen-ridge)`,
      "refused",
    );
  }
  if (databaseInUse(env.DATABASE_PATH)) {
    throw new ReplicaError(`${env.DATABASE_PATH} is open in another process (the server?). Stop it first (systemctl stop lumen-ridge)`, "refused");
  }
  const current = replicaPath(replica, "current");
  const listing = await runRclone(["lsf", "-R", "--files-only", ...AREA_FILTERS, current], { verbose: false });
  if (listing.code === RCLONE_DIR_NOT_FOUND) {
    throw new ReplicaError(`no replica at ${shown}: ${shown === replica ? current : "its current/"} does not exist. Check STORAGE_REPLICA (or --from) and RCLONE_CONFIG`, "usage");
  }
  if (listing.code !== 0) throw rcloneFailure(`listing ${shown}/current`, listing);
  const replicaFiles = listedFiles(listing).length;
  const present = localAreaFiles(storageDir);
  if (present.length > 0 && !options.force) {
    throw new ReplicaError(
      `STORAGE_DIR (${storageDir}) already holds ${present.length} stored file(s). Re-run with --force to copy the replica over them (files it replaces are moved to ${storageDir}.before-restore-<timestamp>/)`,
      "refused",
    );
  }

  // ── copy, marked as under way so storage:replicate keeps off ──────────────
  const marker = path.join(storageDir, RESTORE_MARKER);
  try {
    fs.mkdirSync(storageDir, { recursive: true, mode: 0o750 });
    fs.writeFileSync(marker, `${JSON.stringify({ pid: process.pid, started: new Date(started).toISOString(), replica: shown })}\n`);
  } catch (error) {
    throw new ReplicaError(`cannot write to STORAGE_DIR (${storageDir}): ${(error as Error).message}`, "usage");
  }
  const interrupted = (error: ReplicaError) =>
    new ReplicaError(`${error.message}\n${marker} stays until a restore completes: storage:replicate will not run meanwhile`, error.code);
  const movedAside = `${storageDir}.before-restore-${backupTimestamp(options.now ?? new Date())}`;
  const copy = await runRclone(["copy", current, storageDir, ...AREA_FILTERS, ...(options.force ? ["--backup-dir", movedAside] : [])]);
  if (copy.code !== 0) throw interrupted(rcloneFailure(`copying ${shown}/current into ${storageDir}`, copy));
  const check = await runRclone(["check", current, storageDir, "--one-way", ...AREA_FILTERS]);
  if (check.code !== 0) throw interrupted(rcloneFailure(`rclone check of ${storageDir} against ${shown}/current`, check));

  let restoredBytes = 0;
  for (const file of copy.copied) restoredBytes += fs.statSync(path.join(storageDir, file)).size;
  // rclone logs a replaced file's move into --backup-dir as a plain move: count what is there.
  const replaced = localAreaFiles(movedAside).length;

  // ── the database's view: recover from deleted/, then the start-up reconcile ──
  let recovered: RestoreStorageReport["recovered"] = [];
  let reconcile: RestoreStorageReport["reconcile"] = null;
  if (fs.existsSync(env.DATABASE_PATH)) {
    try {
      const onDisk = new Set(localAreaFiles(storageDir));
      const missing = referencedPaths().filter((p) => !onDisk.has(p));
      if (missing.length > 0) recovered = await recoverFromDeleted(replica, storageDir, missing).catch((error: unknown) => {
        throw error instanceof ReplicaError ? interrupted(error) : error;
      });
      reconcile = await reconcileStorage();
    } finally {
      closeDb();
    }
  }
  fs.rmSync(marker, { force: true });
  return {
    replica: shown,
    storageDir,
    replicaFiles,
    restored: copy.copied.length,
    restoredBytes,
    replaced,
    movedAsideTo: replaced > 0 ? movedAside : null,
    verified: check.stats?.checks ?? replicaFiles,
    recovered,
    reconcile,
    durationMs: Date.now() - started,
  };
}

/** Every stored path the database names (the tables reconcileStorage reads). */
function referencedPaths(): string[] {
  const db = getDb();
  const paths = [
    ...db.select({ p: documents.filePath }).from(documents).all(),
    ...db.select({ p: fundDocuments.filePath }).from(fundDocuments).all(),
    ...db.select({ p: pitchSubmissions.deckPath }).from(pitchSubmissions).where(isNotNull(pitchSubmissions.deckPath)).all(),
  ].map((row) => row.p ?? "");
  return [...new Set(paths.filter((p) => STORED_PATH.test(p)))];
}

/** Copy `missing` paths back from the newest deleted/<day>/ holding each; returns what was found. */
async function recoverFromDeleted(replica: string, storageDir: string, missing: string[]): Promise<RestoreStorageReport["recovered"]> {
  const deleted = replicaPath(replica, "deleted");
  const listing = await runRclone(["lsf", "-R", "--files-only", deleted], { verbose: false });
  if (listing.code === RCLONE_DIR_NOT_FOUND) return [];
  if (listing.code !== 0) throw rcloneFailure(`listing ${displayReplica(replica)}/deleted`, listing);
  const wanted = new Set(missing);
  const newest = new Map<string, string>();
  for (const line of listedFiles(listing)) {
    const slash = line.indexOf("/");
    const day = line.slice(0, slash);
    const stored = line.slice(slash + 1);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || !wanted.has(stored)) continue;
    if ((newest.get(stored) ?? "") < day) newest.set(stored, day);
  }
  const byDay = new Map<string, string[]>();
  for (const [stored, day] of newest) byDay.set(day, [...(byDay.get(day) ?? []), stored]);
  const recovered: RestoreStorageReport["recovered"] = [];
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "storage-restore-"));
  try {
    for (const [day, files] of byDay) {
      const list = path.join(scratch, `${day}.txt`);
      fs.writeFileSync(list, `${files.join("\n")}\n`);
      const copy = await runRclone(["copy", replicaPath(deleted, day), storageDir, "--files-from-raw", list]);
      if (copy.code !== 0) throw rcloneFailure(`copying from ${displayReplica(replica)}/deleted/${day}`, copy);
      for (const file of files) recovered.push({ path: file, day });
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return recovered.sort((a, b) => a.path.localeCompare(b.path));
}
