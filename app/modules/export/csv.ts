/**
 * CSV for spreadsheets, shared by every export (e-mail lists, activity, pitches):
 * RFC 4180 (CRLF after every record; a field with a comma, a double quote or
 * a line break quoted, quotes doubled), a UTF-8 byte order mark first so Excel
 * reads accents right, and formula-safe cells: a value a spreadsheet would run
 * as a formula (it starts with = + - @, a tab or a carriage return) gets a
 * leading single quote. `csvResponse` streams a whole file in batches with
 * the download's headers. Zod-free, no server imports.
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

/** The headers of every download the admin exports answer: the type, the file's name, never cached, never sniffed. */
export function downloadHeaders(fileName: string, contentType = "text/csv; charset=utf-8", disposition: "attachment" | "inline" = "attachment"): HeadersInit {
  return {
    "Content-Type": contentType,
    "Content-Disposition": `${disposition}; filename="${fileName}"`,
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
  };
}

/**
 * A CSV file as a byte stream: the byte order mark and the header record
 * first, then one batch of records each time the reader asks for more (a
 * million rows never sit in memory at once). Cancelling the download closes
 * the batches' iterator.
 */
export function csvStream<Row>(header: readonly string[], batches: Iterator<readonly Row[]>, cells: (row: Row) => readonly string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(CSV_BOM + csvRecord(header)));
    },
    pull(controller) {
      const next = batches.next();
      if (next.done) return controller.close();
      let text = "";
      for (const row of next.value) text += csvRecord(cells(row));
      controller.enqueue(encoder.encode(text));
    },
    cancel() {
      batches.return?.(undefined);
    },
  });
}

/** A streamed CSV download (attachment) named `fileName`: see csvStream. */
export function csvResponse<Row>(file: {
  fileName: string;
  header: readonly string[];
  batches: Iterator<readonly Row[]>;
  cells: (row: Row) => readonly string[];
}): Response {
  return new Response(csvStream(file.header, file.batches, file.cells), { headers: downloadHeaders(file.fileName) });
}
