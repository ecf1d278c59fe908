import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type Database from "better-sqlite3";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, runMigrations, type Db } from "../../db/client";
import { lpUsers } from "../../db/schema";

/**
 * The server's database connection beside a writer in another process
 * (admin:create, a restore, a test fixture): a server transaction that reads
 * and then writes must never fail because the other one wrote in between
 * (SQLite's SQLITE_BUSY on a deferred transaction's upgrade, a 500 for the
 * visitor). Seen in CI as a registration answered 500 while a test fixture
 * wrote to the same file.
 */

const dirs: string[] = [];
const open: { close(): void }[] = [];

afterEach(() => {
  for (const db of open.splice(0)) db.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function twoWriters(): { server: Db; other: Database.Database } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "db-writers-"));
  dirs.push(dir);
  const file = path.join(dir, "test.sqlite");
  const server = openDatabase(file);
  runMigrations(server);
  // The other process does not wait here (busy_timeout 0), so the test sees at once who holds the lock.
  const other = openDatabase(file).$client;
  other.pragma("busy_timeout = 0");
  open.push(server.$client, other);
  return { server, other };
}

const user = (email: string) => ({ email, name: email, passwordHash: "x", status: "pending" as const });

describe("transactions beside another writer", () => {
  it("a transaction that reads, then writes, holds the write lock from its start: the other writer waits, the transaction commits", () => {
    const { server, other } = twoWriters();
    let otherWrite: unknown = null;
    server.transaction((tx) => {
      expect(tx.select().from(lpUsers).where(eq(lpUsers.email, "first@example.com")).get()).toBeUndefined();
      try {
        other.prepare("INSERT INTO lp_users (id, email, name, password_hash, status) VALUES ('x1', 'other@example.com', 'Other', 'x', 'pending')").run();
      } catch (error) {
        otherWrite = error;
      }
      tx.insert(lpUsers).values(user("first@example.com")).run();
    });
    expect((otherWrite as { code?: string } | null)?.code).toBe("SQLITE_BUSY");
    expect(server.select({ email: lpUsers.email }).from(lpUsers).all()).toEqual([{ email: "first@example.com" }]);
  });

  it("a write from another process between two transactions is seen by the next one", () => {
    const { server, other } = twoWriters();
    server.transaction((tx) => tx.insert(lpUsers).values(user("first@example.com")).run());
    other.prepare("INSERT INTO lp_users (id, email, name, password_hash, status) VALUES ('x1', 'other@example.com', 'Other', 'x', 'pending')").run();
    const emails = server.transaction((tx) => tx.select({ email: lpUsers.email }).from(lpUsers).orderBy(lpUsers.email).all());
    expect(emails).toEqual([{ email: "first@example.com" }, { email: "other@example.com" }]);
  });
});
