import { EnvError } from "../app/modules/config/env.server";
import { ReplicaError } from "../app/modules/storage-replica/rclone.server";
import { replicaSettings } from "../app/modules/storage-replica/replica.server";
import { restoreStorage } from "../app/modules/storage-replica/restore.server";
import { scriptCli, scriptFail, type Fail } from "./lib/cli";

/**
 * npm run storage:restore [-- --from REPLICA] [--force]
 *
 * Copies the replica's stored files (current/) back into STORAGE_DIR, checks
 * them with `rclone check`, then runs the server's start-up reconcile against
 * DATABASE_PATH: a document whose file current/ lacks is taken from the newest
 * deleted/<day>/ that holds it (a database restored to a point before the
 * deletion), files no row names are removed, and rows still without a file are
 * listed. Restore the database first when both are lost.
 *
 * Stop the server first (it is refused while /healthz answers or the database
 * is open). A STORAGE_DIR that already holds stored files is refused unless
 * --force: the copy then adds what is missing and moves any file it replaces to
 * <STORAGE_DIR>.before-restore-<timestamp>/.
 *
 * REPLICA: --from, else STORAGE_REPLICA. Prints what it did and one JSON line.
 * Exit codes: 0 done, 1 failed (rclone or the disk), 2 bad arguments or settings
 * (no replica there, STORAGE_DIR not a writable folder), 3 refused (the server
 * runs, or STORAGE_DIR is not empty without --force), 4 restored, but some
 * documents still have no file (listed).
 */
const usage = "Usage: npm run storage:restore [-- --from REPLICA] [--force]";
const fail: Fail = scriptFail("storage:restore");
const { values } = scriptCli(fail, usage, { from: { type: "string" }, force: { type: "boolean", default: false } });

const EXIT = { usage: 2, refused: 3, failed: 1 } as const;
try {
  const { replica } = replicaSettings({ replica: values.from });
  const report = await restoreStorage({ replica, force: values.force });
  const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1);
  console.error(`Restored ${report.restored} of ${report.replicaFiles} file(s) (${mb(report.restoredBytes)} MB) from ${report.replica}/current into ${report.storageDir}.`);
  console.error(`Checked ${report.verified} file(s) against the replica (rclone check): identical.`);
  if (report.replaced > 0) console.error(`Replaced ${report.replaced} file(s); the previous copies are in ${report.movedAsideTo}.`);
  for (const r of report.recovered) console.error(`Recovered ${r.path} from deleted/${r.day}/ (its document is in the database).`);
  const missing = report.reconcile?.rowsWithoutFile ?? [];
  if (!report.reconcile) {
    console.error("No database at DATABASE_PATH yet: the reconcile runs when the server starts (restore the database, then start it).");
  } else {
    if (report.reconcile.orphanFilesRemoved > 0) {
      console.error(`Removed ${report.reconcile.orphanFilesRemoved} file(s) no document names (newer than the database; the replica keeps them).`);
    }
    if (missing.length > 0) {
      console.error(`${missing.length} document(s) still have no file (neither current/ nor deleted/ holds it): ${missing.slice(0, 50).join(", ")}${missing.length > 50 ? ", …" : ""}`);
    } else console.error("Every document in the database has its file.");
  }
  console.log(
    JSON.stringify({
      ok: missing.length === 0,
      replica: report.replica,
      storage: report.storageDir,
      replica_files: report.replicaFiles,
      restored: report.restored,
      restored_bytes: report.restoredBytes,
      verified: report.verified,
      replaced: report.replaced,
      moved_aside: report.movedAsideTo,
      recovered_from_deleted: report.recovered.length,
      reconciled: report.reconcile !== null,
      orphan_files_removed: report.reconcile?.orphanFilesRemoved ?? 0,
      rows_without_file: missing,
      duration_ms: report.durationMs,
    }),
  );
  process.exit(missing.length > 0 ? 4 : 0);
} catch (error) {
  if (error instanceof EnvError) fail(2, error.message);
  if (error instanceof ReplicaError) fail(EXIT[error.code], error.message);
  fail(1, `failed: ${(error as Error).message}`);
}
