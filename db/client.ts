import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import * as schema from "./schema";

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

export const MIGRATIONS_DIR = path.resolve(process.cwd(), "db/migrations");

/** Open a database file with the pragmas we rely on (WAL, foreign keys, a busy timeout). */
export function openDatabase(file: string): Db {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  // Unicode lower case, for sorting names case-insensitively ('É' with 'é'); SQLite's NOCASE
  // folds A–Z only. Used in queries only, never in an index or the schema (decision 015).
  sqlite.function("fold_case", { deterministic: true }, (value: unknown) => (typeof value === "string" ? value.toLowerCase() : value));
  // Lower case without accents ('Éva' → 'eva'), for the admin's investor search. Queries only.
  sqlite.function("fold_search", { deterministic: true }, (value: unknown) => (typeof value === "string" ? foldForSearch(value) : value));
  const db = drizzle(sqlite, { schema }) as Db;
  // Every transaction takes the write lock when it begins (BEGIN IMMEDIATE), not at its first write:
  // a deferred transaction that read first fails at once with SQLITE_BUSY when another process
  // (admin:create, a restore, a test fixture) wrote in between; an immediate one waits its turn
  // (busy_timeout). The server is one connection, so its transactions run one at a time anyway.
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn, config) => transaction(fn, { behavior: "immediate", ...config })) as Db["transaction"];
  return db;
}

/** Lower case, accents removed: what a search compares ('Ångström' and 'angstrom' match). */
export function foldForSearch(text: string): string {
  // Most rows are plain ASCII: nothing to decompose (a search scans every row of a list).
  if (ASCII.test(text)) return text.toLowerCase();
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}
const ASCII = /^[\x00-\x7f]*$/;

/** Apply the committed drizzle-kit migrations (idempotent). */
export function runMigrations(db: Db) {
  migrate(db, { migrationsFolder: MIGRATIONS_DIR });
}
