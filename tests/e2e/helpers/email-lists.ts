import { randomBytes } from "node:crypto";
import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { randomClientIp } from "./documents";
import { confirmRegistrationFromMail, latestMailTo, postLogin } from "./accounts";

/**
 * The admin's 'Email Lists (Copy & Export)' page (SPEC.md §2,
 * §8, §9) as an admin sees it, and its exports as a spreadsheet reads them.
 * Labels, texts, headers and the sort rule are written out here (not
 * imported from app/), so a change that breaks the spec fails a test.
 */

export const LIST_KEYS = ["lp-users", "rejected-lp-users", "fund-ii-requests", "newsletter"] as const;
export type ListKey = (typeof LIST_KEYS)[number];
export type Column = "company" | "name" | "email" | "date";
export type Direction = "asc" | "desc";
export type Sort = { column: Column; direction: Direction };

export const LISTS: Record<ListKey, { label: string; columns: readonly Column[]; empty: string }> = {
  "lp-users": {
    label: "LP portal users",
    columns: ["company", "name", "email", "date"],
    empty: "No LP users yet",
  },
  "rejected-lp-users": {
    label: "Rejected LP users",
    columns: ["company", "name", "email", "date"],
    empty: "No rejected LP users",
  },
  "fund-ii-requests": {
    label: "Fund II access requests",
    columns: ["name", "email", "date"],
    empty: "No Fund II access requests yet",
  },
  newsletter: {
    label: "Newsletter subscribers",
    columns: ["email", "date"],
    empty: "No newsletter subscribers yet",
  },
};

export const COLUMN_NAMES: Record<Column, string> = {
  company: "Company",
  name: "Name",
  email: "Email",
  date: "Date",
};
/** The export's header row (the date column says its time zone). */
export const EXPORT_HEADERS: Record<Column, string> = {
  company: "Company",
  name: "Name",
  email: "Email",
  date: "Date (UTC)",
};
const DIRECTION_NAMES: Record<Direction, string> = {
  asc: "ascending",
  desc: "descending",
};

export const SECTION_TITLE = "Email Lists (Copy & Export)";
export const PAGE_SIZE = 50;
export const DEFAULT_SORT: Sort = { column: "date", direction: "desc" };
export const TOASTS = {
  copied: (label: string) => ({
    title: "Copied!",
    description: `${label} copied to clipboard`,
  }),
  failed: { title: "Failed to copy", description: "Please try again" },
} as const;

/** One row as the table shows it (company already 'N/A' when missing) or as an export lists it. */
export type Row = {
  company?: string;
  name?: string;
  email: string;
  date: string;
  dateTime?: string;
};

/* ------------------------------------------------------------------------ */
/* The page.                                                                */
/* ------------------------------------------------------------------------ */

/** What a click on `column` does to `current` (SPEC.md §2): toggle; a new column ascending, except date descending. */
export function nextSort(current: Sort, column: Column): Sort {
  if (current.column === column) return { column, direction: current.direction === "asc" ? "desc" : "asc" };
  return { column, direction: column === "date" ? "desc" : "asc" };
}

/** The locators of one list's table and controls. */
export function emailList(page: Page, list: ListKey) {
  const { label } = LISTS[list];
  const section = page.locator(`section#email-list-${list}`);
  const table = section.getByRole("table", { name: label, exact: true });
  return {
    label,
    section,
    heading: section.getByRole("heading", { level: 2 }),
    table,
    header: (column: Column) =>
      table.getByRole("columnheader", {
        name: COLUMN_NAMES[column],
        exact: true,
      }),
    sortLink: (column: Column, direction: Direction) =>
      table.getByRole("link", {
        name: `Sort by ${COLUMN_NAMES[column]}, ${DIRECTION_NAMES[direction]}`,
        exact: true,
      }),
    copyAll: section.getByRole("button", {
      name: `Copy All ${label}`,
      exact: true,
    }),
    download: section.getByRole("link", {
      name: `Download CSV ${label}`,
      exact: true,
    }),
    previous: section.getByRole("link", {
      name: `Previous page of ${label}`,
      exact: true,
    }),
    next: section.getByRole("link", {
      name: `Next page of ${label}`,
      exact: true,
    }),
    showing: section.getByText(/^Showing \S+\u2013\S+ of \S+$/),
    emptyText: table.getByRole("cell", {
      name: LISTS[list].empty,
      exact: true,
    }),
  };
}

/** 'Showing 1–50 of 53' (en dash). */
export function showingText(first: number, last: number, total: number): string {
  return `Showing ${first}\u2013${last} of ${total}`;
}

/** The page's state of a table: every header's aria-sort and the name of every sort link (what a click will do). */
export async function expectSortState(page: Page, list: ListKey, sort: Sort) {
  const ui = emailList(page, list);
  for (const column of LISTS[list].columns) {
    const active = column === sort.column;
    await expect(ui.header(column), `${list}: aria-sort of ${column}`).toHaveAttribute(
      "aria-sort",
      active ? DIRECTION_NAMES[sort.direction] : "none",
    );
    const next = nextSort(sort, column);
    await expect(ui.sortLink(column, next.direction), `${list}: the ${column} link names its next sort`).toBeVisible();
  }
  await expect(ui.download).toHaveAttribute("href", `/admin/email-lists/${list}.csv?sort=${sort.column}&dir=${sort.direction}`);
}

/**
 * One table's view as the URL gives it: `{list}.sort`, `{list}.dir` and
 * `{list}.page`, a missing sort read as the default (date descending) and a
 * missing page as page 1.
 */
export async function expectViewParams(page: Page, list: ListKey, view: { sort: Sort; page: number }) {
  const actual = () => {
    const params = new URL(page.url()).searchParams;
    return {
      sort: params.get(`${list}.sort`) ?? DEFAULT_SORT.column,
      dir: params.get(`${list}.dir`) ?? DEFAULT_SORT.direction,
      page: params.get(`${list}.page`) ?? "1",
    };
  };
  await expect.poll(actual, { message: `${list}'s view in the URL` }).toEqual({
    sort: view.sort.column,
    dir: view.sort.direction,
    page: String(view.page),
  });
}

/** The rows the table shows now (its current page), cell by cell; [] for the empty-state row. */
export async function readTableRows(page: Page, list: ListKey): Promise<Row[]> {
  const columns = LISTS[list].columns;
  const cells = await emailList(page, list)
    .table.locator("tbody tr")
    .evaluateAll((rows) =>
      rows.map((tr) =>
        Array.from((tr as HTMLTableRowElement).cells).map((td) => ({
          text: (td.textContent ?? "").trim(),
          dateTime: td.querySelector("time")?.getAttribute("datetime") ?? null,
          colSpan: (td as HTMLTableCellElement).colSpan,
        })),
      ),
    );
  if (cells.length === 1 && cells[0]!.length === 1 && cells[0]![0]!.colSpan > 1) return [];
  return cells.map((row) => {
    expect(row.length, `a row of ${list} has one cell per column`).toBe(columns.length);
    const out: Row = { email: "", date: "" };
    columns.forEach((column, index) => {
      const cell = row[index]!;
      if (column === "date") {
        out.date = cell.text;
        out.dateTime = cell.dateTime ?? undefined;
      } else {
        out[column] = cell.text;
      }
    });
    return out;
  });
}

/**
 * Every row of the table in its current sort: page 1, then each next page
 * (clicking 'Next'). Leaves the page on the table's last page.
 */
export async function readAllTableRows(page: Page, list: ListKey, total: number): Promise<Row[]> {
  const ui = emailList(page, list);
  const rows = await readTableRows(page, list);
  if (total <= PAGE_SIZE) {
    await expect(ui.next).toHaveCount(0);
    await expect(ui.previous).toHaveCount(0);
    return rows;
  }
  let first = 1;
  for (;;) {
    const last = Math.min(first + PAGE_SIZE - 1, total);
    if (last === total) {
      await expect(ui.next).toHaveAttribute("aria-disabled", "true");
      return rows;
    }
    await ui.next.click();
    first += PAGE_SIZE;
    await expect(ui.showing).toHaveText(showingText(first, Math.min(first + PAGE_SIZE - 1, total), total));
    await expect(ui.previous).not.toHaveAttribute("aria-disabled", "true");
    rows.push(...(await readTableRows(page, list)));
  }
}

/* ------------------------------------------------------------------------ */
/* The sort rule.                                                           */
/* ------------------------------------------------------------------------ */

/** The value a row sorts by: date by its time; text case-insensitively; a missing company as 'N/A'. */
export function sortKey(row: Row, column: Column): string {
  if (column === "date") return row.dateTime ?? row.date;
  const value = column === "company" ? row.company || "N/A" : (row[column] ?? "");
  return value.toLowerCase();
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The rows are in the sort's order (rows with equal keys may come in any order). */
export function expectSorted(rows: readonly Row[], sort: Sort, what: string) {
  const keys = rows.map((row) => sortKey(row, sort.column));
  if (sort.column === "date") expect(keys.filter((key) => !key), `${what}: every row has a sortable date`).toEqual([]);
  const sign = sort.direction === "asc" ? 1 : -1;
  const sorted = [...keys].sort((a, b) => sign * compare(a, b));
  expect(keys, `${what}: sorted by ${sort.column} ${sort.direction} (case-insensitive, missing company 'N/A')`).toEqual(sorted);
}

/** The same rows, whatever their order (compared by their cells other than the date). */
export function expectSameRows(actual: readonly Row[], expected: readonly Row[], what: string) {
  const strip = (row: Row) => JSON.stringify([row.company ?? null, row.name ?? null, row.email]);
  expect(actual.map(strip).sort(), `${what}: the rows`).toEqual(expected.map(strip).sort());
}

/* ------------------------------------------------------------------------ */
/* The exports, built independently of the app for comparison.              */
/* ------------------------------------------------------------------------ */

/** '2026-03-05T14:07:09.123Z' → '2026-03-05 14:07' (UTC). */
export function exportDate(iso: string): string {
  const date = new Date(iso);
  expect(Number.isNaN(date.getTime()), `a valid date: ${iso}`).toBe(false);
  return date.toISOString().slice(0, 16).replace("T", " ");
}

/** A cell a spreadsheet would run as a formula gets a leading quote. */
export function neutralised(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** The export's cells of table rows (company 'N/A' when missing, date 'yyyy-MM-dd HH:mm' UTC, formulas neutralised). */
export function exportRecords(list: ListKey, rows: readonly Row[]): string[][] {
  const columns = LISTS[list].columns;
  return [
    columns.map((column) => EXPORT_HEADERS[column]),
    ...rows.map((row) =>
      columns.map((column) => {
        if (column === "date") return exportDate(row.dateTime ?? row.date);
        if (column === "company") return neutralised(row.company || "N/A");
        return neutralised(row[column] ?? "");
      }),
    ),
  ];
}

/** The TSV Copy All must put on the clipboard for these rows: lines joined by '\n', no trailing newline. */
export function expectedTsv(list: ListKey, rows: readonly Row[]): string {
  return exportRecords(list, rows)
    .map((cells) => cells.map((cell) => cell.replace(/[\t\r\n]+/g, " ")).join("\t"))
    .join("\n");
}

/** RFC 4180 CSV (after an optional BOM) as records of fields. */
export function parseCsv(text: string): string[][] {
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let i = 0;
  let quoted = false;
  // Where a line break stands outside a quoted field and not as a record's CRLF: asserted once, below
  // (an expect per character costs more with every expect the test has made).
  const bareBreaks: number[] = [];
  while (i < body.length) {
    const c = body[i]!;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (c === '"') {
        quoted = false;
        i++;
      } else {
        field += c;
        i++;
      }
      continue;
    }
    if (c === '"' && field === "") {
      quoted = true;
      i++;
    } else if (c === ",") {
      record.push(field);
      field = "";
      i++;
    } else if (c === "\r" && body[i + 1] === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      i += 2;
    } else {
      if (c === "\r" || c === "\n") bareBreaks.push(i);
      field += c;
      i++;
    }
  }
  expect(bareBreaks, "bare line breaks in the CSV (outside quotes, not a record's CRLF), at").toEqual([]);
  expect(quoted, "the CSV ends outside a quoted field").toBe(false);
  expect(field === "" && record.length === 0, "the CSV ends with CRLF after its last record").toBe(true);
  return records;
}

/** TSV as records: '\n' between lines, tabs between cells. */
export function parseTsv(text: string): string[][] {
  return text.split("\n").map((line) => line.split("\t"));
}

/** A CSV file as Download CSV gives it: BOM, CRLF records, the header row; returns the records. */
export function expectCsvShape(text: string, list: ListKey): string[][] {
  expect(text.charCodeAt(0), "the CSV starts with a UTF-8 byte order mark").toBe(0xfeff);
  expect(text.endsWith("\r\n"), "the CSV ends with CRLF").toBe(true);
  const records = parseCsv(text);
  const columns = LISTS[list].columns.map((column) => EXPORT_HEADERS[column]);
  if (list !== "newsletter") {
    expect(records[0], "the CSV header row").toEqual(columns);
    return records;
  }
  // The newsletter's CSV adds each (confirmed) subscriber's unsubscribe link for the firm's mailing tool.
  expect(records[0], "the CSV header row").toEqual([...columns, "Unsubscribe URL"]);
  // One assertion for every row (an expect per row costs more with each expect a test has made).
  const link = /^https?:\/\/[^/]+\/unsubscribe\/newsletter\?token=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/;
  const badLinks = records.slice(1).filter((cells) => !link.test(cells.at(-1) ?? "")).map((cells) => `${cells[0]}: ${cells.at(-1)}`);
  expect(badLinks, "every subscriber's unsubscribe link").toEqual([]);
  return records.map((cells) => cells.slice(0, -1));
}

/** Export records (header first) as rows, for sort checks. */
export function recordsToRows(list: ListKey, records: string[][]): Row[] {
  const columns = LISTS[list].columns;
  const misshapen = records.slice(1).filter((cells) => cells.length !== columns.length);
  expect(misshapen, `every export record of ${list} has one field per column`).toEqual([]);
  return records.slice(1).map((cells) => {
    const row: Row = { email: "", date: "" };
    columns.forEach((column, index) => {
      const value = cells[index]!;
      if (column === "date") row.date = value;
      else row[column] = value.startsWith("'") && /^'[=+\-@]/.test(value) ? value.slice(1) : value;
    });
    return row;
  });
}

/** The export file name: 'lumen-ridge-{list}-{yyyy-MM-dd}.{csv|tsv}' (a date in UTC, today or, just past midnight, yesterday). */
export function exportFileNamePattern(list: ListKey, format: "csv" | "tsv"): RegExp {
  return new RegExp(`^lumen-ridge-${list}-\\d{4}-\\d{2}-\\d{2}\\.${format}$`);
}

/* ------------------------------------------------------------------------ */
/* Seeding through the public API (each call from an address of its own).  */
/* ------------------------------------------------------------------------ */

function fromNewAddress() {
  return { "X-Forwarded-For": randomClientIp() };
}

/** A few milliseconds apart, so rows made one after another never share a creation time. */
const pause = () => new Promise((resolve) => setTimeout(resolve, 3));

/**
 * A confirmed newsletter subscriber, as a visitor becomes one: POST /api/newsletter
 * (202, pending), then the confirmation link from the mail the site sent, and
 * its page's button (a POST to the link).
 */
export async function subscribe(api: APIRequestContext, email: string) {
  const response = await api.post("/api/newsletter", {
    data: { email },
    headers: fromNewAddress(),
  });
  expect(response.status(), `subscribe ${email}: ${await response.text()}`).toBe(202);
  // Isolated servers of parallel workers mail the same addresses to the same sink: take this server's link.
  await confirmFromMail(api, email, new URL(response.url()).origin);
  await pause();
}

/** Confirm a subscription through the newest confirmation mail to the address (the link, then its button's POST). */
export async function confirmFromMail(api: APIRequestContext, email: string, origin = "") {
  const mail = await latestMailTo(email, /^Confirm your .* newsletter subscription$/, `${origin}/newsletter/confirm?token=`);
  const link = mail.text.match(/https?:\/\/\S+\/newsletter\/confirm\?token=\S+/)?.[0];
  expect(link, `a confirmation link in the mail to ${email}`).toBeTruthy();
  // As the page's button posts it (an empty form): confirmed, it goes on to the thank-you (303).
  const confirmed = await api.post(link!, {
    headers: { ...fromNewAddress(), "Content-Type": "application/x-www-form-urlencoded" },
    data: "",
    maxRedirects: 0,
  });
  expect(confirmed.status(), `confirm ${email}`).toBe(303);
  expect(confirmed.headers()["location"]).toBe("/newsletter/confirm?confirmed=1");
}

export type SeedUser = {
  email: string;
  name: string;
  company?: string;
  status: "pending" | "approved" | "rejected";
};

/**
 * Register (POST /api/auth/register) and confirm the address with the mailed link; the admin then sets
 * the status over PATCH /api/auth/users/{id}/status.
 */
export async function registerUser(api: APIRequestContext, user: SeedUser) {
  const password = `pw-${randomBytes(6).toString("hex")}`;
  const response = await api.post("/api/auth/register", {
    data: {
      email: user.email,
      password,
      name: user.name,
      ...(user.company ? { company: user.company } : {}),
    },
    headers: fromNewAddress(),
  });
  expect(response.status(), `register ${user.email}: ${await response.text()}`).toBe(201);
  // Only a confirmed address reaches the admins' lists (decision 028).
  await confirmRegistrationFromMail(api, user.email, password, { origin: new URL(response.url()).origin, headers: fromNewAddress() });
  await pause();
}

export async function setUserStatuses(api: APIRequestContext, adminCookie: string, users: readonly SeedUser[]) {
  const byEmail = new Map<string, string>();
  const pending = await api.get("/api/auth/pending-users", {
    headers: { Cookie: adminCookie },
  });
  expect(pending.status()).toBe(200);
  for (const u of (await pending.json()) as { id: string; email: string }[]) byEmail.set(u.email, u.id);
  for (const user of users) {
    if (user.status === "pending") continue;
    const id = byEmail.get(user.email.toLowerCase());
    expect(id, `${user.email} is pending`).toBeTruthy();
    const response = await api.patch(`/api/auth/users/${id}/status`, {
      data: { status: user.status },
      headers: { Cookie: adminCookie },
    });
    expect(response.status(), `set ${user.email} ${user.status}: ${await response.text()}`).toBe(200);
  }
}

export async function requestFundAccess(api: APIRequestContext, request: { email: string; name: string; fundId: "fund-i" | "fund-ii" }) {
  const response = await api.post("/api/fund-access/register", {
    data: { ...request, accreditedConfirmation: true },
    headers: fromNewAddress(),
  });
  expect(response.status(), `fund access ${request.email}: ${await response.text()}`).toBe(201);
  await pause();
}

/** Sign in over the API from an address of its own; returns the session cookie ("name=value"). */
export async function apiLogin(api: APIRequestContext, email: string, password: string): Promise<string> {
  const response = await postLogin(api, email, password, fromNewAddress());
  expect(response.status(), await response.text()).toBe(200);
  const cookie = (response.headers()["set-cookie"] ?? "").split(";")[0] ?? "";
  expect(cookie).toMatch(/lr_session=/);
  return cookie;
}

/** The table rows the seeded data should show: company 'N/A' when missing, e-mails lower-cased. */
export function asRows(items: readonly { email: string; name?: string; company?: string }[], list: ListKey): Row[] {
  const columns = LISTS[list].columns;
  return items.map((item) => ({
    ...(columns.includes("company") ? { company: item.company || "N/A" } : {}),
    ...(columns.includes("name") ? { name: item.name ?? "" } : {}),
    email: item.email.toLowerCase(),
    date: "",
  }));
}

/** Mark the window before a click; expectNoReload then proves the click did not load a new document. */
export async function setReloadMarker(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { __emailListsMarker?: string }).__emailListsMarker = "still here";
  });
}

export async function expectNoReload(page: Page) {
  expect(
    await page.evaluate(() => (window as unknown as { __emailListsMarker?: string }).__emailListsMarker ?? null),
    "the window survived the click (no full page load)",
  ).toBe("still here");
}

/** The number in '{label} {n} total'. */
export async function totalOf(heading: Locator, label: string): Promise<number> {
  const text = ((await heading.textContent()) ?? "").replace(/\s+/g, " ").trim();
  const match = new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} ([\\d,]+) total$`).exec(text);
  expect(match, `heading '${text}' reads '${label} {n} total'`).not.toBeNull();
  return Number(match![1]!.replace(/,/g, ""));
}
