import { and, eq } from "drizzle-orm";
import { pnlCsvMessages as m, tieOutMessages } from "~/content/statements-rules";
import { valuationsCsvMessages as fileMessages } from "~/content/fund-operations";
import { getDb, type Db } from "~/modules/db/connection.server";
import { pnlRows } from "../../../db/schema";
import { audit } from "../audit/audit.server";
import type { LpUser } from "../auth/session.server";
import { formatMoney, parseSignedAmount, toDecimalString } from "../capital/money";
import { committedEntities, entityRef, knownElsewhere, nameKey } from "../commitments/committed-entities.server";
import type { Fund } from "../funds/funds.server";
import { AppError } from "../http/app-error";
import { cutCell, isFormula } from "../http/csv-upload.server";
import { readFundHistories } from "./inputs.server";
import { assertQuarterOpen } from "./lock.server";
import { PNL_COLUMN_NAMES, PNL_COLUMNS, readPnlCsv, type PnlColumn } from "./pnl-csv.server";
import { isQuarter, quarterEnd } from "./quarter";
import { commitmentInForce } from "./rollforward";
import { tieOutRow, type TieOutRow } from "./tie-out.server";
import { PNL_KEYS, type PnlAmounts } from "./types";

/**
 * The P&L import (issue 25 §1, §6; decision 041): the fund administrator's
 * CSV of one fund (the page's, or the request's) and one quarter (the one most
 * rows name; the others are row errors), one row per entity with a
 * commitment in force at the quarter's end (a missing one is an error, and so
 * is an entity listed twice), six signed amounts each.
 *
 * The preview reads everything and writes nothing: each row's cells, its
 * errors, and its tie-out against the valuation at the quarter's end (the
 * roll-forward with this row as the quarter's P&L). The import reads the text
 * again from scratch inside its transaction (never trusting a preview) and,
 * only when every row reads AND ties, replaces the fund's rows of that quarter
 * with these, audited as one event; otherwise it is a 422 carrying the
 * preview. A quarter whose latest version is published is closed (409).
 */

type Amounts = Record<keyof PnlAmounts, string>;

export type PnlTieOut = {
  /** Decimal strings in the fund's currency. */
  endingNavExpected: string;
  endingNavActual: string | null;
  /** actual − expected. */
  difference: string | null;
  ok: boolean;
  problem: TieOutRow["problem"];
};

export type PnlPreviewRow = {
  /** The file's line; null for an entity with a commitment that the file leaves out. */
  line: number | null;
  /** The entity as the file names it (cut for showing), and the one it resolved to. */
  entityText: string;
  entity: { id: string; name: string } | null;
  quarterText: string;
  /** The six cells as typed (cut), and their decimal strings when every one is an amount. */
  cells: Amounts;
  amounts: Amounts | null;
  /** Every reason the row cannot be imported, the tie-out's included. */
  errors: string[];
  /** The row's tie-out, when its entity and amounts could be read for the file's quarter. */
  tieOut: PnlTieOut | null;
};

export type PnlPreview = {
  fund: Pick<Fund, "slug" | "name" | "currency">;
  /** The file's quarter: the one most rows name; null when none does. */
  quarter: string | null;
  rows: PnlPreviewRow[];
  /** Every row reads and ties out, and no committed entity is missing. */
  ok: boolean;
  /** The rows with at least one error (a missing entity counts as one). */
  errorCount: number;
  /** The rows the import would write. */
  ready: number;
};

type Reader = Pick<Db, "select">;

const EMPTY_CELLS = Object.fromEntries(PNL_KEYS.map((key) => [key, ""])) as Amounts;

const MAX_STORED = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The preview of a CSV text for `fund`: every row with its entity, amounts
 * and tie-out, or its errors, and a row for each committed entity the file
 * leaves out. Reads, writes nothing. A file that cannot be read as rows is a
 * 400 or 413 AppError on `file` (pnl-csv.server.ts).
 */
export function previewPnlCsv(fund: Fund, text: string, db: Reader = getDb()): PnlPreview {
  const { columns, rows } = readPnlCsv(text);
  const committed = committedEntities(fund.id, db);
  const fundNames = new Set([nameKey(fund.slug), nameKey(fund.name)]);

  // What each row names: an id (entity_id, or an `entity` cell that is a committed entity's id), else a name.
  const named = rows.map((row) => {
    const entityCell = (row.cells.entity ?? "").trim();
    const id = (row.cells.entityId ?? "").trim() || (committed.byId.has(entityCell) ? entityCell : "");
    const name = (row.cells.entityName ?? "").trim() || (entityCell && entityCell !== id ? entityCell : "");
    return { id, name, column: (row.cells.entityId ?? "").trim() ? ("entityId" as const) : entityCell ? ("entity" as const) : ("entityName" as const) };
  });
  const strayIds = [...new Set(named.map((n) => n.id).filter((id) => id && !committed.byId.has(id) && id.length <= 64))];
  // An `entity` cell that is not a committed entity's id may still be another fund's entity's id.
  const strayEntityCells = named.filter((n) => !n.id && n.column === "entity" && n.name.length <= 64 && !committed.byName.has(nameKey(n.name))).map((n) => n.name);
  const strayNames = [...new Set(named.filter((n) => !n.id && n.name && !committed.byName.has(nameKey(n.name))).map((n) => n.name.replace(/\s+/g, " ")))];
  const elsewhere = knownElsewhere([...new Set([...strayIds, ...strayEntityCells])], strayNames, db);

  const preview: PnlPreviewRow[] = rows.map((row, i) => {
    const errors: string[] = [];
    const cells = row.cells;
    const { id, name } = named[i]!;
    const out: PnlPreviewRow = {
      line: row.line,
      entityText: cutCell(id || name),
      entity: null,
      quarterText: cutCell((cells.quarter ?? "").trim()),
      cells: Object.fromEntries(PNL_KEYS.map((key) => [key, cutCell((cells[key] ?? "").trim())])) as Amounts,
      amounts: null,
      errors,
      tieOut: null,
    };
    // More or fewer cells than the header (an unquoted comma in a name): the cells say nothing reliable.
    if (row.cellCount !== columns.length) {
      errors.push(fileMessages.cells(row.cellCount, columns.length));
      return out;
    }
    const formulas = new Set((Object.entries(cells) as [PnlColumn, string][]).filter(([, value]) => isFormula(value)).map(([column]) => column));
    for (const column of formulas) errors.push(fileMessages.formula(PNL_COLUMN_NAMES[column]));

    // The entity: by id (and then the name, when given, must be its name), else by name.
    if (!formulas.has("entityId") && !formulas.has("entityName") && !formulas.has("entity")) {
      if (!id && !name) errors.push(fileMessages.entityRequired);
      else if (id) {
        const found = committed.byId.get(id);
        if (found) {
          out.entity = entityRef(found);
          if (name && nameKey(name) !== nameKey(found.name)) errors.push(fileMessages.nameMismatch(found.name));
        } else errors.push(elsewhere.knownIds.has(id) ? m.notCommitted : fileMessages.unknownEntityId);
      } else {
        const candidates = committed.byName.get(nameKey(name)) ?? [];
        if (candidates.length === 1) out.entity = entityRef(candidates[0]!);
        else if (candidates.length > 1) errors.push(fileMessages.ambiguous(candidates.length));
        else errors.push(elsewhere.knownNames.has(nameKey(name)) || elsewhere.knownIds.has(name) ? m.notCommitted : fileMessages.unknownEntityName);
      }
    }

    // The fund: this import's, by slug or name.
    const fundCell = (cells.fund ?? "").trim();
    if (!formulas.has("fund")) {
      if (!fundCell) errors.push(fileMessages.fundRequired);
      else if (!fundNames.has(nameKey(fundCell))) errors.push(fileMessages.otherFund(fund.name));
    }

    // The quarter ('2026-Q3', any case).
    const quarter = (cells.quarter ?? "").trim().toUpperCase();
    if (!formulas.has("quarter") && !isQuarter(quarter)) errors.push(m.quarter);

    // The six amounts: signed, in the fund's currency, within what a column stores.
    const amounts = {} as Amounts;
    let readable = true;
    for (const [column, key] of PNL_COLUMNS) {
      if (formulas.has(key)) {
        readable = false;
        continue;
      }
      const parsed = parseSignedAmount(cells[key] ?? "", fund.currency);
      if (!parsed.ok) {
        errors.push(m.amount(column, parsed.message));
        readable = false;
      } else if (parsed.minor > MAX_STORED || parsed.minor < -MAX_STORED) {
        errors.push(m.amountTooLarge(column));
        readable = false;
      } else amounts[key] = toDecimalString(parsed.minor, fund.currency);
    }
    if (readable) out.amounts = amounts;
    return out;
  });

  // One quarter per file: the one most rows name (the first of equals); the others are errors.
  const quarterOfRow = (row: PnlPreviewRow) => {
    const q = row.quarterText.toUpperCase();
    return isQuarter(q) ? q : null;
  };
  const counts = new Map<string, number>();
  for (const row of preview) {
    const q = quarterOfRow(row);
    if (q) counts.set(q, (counts.get(q) ?? 0) + 1);
  }
  let quarter: string | null = null;
  for (const [q, n] of counts) if (quarter === null || n > counts.get(quarter)!) quarter = q;
  for (const row of preview) {
    const q = quarterOfRow(row);
    if (q && quarter && q !== quarter) row.errors.push(m.otherQuarter(quarter));
  }

  // Each entity once in the quarter.
  const linesOf = new Map<string, number[]>();
  for (const row of preview) {
    if (!row.entity || quarterOfRow(row) !== quarter) continue;
    linesOf.set(row.entity.id, [...(linesOf.get(row.entity.id) ?? []), row.line!]);
  }
  for (const row of preview) {
    const lines = row.entity && quarterOfRow(row) === quarter ? linesOf.get(row.entity.id)! : [];
    if (lines.length > 1) row.errors.push(m.duplicate(lines));
  }

  if (quarter) {
    const end = quarterEnd(quarter);
    const histories = readFundHistories(fund.id, end, db);
    const money = (minor: bigint) => formatMoney(minor, fund.currency);
    const decimal = (minor: bigint | null) => (minor === null ? null : toDecimalString(minor, fund.currency));
    // The rows that name an entity: tie each out with its amounts as the quarter's P&L.
    for (const row of preview) {
      if (!row.entity || quarterOfRow(row) !== quarter) continue;
      const found = histories.get(row.entity.id);
      if (!found || commitmentInForce(found.history.commitmentChanges, end) <= 0n) {
        row.errors.push(m.notYetCommitted(end));
        continue;
      }
      if (!row.amounts || linesOf.get(row.entity.id)!.length > 1) continue;
      const pnl = Object.fromEntries(PNL_KEYS.map((key) => [key, (parseSignedAmount(row.amounts![key], fund.currency) as { minor: bigint }).minor])) as PnlAmounts;
      const history = { ...found.history, pnl: new Map(found.history.pnl).set(quarter, pnl) };
      const result = tieOutRow(row.entity, history, quarter);
      row.tieOut = {
        endingNavExpected: toDecimalString(result.endingNavExpected, fund.currency),
        endingNavActual: decimal(result.endingNavActual),
        difference: decimal(result.difference),
        ok: result.ok,
        problem: result.problem,
      };
      if (result.problem === "no_valuation") row.errors.push(tieOutMessages.noValuation(end));
      else if (result.problem === "does_not_tie") {
        row.errors.push(tieOutMessages.doesNotTie({ expected: money(result.endingNavExpected), actual: money(result.endingNavActual!), difference: money(result.difference!) }));
      }
    }
    // Every entity with a commitment in force at the quarter's end needs a row.
    const listed = new Set(preview.filter((row) => row.entity && quarterOfRow(row) === quarter).map((row) => row.entity!.id));
    for (const { entity, history } of histories.values()) {
      if (listed.has(entity.id) || commitmentInForce(history.commitmentChanges, end) <= 0n) continue;
      preview.push({ line: null, entityText: cutCell(entity.name), entity, quarterText: quarter, cells: EMPTY_CELLS, amounts: null, errors: [m.missing], tieOut: null });
    }
  }

  const errorCount = preview.filter((row) => row.errors.length > 0).length;
  return {
    fund: { slug: fund.slug, name: fund.name, currency: fund.currency },
    quarter,
    rows: preview,
    ok: quarter !== null && errorCount === 0,
    errorCount,
    ready: preview.filter((row) => row.errors.length === 0 && row.tieOut?.ok).length,
  };
}

/** An import refused after reading the file (a row error or a row that does not tie): 422 with its preview. */
export class RefusedPnlImport extends AppError {
  constructor(
    readonly preview: PnlPreview,
    message: string,
  ) {
    super("unprocessable", message, { fields: { form: [message] } });
  }
}

export type PnlImportResult = { fund: string; quarter: string; count: number; preview: PnlPreview };

/**
 * Import a CSV text for `fund`: read, resolved and tied out again inside the
 * transaction; refused as a whole (422, RefusedPnlImport with the preview)
 * when any row has an error or does not tie, or when its row count is not the
 * `expected` one the admin confirmed; 409 when the quarter is published.
 * Otherwise the fund's P&L rows of the quarter are replaced by the file's, audited.
 */
export function importPnlCsv(admin: Pick<LpUser, "id" | "email">, fund: Fund, text: string, expected: number | null, db: Db = getDb()): PnlImportResult {
  return db.transaction((tx) => {
    const preview = previewPnlCsv(fund, text, tx);
    if (preview.quarter) assertQuarterOpen(tx, fund.id, [quarterEnd(preview.quarter)]);
    if (!preview.ok || !preview.quarter) throw new RefusedPnlImport(preview, m.refused(preview.errorCount));
    if (expected !== null && expected !== preview.ready) throw new RefusedPnlImport(preview, m.changed);
    const quarter = preview.quarter;
    const minor = (amount: string) => Number((parseSignedAmount(amount, fund.currency) as { minor: bigint }).minor);
    const values = preview.rows.map((row) => {
      const a = row.amounts!;
      return {
        fundId: fund.id,
        quarter,
        entityId: row.entity!.id,
        managementFeesMinor: minor(a.managementFees),
        partnershipExpensesMinor: minor(a.partnershipExpenses),
        otherIncomeMinor: minor(a.otherIncome),
        realizedGainMinor: minor(a.realizedGain),
        unrealizedGainChangeMinor: minor(a.unrealizedGainChange),
        carriedInterestChangeMinor: minor(a.carriedInterestChange),
      };
    });
    tx.delete(pnlRows)
      .where(and(eq(pnlRows.fundId, fund.id), eq(pnlRows.quarter, quarter)))
      .run();
    for (let i = 0; i < values.length; i += 500) tx.insert(pnlRows).values(values.slice(i, i + 500)).run();
    audit(tx, "statements.pnl_imported", {
      actor: { id: admin.id, email: admin.email },
      target: { type: "fund", id: fund.id, label: fund.name },
      details: { fund: fund.slug, quarter, count: values.length },
    });
    return { fund: fund.slug, quarter, count: values.length, preview };
  });
}

/** The most row errors a JSON answer lists; `moreErrors` counts the rest. */
export const MAX_LISTED_ERRORS = 50;

export type PnlImportAnswer = {
  quarter: string | null;
  /** The fund's slug. */
  fund: string;
  /** Each row tied out: its entity, the roll-forward's ending NAV, the valuation, actual − expected (decimal strings), and whether the row can be imported. */
  rows: { entity: { id: string; name: string }; endingNavExpected: string; endingNavActual: string | null; difference: string | null; ok: boolean }[];
  ok: boolean;
  /** One per message: the row's line (null for an entity the file leaves out), its entity when it resolved, what the file says. */
  errors: { line: number | null; entity: { id: string; name: string } | null; entityText: string; message: string }[];
  moreErrors: number;
};

/** A preview as the JSON import answers it (POST /api/statements/import). */
export function importAnswer(preview: PnlPreview): PnlImportAnswer {
  const errors = preview.rows.flatMap((row) => row.errors.map((message) => ({ line: row.line, entity: row.entity, entityText: row.entityText, message })));
  return {
    quarter: preview.quarter,
    fund: preview.fund.slug,
    rows: preview.rows.flatMap((row) =>
      row.entity && row.tieOut
        ? [
            {
              entity: row.entity,
              endingNavExpected: row.tieOut.endingNavExpected,
              endingNavActual: row.tieOut.endingNavActual,
              difference: row.tieOut.difference,
              ok: row.tieOut.ok && row.errors.length === 0,
            },
          ]
        : [],
    ),
    ok: preview.ok,
    errors: errors.slice(0, MAX_LISTED_ERRORS),
    moreErrors: Math.max(0, errors.length - MAX_LISTED_ERRORS),
  };
}
