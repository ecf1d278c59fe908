import { EnvError } from "../app/modules/config/env.server";
import { ReplicaError } from "../app/modules/storage-replica/rclone.server";
import { replicaSettings } from "../app/modules/storage-replica/replica.server";
import { replicateStorage } from "../app/modules/storage-replica/replicate.server";
import { scriptCli, scriptFail, type Fail } from "./lib/cli";

/**
 * npm run storage:replicate [-- --to REPLICA] [--grace-days N] [--allow-empty]
 *
 * Copies the stored files under STORAGE_DIR (documents/, fund-documents/,
 * pitch-decks/) to the replica with `rclone sync`; what the sync would delete
 * goes to deleted/<today>/ beside current/, and day folders older than the
 * grace period are pruned. Safe while the server runs, and to repeat: a run with
 * nothing new copies nothing. The systemd timer runs it every 5 minutes
 * (deploy/lumen-ridge-storage-replicate.timer).
 *
 * REPLICA: --to, else STORAGE_REPLICA (an rclone path: `remote:bucket/prefix`
 * from RCLONE_CONFIG's file or RCLONE_CONFIG_* variables, or a folder).
 * N: --grace-days, else STORAGE_REPLICA_GRACE_DAYS, else 30.
 * Prints one JSON line. Exit codes: 0 done, 1 rclone failed, 2 bad arguments or
 * settings, 3 refused (a restore under way, or an empty STORAGE_DIR while the
 * replica has files: pass --allow-empty if every document really was deleted).
 */
const usage = "Usage: npm run storage:replicate [-- --to REPLICA] [--grace-days N] [--allow-empty]";
const fail: Fail = scriptFail("storage:replicate");
const { values, env: loadEnv } = scriptCli(fail, usage, {
  to: { type: "string" },
  "grace-days": { type: "string" },
  "allow-empty": { type: "boolean", default: false },
});

const EXIT = { usage: 2, refused: 3, failed: 1 } as const;
try {
  const env = loadEnv();
  const settings = replicaSettings({ replica: values.to, graceDays: values["grace-days"] });
  const report = await replicateStorage({ ...settings, storageDir: env.STORAGE_DIR, allowEmpty: values["allow-empty"] });
  console.log(
    JSON.stringify({
      ok: true,
      replica: report.replica,
      local_files: report.localFiles,
      copied: report.copied,
      copied_bytes: report.copiedBytes,
      rclone_transfers: report.transfers,
      rclone_checks: report.checked,
      moved_to_deleted: report.movedToDeleted,
      deleted_folder: report.movedToDeleted > 0 ? report.deletedFolder : null,
      grace_days: settings.graceDays,
      pruned: report.pruned,
      kept_days: report.keptDays,
      ...(report.strangers.length > 0 ? { not_day_folders: report.strangers } : {}),
      duration_ms: report.durationMs,
    }),
  );
} catch (error) {
  if (error instanceof EnvError) fail(2, error.message);
  if (error instanceof ReplicaError) fail(EXIT[error.code], error.message);
  fail(1, `failed: ${(error as Error).message}`);
}
