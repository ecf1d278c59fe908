import { BackupError, restoreBackup } from "../app/modules/backup/backup.server";
import { restoreFromReplica } from "../app/modules/backup/replica-restore.server";
import { LitestreamError } from "../app/modules/replication/litestream.server";
import { z } from "../app/modules/validation/z";
import { scriptCli, scriptFail, type Fail } from "./lib/cli";

/**
 * npm run db:restore -- --from DIR [--force]
 * npm run db:restore -- --from-replica [--timestamp ISO] [--force | --to DIR]
 *
 * --from: restore a backup made by db:backup into DATABASE_PATH and STORAGE_DIR
 * (the environment the server uses: .env, or the variables already set). Stop the
 * server first. Without --force it refuses when a database or stored files
 * exist; with --force they are moved aside to *.before-restore-<timestamp>.
 * The backup is checked against its manifest (sha256 of every file,
 * integrity_check) before anything existing is touched.
 *
 * --from-replica: restore the database (only the database) from its Litestream
 * replica (LITESTREAM_REPLICA_URL): the latest state, or the state at
 * --timestamp. It is restored into a fresh file, checked (integrity_check, the
 * migrations), and only then switched into DATABASE_PATH (stop the server and
 * Litestream first; --force moves an existing database aside), or written to
 * DIR/data.sqlite with --to DIR (an empty or new folder; nothing else touched).
 *
 * Exit codes: 0 restored, 1 failed (nothing changed), 2 bad arguments or
 * environment, 3 refused (server running, data present, no or damaged
 * replica, a time the replica does not hold, a folder not empty; nothing changed).
 */
const usage = [
  "Usage: npm run db:restore -- --from DIR [--force]",
  "       npm run db:restore -- --from-replica [--timestamp 2026-11-27T09:30:00Z] [--force | --to DIR]",
].join("\n");
const fail: Fail = scriptFail("db:restore", { json: false });
const { values, env: loadEnv } = scriptCli(fail, usage, {
  from: { type: "string" },
  "from-replica": { type: "boolean", default: false },
  timestamp: { type: "string" },
  to: { type: "string" },
  force: { type: "boolean", default: false },
});

const Args = z
  .object({
    from: z.string().min(1).optional(),
    fromReplica: z.boolean(),
    timestamp: z.iso
      .datetime({ offset: true, message: "--timestamp must be an ISO 8601 time with its zone, e.g. 2026-11-27T09:30:00Z or 2026-11-27T10:30:00+01:00" })
      .optional(),
    to: z.string().min(1).optional(),
    force: z.boolean(),
  })
  .check((ctx) => {
    const a = ctx.value;
    const issue = (message: string) => ctx.issues.push({ code: "custom", message, input: a });
    if (Boolean(a.from) === a.fromReplica) issue("give either --from DIR (a db:backup folder) or --from-replica");
    if (a.timestamp && !a.fromReplica) issue("--timestamp goes with --from-replica");
    if (a.to && !a.fromReplica) issue("--to goes with --from-replica");
    if (a.to && a.force) issue("--to writes into an empty folder and moves nothing aside: drop --force");
  });
const parsed = Args.safeParse({ from: values.from, fromReplica: values["from-replica"], timestamp: values.timestamp, to: values.to, force: values.force });
if (!parsed.success) fail(2, `${parsed.error.issues.map((i) => i.message).join("; ")}\n${usage}`);
const args = parsed.data;

const env = loadEnv();

if (args.fromReplica) {
  try {
    const report = await restoreFromReplica({
      env,
      timestamp: args.timestamp ? new Date(args.timestamp) : undefined,
      target: args.to ? { mode: "folder", dir: args.to } : { mode: "database", force: args.force, server: { host: env.HOST, port: env.PORT } },
    });
    const rows = Object.values(report.tables).reduce((a, b) => a + b, 0);
    console.log(`Restored from ${report.replica}${report.timestamp ? ` at ${report.timestamp}` : " (latest)"}: integrity_check ok, ${report.migrations} migration(s), ${rows} rows.`);
    if (report.note) console.log(`Note: ${report.note}.`);
    for (const [from, to] of report.movedAside) console.log(`Moved aside: ${from} -> ${to}`);
    console.log(`Restored database: ${report.databasePath}`);
    if (!args.to) {
      console.log("Only the database comes from the replica: the stored documents come back with npm run storage:restore (the server reports rows whose file is missing at start).");
      console.log("Start the server and Litestream now; any newer migrations apply at start, and Litestream begins a new generation.");
    }
    console.log(
      JSON.stringify({
        ok: true,
        from_replica: report.replica,
        timestamp: report.timestamp,
        note: report.note,
        database: report.databasePath,
        migrations: report.migrations,
        rows,
        tables: report.tables,
        moved_aside: report.movedAside.map(([, to]) => to),
        duration_ms: report.durationMs,
      }),
    );
  } catch (error) {
    if (error instanceof LitestreamError) fail(2, error.message);
    if (error instanceof BackupError) fail(error.code === "failed" ? 1 : 3, `refused: ${error.message}`);
    fail(1, `failed: ${(error as Error).message}`);
  }
  process.exit(0);
}

try {
  const report = await restoreBackup({
    from: args.from!,
    databasePath: env.DATABASE_PATH,
    storageDir: env.STORAGE_DIR,
    force: args.force,
    server: { host: env.HOST, port: env.PORT },
  });
  const { manifest } = report;
  console.log(`Verified ${args.from}: data.sqlite and ${report.files} file(s) match manifest.json (sha256), integrity_check ok.`);
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
      from: args.from,
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
