/**
 * The admin e-mail lists (SPEC.md §2 'Email Lists (Copy & Export)') and their
 * sort rules, shared by the server (queries, exports) and the page (zod-free).
 *
 * Sorting: clicking the active column toggles its direction; a new column
 * starts ascending, except date, which starts descending; the default is date
 * descending; comparisons are case-insensitive and a missing company counts
 * as 'N/A'.
 */
import { emailListsCopy } from "~/content/email-lists";

export const LIST_KEYS = ["lp-users", "rejected-lp-users", "fund-ii-requests", "newsletter"] as const;
export type ListKey = (typeof LIST_KEYS)[number];

export type SortColumn = "company" | "name" | "email" | "date";
export type SortDirection = "asc" | "desc";
export type SortState = { column: SortColumn; direction: SortDirection };

/** One row as every list shows it (company only on the LP lists; the unsubscribe link only in the newsletter's CSV). */
export type ListRow = { name?: string; company?: string; email: string; date: string; unsubscribeUrl?: string };

/**
 * Which rows of a list: the newsletter table shows one status of subscriber
 * (confirmed unless asked otherwise; issue 16). Other lists have no filter.
 */
export const NEWSLETTER_STATUSES = ["confirmed", "pending", "unsubscribed"] as const;
export type NewsletterStatus = (typeof NEWSLETTER_STATUSES)[number];
export type ListFilter = { status?: NewsletterStatus };
/** Every column, direction and status has its words in content (a missing one is a type error here). */
export const SORT_COLUMN_WORDS: Record<SortColumn, string> = emailListsCopy.columns;
export const SORT_DIRECTION_WORDS: Record<SortDirection, string> = emailListsCopy.directions;
export const NEWSLETTER_STATUS_WORDS: Record<NewsletterStatus, string> = emailListsCopy.statusFilter.options;
export const NEWSLETTER_EMPTY_WORDS: Record<Exclude<NewsletterStatus, "confirmed">, string> = emailListsCopy.statusFilter.empty;
export const DEFAULT_NEWSLETTER_STATUS: NewsletterStatus = "confirmed";

/** The newsletter table's status from a query value; anything unknown is the default (confirmed). */
export function parseNewsletterStatus(value: string | null | undefined): NewsletterStatus {
  return (NEWSLETTER_STATUSES as readonly string[]).includes(value ?? "") ? (value as NewsletterStatus) : DEFAULT_NEWSLETTER_STATUS;
}

export type ListDefinition = {
  key: ListKey;
  /** Used in the 'Copied!' toast: '{label} copied to clipboard'. */
  label: string;
  columns: readonly SortColumn[];
  empty: string;
};

export const LISTS: Record<ListKey, ListDefinition> = {
  "lp-users": {
    key: "lp-users",
    label: "LP portal users",
    columns: ["company", "name", "email", "date"],
    empty: "No LP users yet",
  },
  "rejected-lp-users": {
    key: "rejected-lp-users",
    label: "Rejected LP users",
    columns: ["company", "name", "email", "date"],
    empty: "No rejected LP users",
  },
  "fund-ii-requests": {
    key: "fund-ii-requests",
    label: "Fund II access requests",
    columns: ["name", "email", "date"],
    empty: "No Fund II access requests yet",
  },
  newsletter: {
    key: "newsletter",
    label: "Newsletter subscribers",
    columns: ["email", "date"],
    empty: "No newsletter subscribers yet",
  },
};

export const DEFAULT_SORT: SortState = { column: "date", direction: "desc" };
export const MISSING_COMPANY = "N/A";

export function isListKey(value: unknown): value is ListKey {
  return typeof value === "string" && (LIST_KEYS as readonly string[]).includes(value);
}

/** The sort after clicking `column` while `current` is active. */
export function nextSort(current: SortState, column: SortColumn): SortState {
  if (current.column === column) return { column, direction: current.direction === "asc" ? "desc" : "asc" };
  return { column, direction: column === "date" ? "desc" : "asc" };
}

/** A list's sort from query values (`sort`, `dir`); anything unknown falls back to the default. */
export function parseSort(list: ListKey, column: string | null, direction: string | null): SortState {
  const columns = LISTS[list].columns as readonly string[];
  if (!column || !columns.includes(column)) return DEFAULT_SORT;
  const fallback: SortDirection = column === "date" ? "desc" : "asc";
  return { column: column as SortColumn, direction: direction === "asc" || direction === "desc" ? direction : fallback };
}

/** A–Z folded to a–z, as SQLite's NOCASE does (e-mails: stored lower-cased already). */
function foldAscii(value: string): string {
  return value.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/**
 * The value a row sorts by in a column, as the database sorts it
 * (email-lists.server.ts): names and companies Unicode-lower-cased (the
 * database's fold_case), e-mails A–Z-folded (NOCASE), a missing company 'N/A'.
 */
export function sortKey(row: ListRow, column: SortColumn): string {
  if (column === "date") return row.date;
  if (column === "company") return (row.company || MISSING_COMPANY).toLowerCase();
  if (column === "email") return foldAscii(row.email);
  return (row[column] ?? "").toLowerCase();
}

/** Rows sorted by the state (stable; ties keep their order). */
export function sortRows<R extends ListRow>(rows: readonly R[], sort: SortState): R[] {
  const sign = sort.direction === "asc" ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, key: sortKey(row, sort.column) }))
    .sort((a, b) => (a.key < b.key ? -sign : a.key > b.key ? sign : a.index - b.index))
    .map((entry) => entry.row);
}
