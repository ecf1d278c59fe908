import path from "node:path";
import { createBackup, pruneBackups } from "../app/modules/backup/backup.server";
import { scriptCli, scriptFail, type Fail } from "./lib/cli";

/**
 * npm run db:backup [-- --to DIR] [--keep N]
 *
 * An online backup (the server may be running) of DATABASE_PATH and the stored
 * files under STORAGE_DIR into DIR/<UTC timestamp>/ (DIR: --to, else
 * BACKUP_DIR, else ./backups). Prints one JSON line. Exit codes: 0 done,
 * 1 failed (nothing left but a removed .partial), 2 bad arguments or
 * environment, 3 written but some documents' files were already missing from
 * STORAGE_DIR (listed in manifest.json; older backups are then not pruned).
 */
const usage = "Usage: npm run db:backup [-- --to DIR] [--keep N]";
const fail: Fail = scriptFail("db:backup");
const { values, env: loadEnv } = scriptCli(fail, usage, { to: { type: "string" }, keep: { type: "string" } });
const keep = values.keep === undefined ? undefined : Number(values.keep);
if (keep !== undefined && (!Number.isInteger(keep) || keep < 1)) fail(2, `--keep must be a whole number of at least 1\n${usage}`);

const env = loadEnv();

const backupRoot = path.resolve(values.to ?? (process.env.BACKUP_DIR || "backups"));
try {
  const result = await createBackup({ databasePath: env.DATABASE_PATH, storageDir: env.STORAGE_DIR, backupRoot });
  const { manifest } = result;
  const missing = manifest.missing_files.length;
  const pruned = keep !== undefined && missing === 0 ? await pruneBackups(backupRoot, keep) : [];
  console.log(
    JSON.stringify({
      ok: missing === 0,
      backup: result.dir,
      created_at: manifest.created_at,
      app_version: manifest.app_version,
      git_commit: manifest.git_commit ?? null,
      migrations: manifest.migrations,
      rows: Object.values(manifest.tables).reduce((a, b) => a + b, 0),
      tables: manifest.tables,
      database_bytes: manifest.database.size,
      files: manifest.files.length,
      file_bytes: manifest.files.reduce((sum, f) => sum + f.size, 0),
      missing_files: missing,
      snapshots: result.attempts,
      integrity_check: "ok",
      pruned,
      duration_ms: result.durationMs,
    }),
  );
  if (missing > 0) {
    console.error(
      `db:backup: backup written, but ${missing} document file(s) were missing from ${env.STORAGE_DIR} (the live data lacks them too; see missing_files in ${path.join(result.dir, "manifest.json")}). Older backups were not pruned.`,
    );
    process.exit(3);
  }
} catch (error) {
  fail(1, `failed: ${(error as Error).message}`);
}
