import { pnlCsvMessages, statementsImportMessages } from "~/content/statements-rules";
import { valuationsCsvMessages as fileMessages } from "~/content/fund-operations";
import { requestMessages } from "~/content/validation";
import { AppError } from "../http/app-error";
import { readBodyBytes } from "../http/body.server";
import { csvFileError, decodeCsvFile, readCsvTable, type CsvHeaderSpec, type CsvTable } from "../http/csv-upload.server";
import { VALUATIONS_BODY_BYTES } from "../valuations/constants";
import type { PnlAmounts } from "./types";

/**
 * The P&L import's file (issue 25 §1, decision 041), read as the valuations
 * import reads its own (http/csv-upload.server.ts: the same limits, encoding,
 * BOM, CRLF, quoting and formula rules): a header row naming the columns
 * `entity` (an id or a name) or `entity_id` (and optionally `entity_name`),
 * `fund`, `quarter` ('2026-Q3') and the six signed amounts, in any order and
 * case, then one row per entity. Pure: no database (pnl-import.server.ts
 * resolves the entities and ties the quarter out).
 */

/** The most rows one file may have (2,000 entities a fund, with room to spare: the valuations import's figure). */
export const MAX_PNL_ROWS = 10_000;

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
const PNL_HEADERS: Readonly<Record<string, PnlColumn>> = {
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

/**
 * The P&L file's header: an entity column, fund, quarter and the six amounts,
 * each once. `entity` (an id or a name) and `entity_id` name the same thing:
 * one of them. The history import's P&L file has the same header.
 */
export const PNL_HEADER: CsvHeaderSpec<PnlColumn> = {
  headers: PNL_HEADERS,
  names: PNL_COLUMN_NAMES,
  required: [
    { any: ["entity", "entityId", "entityName"], name: "entity (or entity_id)" },
    { any: ["fund"], name: "fund" },
    { any: ["quarter"], name: "quarter" },
    ...PNL_COLUMNS.map(([name, key]) => ({ any: [key], name })),
  ],
  exclusive: [["entity", "entityId"]],
  columnsMessage: pnlCsvMessages.columns,
};

export type PnlCsvTable = CsvTable<PnlColumn>;

/**
 * Read the CSV text into rows by column. The header must name each column
 * once (an entity column, fund, quarter and the six amounts); a file with more
 * than MAX_PNL_ROWS rows is refused as soon as the parser has read one too many.
 * A file that cannot be read as rows is a 400 (413 for its size) on `file`.
 */
export function readPnlCsv(text: string): PnlCsvTable {
  return readCsvTable(text, { limitBytes: VALUATIONS_BODY_BYTES, maxRows: MAX_PNL_ROWS, header: PNL_HEADER });
}

/**
 * The CSV of a JSON request: a `text/csv` body, or a multipart form's `file`
 * field, at most VALUATIONS_BODY_BYTES (the valuations import's limit: 8 MB),
 * UTF-8 (decodeCsvFile: a BOM, no NUL). 415 for another content type,
 * 413 over the limit, 400 for a form without a file.
 */
export async function readCsvBody(request: Request): Promise<string> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  const declared = Number(request.headers.get("content-length") ?? "0");
  const tooLarge = () => csvFileError("file", fileMessages.tooLarge(VALUATIONS_BODY_BYTES / 1024 / 1024), 413);
  if (/^(?:text\/csv|application\/csv|text\/plain)\b/.test(type)) {
    if (declared > VALUATIONS_BODY_BYTES) throw tooLarge();
    return decodeCsvFile(await readBodyBytes(request, VALUATIONS_BODY_BYTES, tooLarge), { field: "file", limit: VALUATIONS_BODY_BYTES });
  }
  if (type.startsWith("multipart/form-data")) {
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      throw new AppError("bad_request", requestMessages.formUnreadable);
    }
    const file = form.get("file");
    if (!(file instanceof File)) throw csvFileError("file", statementsImportMessages.fileRequired);
    if (file.size > VALUATIONS_BODY_BYTES) throw tooLarge();
    return decodeCsvFile(new Uint8Array(await file.arrayBuffer()), { field: "file", limit: VALUATIONS_BODY_BYTES });
  }
  throw new AppError("unsupported_media_type", statementsImportMessages.contentType);
}
