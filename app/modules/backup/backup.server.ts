import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { z } from "~/modules/validation/z";
// The only stored paths the server makes: nothing else is copied or restored.
import { STORED_PATH } from "../storage/storage.server";

/**
 * Backups of the whole site state: the SQLite database (SQLite's online backup,
 * safe while the server runs and writes) and the stored files the database
 * points at. Used by `npm run db:backup` and `npm run db:restore`
 * (scripts/db-backup.ts, scripts/db-restore.ts); see docs/deploy.md.
 *
 * A backup folder holds `data.sqlite`, `uploads/<area>/<32 hex>` and
 * `manifest.json`. It is written as `<name>.partial` and renamed only once
 * complete and verified, so a folder without that suffix is never half done.
 */

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const DB_FILE = "data.sqlite";
const UPLOADS = "uploads";
const MANIFEST = "manifest.json";
/** Backup folder names: a UTC timestamp, with a counter when two start in the same second. */
const BACKUP_NAME = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z(-\d+)?$/;
/** Tables whose rows name a stored file, and the column (null where a row has none). */
const FILE_TABLES = [
  ["documents", "file_path"],
  ["fund_documents", "file_path"],
  ["pitch_submissions", "deck_path"],
] as const;

export class BackupError extends Error {
  constructor(
    message: string,
    /**
     * in_use | exists | invalid_backup (or a damaged replica) | incompatible | not_found (no replica there) |
     * out_of_range (a point in time the replica does not hold) | failed
     */
    public readonly code: "in_use" | "exists" | "invalid_backup" | "incompatible" | "not_found" | "out_of_range" | "failed" = "failed",
  ) {
    super(message);
    this.name = "BackupError";
  }
}

const ManifestFile = z.object({ path: z.string(), size: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) });
type ManifestFile = z.infer<typeof ManifestFile>;
const Manifest = z.object({
  format: z.literal(1),
  created_at: z.string(),
  app_version: z.string(),
  git_commit: z.string().nullable().optional(),
  migrations: z.number().int().nonnegative(),
  database: z.object({ file: z.literal(DB_FILE), size: z.number().int().positive(), sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
  tables: z.record(z.string(), z.number().int().nonnegative()),
  files: z.array(ManifestFile),
  missing_files: z.array(z.object({ table: z.string(), id: z.string(), path: z.string() })),
});
export type BackupManifest = z.infer<typeof Manifest>;
export type MissingFile = BackupManifest["missing_files"][number];

/** `2026-11-21T23-05-00Z`: an ISO timestamp that is a valid file name everywhere. */
export function backupTimestamp(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace(/:/g, "-")}Z`;
}

/** package.json's version ("unversioned" while it has none). */
export function appVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version?: string };
  return pkg.version ?? "unversioned";
}

/** The checked-out commit, when the code runs from a git checkout (null otherwise). */
export function gitCommit(): string | null {
  try {
    return execFileSync("git", ["rev-parse", "HEAD"], { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "ignore"] }).toString().trim() || null;
  } catch {
    return null;
  }
}

/** How many migrations this checkout has (db/migrations/meta/_journal.json). */
export function codeMigrationCount(): number {
  return codeMigrationTimes().length;
}

/** The `when` of each migration of this checkout: drizzle records it as `created_at` in `__drizzle_migrations`. */
export function codeMigrationTimes(): number[] {
  const journal = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "db/migrations/meta/_journal.json"), "utf8")) as {
    entries: { when: number }[];
  };
  return journal.entries.map((entry) => entry.when);
}

/**
 * Can this checkout run on a restored database? Its applied migrations must be
 * this checkout's first ones (the missing ones apply at start); one this
 * checkout does not know means a newer version made it. Throws a BackupError.
 */
export function checkMigrations(db: Database.Database, source: string): number {
  const table = db.prepare("select 1 from sqlite_master where type = 'table' and name = '__drizzle_migrations'").get();
  if (!table) throw new BackupError(`${source} is not this app's database: it has no __drizzle_migrations table`, "invalid_backup");
  const applied = (db.prepare("select created_at from __drizzle_migrations order by created_at").all() as { created_at: number | string }[]).map((r) =>
    Number(r.created_at),
  );
  const known = codeMigrationTimes();
  const unknown = applied.filter((when) => !known.includes(when));
  if (applied.length > known.length || unknown.length > 0) {
    throw new BackupError(
      `${source} has ${applied.length} migrations, ${unknown.length} of them unknown to this checkout (which has ${known.length}): it was made by a newer version; check that version out first`,
      "incompatible",
    );
  }
  return applied.length;
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

const exists = (p: string) => fs.existsSync(p);
const errorCode = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code;

// ─── backup ─────────────────────────────────────────────────────────────────

export type BackupOptions = {
  databasePath: string;
  storageDir: string;
  /** The folder that holds dated backups (BACKUP_DIR, --to). */
  backupRoot: string;
  now?: Date;
  /** Snapshots to try when a referenced file vanished meanwhile (a document deleted during the backup). */
  attempts?: number;
};

export type BackupResult = {
  dir: string;
  manifest: BackupManifest;
  attempts: number;
  durationMs: number;
};

type Snapshot = { tables: Record<string, number>; migrations: number; references: { table: string; id: string; path: string }[] };

/**
 * Copy the live database into `dest` with SQLite's online backup API (from a
 * connection of its own: the server may keep writing; SQLite restarts the copy
 * if the source changes under it, so the result is one consistent state), then
 * check it and read what the manifest needs.
 */
async function snapshotDatabase(source: string, dest: string): Promise<Snapshot> {
  const live = new Database(source, { fileMustExist: true, timeout: 5_000 });
  try {
    // All remaining pages in one step: a single read transaction, which WAL writers do not wait for.
    await live.backup(dest, { progress: () => 0x7fffffff });
  } finally {
    live.close();
  }
  const copy = new Database(dest, { fileMustExist: true });
  try {
    // A standalone file (no -wal/-shm next to it), whatever the live database's journal mode.
    copy.pragma("journal_mode = DELETE");
    const integrity = copy.pragma("integrity_check") as { integrity_check: string }[];
    if (integrity.length !== 1 || integrity[0]?.integrity_check !== "ok") {
      throw new BackupError(`integrity_check on the copy failed: ${integrity.map((r) => r.integrity_check).slice(0, 5).join("; ")}`);
    }
    const names = (
      copy.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name").all() as {
        name: string;
      }[]
    ).map((r) => r.name);
    const tables: Record<string, number> = {};
    for (const name of names) {
      tables[name] = (copy.prepare(`select count(*) as n from "${name.replace(/"/g, '""')}"`).get() as { n: number }).n;
    }
    const migrations = tables["__drizzle_migrations"] ?? 0;
    const references: Snapshot["references"] = [];
    for (const [table, column] of FILE_TABLES) {
      if (!(table in tables)) continue;
      const rows = copy.prepare(`select id, ${column} as file_path from "${table}" where ${column} is not null order by ${column}`).all() as {
        id: string;
        file_path: string;
      }[];
      for (const row of rows) references.push({ table, id: String(row.id), path: row.file_path });
    }
    return { tables, migrations, references };
  } finally {
    copy.close();
  }
}

/**
 * Copy every file the snapshot's rows name into `uploadsDir`; files already
 * there from an earlier snapshot are kept (stored files never change). Files
 * the live storage no longer has are reported, not invented.
 */
async function copyReferencedFiles(
  references: Snapshot["references"],
  storageDir: string,
  uploadsDir: string,
  have: Map<string, ManifestFile>,
) {
  const files: ManifestFile[] = [];
  const missing: MissingFile[] = [];
  const seen = new Set<string>();
  for (const ref of references) {
    if (seen.has(ref.path)) continue;
    seen.add(ref.path);
    const copied = have.get(ref.path);
    if (copied) {
      files.push(copied);
      continue;
    }
    if (!STORED_PATH.test(ref.path)) {
      missing.push(ref); // not a path the server makes: never read outside STORAGE_DIR
      continue;
    }
    const dest = path.join(uploadsDir, ref.path);
    await mkdir(path.dirname(dest), { recursive: true });
    try {
      await copyFile(path.join(storageDir, ref.path), dest, fs.constants.COPYFILE_EXCL);
    } catch (error) {
      if (errorCode(error) === "ENOENT") {
        missing.push(ref);
        continue;
      }
      throw error;
    }
    const entry = { path: ref.path, size: (await stat(dest)).size, sha256: await sha256File(dest) };
    have.set(ref.path, entry);
    files.push(entry);
  }
  return { files, missing };
}

/**
 * Make a backup folder `<backupRoot>/<UTC timestamp>/`. Files are copied after
 * the database snapshot (uploads move a file into place before recording its
 * row), so every row of the copy has its file, unless the file was deleted in
 * the meantime (a deletion removes the row, then the file): then the snapshot
 * is taken again, and only files new to it are copied. A file still missing after
 * `attempts` snapshots is missing from the live storage too; it is listed in
 * the manifest's `missing_files` (the caller reports it).
 */
export async function createBackup(options: BackupOptions): Promise<BackupResult> {
  const started = Date.now();
  const { databasePath, storageDir, backupRoot } = options;
  const now = options.now ?? new Date();
  const attempts = Math.max(1, options.attempts ?? 5);
  if (!exists(databasePath)) throw new BackupError(`no database at ${databasePath} (DATABASE_PATH)`);

  await mkdir(backupRoot, { recursive: true, mode: 0o700 });
  const base = backupTimestamp(now);
  let name = base;
  for (let n = 2; exists(path.join(backupRoot, name)) || exists(path.join(backupRoot, `${name}.partial`)); n++) name = `${base}-${n}`;
  const partial = path.join(backupRoot, `${name}.partial`);
  const final = path.join(backupRoot, name);
  await mkdir(partial, { mode: 0o700 });

  try {
    let attempt = 0;
    let snapshot: Snapshot;
    let copied: Awaited<ReturnType<typeof copyReferencedFiles>>;
    const have = new Map<string, ManifestFile>();
    for (;;) {
      attempt += 1;
      await rm(path.join(partial, DB_FILE), { force: true });
      snapshot = await snapshotDatabase(databasePath, path.join(partial, DB_FILE));
      copied = await copyReferencedFiles(snapshot.references, storageDir, path.join(partial, UPLOADS), have);
      if (copied.missing.length === 0 || attempt >= attempts) break;
    }
    // Files copied for an earlier snapshot whose rows are gone from this one.
    const kept = new Set(copied.files.map((f) => f.path));
    for (const stale of [...have.keys()].filter((p) => !kept.has(p))) await rm(path.join(partial, UPLOADS, stale), { force: true });
    await mkdir(path.join(partial, UPLOADS), { recursive: true });
    const dbFile = path.join(partial, DB_FILE);
    const manifest: BackupManifest = {
      format: 1,
      created_at: now.toISOString(),
      app_version: appVersion(),
      git_commit: gitCommit(),
      migrations: snapshot.migrations,
      database: { file: DB_FILE, size: (await stat(dbFile)).size, sha256: await sha256File(dbFile) },
      tables: snapshot.tables,
      files: copied.files,
      missing_files: copied.missing,
    };
    await writeFile(path.join(partial, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    await rename(partial, final);
    return { dir: final, manifest, attempts: attempt, durationMs: Date.now() - started };
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw error;
  }
}

/** Complete backups in a folder (name is a timestamp, manifest present), oldest first. */
export async function listBackups(backupRoot: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(backupRoot);
  } catch {
    return [];
  }
  return names.filter((n) => BACKUP_NAME.test(n) && exists(path.join(backupRoot, n, MANIFEST))).sort();
}

/**
 * Keep the newest `keep` complete backups and remove older ones; also remove
 * `.partial` folders older than a day (a backup killed half way).
 */
export async function pruneBackups(backupRoot: string, keep: number, now = new Date()): Promise<string[]> {
  const complete = await listBackups(backupRoot);
  const removed = complete.slice(0, Math.max(0, complete.length - keep));
  for (const name of removed) await rm(path.join(backupRoot, name), { recursive: true, force: true });
  for (const name of await readdir(backupRoot)) {
    if (!name.endsWith(".partial") || !BACKUP_NAME.test(name.slice(0, -".partial".length))) continue;
    const { mtimeMs } = await stat(path.join(backupRoot, name));
    if (now.getTime() - mtimeMs > 24 * 3600_000) {
      await rm(path.join(backupRoot, name), { recursive: true, force: true });
      removed.push(name);
    }
  }
  return removed;
}

// ─── verify and restore ─────────────────────────────────────────────────────

/** Read and check a backup's manifest (shape, and that every path is one the server makes). */
export async function readManifest(dir: string): Promise<BackupManifest> {
  if (dir.endsWith(".partial")) throw new BackupError(`${dir} is an unfinished backup (.partial)`, "invalid_backup");
  let text: string;
  try {
    text = await readFile(path.join(dir, MANIFEST), "utf8");
  } catch {
    throw new BackupError(`${dir} is not a backup: no ${MANIFEST}`, "invalid_backup");
  }
  let parsed;
  try {
    parsed = Manifest.safeParse(JSON.parse(text));
  } catch {
    throw new BackupError(`${path.join(dir, MANIFEST)} is not valid JSON`, "invalid_backup");
  }
  if (!parsed.success) throw new BackupError(`${path.join(dir, MANIFEST)} is malformed: ${parsed.error.issues[0]?.message}`, "invalid_backup");
  const bad = parsed.data.files.find((f) => !STORED_PATH.test(f.path));
  if (bad) throw new BackupError(`manifest lists a file outside documents/ and fund-documents/: ${JSON.stringify(bad.path)}`, "invalid_backup");
  return parsed.data;
}

/**
 * Check files against the manifest: `dbFile` and each `uploads/<path>` must
 * have the recorded size and sha256. Returns the problems (empty: all match).
 */
async function checkAgainstManifest(manifest: BackupManifest, dbFile: string, uploadsDir: string): Promise<string[]> {
  const problems: string[] = [];
  const check = async (label: string, file: string, size: number, sha256: string) => {
    let actual;
    try {
      actual = await stat(file);
    } catch {
      problems.push(`${label}: missing`);
      return;
    }
    if (actual.size !== size) problems.push(`${label}: ${actual.size} bytes, manifest says ${size}`);
    else if ((await sha256File(file)) !== sha256) problems.push(`${label}: sha256 does not match the manifest`);
  };
  await check(DB_FILE, dbFile, manifest.database.size, manifest.database.sha256);
  for (const f of manifest.files) await check(`${UPLOADS}/${f.path}`, path.join(uploadsDir, f.path), f.size, f.sha256);
  return problems;
}

function integrityProblems(file: string): string[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.pragma("integrity_check") as { integrity_check: string }[];
    return rows.length === 1 && rows[0]?.integrity_check === "ok" ? [] : [`${DB_FILE}: integrity_check: ${rows.map((r) => r.integrity_check).slice(0, 3).join("; ")}`];
  } finally {
    db.close();
  }
}

/** Does something answer HTTP on the server's address? (A running server answers /healthz.) */
export function serverAnswers(host: string, port: number, timeoutMs = 1_000): Promise<boolean> {
  const target = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
  return new Promise((resolve) => {
    const req = http.get({ host: target, port, path: "/healthz", timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on("timeout", () => {
      req.destroy();
      resolve(false);
    });
    req.on("error", () => resolve(false));
  });
}

/**
 * Is the database open in another process? A connection (the server keeps one
 * open all the time) holds a shared lock, so an exclusive lock is refused.
 */
export function databaseInUse(file: string): boolean {
  if (!exists(file)) return false;
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { fileMustExist: true, timeout: 0 });
    db.pragma("locking_mode = EXCLUSIVE");
    db.exec("BEGIN EXCLUSIVE");
    db.exec("COMMIT");
    return false;
  } catch (error) {
    const code = errorCode(error);
    return code === "SQLITE_BUSY" || code === "SQLITE_LOCKED";
  } finally {
    db?.close();
  }
}

/** True when a folder holds at least one file (at any depth). */
function hasFiles(dir: string): boolean {
  if (!exists(dir)) return false;
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[]).some((e) => !e.isDirectory());
}

export type RestoreOptions = {
  from: string;
  databasePath: string;
  storageDir: string;
  force: boolean;
  /** Where the server would listen (refuse while something answers there). */
  server?: { host: string; port: number };
  now?: Date;
};

export type RestoreReport = {
  manifest: BackupManifest;
  databasePath: string;
  storageDir: string;
  files: number;
  bytes: number;
  /** What was moved aside: [from, to]. */
  movedAside: [string, string][];
  /** An empty STORAGE_DIR removed instead of moved aside. */
  removedEmpty: string[];
};

/**
 * Restore a backup into DATABASE_PATH and STORAGE_DIR. Refuses while the
 * server seems to run, and when data exists there unless `force` (which moves
 * it aside to `<path>.before-restore-<timestamp>`, never deletes). The backup
 * is copied next to its targets and checked against the manifest (sha256,
 * integrity_check) before anything existing is touched; the switch is renames.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreReport> {
  const from = path.resolve(options.from);
  const databasePath = path.resolve(options.databasePath);
  const storageDir = path.resolve(options.storageDir);
  const stamp = backupTimestamp(options.now ?? new Date());
  const manifest = await readManifest(from);

  if (databasePath.startsWith(storageDir + path.sep)) {
    throw new BackupError(`DATABASE_PATH (${databasePath}) is inside STORAGE_DIR (${storageDir}); keep them apart to restore`, "failed");
  }
  const known = codeMigrationCount();
  if (manifest.migrations > known) {
    throw new BackupError(
      `the backup has ${manifest.migrations} migrations, this checkout only ${known}: it was made by a newer version (${manifest.app_version}); check that version out first`,
      "incompatible",
    );
  }
  if (options.server && (await serverAnswers(options.server.host, options.server.port))) {
    throw new BackupError(
      `something answers on http://${options.server.host}:${options.server.port}/healthz: the server seems to be running. Stop it first (systemctl stop lumen-ridge)`,
      "in_use",
    );
  }
  if (databaseInUse(databasePath)) {
    throw new BackupError(
      `${databasePath} is open in another process (the server, or Litestream replicating it?). Stop them first (systemctl stop lumen-ridge lumen-ridge-litestream)`,
      "in_use",
    );
  }
  const dbParts = ["", "-wal", "-shm"].map((suffix) => databasePath + suffix).filter(exists);
  const storageHasFiles = hasFiles(storageDir);
  if (!options.force && (dbParts.length > 0 || storageHasFiles)) {
    const what = [dbParts.length > 0 ? `a database at ${databasePath}` : "", storageHasFiles ? `stored files in ${storageDir}` : ""].filter(Boolean);
    throw new BackupError(
      `there is already ${what.join(" and ")}. Re-run with --force to move ${what.length > 1 ? "them" : "it"} aside (to *.before-restore-${stamp}) and restore`,
      "exists",
    );
  }

  // Stage the copies next to their targets (same file system, so the switch is a rename), then verify them.
  const stagedDb = `${databasePath}.restoring-${stamp}`;
  const stagedStorage = `${storageDir}.restoring-${stamp}`;
  const cleanStaging = async () => {
    await rm(stagedDb, { force: true });
    await rm(stagedStorage, { recursive: true, force: true });
  };
  await cleanStaging();
  try {
    await mkdir(path.dirname(databasePath), { recursive: true });
    await mkdir(path.dirname(storageDir), { recursive: true });
    await copyFile(path.join(from, DB_FILE), stagedDb, fs.constants.COPYFILE_EXCL).catch((error: unknown) => {
      throw new BackupError(`cannot read ${path.join(from, DB_FILE)}: ${(error as Error).message}`, "invalid_backup");
    });
    await mkdir(stagedStorage, { recursive: true, mode: 0o750 });
    for (const area of ["documents", "fund-documents"]) await mkdir(path.join(stagedStorage, area), { recursive: true });
    for (const f of manifest.files) {
      const source = path.join(from, UPLOADS, f.path);
      await copyFile(source, path.join(stagedStorage, f.path), fs.constants.COPYFILE_EXCL).catch((error: unknown) => {
        if (errorCode(error) !== "ENOENT") throw error; // reported as missing by the check below
      });
    }
    const problems = await checkAgainstManifest(manifest, stagedDb, stagedStorage);
    if (problems.length === 0) problems.push(...integrityProblems(stagedDb));
    if (problems.length > 0) {
      throw new BackupError(
        `the backup in ${from} does not match its manifest; nothing was changed:\n${problems.map((p) => `  - ${p}`).join("\n")}`,
        "invalid_backup",
      );
    }
  } catch (error) {
    await cleanStaging();
    throw error;
  }

  // Switch: move what exists aside, then put the staged copies in place (undo on failure).
  const done: [string, string][] = [];
  const removedEmpty: string[] = [];
  const move = async (a: string, b: string) => {
    await rename(a, b);
    done.push([a, b]);
  };
  try {
    for (const part of dbParts) {
      const suffix = part.slice(databasePath.length);
      await move(part, `${databasePath}.before-restore-${stamp}${suffix}`);
    }
    if (exists(storageDir)) {
      if (storageHasFiles) await move(storageDir, `${storageDir}.before-restore-${stamp}`);
      else {
        await rm(storageDir, { recursive: true });
        removedEmpty.push(storageDir);
      }
    }
    await move(stagedDb, databasePath);
    await move(stagedStorage, storageDir);
  } catch (error) {
    for (const [a, b] of done.reverse()) await rename(b, a).catch(() => {});
    await cleanStaging();
    throw new BackupError(`switching to the restored data failed (${(error as Error).message}); the previous state was put back`);
  }
  const movedAside = done.filter(([a]) => a !== stagedDb && a !== stagedStorage);
  return {
    manifest,
    databasePath,
    storageDir,
    files: manifest.files.length,
    bytes: manifest.files.reduce((sum, f) => sum + f.size, 0),
    movedAside,
    removedEmpty,
  };
}
