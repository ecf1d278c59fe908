import { openDatabase, runMigrations, type Db } from "../../../db/client";
import { getEnv } from "../config/env.server";
import { processWide } from "../config/process-wide.server";

export type { Db };

/**
 * The process's one database connection, opened on DATABASE_PATH and migrated
 * on first use. db/ knows nothing of the app's configuration (it opens a file it
 * is given); this module is where the environment names the file.
 */
const connection = processWide("db.connection", () => ({ db: undefined as Db | undefined }));

export function getDb(): Db {
  if (!connection.db) {
    const db = openDatabase(getEnv().DATABASE_PATH);
    runMigrations(db);
    connection.db = db;
  }
  return connection.db;
}

export function closeDb() {
  connection.db?.$client.close();
  connection.db = undefined;
}
