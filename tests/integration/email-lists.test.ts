import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../app/modules/db/connection.server";
import { auditEvents, fundAccessUsers, lpUsers, newsletterSubscribers } from "../../db/schema";
import { countList, MAX_PAGE_LIMIT, readAllRows, readListPage } from "~/modules/email-lists/email-lists.server";
import { exportCells, exportHeaders } from "~/modules/email-lists/export";
import { neutralizeFormula } from "~/modules/export/csv";
import { DEFAULT_SORT, LIST_KEYS, LISTS, sortRows, type ListKey, type ListRow, type SortState } from "~/modules/email-lists/lists";
import { idFromSignedToken } from "~/modules/mail/signed-id.server";
import { loader as exportLoader } from "~/routes/admin/email-list-export";
import { loader as subscribersLoader } from "~/routes/api/newsletter-subscribers";
import { apiRequest, callRouteWith, clearAccountTables, insertAdmin, insertUser, sessionCookieFor } from "../helpers/users";

/**
 * The admin e-mail lists (SPEC.md §2 'Email Lists (Copy & Export)', §7
 * GET /api/newsletter/subscribers): SQL windows and totals, SQL order equal to
 * lists.ts's sortRows on varied rows, the index behind every page query, the
 * CSV/TSV export route and the subscribers endpoint, with their guards.
 */

const cookies: Record<"admin" | "approved" | "pending" | "rejected", string> = { admin: "", approved: "", pending: "", rejected: "" };

// A small deterministic generator: the same varied rows on every run.
let seed = 0x9e3779b9;
function random(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 0x1_0000_0000;
}
const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

// Mixed case (accented capitals too), duplicates (ties), punctuation, accents, CJK and an emoji.
const NAMES = [
  "ada", "Ada", "ADA", "Alan Turing", "alan turing", "bob", "Bob", "Zoë", "zoë", "ZOË", "élodie", "Élodie", "ÉLODIE",
  "ørsted", "Ørsted", "José", "JOSÉ", "de la Cruz", "McDonald", "O'Brien", "o'brien", "_under", "1st Investor", "Zed", "zed",
  "Mary-Jane", "李雷", "Ann 😀",
];
const COMPANIES = [
  null, null, "", "N/A", "n/a", "Acme", "acme", "ACME", "beta", "Beta Capital", "n/b", "mmm", "MMM", "ångström", "Ångström",
  "ÅNGSTRÖM", "Zeta", "zeta", "Cobalt, Nickel & Co", '"Quoted" Ltd', "=formula Inc",
];
const EMAIL_STEMS = ["alpha", "Alpha", "BETA", "beta", "gamma", "Delta", "-dash", "_under"];
const BASE = Date.parse("2026-06-01T12:00:00.000Z");
/** One of 40 instants, so dates tie often. */
const someDate = () => new Date(BASE - Math.floor(random() * 40) * 60_000);
/** Unique addresses; every fifth repeats the one before in upper case (a tie for the case-insensitive sort). */
function emailsFor(prefix: string, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const previous = out[i - 1];
    if (i % 5 === 4 && previous) out.push(previous.toUpperCase());
    else out.push(`${pick(EMAIL_STEMS)}-${prefix}${i}@example.com`);
  }
  return out;
}

function seedVariedRows() {
  const db = getDb();
  const lpEmails = emailsFor("lp", 300);
  db.insert(lpUsers)
    .values(
      lpEmails.map((email) => ({
        email,
        passwordHash: "not-a-real-hash",
        name: pick(NAMES),
        company: pick(COMPANIES),
        status: pick(["pending", "approved", "rejected", "rejected"] as const),
        isAdmin: random() < 0.05,
        createdAt: someDate(),
      })),
    )
    .run();
  const fundEmails = emailsFor("fund", 240);
  db.insert(fundAccessUsers)
    .values(
      fundEmails.map((email) => ({
        email,
        name: pick(NAMES),
        company: pick(COMPANIES),
        fundId: random() < 0.75 ? ("fund-ii" as const) : ("fund-i" as const),
        accreditedConfirmation: true,
        accessTokenHash: randomBytes(32).toString("hex"),
        createdAt: someDate(),
      })),
    )
    .run();
  const newsletterEmails = emailsFor("news", 300);
  db.insert(newsletterSubscribers)
    // Mostly confirmed subscribers (what the list shows by default), some pending and unsubscribed.
    .values(newsletterEmails.map((email) => ({ email, createdAt: someDate(), status: pick(["confirmed", "confirmed", "confirmed", "pending", "unsubscribed"] as const) })))
    .run();
}

/** Every row of a list in insertion (rowid) order, read without the module under test. */
function rowsInInsertionOrder(list: ListKey): ListRow[] {
  const db = getDb();
  const date = (d: Date) => d.toISOString();
  if (list === "newsletter") {
    return db
      .select()
      .from(newsletterSubscribers)
      .orderBy(sql`rowid`)
      .all()
      .filter((r) => r.status === "confirmed")
      .map((r) => ({ email: r.email, date: date(r.createdAt) }));
  }
  if (list === "fund-ii-requests") {
    return db
      .select()
      .from(fundAccessUsers)
      .orderBy(sql`rowid`)
      .all()
      .filter((r) => r.fundId === "fund-ii")
      .map((r) => ({ name: r.name, email: r.email, date: date(r.createdAt) }));
  }
  return db
    .select()
    .from(lpUsers)
    .orderBy(sql`rowid`)
    .all()
    .filter((r) => !r.isAdmin && (list === "lp-users" || r.status === "rejected"))
    .map((r) => ({ ...(r.company ? { company: r.company } : {}), name: r.name, email: r.email, date: date(r.createdAt) }));
}

/** What sortRows makes of the rows: ties in insertion order ascending, reversed descending. */
function expectedOrder(list: ListKey, sort: SortState): ListRow[] {
  const rows = rowsInInsertionOrder(list);
  return sortRows(sort.direction === "asc" ? rows : rows.reverse(), sort);
}

const EVERY_SORT = LIST_KEYS.flatMap((list) =>
  LISTS[list].columns.flatMap((column) => (["asc", "desc"] as const).map((direction) => [list, { column, direction }] as const)),
);

/** The SQL (and arguments) of every statement `run` executes on the shared connection. */
function capturedStatements(run: () => void): { sql: string; args: unknown[] }[] {
  const client = getDb().$client;
  const original = client.prepare;
  const seen: { sql: string; args: unknown[] }[] = [];
  const capture = (source: string) => {
    const statement = original.call(client, source);
    const proxy: unknown = new Proxy(statement, {
      get(target, property, receiver) {
        if (property === "raw") {
          return (...a: [boolean?]) => {
            target.raw(...a);
            return proxy;
          };
        }
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== "function") return value;
        if (property === "all" || property === "get" || property === "run" || property === "iterate") {
          return (...args: unknown[]) => {
            seen.push({ sql: source, args });
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        return (value as (...a: unknown[]) => unknown).bind(target);
      },
    });
    return proxy;
  };
  client.prepare = capture as typeof client.prepare;
  try {
    run();
  } finally {
    client.prepare = original;
  }
  return seen;
}

function queryPlan(statement: { sql: string; args: unknown[] }): string[] {
  return (getDb().$client.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`).all(...statement.args) as { detail: string }[]).map(
    (row) => row.detail,
  );
}

const exportRequest = (file: string, cookie: string | null, query = "") =>
  callRouteWith(exportLoader, apiRequest("GET", `/admin/email-lists/${file}${query}`, { cookie: cookie ?? undefined }), {
    params: { file },
  });

const subscribersRequest = (cookie: string | null) =>
  callRouteWith(subscribersLoader, apiRequest("GET", "/api/newsletter/subscribers", { cookie: cookie ?? undefined }));

beforeAll(async () => {
  clearAccountTables();
  getDb().delete(fundAccessUsers).run();
  getDb().delete(newsletterSubscribers).run();
  cookies.admin = await sessionCookieFor(await insertAdmin({ email: "admin@lumenridge.example", name: "Ada Admin" }));
  cookies.approved = await sessionCookieFor(await insertUser({ status: "approved", company: "Approved Capital" }));
  cookies.pending = await sessionCookieFor(await insertUser({ status: "pending" }));
  cookies.rejected = await sessionCookieFor(await insertUser({ status: "rejected" }));
  seedVariedRows();
});

describe("which rows each list holds", () => {
  it("LP portal users: every non-admin account whatever its status; rejected: the rejected ones; admins never", () => {
    const all = getDb().select().from(lpUsers).all();
    const lp = readAllRows("lp-users", DEFAULT_SORT);
    expect(lp).toHaveLength(all.filter((u) => !u.isAdmin).length);
    expect(new Set(lp.map((r) => r.email))).toEqual(new Set(all.filter((u) => !u.isAdmin).map((u) => u.email)));
    expect(lp.map((r) => r.email)).not.toContain("admin@lumenridge.example");
    for (const status of ["pending", "approved", "rejected"] as const) {
      expect(all.some((u) => !u.isAdmin && u.status === status)).toBe(true);
    }
    const rejected = readAllRows("rejected-lp-users", DEFAULT_SORT);
    expect(new Set(rejected.map((r) => r.email))).toEqual(
      new Set(all.filter((u) => !u.isAdmin && u.status === "rejected").map((u) => u.email)),
    );
  });

  it("Fund II requests: only fund-ii rows; newsletter: confirmed subscribers, or those of the status asked for", () => {
    const requests = getDb().select().from(fundAccessUsers).all();
    expect(requests.some((r) => r.fundId === "fund-i")).toBe(true);
    expect(readAllRows("fund-ii-requests", DEFAULT_SORT)).toHaveLength(requests.filter((r) => r.fundId === "fund-ii").length);
    const subscribers = getDb().select().from(newsletterSubscribers).all();
    const emailsOf = (status: string) => new Set(subscribers.filter((r) => r.status === status).map((r) => r.email));
    for (const status of ["pending", "unsubscribed"] as const) expect(emailsOf(status).size).toBeGreaterThan(0);
    expect(new Set(readAllRows("newsletter", DEFAULT_SORT).map((r) => r.email))).toEqual(emailsOf("confirmed"));
    for (const status of ["confirmed", "pending", "unsubscribed"] as const) {
      expect(new Set(readAllRows("newsletter", DEFAULT_SORT, undefined, { status }).map((r) => r.email))).toEqual(emailsOf(status));
      expect(countList("newsletter", undefined, { status })).toBe(emailsOf(status).size);
    }
  });

  it("the newsletter's counts follow every write: a sign-up, a confirmation, an unsubscribe, a delete, an upsert", () => {
    const db = getDb();
    const counted = () => Object.fromEntries((["pending", "confirmed", "unsubscribed"] as const).map((status) => [status, countList("newsletter", db, { status })]));
    const actual = () => {
      const rows = db.select({ status: newsletterSubscribers.status }).from(newsletterSubscribers).all();
      return Object.fromEntries((["pending", "confirmed", "unsubscribed"] as const).map((status) => [status, rows.filter((r) => r.status === status).length]));
    };
    const before = counted();
    expect(before).toEqual(actual());
    const email = `count-${randomBytes(4).toString("hex")}@example.com`;
    db.insert(newsletterSubscribers).values({ email }).run();
    expect(counted()).toEqual({ ...before, pending: before.pending! + 1 });
    db.update(newsletterSubscribers).set({ status: "confirmed" }).where(eq(newsletterSubscribers.email, email)).run();
    expect(counted()).toEqual({ ...before, confirmed: before.confirmed! + 1 });
    // The same status again changes nothing; an upsert that changes it moves the row's count.
    db.update(newsletterSubscribers).set({ status: "confirmed" }).where(eq(newsletterSubscribers.email, email)).run();
    db.insert(newsletterSubscribers).values({ email }).onConflictDoUpdate({ target: newsletterSubscribers.email, set: { status: "unsubscribed" } }).run();
    expect(counted()).toEqual({ ...before, unsubscribed: before.unsubscribed! + 1 });
    db.delete(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)).run();
    expect(counted()).toEqual(before);
    expect(counted()).toEqual(actual());
  });

  it("reads each list's fields: company only on LP lists and only when there is one, dates as ISO", () => {
    for (const list of LIST_KEYS) {
      for (const row of readAllRows(list, DEFAULT_SORT)) {
        const keys = Object.keys(row).sort();
        if (list === "newsletter") expect(keys).toEqual(["date", "email"]);
        else if (list === "fund-ii-requests") expect(keys).toEqual(["date", "email", "name"]);
        else expect(keys).toEqual(row.company ? ["company", "date", "email", "name"] : ["date", "email", "name"]);
        expect(new Date(row.date).toISOString()).toBe(row.date);
        if (row.company !== undefined) expect(row.company).not.toBe("");
      }
    }
  });
});

describe("SQL order equals sortRows order", () => {
  it.each(EVERY_SORT)("%s sorted by %j", (list, sort) => {
    const expected = expectedOrder(list, sort);
    expect(expected.length).toBeGreaterThan(50);
    expect(readAllRows(list, sort)).toEqual(expected);
    // Windows of an odd size, put together, are the same list.
    const pages: ListRow[] = [];
    for (let offset = 0; offset < expected.length; offset += 37) {
      const page = readListPage(list, sort, { offset, limit: 37 });
      expect(page.total).toBe(expected.length);
      pages.push(...page.rows);
    }
    expect(pages).toEqual(expected);
  });

  it("descending is exactly ascending reversed (ties included)", () => {
    for (const list of LIST_KEYS) {
      for (const column of LISTS[list].columns) {
        const up = readAllRows(list, { column, direction: "asc" });
        expect(readAllRows(list, { column, direction: "desc" })).toEqual([...up].reverse());
      }
    }
  });

  it("the seeded rows really have ties and case variants to break", () => {
    const emails = readAllRows("newsletter", DEFAULT_SORT).map((r) => r.email);
    expect(new Set(emails.map((e) => e.toLowerCase())).size).toBeLessThan(emails.length);
    const dates = readAllRows("lp-users", DEFAULT_SORT).map((r) => r.date);
    expect(new Set(dates).size).toBeLessThan(dates.length);
    const companies = readAllRows("lp-users", { column: "company", direction: "asc" });
    expect(companies.some((r) => r.company === undefined)).toBe(true);
    expect(companies.some((r) => r.company === "n/a")).toBe(true);
  });

  it("a column the list does not have sorts by date", () => {
    const wrong: SortState = { column: "company", direction: "asc" };
    expect(readAllRows("newsletter", wrong)).toEqual(readAllRows("newsletter", { column: "date", direction: "asc" }));
    expect(readAllRows("fund-ii-requests", { column: "company", direction: "desc" })).toEqual(
      readAllRows("fund-ii-requests", { column: "date", direction: "desc" }),
    );
  });

  it("names and companies fold accented capitals too: 'éric' before 'Éva', 'ångström C…' before 'Ångström L…' (SQL and sortRows alike)", () => {
    const db = getDb();
    const tag = "accent-order";
    const users = [
      { name: "Éva", company: "Zinc" },
      { name: "éric", company: "Ångström Labs" },
      { name: "Eve", company: "ångström Capital" },
      { name: "ÉMILE", company: "Argon" },
    ].map((u, i) => ({ ...u, email: `${tag}-${i}@example.org`, passwordHash: "x", createdAt: new Date(BASE) }));
    db.insert(lpUsers).values(users).run();
    try {
      const mine = (column: "name" | "company") =>
        readAllRows("lp-users", { column, direction: "asc" }).filter((r) => r.email.startsWith(tag));
      // 'e' (U+0065) comes before 'é' (U+00E9); the case of the first letter no longer matters.
      expect(mine("name").map((r) => r.name)).toEqual(["Eve", "ÉMILE", "éric", "Éva"]);
      // Case-insensitive, not accent-insensitive: 'å' comes after 'z', and 'Å' now goes with it.
      expect(mine("company").map((r) => r.company)).toEqual(["Argon", "Zinc", "ångström Capital", "Ångström Labs"]);
      for (const column of ["name", "company"] as const) {
        const rows = mine(column);
        expect(sortRows([...rows].reverse(), { column, direction: "asc" })).toEqual(rows);
      }
    } finally {
      db.delete(lpUsers).where(sql`${lpUsers.email} like ${`${tag}-%`}`).run();
    }
  });
});

describe("readListPage", () => {
  it("answers one window and the list's total", () => {
    const all = readAllRows("lp-users", DEFAULT_SORT);
    const page = readListPage("lp-users", DEFAULT_SORT, { offset: 10, limit: 5 });
    expect(page.total).toBe(all.length);
    expect(page.total).toBe(countList("lp-users"));
    expect(page.rows).toEqual(all.slice(10, 15));
  });

  it("answers no rows past the end, and a short last window", () => {
    const total = countList("newsletter");
    expect(readListPage("newsletter", DEFAULT_SORT, { offset: total, limit: 50 })).toEqual({ rows: [], total });
    expect(readListPage("newsletter", DEFAULT_SORT, { offset: total - 3, limit: 50 }).rows).toHaveLength(3);
  });

  it("cuts offset and limit to whole numbers in range", () => {
    const all = readAllRows("newsletter", DEFAULT_SORT);
    expect(readListPage("newsletter", DEFAULT_SORT, { offset: -5, limit: 2.9 }).rows).toEqual(all.slice(0, 2));
    expect(readListPage("newsletter", DEFAULT_SORT, { offset: Number.NaN, limit: 3 }).rows).toEqual(all.slice(0, 3));
    expect(readListPage("newsletter", DEFAULT_SORT, { offset: 0, limit: 0 }).rows).toEqual([]);
    expect(readListPage("newsletter", DEFAULT_SORT, { offset: 0, limit: -1 }).rows).toEqual([]);
    expect(readListPage("newsletter", DEFAULT_SORT, { offset: 0, limit: Number.POSITIVE_INFINITY }).rows).toEqual(all);
    expect(readListPage("newsletter", DEFAULT_SORT, { offset: Number.POSITIVE_INFINITY, limit: 10 }).rows).toEqual([]);
    expect(MAX_PAGE_LIMIT).toBe(1000);
    expect(readListPage("newsletter", DEFAULT_SORT, { offset: 0, limit: 5000 }).rows).toEqual(all.slice(0, MAX_PAGE_LIMIT));
  });

  const INDEXED_SORTS = EVERY_SORT.filter(([, sort]) => sort.column === "email" || sort.column === "date");
  it.each(INDEXED_SORTS)("%s by %j walks an index: no sorting step, and the count reads an index", (list, sort) => {
    const statements = capturedStatements(() => readListPage(list, sort, { offset: 0, limit: 50 }));
    expect(statements).toHaveLength(2);
    const [page, count] = statements.map(queryPlan) as [string[], string[]];
    expect(page.join(" | ")).toMatch(/USING INDEX \w+_idx/);
    expect(page.join(" | ")).not.toMatch(/TEMP B-TREE/);
    // The newsletter's count is one row of newsletter_status_counts (by its key); the others count over an index.
    expect(count.join(" | ")).toMatch(list === "newsletter" ? /SEARCH newsletter_status_counts USING INDEX sqlite_autoindex_newsletter_status_counts_1 \(status=\?\)/ : /USING COVERING INDEX/);
  });

  it("the newsletter list (the long one) only sorts by e-mail and date, both indexed", () => {
    expect(LISTS.newsletter.columns).toEqual(["email", "date"]);
  });

  it.each(EVERY_SORT.filter(([, sort]) => sort.column === "name" || sort.column === "company"))(
    "%s by %j (fold_case) reads only the list's rows through an index, and counts through one",
    (list, sort) => {
      const statements = capturedStatements(() => readListPage(list, sort, { offset: 0, limit: 50 }));
      const [page, count] = statements.map(queryPlan) as [string[], string[]];
      expect(page.join(" | ")).toMatch(/USING (COVERING )?INDEX \w+_idx \((is_admin|status|fund_id)=/);
      expect(count.join(" | ")).toMatch(/USING COVERING INDEX/);
    },
  );
});

describe("GET /admin/email-lists/{list}.{csv|tsv}", () => {
  it.each(LIST_KEYS)("%s.csv: admin gets every row as an attachment (UTF-8 with BOM, CRLF, no caching)", async (list) => {
    const response = await exportRequest(`${list}.csv`, cookies.admin);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(
      new RegExp(`^attachment; filename="lumen-ridge-${list}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
    );
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    expect(text.endsWith("\r\n")).toBe(true);
    // Default order (date, newest first); every row present.
    const rows = readAllRows(list, DEFAULT_SORT);
    // The newsletter's CSV adds each confirmed subscriber's unsubscribe link.
    const headers = [...exportHeaders(list), ...(list === "newsletter" ? ["Unsubscribe URL"] : [])];
    expect(text.startsWith(`\uFEFF${headers.join(",")}\r\n`)).toBe(true);
    expect(text.split("\r\n")).toHaveLength(rows.length + 2);
    for (const row of rows) {
      const email = neutralizeFormula(row.email);
      expect(text).toContain(/[",\r\n]/.test(email) ? `"${email.replace(/"/g, '""')}"` : email);
    }
  });

  it.each(LIST_KEYS)("%s.tsv: admin gets every row, sorted as asked, inline as tab-separated values", async (list) => {
    const column = LISTS[list].columns[0] ?? "date";
    const response = await exportRequest(`${list}.tsv`, cookies.admin, `?sort=${column}&dir=asc`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/tab-separated-values; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(new RegExp(`^inline; filename="lumen-ridge-${list}-\\d{4}-\\d{2}-\\d{2}\\.tsv"$`));
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const lines = (await response.text()).split("\n");
    const rows = readAllRows(list, { column, direction: "asc" });
    expect(lines).toHaveLength(rows.length + 1);
    expect(lines[0]).toBe(exportHeaders(list).join("\t"));
    expect(lines.slice(1)).toEqual(rows.map((row) => exportCells(list, row).map((cell) => neutralizeFormula(cell.replace(/[\t\r\n]+/g, " "))).join("\t")));
  });

  it("newsletter.csv: each confirmed subscriber's row ends with its own working unsubscribe link; ?status= exports that status", async () => {
    const exported = async (query: string) => {
      const text = (await (await exportRequest("newsletter.csv", cookies.admin, query)).text()).replace(/^\uFEFF/, "");
      const lines = text.split("\r\n").filter(Boolean).slice(1);
      return { lines, tokens: lines.map((line) => /,https?:\/\/[^,]+\/unsubscribe\/newsletter\?token=([A-Za-z0-9_.-]+)$/.exec(line)?.[1] ?? null) };
    };
    const stored = getDb().select().from(newsletterSubscribers).all();
    const idsOf = (status: string) => stored.filter((r) => r.status === status).map((r) => r.id).sort();
    const confirmed = await exported("");
    expect(confirmed.tokens.every(Boolean)).toBe(true);
    expect(confirmed.tokens.map((token) => idFromSignedToken("newsletter-unsubscribe", token)).sort()).toEqual(idsOf("confirmed"));
    const pending = await exported("?status=pending");
    expect(pending.lines).toHaveLength(idsOf("pending").length);
    expect(pending.lines.every((line) => line.endsWith(","))).toBe(true);
    const unsubscribed = await exported("?status=unsubscribed");
    expect(unsubscribed.lines).toHaveLength(idsOf("unsubscribed").length);
  });

  it("falls back to date, newest first, for an unknown sort", async () => {
    const response = await exportRequest("newsletter.tsv", cookies.admin, "?sort=company&dir=sideways");
    const lines = (await response.text()).split("\n").slice(1);
    expect(lines.map((line) => line.split("\t")[0])).toEqual(readAllRows("newsletter", DEFAULT_SORT).map((r) => neutralizeFormula(r.email)));
  });

  it.each(["subscribers.csv", "newsletter.xlsx", "newsletter", "newsletter.CSV", "lp-users.csv.tsv"])(
    "answers 404 for /admin/email-lists/%s",
    async (file) => {
      const response = await exportRequest(file, cookies.admin);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: "Not found" });
    },
  );

  it.each([
    ["anonymous", 401, null, "Authentication required"],
    ["an approved investor", 403, "approved", "Admin access required"],
    ["a pending investor", 403, "pending", "Admin access required"],
    ["a rejected investor", 403, "rejected", "Admin access required"],
  ] as const)("refuses %s with %i JSON (no redirect, no rows), also for unknown files", async (_who, status, who, error) => {
    for (const file of ["newsletter.csv", "lp-users.tsv", "nothing.csv"]) {
      const response = await exportRequest(file, who ? cookies[who] : null);
      expect(response.status).toBe(status);
      expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({ error });
    }
  });
});

const subscriberReads = () =>
  getDb().select().from(auditEvents).where(eq(auditEvents.event, "newsletter.subscribers_read")).all().length;

describe("GET /api/newsletter/subscribers", () => {
  it("answers the admin every confirmed subscriber as { email, createdAt }, newest first, and records the read", async () => {
    const readsBefore = subscriberReads();
    const response = await subscribersRequest(cookies.admin);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    const body = (await response.json()) as { email: string; createdAt: string }[];
    const stored = getDb().select().from(newsletterSubscribers).all();
    expect(stored.some((r) => r.status !== "confirmed")).toBe(true);
    expect(body).toHaveLength(stored.filter((r) => r.status === "confirmed").length);
    expect(subscriberReads()).toBe(readsBefore + 1);
    for (const item of body) expect(Object.keys(item).sort()).toEqual(["createdAt", "email"]);
    expect(body).toEqual(expectedOrder("newsletter", DEFAULT_SORT).map((r) => ({ email: r.email, createdAt: r.date })));
    const times = body.map((item) => Date.parse(item.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it.each([
    ["anonymous", 401, null],
    ["an approved investor", 403, "approved"],
    ["a pending investor", 403, "pending"],
  ] as const)("refuses %s (%i)", async (_who, status, who) => {
    const response = await subscribersRequest(who ? cookies[who] : null);
    expect(response.status).toBe(status);
    expect(await response.json()).toHaveProperty("error");
  });

  it("answers [] when nobody subscribed", async () => {
    const db = getDb();
    const saved = db.select().from(newsletterSubscribers).orderBy(sql`rowid`).all();
    db.delete(newsletterSubscribers).run();
    try {
      const response = await subscribersRequest(cookies.admin);
      expect(await response.json()).toEqual([]);
      expect(readListPage("newsletter", DEFAULT_SORT, { offset: 0, limit: 50 })).toEqual({ rows: [], total: 0 });
    } finally {
      db.insert(newsletterSubscribers).values(saved).run();
    }
  });
});
