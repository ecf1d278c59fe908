import { valuationMessages } from "~/content/capital";
import { valuationsCsvMessages as m } from "~/content/fund-operations";
import { getDb, type Db } from "~/modules/db/connection.server";
import type { LpUser } from "../auth/session.server";
import { isCalendarDate } from "../capital/calendar-date";
import { parseSignedAmount, toDecimalString } from "../capital/money";
import { committedEntities, entityRef, knownElsewhere, nameKey } from "../commitments/committed-entities.server";
import type { Fund } from "../funds/funds.server";
import { AppError } from "../http/app-error";
import { cutCell, decodeCsvFile, isFormula, readCsvTable, type CsvTable } from "../http/csv-upload.server";
import { VALUATIONS_BODY_BYTES } from "./constants";
import { importValuations, MAX_VALUATIONS } from "./valuations.server";

/**
 * The valuations import from a CSV file (issue 24 §7): the fund
 * administrator's report, `entity_id or entity name, fund, date, nav`, for
 * one fund (the page's) and one date. The preview reads the whole file and
 * says, row by row, what would be saved and every reason a row cannot be;
 * nothing is written. The import re-reads the text it is given from scratch
 * (never trusting a preview) and, only when no row has an error, saves it
 * through `importValuations`, all or nothing.
 *
 * The file: UTF-8 (a BOM is allowed), comma separated, a header row naming
 * the columns (entity_id, or entity / entity_name; fund; date; nav; in any
 * order, any case), quoted fields as RFC 4180 has them, CRLF or LF. Blank
 * lines are skipped. A cell that starts like a spreadsheet formula (=, +, @,
 * or - before anything but a number) is refused as a value.
 *
 * An entity is found among those with a commitment in the fund: by its id,
 * or by its name (case and spacing ignored), which must name one of them
 * only. An id or name the fund does not know is told apart from one that
 * has no commitment in it.
 */

/** The columns a file may name, by their header (lower case, spaces and hyphens as underscores). */
const HEADERS: Record<string, Column> = { entity_id: "entityId", entity: "entityName", entity_name: "entityName", fund: "fund", date: "date", nav: "nav" };
type Column = "entityId" | "entityName" | "fund" | "date" | "nav";
/** A column's name in messages. */
const COLUMN_NAMES: Record<Column, string> = { entityId: "entity_id", entityName: "entity", fund: "fund", date: "date", nav: "nav" };

/** A row of the preview: what it would save (its entity, date and NAV as a decimal string) or every reason it cannot. */
export type ValuationsPreviewRow = {
  line: number;
  /** The entity as the file names it (cut for showing), and the one it resolved to. */
  entityText: string;
  entity: { id: string; name: string } | null;
  /** The date cell (cut) and, when valid, the date. */
  dateText: string;
  date: string | null;
  /** The NAV cell (cut) and, when valid, its decimal string in the fund's currency. */
  navText: string;
  nav: string | null;
  errors: string[];
};

export type ValuationsPreview = {
  fund: Pick<Fund, "slug" | "name" | "currency">;
  rows: ValuationsPreviewRow[];
  ready: number;
  withErrors: number;
  /** The file's date (the most rows have it) and the total NAV of its rows without errors. */
  date: string | null;
  total: string;
};

/**
 * A file's bytes as text: at most VALUATIONS_BODY_BYTES, UTF-8 only (a BOM is
 * dropped by the parser), no NUL (a binary file). A 413 or 400 on `file`.
 */
export function decodeValuationsFile(bytes: Uint8Array): string {
  return decodeCsvFile(bytes, { field: "file", limit: VALUATIONS_BODY_BYTES });
}

/**
 * Read the CSV text into rows by column (pure, no database). The header must
 * name each column once; a file with more than MAX_VALUATIONS rows is
 * refused as soon as the parser has read one row too many.
 */
export function readValuationsCsv(text: string): CsvTable<Column> {
  return readCsvTable(text, {
    limitBytes: VALUATIONS_BODY_BYTES,
    maxRows: MAX_VALUATIONS,
    header: {
      headers: HEADERS,
      names: COLUMN_NAMES,
      required: [
        { any: ["entityId", "entityName"], name: "entity_id (or entity)" },
        { any: ["fund"], name: "fund" },
        { any: ["date"], name: "date" },
        { any: ["nav"], name: "nav" },
      ],
      columnsMessage: m.columns,
    },
  });
}

/**
 * The preview of a CSV text for `fund`: every row with its entity, date and
 * NAV, or its errors. Reads the database, writes nothing. A file that cannot
 * be read as rows (its size, encoding, CSV syntax, header or row count) is a
 * 400 or 413 AppError on `file`, with one message.
 */
export function previewValuationsCsv(fund: Fund, text: string, db: Pick<Db, "select"> = getDb()): ValuationsPreview {
  const { columns, rows } = readValuationsCsv(text);
  const committed = committedEntities(fund.id, db);
  const fundNames = new Set([nameKey(fund.slug), nameKey(fund.name)]);

  // What each row names, and the ids and names no committed entity has (one query for them all).
  const named = rows.map((row) => ({ id: (row.cells.entityId ?? "").trim(), name: (row.cells.entityName ?? "").trim() }));
  const strayIds = [...new Set(named.map((n) => n.id).filter((id) => id && !committed.byId.has(id) && id.length <= 64))];
  const strayNames = [...new Set(named.filter((n) => !n.id && n.name && !committed.byName.has(nameKey(n.name))).map((n) => n.name.replace(/\s+/g, " ")))];
  const elsewhere = knownElsewhere(strayIds, strayNames, db);

  const preview: ValuationsPreviewRow[] = rows.map((row, i) => {
    const errors: string[] = [];
    const cells = row.cells;
    const { id, name } = named[i]!;
    const out: ValuationsPreviewRow = {
      line: row.line,
      entityText: cutCell(id || name),
      entity: null,
      dateText: cutCell((cells.date ?? "").trim()),
      date: null,
      navText: cutCell((cells.nav ?? "").trim()),
      nav: null,
      errors,
    };
    // More or fewer cells than the header (an unquoted comma in a name): the cells say nothing reliable.
    if (row.cellCount !== columns.length) {
      errors.push(m.cells(row.cellCount, columns.length));
      return out;
    }
    const formulas = new Set((Object.entries(cells) as [Column, string][]).filter(([, value]) => isFormula(value)).map(([column]) => column));
    for (const column of formulas) errors.push(m.formula(COLUMN_NAMES[column]));

    // The entity: by id (and then the name, when given, must be its name), else by name.
    if (!formulas.has("entityId") && !formulas.has("entityName")) {
      if (!id && !name) errors.push(m.entityRequired);
      else if (id) {
        const found = committed.byId.get(id);
        if (found) {
          out.entity = entityRef(found);
          if (name && nameKey(name) !== nameKey(found.name)) errors.push(m.nameMismatch(found.name));
        } else errors.push(elsewhere.knownIds.has(id) ? valuationMessages.notCommitted : m.unknownEntityId);
      } else {
        const candidates = committed.byName.get(nameKey(name)) ?? [];
        if (candidates.length === 1) out.entity = entityRef(candidates[0]!);
        else if (candidates.length > 1) errors.push(m.ambiguous(candidates.length));
        else errors.push(elsewhere.knownNames.has(nameKey(name)) ? valuationMessages.notCommitted : m.unknownEntityName);
      }
    }

    // The fund: this page's, by slug or name.
    const fundCell = (cells.fund ?? "").trim();
    if (!formulas.has("fund")) {
      if (!fundCell) errors.push(m.fundRequired);
      else if (!fundNames.has(nameKey(fundCell))) errors.push(m.otherFund(fund.name));
    }

    // The date and the NAV (zero allowed, negative not).
    const dateCell = (cells.date ?? "").trim();
    if (!formulas.has("date")) {
      if (isCalendarDate(dateCell)) out.date = dateCell;
      else errors.push(m.date);
    }
    if (!formulas.has("nav")) {
      const nav = parseSignedAmount(cells.nav ?? "", fund.currency);
      if (!nav.ok) errors.push(nav.message);
      else if (nav.minor < 0n) errors.push(valuationMessages.negative);
      else out.nav = toDecimalString(nav.minor, fund.currency);
    }
    return out;
  });

  // One date per file: the one most rows have (the first of equals); the others are errors.
  const counts = new Map<string, number>();
  for (const row of preview) if (row.date) counts.set(row.date, (counts.get(row.date) ?? 0) + 1);
  let date: string | null = null;
  for (const [day, n] of counts) if (date === null || n > counts.get(date)!) date = day;
  for (const row of preview) if (row.date && date && row.date !== date) row.errors.push(m.otherDate(date));

  // Each entity once at the date.
  const linesOf = new Map<string, number[]>();
  for (const row of preview) {
    if (!row.entity || row.date !== date) continue;
    const lines = linesOf.get(row.entity.id);
    if (lines) lines.push(row.line);
    else linesOf.set(row.entity.id, [row.line]);
  }
  for (const row of preview) {
    const lines = row.entity && row.date === date ? linesOf.get(row.entity.id)! : [];
    if (lines.length > 1) row.errors.push(m.duplicate(lines));
  }

  const good = preview.filter((row) => row.errors.length === 0);
  const total = good.reduce((sum, row) => sum + (parseSignedAmount(row.nav!, fund.currency) as { minor: bigint }).minor, 0n);
  return {
    fund: { slug: fund.slug, name: fund.name, currency: fund.currency },
    rows: preview,
    ready: good.length,
    withErrors: preview.length - good.length,
    date,
    total: toDecimalString(total, fund.currency),
  };
}

/**
 * Import a CSV text for `fund`: read and checked again from scratch; any row
 * with an error, or a count of rows other than the `expected` one the admin
 * confirmed, refuses it all (400, with the preview to show). Otherwise the
 * values are saved through importValuations (one transaction, audited).
 */
export function importValuationsCsv(admin: Pick<LpUser, "id" | "email">, fund: Fund, text: string, expected: number | null, db: Db = getDb()) {
  const preview = previewValuationsCsv(fund, text, db);
  if (preview.withErrors > 0 || !preview.date) throw new RefusedImport(preview, m.changed);
  if (expected !== null && expected !== preview.ready) throw new RefusedImport(preview, m.changed);
  const values = preview.rows.map((row) => ({ entityId: row.entity!.id, nav: row.nav! }));
  return importValuations(admin, { fund: fund.slug, date: preview.date, values }, db);
}

/** An import refused after reading the file: its preview, to show again. */
export class RefusedImport extends AppError {
  constructor(
    readonly preview: ValuationsPreview,
    message: string,
  ) {
    super("bad_request", message, { fields: { form: [message] } });
  }
}
