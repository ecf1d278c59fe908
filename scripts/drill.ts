import { BackupError } from "../app/modules/backup/backup.server";
import { LitestreamError } from "../app/modules/replication/litestream.server";
import { z } from "../app/modules/validation/z";
import { DrillError, runDrill, type DrillSource } from "./lib/drill";
import { scriptCli, scriptFail, type Fail } from "./lib/cli";

/**
 * npm run drill [-- --backup DIR | --timestamp ISO] [--scratch DIR] [--port N] [--keep]
 *
 * The restore drill (docs/deploy.md): restore the database from its Litestream
 * replica (LITESTREAM_REPLICA_URL; the default), or a db:backup folder with
 * --backup DIR (a backup, or a folder of them such as BACKUP_DIR: its newest), into a scratch folder; start the compiled app on it on a port of
 * its own (no mail sent, nothing replicated); check /readyz; count the rows of
 * the main tables; stop the app; print the figures and one JSON line. The live
 * site, its database and its replica are only read.
 *
 * Exit codes: 0 passed, 1 failed (the app did not become ready or stop cleanly),
 * 2 bad arguments or environment (or no build), 3 the restore refused (no or
 * damaged replica, a time it does not hold, a scratch folder not empty).
 */
const usage = "Usage: npm run drill [-- --backup DIR | --timestamp 2026-11-27T09:30:00Z] [--scratch DIR] [--port N] [--keep]";
const fail: Fail = scriptFail("drill");
const { values, env: loadEnv } = scriptCli(fail, usage, {
  backup: { type: "string" },
  timestamp: { type: "string" },
  scratch: { type: "string" },
  port: { type: "string" },
  keep: { type: "boolean", default: false },
});

const Args = z
  .object({
    backup: z.string().min(1).optional(),
    timestamp: z.iso.datetime({ offset: true, message: "--timestamp must be an ISO 8601 time with its zone, e.g. 2026-11-27T09:30:00Z" }).optional(),
    scratch: z.string().min(1).optional(),
    port: z.coerce.number({ message: "--port must be a port number" }).int().min(1, "--port must be a port number").max(65535, "--port must be a port number").optional(),
    keep: z.boolean(),
  })
  .refine((a) => !(a.backup && a.timestamp), "--timestamp goes with the replica, not --backup");
const parsed = Args.safeParse(values);
if (!parsed.success) fail(2, `${parsed.error.issues.map((i) => i.message).join("; ")}\n${usage}`);
const args = parsed.data;

const env = loadEnv();
if (!args.backup && !env.LITESTREAM_REPLICA_URL) {
  fail(2, "LITESTREAM_REPLICA_URL is not set: drill the replica it names, or a backup folder with --backup DIR");
}
if (args.port !== undefined && args.port === env.PORT) fail(2, `--port ${args.port} is the site's own PORT: the drill runs beside it on another`);

const source: DrillSource = args.backup ? { kind: "backup", dir: args.backup } : { kind: "replica", timestamp: args.timestamp ? new Date(args.timestamp) : undefined };
let report;
try {
  report = await runDrill({ env, source, scratch: args.scratch, keep: args.keep, port: args.port, progress: (line) => console.error(`drill: ${line}`) });
} catch (error) {
  if (error instanceof DrillError) fail(error.exitCode, error.message);
  if (error instanceof LitestreamError) fail(2, error.message);
  if (error instanceof BackupError) fail(error.code === "failed" ? 1 : 3, `the restore refused: ${error.message}`);
  fail(1, `failed: ${(error as Error).message}`);
}

const ready = report.readyz?.body as { status?: string; checks?: Record<string, boolean> } | undefined;
console.log(`Restore drill ${report.ok ? "PASSED" : "FAILED"}: ${report.source}`);
console.log(`  restore      ${(report.restore_ms / 1000).toFixed(1)} s into ${report.scratch}${report.kept ? " (kept)" : " (removed)"}`);
console.log(`  app ready    ${(report.start_ms / 1000).toFixed(1)} s on port ${report.port}: /readyz ${report.readyz?.status ?? "no answer"} ${ready?.status ?? ""}`);
if (report.note) console.log(`  note         ${report.note}`);
for (const [table, rows] of Object.entries(report.tables)) console.log(`  ${table.padEnd(24)} ${rows === null ? "-" : String(rows).padStart(8)}`);
console.log(`  ${"rows in all tables".padEnd(24)} ${String(report.rows).padStart(8)}   (${report.migrations} migrations)`);
console.log(`  total        ${(report.total_ms / 1000).toFixed(1)} s`);
for (const failure of report.failures) console.log(`  FAIL ${failure}`);
console.log(JSON.stringify(report));
process.exit(report.ok ? 0 : 1);
