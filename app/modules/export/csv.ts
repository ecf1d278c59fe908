/**
 * CSV for spreadsheets, shared by every export (e-mail lists, activity):
 * RFC 4180 (CRLF after every record; a field with a comma, a double quote or
 * a line break quoted, quotes doubled), a UTF-8 byte order mark first so Excel
 * reads accents right, and formula-safe cells: a value a spreadsheet would run
 * as a formula (it starts with = + - @, a tab or a carriage return) gets a
 * leading single quote. Zod-free, no server imports.
 */

export const CSV_BOM = "\uFEFF";

const FORMULA_START = /^[=+\-@\t\r]/;

/** A leading ' for a value a spreadsheet would run as a formula (= + - @, tab, CR first). */
export function neutralizeFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

// Most cells need nothing done: one question first.
const CSV_NEEDS_WORK = /[",\r\n]|^[=+\-@\t]/;
const CSV_QUOTE = /[",\r\n]/;

/** One CSV field: formula-safe, quoted when it must be. */
export function csvCell(value: string): string {
  if (!CSV_NEEDS_WORK.test(value)) return value;
  const safe = neutralizeFormula(value);
  return CSV_QUOTE.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One CSV record with its CRLF. */
export function csvRecord(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}
