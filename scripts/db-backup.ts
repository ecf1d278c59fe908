import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { createBackup, pruneBackups } from "../app/modules/backup/backup.server";
import { EnvError, getEnv } from "../app/modules/config/env.server";

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
if (fs.existsSync(".env")) process.loadEnvFile(".env");

const usage = "Usage: npm run db:backup [-- --to DIR] [--keep N]";
function fail(code: number, message: string): never {
  console.error(`db:backup: ${message}`);
  console.log(JSON.stringify({ ok: false, error: message }));
  process.exit(code);
}

let values;
try {
  ({ values } = parseArgs({ options: { to: { type: "string" }, keep: { type: "string" }, help: { type: "boolean", short: "h" } } }));
} catch (error) {
  fail(2, `${(error as Error).message}\n${usage}`);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const keep = values.keep === undefined ? undefined : Number(values.keep);
if (keep !== undefined && (!Number.isInteger(keep) || keep < 1)) fail(2, `--keep must be a whole number of at least 1\n${usage}`);

let env;
try {
  env = getEnv();
} catch (error) {
  if (error instanceof EnvError) fail(2, error.message);
  throw error;
}

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
