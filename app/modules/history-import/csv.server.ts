import { CsvError, parse } from "csv-parse";
import { valuationsCsvMessages as fileMessages } from "~/content/fund-operations";
import { AppError } from "../http/app-error";
import { cutCell, FORMULA } from "../statements/pnl-csv.server";
import { MAX_ROW_CHARS } from "../valuations/valuations-csv.server";

/**
 * Reading the history import's two files (issue 25 §5) as the valuations and
 * P&L imports read theirs (valuations-csv.server.ts, pnl-csv.server.ts): UTF-8
 * with or without a BOM, comma separated, a header row naming the columns in
 * any order and case, RFC 4180 quoting, CRLF or LF, blank lines skipped, a
 * row of at most MAX_ROW_CHARS characters, and a cell a spreadsheet would run
 * as a formula refused as a value. Unlike theirs, the rows are handed one by
 * one to the caller as the parser reads them, never kept as a table: a
 * history of 240,000 rows is read into compact rows without a second copy.
 */

export type HistoryFile = "history" | "pnl";

export { cutCell };

/** A refusal of a whole file: 400 (413 for its size), its message on the file's field. */
export function fileError(file: HistoryFile, message: string, status: 400 | 413 = 400): AppError {
  return new AppError(status === 413 ? "payload_too_large" : "bad_request", message, { fields: { [file]: [message] } });
}

/** A file's bytes as text: not empty, UTF-8 only (a BOM is dropped by the parser), no NUL (a binary file). */
export function decodeCsvBytes(bytes: Uint8Array, file: HistoryFile): string {
  if (bytes.byteLength === 0) throw fileError(file, fileMessages.empty);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw fileError(file, fileMessages.notUtf8);
  }
  if (text.includes("\u0000")) throw fileError(file, fileMessages.binary);
  return text;
}

/** A cell a spreadsheet would run as a formula (as typed, or once trimmed). */
export function isFormula(cell: string): boolean {
  return FORMULA.test(cell) || FORMULA.test(cell.trim());
}

/** A header cell as a column key: lower case, spaces and hyphens as underscores. */
export function headerKey(cell: string): string {
  return cell.trim().toLowerCase().replace(/[\s-]+/g, "_");
}

/**
 * Map a header row to columns: each cell's column (by `headers`), refused in
 * one message (`columnsMessage`) when a column is unknown, named twice, or a
 * `required` group has none of its columns.
 */
export function readHeader<C extends string>(
  file: HistoryFile,
  cells: string[],
  spec: {
    headers: Readonly<Record<string, C>>;
    names: Readonly<Record<C, string>>;
    /** Each entry: the columns of which one must be present, and its name in the message. */
    required: readonly { any: readonly C[]; name: string }[];
    /** Columns that name the same thing: at most one of them. */
    exclusive?: readonly (readonly C[])[];
    columnsMessage: (parts: { missing: string[]; unknown: string[]; twice: string[] }) => string;
  },
): C[] {
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
  if (missing.length || unknown.length || twice.size) throw fileError(file, spec.columnsMessage({ missing, unknown, twice: [...twice] }));
  return columns as C[];
}

class TooManyRows extends Error {}

/** The text handed to the parser at a time (cut after a line break): between two, other requests get their turn. */
const CHUNK_CHARS = 512 * 1024;

/**
 * Read a CSV text: `header` gets the first row that is not blank (and throws
 * to refuse the file), `row` every later one with its line (the last line of
 * the record, as the other imports number them). A file with more than
 * `maxRows` records (blank ones included) is refused as soon as the parser
 * meets one too many. The text goes to the parser in pieces, yielding to the
 * event loop between them, so a file of 240,000 rows does not hold up the
 * server's other requests for the seconds it takes. Resolves to the number of
 * rows handed to `row`.
 */
export async function readCsvRows(text: string, file: HistoryFile, options: { maxRows: number; header: (cells: string[]) => void; row: (cells: string[], line: number) => void }): Promise<number> {
  let headerRead = false;
  let records = 0;
  let rows = 0;
  const parser = parse({
    bom: true,
    relax_column_count: true,
    // A quote inside an unquoted cell (O"Brien, =HYPERLINK("…")) is that cell's text, for its row to answer.
    relax_quotes: true,
    skip_empty_lines: true,
    max_record_size: MAX_ROW_CHARS,
    on_record: (record: string[], context: { lines: number }) => {
      records += 1;
      if (records > options.maxRows + 1) throw new TooManyRows();
      if (!record.some((cell) => cell.trim() !== "")) return null;
      if (!headerRead) {
        headerRead = true;
        options.header(record);
        return null;
      }
      rows += 1;
      options.row(record, context.lines);
      return null;
    },
  });
  // Every record is handled (and dropped) in on_record: nothing is ever read from the parser.
  parser.resume();
  let failure: unknown = null;
  const ended = new Promise<void>((resolve) => {
    parser.once("end", resolve);
    parser.once("error", (error) => {
      failure = error;
      resolve();
    });
  });
  for (let at = 0; at < text.length && failure === null; ) {
    // Cut after a line break, never inside a character (a surrogate pair).
    const stop = at + CHUNK_CHARS >= text.length ? text.length : text.indexOf("\n", at + CHUNK_CHARS) + 1 || text.length;
    parser.write(text.slice(at, stop));
    at = stop;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (failure === null) parser.end();
  await ended;
  if (failure !== null) {
    const error: unknown = failure;
    if (error instanceof TooManyRows) throw fileError(file, fileMessages.tooManyRows(options.maxRows));
    if (error instanceof CsvError) {
      const line = typeof error.lines === "number" ? error.lines : null;
      throw fileError(file, error.code === "CSV_MAX_RECORD_SIZE" ? fileMessages.rowTooLong(line) : fileMessages.unreadable(line));
    }
    throw error;
  }
  if (!headerRead) throw fileError(file, fileMessages.empty);
  if (rows === 0) throw fileError(file, fileMessages.noRows);
  return rows;
}
