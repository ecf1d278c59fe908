import { CsvError, parse } from "csv-parse/sync";
import { pnlCsvMessages, statementsImportMessages } from "~/content/statements-rules";
import { valuationsCsvMessages as fileMessages } from "~/content/fund-operations";
import { requestMessages } from "~/content/validation";
import { AppError } from "../http/app-error";
import { VALUATIONS_BODY_BYTES } from "../valuations/constants";
import { decodeValuationsFile } from "../valuations/valuations-csv.server";
import type { PnlAmounts } from "./types";

/**
 * The P&L import's file (issue 25 §1, decision 041), read as the valuations
 * import reads its own (valuations-csv.server.ts: the same limits, encoding,
 * BOM, CRLF, quoting and formula rules): a header row naming the columns
 * `entity` (an id or a name) or `entity_id` (and optionally `entity_name`),
 * `fund`, `quarter` ('2026-Q3') and the six signed amounts, in any order and
 * case, then one row per entity. Pure: no database (pnl-import.server.ts
 * resolves the entities and ties the quarter out).
 */

/** The most rows one file may have (2,000 entities a fund, with room to spare: the valuations import's figure). */
export const MAX_PNL_ROWS = 10_000;
/** The most characters a row may have. */
export const MAX_PNL_ROW_CHARS = 2048;
/** The longest cell text shown back in a preview. */
const SHOWN_CHARS = 80;

/** The six amount columns: the file's name and the PnlAmounts key, in the statement's order. */
export const PNL_COLUMNS = [
  ["management_fees", "managementFees"],
  ["partnership_expenses", "partnershipExpenses"],
  ["other_income", "otherIncome"],
  ["realized_gain", "realizedGain"],
  ["unrealized_gain_change", "unrealizedGainChange"],
  ["carried_interest_change", "carriedInterestChange"],
] as const satisfies readonly (readonly [string, keyof PnlAmounts])[];

export type PnlColumn = "entityId" | "entityName" | "entity" | "fund" | "quarter" | keyof PnlAmounts;

/** The columns a file may name, by their header (lower case, spaces and hyphens as underscores). */
const HEADERS: Record<string, PnlColumn> = {
  entity: "entity",
  entity_id: "entityId",
  entity_name: "entityName",
  fund: "fund",
  quarter: "quarter",
  ...Object.fromEntries(PNL_COLUMNS.map(([name, key]) => [name, key])),
};

/** A column's name in messages. */
export const PNL_COLUMN_NAMES: Record<PnlColumn, string> = {
  entity: "entity",
  entityId: "entity_id",
  entityName: "entity_name",
  fund: "fund",
  quarter: "quarter",
  ...(Object.fromEntries(PNL_COLUMNS.map(([name, key]) => [key, name])) as Record<keyof PnlAmounts, string>),
};

export type PnlCsvRow = { line: number; cells: Partial<Record<PnlColumn, string>>; cellCount: number };
export type PnlCsvTable = { columns: PnlColumn[]; rows: PnlCsvRow[] };

/** A cell as shown back: at most SHOWN_CHARS characters. */
export const cutCell = (text: string) => (text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS - 1)}…` : text);

/** What a spreadsheet would run as a formula (OWASP's CSV injection list), a negative number aside. */
export const FORMULA = /^(?:[=+@\t\r]|-(?![\d.]))/;

function fileError(message: string, status: 400 | 413 = 400): AppError {
  return new AppError(status === 413 ? "payload_too_large" : "bad_request", message, { fields: { file: [message] } });
}

/**
 * Read the CSV text into rows by column. The header must name each column
 * once (an entity column, fund, quarter and the six amounts); a file with more
 * than MAX_PNL_ROWS rows is refused as soon as the parser has read one too many.
 * A file that cannot be read as rows is a 400 (413 for its size) on `file`.
 */
export function readPnlCsv(text: string): PnlCsvTable {
  const mb = VALUATIONS_BODY_BYTES / 1024 / 1024;
  // A file's text is at most VALUATIONS_BODY_BYTES characters; a form may have turned each LF into CRLF.
  if (text.length > VALUATIONS_BODY_BYTES + MAX_PNL_ROWS + 2) throw fileError(fileMessages.tooLarge(mb), 413);
  const cap = MAX_PNL_ROWS + 2;
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, { bom: true, info: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, max_record_size: MAX_PNL_ROW_CHARS, to: cap }) as unknown as {
      record: string[];
      info: { lines: number };
    }[];
  } catch (error) {
    if (error instanceof CsvError) {
      const line = typeof error.lines === "number" ? error.lines : null;
      throw fileError(error.code === "CSV_MAX_RECORD_SIZE" ? fileMessages.rowTooLong(line) : fileMessages.unreadable(line));
    }
    throw error;
  }
  if (records.length >= cap) throw fileError(fileMessages.tooManyRows(MAX_PNL_ROWS));
  const [head, ...body] = records.filter(({ record }) => record.some((cell) => cell.trim() !== ""));
  if (!head) throw fileError(fileMessages.empty);
  const columns = readHeader(head.record);
  const rows = body.map(({ record, info }) => ({
    line: info.lines,
    cellCount: record.length,
    cells: Object.fromEntries(columns.flatMap((column, i) => (record[i] === undefined ? [] : [[column, record[i]]]))) as PnlCsvRow["cells"],
  }));
  if (rows.length === 0) throw fileError(fileMessages.noRows);
  if (rows.length > MAX_PNL_ROWS) throw fileError(fileMessages.tooManyRows(MAX_PNL_ROWS));
  return { columns, rows };
}

function readHeader(cells: string[]): PnlColumn[] {
  const seen = new Set<PnlColumn>();
  const twice = new Set<string>();
  const unknown: string[] = [];
  const columns = cells.map((cell) => {
    const name = cell.trim().toLowerCase().replace(/[\s-]+/g, "_");
    const column = Object.hasOwn(HEADERS, name) ? HEADERS[name]! : null;
    if (!column) unknown.push(cutCell(cell.trim()) || "(empty)");
    else if (seen.has(column)) twice.add(PNL_COLUMN_NAMES[column]);
    if (column) seen.add(column);
    return column;
  });
  // `entity` (an id or a name) and `entity_id` name the same thing: one of them.
  if (seen.has("entity") && seen.has("entityId")) twice.add("entity and entity_id");
  const missing = [
    !seen.has("entity") && !seen.has("entityId") && !seen.has("entityName") ? "entity (or entity_id)" : null,
    ...(["fund", "quarter"] as const).map((c) => (seen.has(c) ? null : c)),
    ...PNL_COLUMNS.map(([name, key]) => (seen.has(key) ? null : name)),
  ].filter((x): x is string => x !== null);
  if (missing.length || unknown.length || twice.size) throw fileError(pnlCsvMessages.columns({ missing, unknown, twice: [...twice] }));
  return columns as PnlColumn[];
}

/**
 * The CSV of a JSON request: a `text/csv` body, or a multipart form's `file`
 * field, at most VALUATIONS_BODY_BYTES (the valuations import's limit: 8 MB),
 * UTF-8 (decodeValuationsFile: a BOM, no NUL). 415 for another content type,
 * 413 over the limit, 400 for a form without a file.
 */
export async function readCsvBody(request: Request): Promise<string> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (/^(?:text\/csv|application\/csv|text\/plain)\b/.test(type)) {
    if (declared > VALUATIONS_BODY_BYTES) throw fileError(fileMessages.tooLarge(VALUATIONS_BODY_BYTES / 1024 / 1024), 413);
    return decodeValuationsFile(await readLimited(request, VALUATIONS_BODY_BYTES));
  }
  if (type.startsWith("multipart/form-data")) {
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      throw new AppError("bad_request", requestMessages.formUnreadable);
    }
    const file = form.get("file");
    if (!(file instanceof File)) throw fileError(statementsImportMessages.fileRequired);
    if (file.size > VALUATIONS_BODY_BYTES) throw fileError(fileMessages.tooLarge(VALUATIONS_BODY_BYTES / 1024 / 1024), 413);
    return decodeValuationsFile(new Uint8Array(await file.arrayBuffer()));
  }
  throw new AppError("unsupported_media_type", statementsImportMessages.contentType);
}

/** A body's bytes, refused (413 on `file`) past `limit`, without reading further. */
async function readLimited(request: Request, limit: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw fileError(fileMessages.tooLarge(limit / 1024 / 1024), 413);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
