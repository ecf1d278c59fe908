import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MIGRATIONS_DIR, openDatabase } from "../../db/client";

/**
 * Migration 0014 (issue 21, decision 028): accounts made before registrations had to
 * prove their address count as confirmed, and the audit trail says so once, with how
 * many. Applied here file by file, as drizzle does, to a database that already holds
 * accounts from before it.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "migration-0014-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function migrationFiles(): string[] {
  return fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith(".sql"))
    .sort();
}

function apply(sqlite: ReturnType<typeof openDatabase>["$client"], file: string) {
  for (const statement of fs.readFileSync(path.join(MIGRATIONS_DIR, file), "utf8").split("--> statement-breakpoint")) {
    if (statement.trim()) sqlite.exec(statement);
  }
}

function databaseBefore0014(name: string) {
  const sqlite = openDatabase(path.join(dir, name)).$client;
  for (const file of migrationFiles().filter((f) => f < "0014")) apply(sqlite, file);
  return sqlite;
}

describe("migration 0014 (lp_users.confirmed_at)", () => {
  it("marks every existing account confirmed and writes one audit row with their count", () => {
    const sqlite = databaseBefore0014("with-accounts.sqlite");
    sqlite
      .prepare(
        `insert into lp_users (id, email, password_hash, name, status, is_admin, created_at) values
         ('a', 'pending@example.test', 'h', 'P', 'pending', 0, 1000),
         ('b', 'approved@example.test', 'h', 'A', 'approved', 0, 2000),
         ('c', 'admin@example.test', 'h', 'Admin', 'approved', 1, 3000)`,
      )
      .run();
    const before = Date.now();
    apply(sqlite, migrationFiles().find((f) => f.startsWith("0014"))!);

    const accounts = sqlite.prepare("select email, confirmed_at from lp_users order by email").all() as { email: string; confirmed_at: number | null }[];
    expect(accounts.map((a) => a.email)).toEqual(["admin@example.test", "approved@example.test", "pending@example.test"]);
    for (const account of accounts) expect(account.confirmed_at, account.email).toBeGreaterThanOrEqual(before - 1000);
    const audit = sqlite.prepare("select event, actor_id, target_type, target_label, details from audit_events").all() as Record<string, string | null>[];
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ event: "auth.accounts_marked_confirmed", actor_id: null, target_type: "user" });
    expect(JSON.parse(audit[0]!.details!)).toMatchObject({ count: 3 });
    expect(sqlite.prepare("select count(*) as n from registration_requests").get()).toEqual({ n: 0 });
    sqlite.close();
  });

  it("writes no audit row on a database without accounts", () => {
    const sqlite = databaseBefore0014("empty.sqlite");
    apply(sqlite, migrationFiles().find((f) => f.startsWith("0014"))!);
    expect(sqlite.prepare("select count(*) as n from audit_events").get()).toEqual({ n: 0 });
    sqlite.close();
  });
});
