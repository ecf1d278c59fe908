import fs from "node:fs";
import path from "node:path";
import { displayReplica, listedFiles, RCLONE_DIR_NOT_FOUND, rcloneFailure, ReplicaError, runRclone } from "./rclone.server";
import { AREA_FILTERS, checkApart, dayFolder, dayFolderAge, localAreaFiles, replicaPath, RESTORE_MARKER } from "./replica.server";

/**
 * `npm run storage:replicate`: STORAGE_DIR's stored files to the replica with
 * `rclone sync`, what it would delete moved into deleted/<today>, and the day
 * folders older than the grace period pruned (layout: replica.server.ts).
 *
 * Stored files never change (each upload gets a fresh random name), so
 * `--size-only` is enough to tell a copied file, and saves reading every
 * object's modification time from an object store on each run: a second run
 * lists both sides and copies nothing.
 */

export type ReplicateOptions = {
  replica: string;
  storageDir: string;
  graceDays: number;
  /** Sync even when STORAGE_DIR has no stored file while the replica has some (everything goes to deleted/). */
  allowEmpty?: boolean;
  now?: Date;
};

export type ReplicateReport = {
  replica: string;
  /** Files copied to current/ by this run, and their bytes. */
  copied: number;
  copiedBytes: number;
  /** Files moved from current/ into deleted/<day>/ (deleted from STORAGE_DIR since the last run). */
  movedToDeleted: number;
  deletedFolder: string;
  /** rclone's own stats of the sync: transfers (server-side copies on an object store included) and checks. */
  transfers: number;
  checked: number;
  /** Stored files in STORAGE_DIR. */
  localFiles: number;
  /** Day folders removed (older than the grace period), and those kept. */
  pruned: string[];
  keptDays: string[];
  /** Folders under deleted/ that are not day folders: left alone. */
  strangers: string[];
  durationMs: number;
};

export async function replicateStorage(options: ReplicateOptions): Promise<ReplicateReport> {
  const started = Date.now();
  const now = options.now ?? new Date();
  const storageDir = path.resolve(options.storageDir);
  const { replica, graceDays } = options;
  const shown = displayReplica(replica);

  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(storageDir);
  } catch {
    stat = undefined;
  }
  if (!stat?.isDirectory()) {
    throw new ReplicaError(`STORAGE_DIR (${storageDir}) is not a folder: is the disk mounted? Nothing was synced`, "usage");
  }
  checkApart(replica, storageDir);
  const marker = path.join(storageDir, RESTORE_MARKER);
  if (fs.existsSync(marker)) {
    throw new ReplicaError(
      `a storage restore is under way or was interrupted (${marker}): nothing was synced. Finish \`npm run storage:restore\`, or remove that file if the folder is complete`,
      "refused",
    );
  }

  const current = replicaPath(replica, "current");
  const localFiles = localAreaFiles(storageDir).length;
  if (localFiles === 0 && !options.allowEmpty) {
    // An empty STORAGE_DIR is more often a disk that is not there than a firm without documents.
    const listing = await runRclone(["lsf", "-R", "--files-only", ...AREA_FILTERS, current], { verbose: false });
    if (listing.code !== 0 && listing.code !== RCLONE_DIR_NOT_FOUND) throw rcloneFailure(`listing ${shown}/current`, listing);
    const remote = listing.code === 0 ? listedFiles(listing).length : 0;
    if (remote > 0) {
      throw new ReplicaError(
        `STORAGE_DIR (${storageDir}) has no stored files but the replica has ${remote}: nothing was synced (a sync would move them all to deleted/). If every document really was deleted, run once with --allow-empty`,
        "refused",
      );
    }
  }

  const deletedFolder = `deleted/${dayFolder(now)}`;
  const sync = await runRclone(["sync", storageDir, current, ...AREA_FILTERS, "--backup-dir", replicaPath(replica, deletedFolder), "--size-only"]);
  if (sync.code !== 0) throw rcloneFailure(`rclone sync to ${shown}`, sync);

  const prune = await pruneDeleted(replica, graceDays, now);
  return {
    replica: shown,
    copied: sync.copied.length,
    copiedBytes: await copiedBytes(storageDir, sync.copied),
    movedToDeleted: sync.backedUp.length,
    deletedFolder,
    transfers: sync.stats?.transfers ?? 0,
    checked: sync.stats?.checks ?? 0,
    localFiles,
    ...prune,
    durationMs: Date.now() - started,
  };
}

/** The bytes of the copied files (rclone's byte count also counts server-side moves). */
async function copiedBytes(storageDir: string, copied: string[]): Promise<number> {
  let total = 0;
  for (const file of copied) total += await fs.promises.stat(path.join(storageDir, file)).then((s) => s.size, () => 0);
  return total;
}

/** Remove deleted/<day> folders more than `graceDays` days old; other names are left alone and reported. */
export async function pruneDeleted(replica: string, graceDays: number, now: Date) {
  const shown = displayReplica(replica);
  const deleted = replicaPath(replica, "deleted");
  const listing = await runRclone(["lsf", "--dirs-only", deleted], { verbose: false });
  if (listing.code === RCLONE_DIR_NOT_FOUND) return { pruned: [], keptDays: [], strangers: [] };
  if (listing.code !== 0) throw rcloneFailure(`listing ${shown}/deleted`, listing);
  const pruned: string[] = [];
  const keptDays: string[] = [];
  const strangers: string[] = [];
  const names = listing.stdout
    .split("\n")
    .filter((line) => line.endsWith("/"))
    .map((line) => line.slice(0, -1))
    .sort();
  for (const name of names) {
    const age = dayFolderAge(name, now);
    if (age === null) strangers.push(name);
    else if (age > graceDays) {
      const purge = await runRclone(["purge", replicaPath(deleted, name)], { verbose: false });
      if (purge.code !== 0) throw rcloneFailure(`pruning ${shown}/deleted/${name}`, purge);
      pruned.push(name);
    } else keptDays.push(name);
  }
  return { pruned, keptDays, strangers };
}
