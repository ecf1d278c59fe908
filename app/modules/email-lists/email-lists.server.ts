import { and, asc, count, desc, eq, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { getDb, type Db } from "~/modules/db/connection.server";
import { fundAccessUsers, lpUsers, newsletterStatusCounts, newsletterSubscribers } from "../../../db/schema";
import { audit } from "../audit/audit.server";
import type { LpUser } from "../auth/session.server";
import { now } from "../config/clock.server";
import { newsletterUnsubscribeUrl } from "../newsletter/newsletter.server";
import { exportFileName, type ExportFormat } from "./export";
import { DEFAULT_NEWSLETTER_STATUS, DEFAULT_SORT, LISTS, type ListFilter, type ListKey, type ListRow, type SortColumn, type SortState } from "./lists";

/**
 * The admin e-mail lists read from the database (SPEC.md §2 'Email Lists
 * (Copy & Export)'), sorted by SQL the way lists.ts's sortRows sorts:
 *
 * - company: a missing or empty company counts as 'N/A'; text columns compare
 *   case-insensitively; date is created_at.
 * - Names and companies compare by fold_case() (db/client.ts: JavaScript's
 *   toLowerCase, so 'Éva' sorts with 'éva', after 'éric'). E-mails compare by
 *   COLLATE NOCASE (A–Z only): every stored e-mail was lower-cased at the
 *   edge, so nothing else is left to fold (decision 015).
 * - Ties go by insertion order (rowid) in the sort's direction, so a
 *   descending list is exactly the ascending one reversed, and every page is
 *   deterministic.
 * - E-mail and date sorts walk an index (db/schema.ts, migration
 *   0004_email_list_indexes): a page reads only its own rows, at 100 rows or
 *   100,000 (the newsletter list sorts by these two only). A name or company
 *   sort reads the list's rows and keeps the page's worth (7–17 ms at 10,000
 *   LP users, measured on a busy 2-core machine). The total is a count over an index (10,000 LP users: ~0.3 ms);
 *   the newsletter's is read from newsletter_status_counts, kept by triggers
 *   (counting one status over its index took 3 ms at 100,000).
 *
 * Which rows: 'LP portal users' is every non-admin lp_users row, whatever its
 * status (pending, approved and rejected); 'Rejected LP users' the non-admin
 * rows with status rejected; 'Fund II access requests' every fund_access_users
 * row of fund-ii (one per e-mail, revoked ones included, as in
 * GET /api/fund-access/requests); 'Newsletter subscribers' the subscribers of
 * one status (ListFilter; confirmed unless asked otherwise, issue 16), read
 * by the (status, created_at) index for the date sort.
 */

export type ListPage = { rows: ListRow[]; total: number };

/** The largest window readListPage answers (a bigger limit is cut down to this). */
export const MAX_PAGE_LIMIT = 1000;

type Source = {
  table: typeof lpUsers | typeof fundAccessUsers | typeof newsletterSubscribers;
  /** Which rows; `sortedBy` is given when the rows are read in that column's order (not for the count). */
  where: (filter: ListFilter, sortedBy?: SortColumn) => SQL | undefined;
  /** The ORDER BY expression of each sortable column (the very expressions the indexes are on). */
  keys: Partial<Record<SortColumn, SQL | SQLiteColumn>>;
  /** What is read, in this order; created_at last (raw milliseconds). */
  select: Record<string, SQLiteColumn>;
  /** A raw result row (in `select` order) as a list row. */
  toRow: (values: unknown[]) => ListRow;
};

/** `column collate nocase`: the very expression of the "<column> collate nocase" indexes. */
const nocase = (column: SQLiteColumn): SQL => sql`${column} collate nocase`;

/** Unicode case folding (db/client.ts registers fold_case on every connection). */
const folded = (value: SQLiteColumn | SQL): SQL => sql`fold_case(${value})`;

/** A missing or empty company counts as 'N/A'. */
const companyKey = (company: SQLiteColumn): SQL =>
  folded(sql`case when ${company} is null or ${company} = '' then 'N/A' else ${company} end`);

/** created_at (integer milliseconds) as ISO 8601. */
const iso = (value: unknown) => new Date(value as number).toISOString();

const lpKeys = {
  company: companyKey(lpUsers.company),
  name: folded(lpUsers.name),
  email: nocase(lpUsers.email),
  date: lpUsers.createdAt,
};

const lpSelect = { company: lpUsers.company, name: lpUsers.name, email: lpUsers.email, createdAt: lpUsers.createdAt };

function lpRow([company, name, email, createdAt]: unknown[]): ListRow {
  // A missing or empty company is left out (the table and the exports show 'N/A').
  return company
    ? { company: company as string, name: name as string, email: email as string, date: iso(createdAt) }
    : { name: name as string, email: email as string, date: iso(createdAt) };
}

const SOURCES: Record<ListKey, Source> = {
  "lp-users": {
    table: lpUsers,
    where: () => eq(lpUsers.isAdmin, false),
    keys: lpKeys,
    select: lpSelect,
    toRow: lpRow,
  },
  "rejected-lp-users": {
    table: lpUsers,
    where: () => and(eq(lpUsers.status, "rejected"), eq(lpUsers.isAdmin, false)),
    keys: lpKeys,
    select: lpSelect,
    toRow: lpRow,
  },
  "fund-ii-requests": {
    table: fundAccessUsers,
    where: () => eq(fundAccessUsers.fundId, "fund-ii"),
    keys: { name: folded(fundAccessUsers.name), email: nocase(fundAccessUsers.email), date: fundAccessUsers.createdAt },
    select: { name: fundAccessUsers.name, email: fundAccessUsers.email, createdAt: fundAccessUsers.createdAt },
    toRow: ([name, email, createdAt]) => ({ name: name as string, email: email as string, date: iso(createdAt) }),
  },
  newsletter: {
    table: newsletterSubscribers,
    // The date sort walks (status, created_at); the e-mail sort walks the e-mail index and tests each
    // row's status (the unary + keeps SQLite from taking the status index and sorting every row).
    where: (filter, sortedBy) => {
      const status = filter.status ?? DEFAULT_NEWSLETTER_STATUS;
      return sortedBy === "email" ? sql`+${newsletterSubscribers.status} = ${status}` : eq(newsletterSubscribers.status, status);
    },
    keys: { email: nocase(newsletterSubscribers.email), date: newsletterSubscribers.createdAt },
    select: { email: newsletterSubscribers.email, createdAt: newsletterSubscribers.createdAt },
    toRow: ([email, createdAt]) => ({ email: email as string, date: iso(createdAt) }),
  },
};

/** Ties: insertion order. Every index ends with the rowid, so this costs no sorting. */
const ROWID = sql`rowid`;

/** The column a list is really sorted by: a column the list does not have falls back to date. */
function sortColumn(list: ListKey, sort: SortState): SortColumn {
  return LISTS[list].columns.includes(sort.column) ? sort.column : "date";
}

/** ORDER BY for a list's sort. */
function orderBy(list: ListKey, sort: SortState): SQL[] {
  const source = SOURCES[list];
  const column = sortColumn(list, sort);
  const key = source.keys[column] ?? source.keys.date;
  if (!key) throw new Error(`list ${list} has no date column`);
  const dir = sort.direction === "asc" ? asc : desc;
  return [dir(key), dir(ROWID)];
}

function selectSorted(list: ListKey, sort: SortState, db: Db, filter: ListFilter, select = SOURCES[list].select) {
  const source = SOURCES[list];
  return db
    .select(select)
    .from(source.table)
    .where(source.where(filter, sortColumn(list, sort)))
    .orderBy(...orderBy(list, sort));
}

/** How many rows a list has. */
export function countList(list: ListKey, db: Db = getDb(), filter: ListFilter = {}): number {
  if (list === "newsletter") {
    // Kept by triggers (migration 0016): O(1) at any size.
    const status = filter.status ?? DEFAULT_NEWSLETTER_STATUS;
    return db.select({ n: newsletterStatusCounts.n }).from(newsletterStatusCounts).where(eq(newsletterStatusCounts.status, status)).get()?.n ?? 0;
  }
  const source = SOURCES[list];
  return db.select({ n: count() }).from(source.table).where(source.where(filter)).get()?.n ?? 0;
}

/**
 * One window of a sorted list, and the list's total: what the dashboard
 * renders. `offset` and `limit` are cut to whole numbers, `limit` to at most
 * MAX_PAGE_LIMIT. The cost does not grow with the list, except for a deep
 * offset (the index is walked up to it: about 20 ms at offset 100,000).
 */
export function readListPage(
  list: ListKey,
  sort: SortState,
  page: { offset: number; limit: number },
  db: Db = getDb(),
  filter: ListFilter = {},
): ListPage {
  const offset = wholeNumber(page.offset, Number.MAX_SAFE_INTEGER);
  const limit = wholeNumber(page.limit, MAX_PAGE_LIMIT);
  const source = SOURCES[list];
  const values = limit === 0 ? [] : (selectSorted(list, sort, db, filter).limit(limit).offset(offset).values() as unknown[][]);
  return { rows: values.map(source.toRow), total: countList(list, db, filter) };
}

/**
 * Every row of a list in sort order (Copy All, the CSV download,
 * GET /api/newsletter/subscribers). Read in one synchronous go, on purpose:
 * a better-sqlite3 iterator kept open across awaits would block the shared
 * connection for every other request.
 */
export function readAllRows(list: ListKey, sort: SortState, db: Db = getDb(), filter: ListFilter = {}): ListRow[] {
  const source = SOURCES[list];
  return (selectSorted(list, sort, db, filter).values() as unknown[][]).map(source.toRow);
}

/**
 * The newsletter's rows with each confirmed subscriber's unsubscribe link (the
 * CSV export, for the firm's mailing tool); other statuses get none.
 */
function readNewsletterWithLinks(sort: SortState, db: Db, filter: ListFilter): ListRow[] {
  const select = { id: newsletterSubscribers.id, status: newsletterSubscribers.status, ...SOURCES.newsletter.select };
  return (selectSorted("newsletter", sort, db, filter, select).values() as unknown[][]).map(([id, status, email, createdAt]) => ({
    email: email as string,
    date: iso(createdAt),
    unsubscribeUrl: status === "confirmed" ? newsletterUnsubscribeUrl(id as string) : "",
  }));
}

function wholeNumber(value: number, max: number): number {
  if (Number.isNaN(value) || value <= 0) return 0;
  return Math.min(Math.floor(value), max);
}

/**
 * An admin's export of a whole list: the rows of the CSV download or of the
 * TSV Copy All puts on the clipboard (the newsletter's CSV with each confirmed
 * subscriber's unsubscribe link), recorded in the audit trail (who took which
 * list, how many rows). The route writes them (export.ts).
 */
export function exportList(
  admin: Pick<LpUser, "id" | "email">,
  target: { list: ListKey; format: ExportFormat },
  sort: SortState,
  db: Db = getDb(),
  filter: ListFilter = {},
): { rows: ListRow[]; fileName: string } {
  const csv = target.format === "csv";
  const rows = csv && target.list === "newsletter" ? readNewsletterWithLinks(sort, db, filter) : readAllRows(target.list, sort, db, filter);
  audit(db, csv ? "email_list.exported" : "email_list.copied", {
    actor: { id: admin.id, email: admin.email },
    target: { type: "email_list", id: target.list, label: target.list },
    details: {
      list: target.list,
      format: target.format,
      rows: rows.length,
      sort: `${sort.column} ${sort.direction}`,
      ...(target.list === "newsletter" ? { status: filter.status ?? DEFAULT_NEWSLETTER_STATUS } : {}),
    },
  });
  return { rows, fileName: exportFileName(target.list, target.format, now()) };
}

/**
 * GET /api/newsletter/subscribers: the confirmed subscribers, newest first,
 * and a `newsletter.subscribers_read` audit row (who read how many).
 */
export function readSubscribersForApi(admin: Pick<LpUser, "id" | "email">, db: Db = getDb()): ListRow[] {
  const filter: ListFilter = { status: "confirmed" };
  const rows = readAllRows("newsletter", DEFAULT_SORT, db, filter);
  audit(db, "newsletter.subscribers_read", {
    actor: { id: admin.id, email: admin.email },
    target: { type: "email_list", id: "newsletter", label: "newsletter" },
    details: { list: "newsletter", status: filter.status, rows: rows.length },
  });
  return rows;
}
