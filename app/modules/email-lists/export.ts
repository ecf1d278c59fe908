import { DEFAULT_NEWSLETTER_STATUS, DEFAULT_SORT, isListKey, LISTS, MISSING_COMPANY, type ListFilter, type ListKey, type ListRow, type SortColumn, type SortState } from "./lists";
import { exportDateTime, isoDay } from "../dates/format";
import { CSV_BOM, csvRecord, neutralizeFormula } from "../export/csv";

/**
 * Writers for the admin e-mail lists (SPEC.md §2 'Email Lists (Copy & Export)'),
 * shared by the export route and the page (zod-free, no server imports).
 *
 * - Columns are the list's columns in lists.ts order, under the headers below.
 * - Dates are written 'yyyy-MM-dd HH:mm' in UTC (the header says so): a form
 *   spreadsheets read as a date and time, the same on every machine.
 * - A missing company is written 'N/A', as the table shows it.
 * - Every cell that a spreadsheet would read as a formula (it starts with
 *   = + - @, a tab or a carriage return) gets a leading single quote, in the
 *   CSV file and in the copied TSV alike (pasting into a sheet parses formulas too).
 * - TSV (Copy All): a header row, then one line per row, lines joined by '\n'
 *   with no trailing newline; tabs and line breaks inside values become spaces.
 * - CSV (Download CSV): as every export writes it (modules/export/csv.ts). The
 *   newsletter's CSV has one more column, each confirmed subscriber's
 *   unsubscribe link, for the mailing tool the firm sends with (issue 16).
 */

export type ExportFormat = "csv" | "tsv";

export const EXPORT_HEADERS: Record<SortColumn, string> = {
  company: "Company",
  name: "Name",
  email: "Email",
  date: "Date (UTC)",
};

/** The newsletter CSV's extra column. */
export const UNSUBSCRIBE_URL_HEADER = "Unsubscribe URL";

const ISO_PREFIX = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** '2026-03-05T14:07:09.123Z' → '2026-03-05 14:07' (UTC); anything else is written as it is. */
export function exportDate(iso: string): string {
  return ISO_PREFIX.test(iso) ? exportDateTime(iso) : iso;
}

const CELL: Record<SortColumn, (row: ListRow) => string> = {
  company: (row) => row.company || MISSING_COMPANY,
  name: (row) => row.name ?? "",
  email: (row) => row.email,
  date: (row) => exportDate(row.date),
};

/** The text of each of a row's cells, in the list's column order (before any escaping). */
export function exportCells(list: ListKey, row: ListRow): string[] {
  return LISTS[list].columns.map((column) => CELL[column](row));
}

export function exportHeaders(list: ListKey): string[] {
  return LISTS[list].columns.map((column) => EXPORT_HEADERS[column]);
}

// Each writer first asks one question of a cell (most cells need nothing done).
const TSV_NEEDS_WORK = /[\t\r\n]|^[=+\-@]/;
const TSV_BREAKS = /[\t\r\n]+/g;
function tsvCell(value: string): string {
  return TSV_NEEDS_WORK.test(value) ? neutralizeFormula(value.replace(TSV_BREAKS, " ")) : value;
}

/** Every record of a list for Copy All, header first, each cell escaped with tsvCell, cells joined by tabs. */
function tsvRecords(list: ListKey, rows: readonly ListRow[]): string[] {
  const getters: Array<(row: ListRow) => string> = LISTS[list].columns.map((column) => CELL[column]);
  const out = new Array<string>(rows.length + 1);
  out[0] = exportHeaders(list).map(tsvCell).join("\t");
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as ListRow;
    let line = tsvCell((getters[0] as (row: ListRow) => string)(row));
    for (let j = 1; j < getters.length; j++) line += "\t" + tsvCell((getters[j] as (row: ListRow) => string)(row));
    out[i + 1] = line;
  }
  return out;
}

/** Tab-separated text for Copy All: header row, then every row, joined by '\n' (no trailing newline). */
export function toTsv(list: ListKey, rows: readonly ListRow[]): string {
  return tsvRecords(list, rows).join("\n");
}

/** The CSV's header and each row's cells (before escaping, which modules/export/csv.ts does); the newsletter's add 'Unsubscribe URL'. */
export function csvColumns(list: ListKey): { header: string[]; cells: (row: ListRow) => string[] } {
  const getters: Array<(row: ListRow) => string> = LISTS[list].columns.map((column) => CELL[column]);
  if (list === "newsletter") getters.push((row) => row.unsubscribeUrl ?? "");
  return {
    header: [...exportHeaders(list), ...(list === "newsletter" ? [UNSUBSCRIBE_URL_HEADER] : [])],
    cells: (row) => getters.map((get) => get(row)),
  };
}

/** The CSV file as one string: BOM, header record, every row; CRLF after each record (RFC 4180). The download streams the same records (csvResponse). */
export function toCsv(list: ListKey, rows: readonly ListRow[]): string {
  const { header, cells } = csvColumns(list);
  let text = CSV_BOM + csvRecord(header);
  for (const row of rows) text += csvRecord(cells(row));
  return text;
}

/** The export route's file parameter: '{list}.csv' or '{list}.tsv'; anything else is null. */
export function parseExportFile(file: string | undefined): { list: ListKey; format: ExportFormat } | null {
  const match = /^(.+)\.(csv|tsv)$/.exec(file ?? "");
  if (!match || !isListKey(match[1])) return null;
  return { list: match[1], format: match[2] as ExportFormat };
}

/** Where the page fetches (TSV, Copy All) or links to (CSV) a list's export, in the given sort (and the newsletter's status). */
export function exportHref(list: ListKey, format: ExportFormat, sort: SortState = DEFAULT_SORT, filter: ListFilter = {}): string {
  const query = new URLSearchParams({ sort: sort.column, dir: sort.direction });
  // The newsletter's status, unless it is the default (confirmed): the usual links stay as they were.
  if (filter.status && filter.status !== DEFAULT_NEWSLETTER_STATUS) query.set("status", filter.status);
  return `/admin/email-lists/${list}.${format}?${query}`;
}

/** 'lumen-ridge-{list}-{yyyy-MM-dd}.{csv|tsv}', the date in UTC. */
export function exportFileName(list: ListKey, format: ExportFormat, date: Date): string {
  return `lumen-ridge-${list}-${isoDay(date)}.${format}`;
}
