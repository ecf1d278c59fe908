import { parse } from "csv-parse";
import { valuationsCsvMessages as fileMessages } from "~/content/fund-operations";
import { CSV_PARSE_OPTIONS, csvFileError, csvSyntaxError } from "../http/csv-upload.server";

/**
 * Reading the history import's two files (issue 25 §5) as the valuations and
 * P&L imports read theirs (http/csv-upload.server.ts: the same encoding, BOM,
 * header, quoting, CRLF, blank line, row length and formula rules). Unlike
 * theirs, the rows are handed one by one to the caller as the parser reads
 * them, never kept as a table: a history of 240,000 rows is read into compact
 * rows without a second copy.
 */

/** The upload form's file fields. */
export type HistoryFile = "history" | "pnl";

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
  // A file with far too many lines is refused before it is parsed (counting line breaks takes
  // milliseconds; parsing up to the cap took seconds). Twice the cap, so that line breaks inside
  // quoted cells never refuse a file the parser would take.
  if (lineBreaks(text, 2 * (options.maxRows + 1)) > 2 * (options.maxRows + 1)) throw csvFileError(file, fileMessages.tooManyRows(options.maxRows));
  let headerRead = false;
  let records = 0;
  let rows = 0;
  const parser = parse({
    ...CSV_PARSE_OPTIONS,
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
    if (error instanceof TooManyRows) throw csvFileError(file, fileMessages.tooManyRows(options.maxRows));
    throw csvSyntaxError(file, error);
  }
  if (!headerRead) throw csvFileError(file, fileMessages.empty);
  if (rows === 0) throw csvFileError(file, fileMessages.noRows);
  return rows;
}

/** The line breaks in `text`, counted up to just past `limit`. */
function lineBreaks(text: string, limit: number): number {
  let count = 0;
  for (let at = text.indexOf("\n"); at !== -1 && count <= limit; at = text.indexOf("\n", at + 1)) count += 1;
  return count;
}
