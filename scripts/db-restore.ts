import fs from "node:fs";
import { parseArgs } from "node:util";
import { BackupError, restoreBackup } from "../app/modules/backup/backup.server";
import { EnvError, getEnv } from "../app/modules/config/env.server";

/**
 * npm run db:restore -- --from DIR [--force]
 *
 * Restore a backup made by db:backup into DATABASE_PATH and STORAGE_DIR (the
 * environment the server uses: .env, or the variables already set). Stop the
 * server first. Without --force it refuses when a database or stored files
 * exist; with --force they are moved aside to *.before-restore-<timestamp>.
 * The backup is checked against its manifest (sha256 of every file,
 * integrity_check) before anything existing is touched.
 */
if (fs.existsSync(".env")) process.loadEnvFile(".env");

const usage = "Usage: npm run db:restore -- --from DIR [--force]";
function fail(code: number, message: string): never {
  console.error(`db:restore: ${message}`);
  process.exit(code);
}

let values;
try {
  ({ values } = parseArgs({ options: { from: { type: "string" }, force: { type: "boolean", default: false }, help: { type: "boolean", short: "h" } } }));
} catch (error) {
  fail(2, `${(error as Error).message}\n${usage}`);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}
if (!values.from) fail(2, `--from DIR is required\n${usage}`);

let env;
try {
  env = getEnv();
} catch (error) {
  if (error instanceof EnvError) fail(2, error.message);
  throw error;
}

try {
  const report = await restoreBackup({
    from: values.from,
    databasePath: env.DATABASE_PATH,
    storageDir: env.STORAGE_DIR,
    force: values.force,
    server: { host: env.HOST, port: env.PORT },
  });
  const { manifest } = report;
  console.log(`Verified ${values.from}: data.sqlite and ${report.files} file(s) match manifest.json (sha256), integrity_check ok.`);
  console.log(`  backup of ${manifest.created_at}, app ${manifest.app_version}, ${manifest.migrations} migration(s)`);
  for (const [from, to] of report.movedAside) console.log(`Moved aside: ${from} -> ${to}`);
  for (const dir of report.removedEmpty) console.log(`Removed empty ${dir}`);
  console.log(`Restored database: ${report.databasePath}`);
  console.log(`Restored ${report.files} file(s), ${report.bytes} bytes: ${report.storageDir}`);
  if (manifest.missing_files.length > 0) {
    console.log(`Note: ${manifest.missing_files.length} document(s) had no file when the backup was made (manifest.json missing_files).`);
  }
  console.log("Start the server now; any newer migrations apply at start.");
  console.log(
    JSON.stringify({
      ok: true,
      from: values.from,
      database: report.databasePath,
      storage: report.storageDir,
      files: report.files,
      bytes: report.bytes,
      moved_aside: report.movedAside.map(([, to]) => to),
    }),
  );
} catch (error) {
  if (error instanceof BackupError) fail(error.code === "failed" ? 1 : 3, `refused: ${error.message}`);
  fail(1, `failed: ${(error as Error).message}`);
}
