import { CsvError, parse } from "csv-parse/sync";
import { valuationsCsvMessages as m } from "~/content/fund-operations";
import { AppError } from "./app-error";

/**
 * How the imports read an uploaded CSV file (the valuations import, issue 24
 * §7; the P&L import and the history import, issue 25 §1 and §5): one set of
 * conventions, so a file one of them reads, the others read alike.
 *
 * - The bytes: UTF-8 only (a BOM is allowed and dropped by the parser), not
 *   empty, no NUL (a binary file).
 * - The text: comma separated, a header row naming the columns in any order
 *   and case (spaces and hyphens as underscores), RFC 4180 quoting (a quote
 *   inside an unquoted cell is that cell's text), CRLF or LF, blank lines
 *   skipped, a row of at most MAX_CSV_ROW_CHARS characters.
 * - A cell that starts like a spreadsheet formula is refused as a value.
 * - A cell shown back (in a preview or a message) is cut at 80 characters.
 * - A file that cannot be read is refused whole: a 400 (413 for its size)
 *   AppError with its one message on the file's form field.
 *
 * The messages are the valuations import's (content/fund-operations.ts), the
 * first of the three.
 */

/** The most characters a row may have (10,000 rows of it stay under the 8 MB file limit's order). */
export const MAX_CSV_ROW_CHARS = 2048;
/** The longest cell text shown back. */
const SHOWN_CHARS = 80;

/** A cell as shown back: at most SHOWN_CHARS characters. */
export const cutCell = (text: string) => (text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS - 1)}…` : text);

/** What a spreadsheet would run as a formula (OWASP's CSV injection list), a negative number aside. */
const FORMULA = /^(?:[=+@\t\r]|-(?![\d.]))/;

/** A cell a spreadsheet would run as a formula (as typed, or once trimmed). */
export function isFormula(cell: string): boolean {
  return FORMULA.test(cell) || FORMULA.test(cell.trim());
}

/** A header cell as a column key: lower case, spaces and hyphens as underscores. */
export function headerKey(cell: string): string {
  return cell.trim().toLowerCase().replace(/[\s-]+/g, "_");
}

/** A refusal of a whole file: 400 (413 for its size), its message on the file's form field. */
export function csvFileError(field: string, message: string, status: 400 | 413 = 400): AppError {
  return new AppError(status === 413 ? "payload_too_large" : "bad_request", message, { fields: { [field]: [message] } });
}

const megabytes = (bytes: number) => bytes / 1024 / 1024;

/**
 * A file's bytes as text: at most `limit` bytes when one is given (413), not
 * empty, UTF-8 only (a BOM is dropped by the parser), no NUL (a binary file).
 */
export function decodeCsvFile(bytes: Uint8Array, options: { field: string; limit?: number }): string {
  const { field, limit } = options;
  if (limit !== undefined && bytes.byteLength > limit) throw csvFileError(field, m.tooLarge(megabytes(limit)), 413);
  if (bytes.byteLength === 0) throw csvFileError(field, m.empty);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw csvFileError(field, m.notUtf8);
  }
  if (text.includes("\u0000")) throw csvFileError(field, m.binary);
  return text;
}

/** The parser's options of every import (csv-parse, sync or streaming). */
export const CSV_PARSE_OPTIONS = {
  bom: true,
  relax_column_count: true,
  // A quote inside an unquoted cell (O"Brien, =HYPERLINK("…")) is that cell's text, for its row to answer.
  relax_quotes: true,
  skip_empty_lines: true,
  max_record_size: MAX_CSV_ROW_CHARS,
} as const;

/** The parser's error as the file's refusal (a row too long, or the line it could not read); any other error is thrown as it is. */
export function csvSyntaxError(field: string, error: unknown): AppError {
  if (!(error instanceof CsvError)) throw error;
  const line = typeof error.lines === "number" ? error.lines : null;
  return csvFileError(field, error.code === "CSV_MAX_RECORD_SIZE" ? m.rowTooLong(line) : m.unreadable(line));
}

export type CsvHeaderSpec<C extends string> = {
  /** The columns a file may name, by their header key (headerKey). */
  headers: Readonly<Record<string, C>>;
  /** A column's name in messages. */
  names: Readonly<Record<C, string>>;
  /** Each entry: the columns of which one must be present, and its name in the message. */
  required: readonly { any: readonly C[]; name: string }[];
  /** Columns that name the same thing: at most one of them. */
  exclusive?: readonly (readonly C[])[];
  columnsMessage: (parts: { missing: string[]; unknown: string[]; twice: string[] }) => string;
};

/**
 * Map a header row to columns: each cell's column (by `headers`), refused in
 * one message (`columnsMessage`) when a column is unknown, named twice, or a
 * `required` group has none of its columns.
 */
export function readCsvHeader<C extends string>(field: string, cells: readonly string[], spec: CsvHeaderSpec<C>): C[] {
  const seen = new Set<C>();
  const twice = new Set<string>();
  const unknown: string[] = [];
  const columns = cells.map((cell) => {
    const key = headerKey(cell);
    const column = Object.hasOwn(spec.headers, key) ? spec.headers[key]! : null;
    if (!column) unknown.push(cutCell(cell.trim()) || "(empty)");
    else if (seen.has(column)) twice.add(spec.names[column]);
    if (column) seen.add(column);
    return column;
  });
  for (const group of spec.exclusive ?? []) {
    const present = group.filter((c) => seen.has(c));
    if (present.length > 1) twice.add(present.map((c) => spec.names[c]).join(" and "));
  }
  const missing = spec.required.filter((r) => !r.any.some((c) => seen.has(c))).map((r) => r.name);
  if (missing.length || unknown.length || twice.size) throw csvFileError(field, spec.columnsMessage({ missing, unknown, twice: [...twice] }));
  return columns as C[];
}

/** One row of a file as read: its line (the last of its record), its cells by column, and how many cells it has. */
export type CsvRow<C extends string> = { line: number; cells: Partial<Record<C, string>>; cellCount: number };
export type CsvTable<C extends string> = { columns: C[]; rows: CsvRow<C>[] };

/**
 * Read a whole CSV text into rows by column (pure). The text is at most
 * `limitBytes` characters (a form may have turned each LF into CRLF: one more
 * a row); the header must satisfy `header`; a file with more than `maxRows`
 * rows is refused as soon as the parser has read one row too many. Every
 * refusal is on the `file` field.
 */
export function readCsvTable<C extends string>(text: string, options: { limitBytes: number; maxRows: number; header: CsvHeaderSpec<C> }): CsvTable<C> {
  const field = "file";
  if (text.length > options.limitBytes + options.maxRows + 2) throw csvFileError(field, m.tooLarge(megabytes(options.limitBytes)), 413);
  // The header, maxRows rows, and one more: reading stops there, so a huge file is refused at once.
  const cap = options.maxRows + 2;
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, { ...CSV_PARSE_OPTIONS, info: true, to: cap }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    throw csvSyntaxError(field, error);
  }
  // Rows of empty cells (",,,") count towards the cap too: a file that reaches it is refused, never cut short.
  if (records.length >= cap) throw csvFileError(field, m.tooManyRows(options.maxRows));
  const [head, ...body] = records.filter(({ record }) => record.some((cell) => cell.trim() !== ""));
  if (!head) throw csvFileError(field, m.empty);
  const columns = readCsvHeader(field, head.record, options.header);
  const rows = body.map(({ record, info }) => ({
    line: info.lines,
    cellCount: record.length,
    cells: Object.fromEntries(columns.flatMap((column, i) => (record[i] === undefined ? [] : [[column, record[i]]]))) as CsvRow<C>["cells"],
  }));
  if (rows.length === 0) throw csvFileError(field, m.noRows);
  if (rows.length > options.maxRows) throw csvFileError(field, m.tooManyRows(options.maxRows));
  return { columns, rows };
}
