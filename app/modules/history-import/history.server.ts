import { randomUUID } from "node:crypto";
import { and, eq, inArray, max, sql } from "drizzle-orm";
import { ledgerReference, valuationMessages } from "~/content/capital";
import { valuationsCsvMessages as rowMessages } from "~/content/fund-operations";
import { historyImportMessages as m } from "~/content/history-import";
import { pnlCsvMessages, publishingMessages } from "~/content/statements-rules";
import { getDb, type Db } from "~/modules/db/connection.server";
import {
  CALL_LINE_TYPES,
  DISTRIBUTION_LINE_TYPES,
  callPayments,
  callReminders,
  ledgerAllocations,
  ledgerEntries,
  ledgerLines,
  pnlRows,
  valuations,
} from "../../../db/schema";
import { audit } from "../audit/audit.server";
import type { LpUser } from "../auth/session.server";
import { isCalendarDate } from "../capital/calendar-date";
import { formatMoney, parseAmount, parseSignedAmount, toDecimalString, type ParsedAmount } from "../capital/money";
import { committedEntities, knownElsewhere, nameKey, type CommittedEntity } from "../commitments/committed-entities.server";
import { now } from "../config/clock.server";
import type { Fund } from "../funds/funds.server";
import { AppError } from "../http/app-error";
import { cutCell, decodeCsvFile, isFormula, readCsvHeader } from "../http/csv-upload.server";
import { reminderDays } from "../ledger/reminders.server";
import { firmDay } from "../pitch-clock/clock.server";
import { PNL_COLUMN_NAMES, PNL_COLUMNS, PNL_HEADER, type PnlColumn } from "../statements/pnl-csv.server";
import { assertQuarterOpen, closedQuarters } from "../statements/lock.server";
import { isQuarter, quarterEnd, quarterOf } from "../statements/quarter";
import type { PnlAmounts } from "../statements/types";
import { HISTORY_EVENTS, MAX_HISTORY_PNL_ROWS, MAX_HISTORY_ROWS, type HistoryEvent } from "./constants";
import { readCsvRows, type HistoryFile } from "./csv.server";

/**
 * The history import (issue 25 §5): a fund's past calls, payments,
 * distributions and valuations from a CSV file, one row per entity per event
 * (and per type), and optionally the quarters' P&L rows, for a firm that
 * starts using the portal with years of history in spreadsheets.
 *
 * Everything is checked before anything is written, and the preview says
 * what the import would save (per event: rows, entries, totals; the
 * valuations it replaces; the calls' and distributions' numbers) and every
 * error of every row (file, line, column, message). The import reads the
 * files again from scratch (a piece at a time, letting other requests run),
 * checks them again against the database inside its transaction, and writes
 * all of it or nothing there, audited as one `history.imported` event. History is past: no notice mail, no reminder
 * (a call whose reminder or overdue day is still to come is marked as
 * reminded), no document mail, no notice PDF job.
 *
 * What it writes: each call and distribution (its rows grouped by
 * `reference`) as a published ledger entry, numbered per fund and kind in
 * date order after the fund's existing numbers, its lines the sums per type
 * (a distribution's return of capital split by `recallable`), its
 * allocations the rows' amounts as given (history is what was, not split
 * again); each payment as a call payment (up to the entity's share still
 * due); each valuation (replacing one of the same entity and date); each P&L
 * row (replacing one of the same entity and quarter). Nothing may be dated in
 * a published quarter (lock.server.ts), and nothing after today (Zurich).
 */

type Reader = Pick<Db, "select">;
type Tx = Pick<Db, "select" | "insert" | "update" | "delete">;
type Entity = CommittedEntity;

/** The most errors the preview lists (all are counted). */
export const MAX_SHOWN_ERRORS = 500;
/** The most replaced valuations and entries the preview lists (all are counted). */
export const MAX_SHOWN_ITEMS = 200;
/** Errors kept while checking (all are counted): far more than are shown, never unbounded. */
const MAX_KEPT_ERRORS = 20_000;
const MAX_REFERENCE_CHARS = 100;
/** Distinct amount texts remembered per file (beyond them, each is read anew). */
const MAX_CACHED_AMOUNTS = 50_000;
const MAX_MINOR = BigInt(Number.MAX_SAFE_INTEGER);
/** What an entity id looks like (a UUID): an unknown one is "no entity has this id". */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// ---------------------------------------------------------------------------
// The files' columns

type HistoryColumn = "entity" | "entityId" | "entityName" | "event" | "date" | "dueDate" | "reference" | "type" | "recallable" | "amount";
const HISTORY_HEADERS: Record<string, HistoryColumn> = {
  entity: "entity",
  entity_id: "entityId",
  entity_name: "entityName",
  event: "event",
  date: "date",
  due_date: "dueDate",
  reference: "reference",
  type: "type",
  recallable: "recallable",
  amount: "amount",
};
const HISTORY_NAMES: Record<HistoryColumn, string> = {
  entity: "entity",
  entityId: "entity_id",
  entityName: "entity_name",
  event: "event",
  date: "date",
  dueDate: "due_date",
  reference: "reference",
  type: "type",
  recallable: "recallable",
  amount: "amount",
};

// ---------------------------------------------------------------------------
// The preview

export type HistoryRowError = { file: HistoryFile; line: number; column: string | null; message: string };

export type HistoryEntryPreview = {
  kind: "call" | "distribution";
  /** The reference as the file names it (cut for showing). */
  reference: string;
  /** The number it would be published with (Call n, Distribution n). */
  number: number;
  date: string;
  dueDate: string | null;
  entities: number;
  total: string;
};

export type HistoryPreview = {
  fund: Pick<Fund, "slug" | "name" | "currency">;
  rows: { history: number; pnl: number };
  /** Rows with at least one error, in both files. */
  withErrors: number;
  errorCount: number;
  /** The first MAX_SHOWN_ERRORS errors, by file and line. */
  errors: HistoryRowError[];
  /** What would be saved from the rows without errors (amounts as decimal strings). */
  counts: {
    calls: { rows: number; entries: number; total: string; first: number | null; last: number | null };
    distributions: { rows: number; entries: number; total: string; first: number | null; last: number | null };
    payments: { rows: number; total: string };
    valuations: { rows: number; replacing: number; total: string };
    pnl: { rows: number; quarters: number; replacing: number };
    /** The rows of each event in the files, with or without errors. */
    read: Record<HistoryEvent | "pnl", number>;
  };
  /** The valuations the import replaces (the first MAX_SHOWN_ITEMS by date and entity). */
  replacements: { entity: { id: string; name: string }; date: string; current: string; imported: string }[];
  /** The calls and distributions it publishes, in date order (the first MAX_SHOWN_ITEMS). */
  entries: HistoryEntryPreview[];
  /** The first and last date of the rows without errors (P&L quarters by their last day). */
  period: { from: string; to: string } | null;
  /** What the admin confirms: the counts and numbers read; a confirm that reads others is refused. */
  signature: string;
  /** Every row reads and nothing is refused. */
  ok: boolean;
};

/** The files' texts, as read from the upload. */
export type HistoryTexts = { history: string; pnl: string | null };

// ---------------------------------------------------------------------------
// Reading: compact rows, cell checks only

type HistoryRow = {
  line: number;
  event: HistoryEvent | null;
  /** What names the entity (interned), and what it resolved to. */
  entityKey: string | null;
  entity: Entity | null;
  date: string | null;
  dueDate: string | null;
  reference: string | null;
  referenceKey: string | null;
  type: string | null;
  recallable: boolean;
  amount: bigint | null;
  bad: boolean;
};

type PnlRow = {
  line: number;
  entityKey: string | null;
  entity: Entity | null;
  quarter: string | null;
  amounts: PnlAmounts | null;
  bad: boolean;
};

class ErrorList {
  kept: HistoryRowError[] = [];
  count = 0;
  add(row: { line: number; bad: boolean }, file: HistoryFile, column: string | null, message: string) {
    row.bad = true;
    this.count += 1;
    if (this.kept.length < MAX_KEPT_ERRORS) this.kept.push({ file, line: row.line, column, message });
  }
}

/**
 * What a file's cells say, worked out once per distinct text: a file of
 * 240,000 rows has a few hundred dates and references and a few thousand
 * entity names, so each is checked (and kept) once.
 */
class CellCache {
  private readonly strings = new Map<string, string>();
  private readonly dates = new Map<string, string | null>();
  private readonly references = new Map<string, { text: string; key: string } | null>();
  private readonly amounts = new Map<string, ParsedAmount>();
  /** The one copy of a string. */
  keep(text: string): string {
    const known = this.strings.get(text);
    if (known !== undefined) return known;
    this.strings.set(text, text);
    return text;
  }
  /** A calendar date, or null. */
  date(text: string): string | null {
    let date = this.dates.get(text);
    if (date === undefined) {
      date = isCalendarDate(text) ? text : null;
      this.dates.set(text, date);
    }
    return date;
  }
  /** An amount cell read with money.ts (signed: zero and negatives allowed), the same text once: fees, expenses and a call's shares repeat. */
  amount(text: string, currency: string, signed: boolean): ParsedAmount {
    const key = signed ? `-${text}` : text;
    let parsed = this.amounts.get(key);
    if (parsed === undefined) {
      parsed = signed ? parseSignedAmount(text, currency) : parseAmount(text, currency);
      if (this.amounts.size < MAX_CACHED_AMOUNTS) this.amounts.set(key, parsed);
    }
    return parsed;
  }
  /** A reference as shown (spacing collapsed) and as matched; null when too long. */
  reference(raw: string): { text: string; key: string } | null {
    let reference = this.references.get(raw);
    if (reference === undefined) {
      const text = raw.replace(/\s+/g, " ");
      reference = text.length > MAX_REFERENCE_CHARS ? null : { text, key: this.keep(nameKey(text)) };
      this.references.set(raw, reference);
    }
    return reference;
  }
}

/** The entity cells of a row as one key: `id \0 name \0 either`. */
const entityKeyOf = (id: string, name: string, either: string) => `${id}\u0000${name}\u0000${either}`;

/** Each column's index in the header (-1: absent). */
function indexesOf<C extends string>(columns: readonly C[], all: readonly C[]): Record<C, number> {
  return Object.fromEntries(all.map((column) => [column, columns.indexOf(column)])) as Record<C, number>;
}

/** The trimmed cell of a column (empty when the file has no such column). */
const cellAt = (record: readonly string[], index: number) => (index < 0 ? "" : record[index]!.trim());
/** Whether a column's cell was refused as a formula (`formulas`: a bit per column index). */
const formulaAt = (formulas: number, index: number) => index >= 0 && (formulas & (1 << index)) !== 0;

/** The bits of the columns whose cell a spreadsheet would run, each refused with its message. */
function formulaCells<C extends string>(record: readonly string[], columns: readonly C[], names: Record<C, string>, fail: (column: C, message: string) => void): number {
  let formulas = 0;
  for (let i = 0; i < record.length; i++) {
    if (!isFormula(record[i]!)) continue;
    formulas |= 1 << i;
    fail(columns[i]!, rowMessages.formula(names[columns[i]!]));
  }
  return formulas;
}

/** The entity cells of a row (spacing collapsed), or null when a formula or nothing names it. */
function entityCells(record: readonly string[], at: Record<"entity" | "entityId" | "entityName", number>, formulas: number, strings: CellCache, fail: (message: string) => void): string | null {
  if (formulaAt(formulas, at.entity) || formulaAt(formulas, at.entityId) || formulaAt(formulas, at.entityName)) return null;
  const id = cellAt(record, at.entityId);
  const name = cellAt(record, at.entityName).replace(/\s+/g, " ");
  const either = cellAt(record, at.entity).replace(/\s+/g, " ");
  if (!id && !name && !either) {
    fail(rowMessages.entityRequired);
    return null;
  }
  return strings.keep(entityKeyOf(id, name, either));
}

const HISTORY_COLUMNS = Object.values(HISTORY_HEADERS);
const PNL_ALL_COLUMNS = Object.values(PNL_HEADER.headers);

async function readHistoryRows(text: string, fund: Fund, today: string, errors: ErrorList): Promise<HistoryRow[]> {
  const rows: HistoryRow[] = [];
  const strings = new CellCache();
  let columns: HistoryColumn[] = [];
  let at = indexesOf<HistoryColumn>([], HISTORY_COLUMNS);
  const callTypes = new Set<string>(CALL_LINE_TYPES);
  const distributionTypes = new Set<string>(DISTRIBUTION_LINE_TYPES);
  await readCsvRows(text, "history", {
    maxRows: MAX_HISTORY_ROWS,
    header: (cells) => {
      columns = readCsvHeader<HistoryColumn>("history", cells, {
        headers: HISTORY_HEADERS,
        names: HISTORY_NAMES,
        required: [
          { any: ["entity", "entityId", "entityName"], name: "entity" },
          { any: ["event"], name: "event" },
          { any: ["date"], name: "date" },
          { any: ["amount"], name: "amount" },
        ],
        exclusive: [["entity", "entityId"], ["entity", "entityName"]],
        columnsMessage: m.columns,
      });
      at = indexesOf(columns, HISTORY_COLUMNS);
    },
    row: (record, line) => {
      const row: HistoryRow = { line, event: null, entityKey: null, entity: null, date: null, dueDate: null, reference: null, referenceKey: null, type: null, recallable: false, amount: null, bad: false };
      rows.push(row);
      const fail = (column: HistoryColumn | null, message: string) => errors.add(row, "history", column ? HISTORY_NAMES[column] : null, message);
      // More or fewer cells than the header (an unquoted comma in a name): the cells say nothing reliable.
      if (record.length !== columns.length) return fail(null, rowMessages.cells(record.length, columns.length));
      const formulas = formulaCells(record, columns, HISTORY_NAMES, fail);
      const free = (column: HistoryColumn) => !formulaAt(formulas, at[column]);

      row.entityKey = entityCells(record, at, formulas, strings, (message) => fail("entity", message));

      if (free("event")) {
        const event = cellAt(record, at.event).toLowerCase();
        if ((HISTORY_EVENTS as readonly string[]).includes(event)) row.event = event as HistoryEvent;
        else fail("event", m.event);
      }
      const event = row.event;

      if (free("date")) {
        const cell = cellAt(record, at.date);
        const date = strings.date(cell);
        if (date === null) fail("date", rowMessages.date);
        else if (date > today) fail("date", m.future(today));
        else row.date = date;
      }

      if (free("dueDate") && event) {
        const cell = cellAt(record, at.dueDate);
        if (event !== "call") {
          if (cell) fail("dueDate", m.dueDateNotCall);
        } else if (!cell) fail("dueDate", m.dueDateRequired);
        else {
          const due = strings.date(cell);
          if (due === null) fail("dueDate", rowMessages.date);
          else if (row.date && due < row.date) fail("dueDate", m.dueBeforeNotice);
          else row.dueDate = due;
        }
      }

      // A valuation's reference says nothing the import keeps: it is left as it is.
      if (free("reference") && event && event !== "valuation") {
        const cell = cellAt(record, at.reference);
        const reference = cell ? strings.reference(cell) : null;
        if (!cell) fail("reference", m.referenceRequired(event));
        else if (!reference) fail("reference", m.referenceTooLong);
        else {
          row.reference = reference.text;
          row.referenceKey = reference.key;
        }
      }

      if (free("type") && event) {
        const type = cellAt(record, at.type).toLowerCase().replace(/[\s-]+/g, "_");
        if (event === "payment" || event === "valuation") {
          if (type) fail("type", m.noType(event));
        } else if (event === "call" ? callTypes.has(type) : distributionTypes.has(type)) row.type = strings.keep(type);
        else fail("type", event === "call" ? m.callType : m.distributionType);
      }

      if (free("recallable")) {
        const recallable = cellAt(record, at.recallable).toLowerCase();
        if (recallable && recallable !== "yes" && recallable !== "no") fail("recallable", m.recallable);
        else if (recallable === "yes") {
          if (event === "distribution" && (row.type === "return_of_capital" || row.type === null)) row.recallable = true;
          else if (event) fail("recallable", m.recallableNotRoc);
        }
      }

      if (free("amount") && event) {
        const cell = cellAt(record, at.amount);
        const parsed = strings.amount(cell, fund.currency, event === "valuation");
        if (!parsed.ok) fail("amount", parsed.message);
        else if (parsed.minor < 0n) fail("amount", valuationMessages.negative);
        else if (parsed.minor > MAX_MINOR) fail("amount", m.amountTooLarge);
        else row.amount = parsed.minor;
      }
    },
  });
  return rows;
}

async function readPnlRows(text: string, fund: Fund, today: string, errors: ErrorList): Promise<PnlRow[]> {
  const rows: PnlRow[] = [];
  const strings = new CellCache();
  const fundNames = new Set([nameKey(fund.slug), nameKey(fund.name)]);
  const fundCells = new Map<string, boolean>();
  const quarters = new Map<string, string | null>();
  let columns: PnlColumn[] = [];
  let at = indexesOf<PnlColumn>([], PNL_ALL_COLUMNS);
  await readCsvRows(text, "pnl", {
    maxRows: MAX_HISTORY_PNL_ROWS,
    header: (cells) => {
      // The P&L import's header, where `entity` beside `entity_name` is refused too (as in the history file).
      columns = readCsvHeader<PnlColumn>("pnl", cells, { ...PNL_HEADER, exclusive: [["entity", "entityId"], ["entity", "entityName"]] });
      at = indexesOf(columns, PNL_ALL_COLUMNS);
    },
    row: (record, line) => {
      const row: PnlRow = { line, entityKey: null, entity: null, quarter: null, amounts: null, bad: false };
      rows.push(row);
      const fail = (column: PnlColumn | null, message: string) => errors.add(row, "pnl", column ? PNL_COLUMN_NAMES[column] : null, message);
      if (record.length !== columns.length) return fail(null, rowMessages.cells(record.length, columns.length));
      const formulas = formulaCells(record, columns, PNL_COLUMN_NAMES, fail);
      const free = (column: PnlColumn) => !formulaAt(formulas, at[column]);

      row.entityKey = entityCells(record, at, formulas, strings, (message) => fail("entity", message));
      if (free("fund")) {
        const cell = cellAt(record, at.fund);
        let ours = fundCells.get(cell);
        if (ours === undefined) fundCells.set(cell, (ours = fundNames.has(nameKey(cell))));
        if (!cell) fail("fund", rowMessages.fundRequired);
        else if (!ours) fail("fund", rowMessages.otherFund(fund.name));
      }
      if (free("quarter")) {
        const cell = cellAt(record, at.quarter);
        let quarter = quarters.get(cell);
        if (quarter === undefined) {
          const upper = cell.toUpperCase();
          quarters.set(cell, (quarter = isQuarter(upper) ? strings.keep(upper) : null));
        }
        if (quarter === null) fail("quarter", pnlCsvMessages.quarter);
        else if (quarterEnd(quarter) >= today) fail("quarter", m.quarterNotOver(quarter, quarterEnd(quarter)));
        else row.quarter = quarter;
      }
      const amounts: Partial<PnlAmounts> = {};
      let complete = true;
      for (const [name, key] of PNL_COLUMNS) {
        if (!free(key)) {
          complete = false;
          continue;
        }
        const parsed = strings.amount(cellAt(record, at[key]), fund.currency, true);
        if (!parsed.ok) fail(key, pnlCsvMessages.amount(name, parsed.message));
        else if (parsed.minor > MAX_MINOR || -parsed.minor > MAX_MINOR) fail(key, pnlCsvMessages.amountTooLarge(name));
        else {
          amounts[key] = parsed.minor;
          continue;
        }
        complete = false;
      }
      if (complete) row.amounts = amounts as PnlAmounts;
    },
  });
  return rows;
}

// ---------------------------------------------------------------------------
// The entities

/**
 * What each distinct entity key of the rows names: an entity of the fund, or
 * why not. By id (`entity_id`, or an `entity` cell that is an id), else by
 * name among the entities with a commitment in the fund (case and spacing
 * ignored; two of one name are ambiguous); an id or name of an entity
 * without a commitment in the fund is told apart from an unknown one.
 */
function resolveEntities(keys: Iterable<string>, fundId: string, db: Reader): Map<string, Entity | string> {
  const committed = committedEntities(fundId, db);
  const out = new Map<string, Entity | string>();
  const strayIds = new Set<string>();
  const strayNames = new Set<string>();
  const pending: [string, { id: string; name: string }][] = [];
  for (const key of keys) {
    const [idCell = "", nameCell = "", either = ""] = key.split("\u0000");
    const id = idCell || (committed.byId.has(either) ? either : "");
    const name = idCell ? nameCell || either : nameCell || (id ? "" : either);
    if (id) {
      const found = committed.byId.get(id);
      if (!found) {
        if (id.length <= 64) strayIds.add(id);
        pending.push([key, { id, name: "" }]);
      } else if (name && nameKey(name) !== nameKey(found.name)) out.set(key, rowMessages.nameMismatch(found.name));
      else out.set(key, found);
      continue;
    }
    const candidates = committed.byName.get(nameKey(name)) ?? [];
    if (candidates.length === 1) out.set(key, candidates[0]!);
    else if (candidates.length > 1) out.set(key, rowMessages.ambiguous(candidates.length));
    else {
      // An `entity` cell that is no committed entity's id or name may be another entity's id.
      if (either && either.length <= 64) strayIds.add(either);
      strayNames.add(name);
      pending.push([key, { id: either, name }]);
    }
  }
  const { knownIds, knownNames } = knownElsewhere([...strayIds], [...strayNames].filter(Boolean), db);
  for (const [key, named] of pending) {
    if ((named.id && knownIds.has(named.id)) || (named.name && knownNames.has(nameKey(named.name)))) out.set(key, valuationMessages.notCommitted);
    else out.set(key, UUID.test(named.name || named.id) ? rowMessages.unknownEntityId : rowMessages.unknownEntityName);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Checking against the fund's records, and the plan of what to write

type Group = {
  kind: "call" | "distribution";
  reference: string;
  referenceKey: string;
  first: HistoryRow;
  date: string | null;
  dueDate: string | null;
  rows: HistoryRow[];
  number: number;
};

type Plan = {
  calls: Group[];
  distributions: Group[];
  payments: HistoryRow[];
  valuations: HistoryRow[];
  pnl: PnlRow[];
  /** Per call reference: each entity's share (minor units). */
  callShares: Map<string, Map<string, bigint>>;
};

type Checked = { preview: HistoryPreview; plan: Plan };

const linesOf = (rows: readonly { line: number }[]) => rows.map((r) => r.line);

/**
 * Rows by a pair of keys (an entity and a date, a call and an entity), two
 * levels of maps: no key string is made per row, and a pair's one row is kept
 * as it is (most pairs have one), an array only once a second comes.
 */
class PairIndex<R extends object> {
  private readonly outer = new Map<string, Map<string, R | R[]>>();
  add(a: string, b: string, row: R) {
    let inner = this.outer.get(a);
    if (!inner) this.outer.set(a, (inner = new Map()));
    const seen = inner.get(b);
    if (seen === undefined) inner.set(b, row);
    else if (Array.isArray(seen)) seen.push(row);
    else inner.set(b, [seen, row]);
  }
  get(a: string, b: string): R | R[] | undefined {
    return this.outer.get(a)?.get(b);
  }
  /** Every pair's rows. */
  *all(): Generator<[string, string, R[]]> {
    for (const [a, inner] of this.outer) for (const [b, rows] of inner) yield [a, b, Array.isArray(rows) ? rows : [rows]];
  }
  /** The pairs with more than one row. */
  *repeated(): Generator<R[]> {
    for (const inner of this.outer.values()) for (const rows of inner.values()) if (Array.isArray(rows)) yield rows;
  }
}

/** Record an error on every row of a pair listed more than once. */
function duplicates<R extends { line: number; bad: boolean }>(index: PairIndex<R>, add: (row: R, lines: number[]) => void) {
  for (const rows of index.repeated()) for (const row of rows) add(row, linesOf(rows));
}

/** The files read into rows, with their cells' errors: what checkRead checks against the database. */
type Read = { history: HistoryRow[]; pnl: PnlRow[]; errors: ErrorList; today: string };

/**
 * Read the files' texts for `fund` into rows, each cell checked on its own
 * (no database). A file that cannot be read as rows is a 400 or 413 AppError
 * on its field (`history` or `pnl`).
 */
async function readFiles(fund: Fund, texts: HistoryTexts, at: Date): Promise<Read> {
  const today = firmDay(at);
  const errors = new ErrorList();
  const history = await readHistoryRows(texts.history, fund, today, errors);
  const pnl = texts.pnl === null ? [] : await readPnlRows(texts.pnl, fund, today, errors);
  return { history, pnl, errors, today };
}

/**
 * Check the rows read against the database as `db` reads it: the preview, and
 * the plan of what to write (used only when nothing is refused). Synchronous,
 * so the import runs it inside its writing transaction.
 */
function checkRead(fund: Fund, read: Read, db: Reader): Checked {
  const { history, pnl, errors } = read;
  const money = (minor: bigint) => toDecimalString(minor, fund.currency);

  // The entities, each distinct key resolved once.
  const keys = new Set<string>();
  for (const row of history) if (row.entityKey) keys.add(row.entityKey);
  for (const row of pnl) if (row.entityKey) keys.add(row.entityKey);
  const resolved = resolveEntities(keys, fund.id, db);

  // The fund's published quarters among the rows' dates.
  const quarters = new Set<string>();
  for (const row of history) {
    if (row.date) quarters.add(quarterOf(row.date));
    if (row.dueDate) quarters.add(quarterOf(row.dueDate));
  }
  for (const row of pnl) if (row.quarter) quarters.add(row.quarter);
  const closed = new Set(closedQuarters(db, fund.id, [...quarters]));

  for (const row of history) {
    const fail = (column: string, message: string) => errors.add(row, "history", column, message);
    if (row.entityKey) {
      const found = resolved.get(row.entityKey)!;
      if (typeof found === "string") fail("entity", found);
      else {
        row.entity = found;
        if (row.date && found.acceptedOn > row.date) fail("date", m.commitmentLater(found.acceptedOn));
      }
    }
    if (row.date && closed.has(quarterOf(row.date))) fail("date", publishingMessages.quarterClosed(quarterOf(row.date)));
    if (row.dueDate && closed.has(quarterOf(row.dueDate)) && !(row.date && quarterOf(row.date) === quarterOf(row.dueDate))) {
      fail("due_date", publishingMessages.quarterClosed(quarterOf(row.dueDate)));
    }
  }
  for (const row of pnl) {
    const fail = (column: string, message: string) => errors.add(row, "pnl", column, message);
    if (row.entityKey) {
      const found = resolved.get(row.entityKey)!;
      if (typeof found === "string") fail("entity", found);
      else {
        row.entity = found;
        if (row.quarter && found.acceptedOn > quarterEnd(row.quarter)) fail("quarter", pnlCsvMessages.notYetCommitted(quarterEnd(row.quarter)));
      }
    }
    if (row.quarter && closed.has(row.quarter)) fail("quarter", publishingMessages.quarterClosed(row.quarter));
  }

  // Calls and distributions: their rows grouped by reference, one date (and due date) each.
  const groups = { call: new Map<string, Group>(), distribution: new Map<string, Group>() };
  for (const row of history) {
    if ((row.event !== "call" && row.event !== "distribution") || !row.referenceKey) continue;
    const byReference = groups[row.event];
    let group = byReference.get(row.referenceKey);
    if (!group) {
      group = { kind: row.event, reference: row.reference!, referenceKey: row.referenceKey, first: row, date: null, dueDate: null, rows: [], number: 0 };
      byReference.set(row.referenceKey, group);
    }
    group.rows.push(row);
  }
  for (const group of [...groups.call.values(), ...groups.distribution.values()]) {
    const dated = group.rows.find((r) => r.date !== null);
    group.date = dated?.date ?? null;
    const due = group.rows.find((r) => r.dueDate !== null);
    group.dueDate = due?.dueDate ?? null;
    for (const row of group.rows) {
      if (row.date && dated && row.date !== group.date) {
        errors.add(row, "history", "date", group.kind === "call" ? m.otherNoticeDate(dated.line, group.date!) : m.otherPaymentDate(dated.line, group.date!));
      }
      if (row.dueDate && due && row.dueDate !== group.dueDate) errors.add(row, "history", "due_date", m.otherDueDate(due.line, group.dueDate!));
    }
    // One row per entity and type (and, for a return of capital, recallable or not).
    const shares = new PairIndex<HistoryRow>();
    for (const row of group.rows) if (row.entity && row.type) shares.add(row.entity.id, row.recallable ? `${row.type} recallable` : row.type, row);
    duplicates(shares, (row, lines) => errors.add(row, "history", "entity", m.duplicateShare(lines)));
    if (group.kind === "distribution") {
      const call = groups.call.get(group.referenceKey);
      if (call) for (const row of group.rows) errors.add(row, "history", "reference", m.referenceOfCall(call.first.line));
    }
  }

  // Each call's shares per entity, from its rows with an amount.
  const callShares = new Map<string, Map<string, bigint>>();
  for (const group of groups.call.values()) {
    const shares = new Map<string, bigint>();
    for (const row of group.rows) if (row.entity && row.amount !== null) shares.set(row.entity.id, (shares.get(row.entity.id) ?? 0n) + row.amount);
    callShares.set(group.referenceKey, shares);
  }

  // Payments: of a call in the file, by an entity it asks, after its notice, up to the share still due.
  const paymentsBy = new PairIndex<HistoryRow>();
  for (const row of history) {
    if (row.event !== "payment" || !row.referenceKey) continue;
    const call = groups.call.get(row.referenceKey);
    if (!call) {
      errors.add(row, "history", "reference", groups.distribution.has(row.referenceKey) ? m.paysDistribution : m.unknownCall);
      continue;
    }
    if (row.date && call.date && row.date < call.date) errors.add(row, "history", "date", m.beforeNotice);
    if (!row.entity) continue;
    if (!callShares.get(row.referenceKey)!.has(row.entity.id)) {
      errors.add(row, "history", "entity", m.notCalled);
      continue;
    }
    paymentsBy.add(row.referenceKey, row.entity.id, row);
  }
  for (const [referenceKey, entityId, rows] of paymentsBy.all()) {
    const share = callShares.get(referenceKey)!.get(entityId)!;
    let paid = 0n;
    for (const row of rows.filter((r) => r.amount !== null).sort((a, b) => (a.date ?? "").localeCompare(b.date ?? "") || a.line - b.line)) {
      if (paid + row.amount! > share) errors.add(row, "history", "amount", m.overpaid(formatMoney(share - paid, fund.currency)));
      else if (!row.bad) paid += row.amount!;
    }
  }

  // Valuations: each entity once a date; one already saved at that date is replaced.
  const valuationsBy = new PairIndex<HistoryRow>();
  for (const row of history) if (row.event === "valuation" && row.entity && row.date) valuationsBy.add(row.entity.id, row.date, row);
  duplicates(valuationsBy, (row, lines) => errors.add(row, "history", "date", rowMessages.duplicate(lines)));

  // P&L: each entity once a quarter.
  const pnlBy = new PairIndex<PnlRow>();
  for (const row of pnl) if (row.entity && row.quarter) pnlBy.add(row.entity.id, row.quarter, row);
  duplicates(pnlBy, (row, lines) => errors.add(row, "pnl", "quarter", pnlCsvMessages.duplicate(lines)));

  // A line's sum must stay exact in SQLite.
  for (const group of [...groups.call.values(), ...groups.distribution.values()]) {
    const sums = new Map<string, bigint>();
    for (const row of group.rows) if (row.type && row.amount !== null) sums.set(`${row.type}${row.recallable}`, (sums.get(`${row.type}${row.recallable}`) ?? 0n) + row.amount);
    if ([...sums.values()].some((sum) => sum > MAX_MINOR)) errors.add(group.first, "history", "amount", m.amountTooLarge);
  }

  // A call or distribution the fund already has (same kind, dates and total) was imported before: twice would count it twice.
  const published = publishedEntries(db, fund.id);
  for (const group of [...groups.call.values(), ...groups.distribution.values()]) {
    if (!group.date) continue;
    const total = group.rows.reduce((sum, row) => sum + (row.amount ?? 0n), 0n);
    const same = published.get(`${group.kind}\u0000${group.date}\u0000${group.kind === "call" ? (group.dueDate ?? "") : ""}\u0000${total}`);
    if (same) errors.add(group.first, "history", "reference", m.alreadyPublished(ledgerReference(group.kind, same)));
  }

  // The numbers: per kind in date order (a call's due date, then the file's order, breaking ties), after the fund's own.
  const lastNumber = (kind: "call" | "distribution") =>
    db
      .select({ n: max(ledgerEntries.number) })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.fundId, fund.id), eq(ledgerEntries.kind, kind)))
      .get()?.n ?? 0;
  const ordered = (kind: "call" | "distribution") => {
    const list = [...groups[kind].values()].filter((g) => g.date !== null && g.rows.every((r) => !r.bad));
    list.sort((a, b) => a.date!.localeCompare(b.date!) || (a.dueDate ?? "").localeCompare(b.dueDate ?? "") || a.first.line - b.first.line);
    const last = lastNumber(kind);
    list.forEach((group, i) => (group.number = last + i + 1));
    return list;
  };
  const calls = ordered("call");
  const distributions = ordered("distribution");

  const good = history.filter((r) => !r.bad);
  const payments = good.filter((r) => r.event === "payment");
  const values = good.filter((r) => r.event === "valuation");
  const pnlGood = pnl.filter((r) => !r.bad);

  // What the valuations and P&L rows replace.
  const existing = existingValuations(db, fund.id, [...new Set(values.map((r) => r.date!))]);
  const replacements = values
    .filter((r) => existing.get(r.entity!.id)?.has(r.date!))
    .map((r) => ({ row: r, current: existing.get(r.entity!.id)!.get(r.date!)! }));
  const existingPnl = existingPnlRows(db, fund.id, [...new Set(pnlGood.map((r) => r.quarter!))]);
  const pnlReplacing = pnlGood.filter((r) => existingPnl.get(r.entity!.id)?.has(r.quarter!)).length;

  const sum = (rows: readonly HistoryRow[]) => rows.reduce((s, r) => s + (r.amount ?? 0n), 0n);
  const entryOf = (group: Group): HistoryEntryPreview => ({
    kind: group.kind,
    reference: cutCell(group.reference),
    number: group.number,
    date: group.date!,
    dueDate: group.dueDate,
    entities: new Set(group.rows.map((r) => r.entity!.id)).size,
    total: money(sum(group.rows)),
  });
  const entries = [...calls, ...distributions]
    .sort((a, b) => a.date!.localeCompare(b.date!) || (a.kind === b.kind ? a.number - b.number : a.kind === "call" ? -1 : 1))
    .slice(0, MAX_SHOWN_ITEMS)
    .map(entryOf);

  const dates = [...good.map((r) => r.date!), ...pnlGood.map((r) => quarterEnd(r.quarter!))].sort();
  const withErrors = history.filter((r) => r.bad).length + pnl.filter((r) => r.bad).length;
  const callRows = calls.reduce((s, g) => s + g.rows.length, 0);
  const distributionRows = distributions.reduce((s, g) => s + g.rows.length, 0);
  const counts: HistoryPreview["counts"] = {
    calls: { rows: callRows, entries: calls.length, total: money(calls.reduce((s, g) => s + sum(g.rows), 0n)), first: calls[0]?.number ?? null, last: calls.at(-1)?.number ?? null },
    distributions: {
      rows: distributionRows,
      entries: distributions.length,
      total: money(distributions.reduce((s, g) => s + sum(g.rows), 0n)),
      first: distributions[0]?.number ?? null,
      last: distributions.at(-1)?.number ?? null,
    },
    payments: { rows: payments.length, total: money(sum(payments)) },
    valuations: { rows: values.length, replacing: replacements.length, total: money(sum(values)) },
    pnl: { rows: pnlGood.length, quarters: new Set(pnlGood.map((r) => r.quarter)).size, replacing: pnlReplacing },
    read: { call: 0, payment: 0, distribution: 0, valuation: 0, pnl: pnl.length },
  };
  for (const row of history) if (row.event) counts.read[row.event] += 1;
  const fileOrder = (e: HistoryRowError) => (e.file === "history" ? 0 : 1);
  const shownErrors = errors.kept.sort((a, b) => fileOrder(a) - fileOrder(b) || a.line - b.line).slice(0, MAX_SHOWN_ERRORS);
  const preview: HistoryPreview = {
    fund: { slug: fund.slug, name: fund.name, currency: fund.currency },
    rows: { history: history.length, pnl: pnl.length },
    withErrors,
    errorCount: errors.count,
    errors: shownErrors,
    counts,
    replacements: replacements
      .sort((a, b) => a.row.date!.localeCompare(b.row.date!) || a.row.entity!.name.localeCompare(b.row.entity!.name, "en"))
      .slice(0, MAX_SHOWN_ITEMS)
      .map(({ row, current }) => ({ entity: { id: row.entity!.id, name: row.entity!.name }, date: row.date!, current: money(current), imported: money(row.amount!) })),
    entries,
    period: dates.length ? { from: dates[0]!, to: dates.at(-1)! } : null,
    signature: [
      calls.length,
      callRows,
      counts.calls.first ?? 0,
      distributions.length,
      distributionRows,
      counts.distributions.first ?? 0,
      payments.length,
      values.length,
      replacements.length,
      pnlGood.length,
      pnlReplacing,
    ].join("."),
    ok: errors.count === 0,
  };
  return { preview, plan: { calls, distributions, payments, valuations: values, pnl: pnlGood, callShares } };
}

/** The fund's published calls and distributions by kind, dates and total (`kind \0 date \0 due \0 total`) → their number. */
function publishedEntries(db: Reader, fundId: string): Map<string, number> {
  const rows = db
    .select({ kind: ledgerEntries.kind, number: ledgerEntries.number, date: ledgerEntries.date, dueDate: ledgerEntries.dueDate, total: sql<number>`sum(${ledgerLines.amountMinor})` })
    .from(ledgerEntries)
    .innerJoin(ledgerLines, eq(ledgerLines.entryId, ledgerEntries.id))
    .where(and(eq(ledgerEntries.fundId, fundId), eq(ledgerEntries.status, "published")))
    .groupBy(ledgerEntries.id)
    .all();
  return new Map(rows.map((r) => [`${r.kind}\u0000${r.date}\u0000${r.kind === "call" ? (r.dueDate ?? "") : ""}\u0000${BigInt(r.total)}`, r.number ?? 0]));
}

/** The fund's saved NAVs at these dates, by entity and date. */
function existingValuations(db: Reader, fundId: string, dates: string[]): Map<string, Map<string, bigint>> {
  const out = new Map<string, Map<string, bigint>>();
  for (let i = 0; i < dates.length; i += 500) {
    for (const row of db
      .select({ entityId: valuations.entityId, date: valuations.date, navMinor: valuations.navMinor })
      .from(valuations)
      .where(and(eq(valuations.fundId, fundId), inArray(valuations.date, dates.slice(i, i + 500))))
      .all())
      (out.get(row.entityId) ?? out.set(row.entityId, new Map()).get(row.entityId)!).set(row.date, BigInt(row.navMinor));
  }
  return out;
}

/** The fund's saved P&L rows of these quarters, by entity. */
function existingPnlRows(db: Reader, fundId: string, quarters: string[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (let i = 0; i < quarters.length; i += 500) {
    for (const row of db
      .select({ entityId: pnlRows.entityId, quarter: pnlRows.quarter })
      .from(pnlRows)
      .where(and(eq(pnlRows.fundId, fundId), inArray(pnlRows.quarter, quarters.slice(i, i + 500))))
      .all())
      (out.get(row.entityId) ?? out.set(row.entityId, new Set()).get(row.entityId)!).add(row.quarter);
  }
  return out;
}

// ---------------------------------------------------------------------------
// The two operations

/** Read the uploaded files' bytes as text (400 on the file's field when one is not UTF-8 text). */
export function decodeHistoryFiles(bytes: { history: Uint8Array; pnl: Uint8Array | null }): HistoryTexts {
  return { history: decodeCsvFile(bytes.history, { field: "history" }), pnl: bytes.pnl === null ? null : decodeCsvFile(bytes.pnl, { field: "pnl" }) };
}

/** The preview of the files for `fund`: reads the database, writes nothing. */
export async function previewHistory(fund: Fund, texts: HistoryTexts, db: Reader = getDb(), at: Date = now()): Promise<HistoryPreview> {
  return checkRead(fund, await readFiles(fund, texts, at), db).preview;
}

/** An import refused after reading the files: the preview to show again, and why. */
export class RefusedHistory extends AppError {
  constructor(
    readonly preview: HistoryPreview,
    message: string,
  ) {
    super("bad_request", message, { fields: { form: [message] } });
  }
}

export type HistoryImported = {
  fund: string;
  calls: number;
  distributions: number;
  payments: number;
  valuations: number;
  valuationsReplaced: number;
  pnl: number;
};

/**
 * Import the files for `fund`: read again from scratch, and checked against
 * the database inside the writing transaction; any error, or a preview other than the `signature` the admin
 * confirmed (null: none asked, as a script would), refuses it all
 * (RefusedHistory, 400, with the new preview). Otherwise everything is written
 * in that transaction, with its audit row; no mail.
 */
export async function importHistory(
  admin: Pick<LpUser, "id" | "email">,
  fund: Fund,
  texts: HistoryTexts,
  signature: string | null,
  db: Db = getDb(),
  at: Date = now(),
): Promise<HistoryImported> {
  // The files are read a piece at a time first; what the database says is checked inside the transaction.
  const read = await readFiles(fund, texts, at);
  return db.transaction((tx) => {
    const { preview, plan } = checkRead(fund, read, tx);
    if (!preview.ok) throw new RefusedHistory(preview, m.refused(preview.withErrors));
    if (signature !== null && signature !== preview.signature) throw new RefusedHistory(preview, m.changed);
    // The closed-quarter rule, as every dated change asks it (the rows were checked one by one above).
    const dates = new Set<string>();
    for (const row of [...plan.payments, ...plan.valuations]) dates.add(row.date!);
    for (const group of [...plan.calls, ...plan.distributions]) {
      dates.add(group.date!);
      if (group.dueDate) dates.add(group.dueDate);
    }
    for (const row of plan.pnl) dates.add(quarterEnd(row.quarter!));
    assertQuarterOpen(tx, fund.id, [...dates]);
    writePlan(tx, admin, fund, plan, at);
    const done: HistoryImported = {
      fund: fund.slug,
      calls: plan.calls.length,
      distributions: plan.distributions.length,
      payments: plan.payments.length,
      valuations: plan.valuations.length,
      valuationsReplaced: preview.counts.valuations.replacing,
      pnl: plan.pnl.length,
    };
    audit(tx, "history.imported", {
      actor: { id: admin.id, email: admin.email },
      target: { type: "fund", id: fund.id, label: fund.name },
      details: {
        ...done,
        callRows: preview.counts.calls.rows,
        distributionRows: preview.counts.distributions.rows,
        pnlReplaced: preview.counts.pnl.replacing,
        from: preview.period?.from ?? null,
        to: preview.period?.to ?? null,
      },
    });
    return done;
  });
}

function insertChunks<T>(rows: readonly T[], size: number, insert: (chunk: T[]) => void) {
  for (let i = 0; i < rows.length; i += size) insert(rows.slice(i, i + size));
}

/** A group's lines: one per type (a distribution's return of capital once recallable, once not), in the ledger's order of types. */
function entryLines(group: Group) {
  const order: readonly string[] = group.kind === "call" ? CALL_LINE_TYPES : DISTRIBUTION_LINE_TYPES;
  const sums = new Map<string, { type: string; recallable: boolean; amount: bigint }>();
  for (const row of group.rows) {
    const key = `${row.type}\u0000${row.recallable}`;
    const line = sums.get(key) ?? { type: row.type!, recallable: row.recallable, amount: 0n };
    line.amount += row.amount!;
    sums.set(key, line);
  }
  return [...sums.values()].sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type) || Number(b.recallable) - Number(a.recallable));
}

function writePlan(tx: Tx, admin: Pick<LpUser, "id" | "email">, fund: Fund, plan: Plan, at: Date) {
  // Tens of thousands of rows a table: one prepared statement each, run row by row in the transaction.
  const p = (name: string) => sql.placeholder(name);
  const allocation = tx.insert(ledgerAllocations).values({ entryId: p("entryId"), entityId: p("entityId"), position: p("position"), amountMinor: p("amount") }).prepare();
  const entryIds = new Map<string, string>();
  for (const group of [...plan.calls, ...plan.distributions]) {
    const entry = tx
      .insert(ledgerEntries)
      .values({ fundId: fund.id, kind: group.kind, status: "published", number: group.number, date: group.date!, dueDate: group.kind === "call" ? group.dueDate : null, createdBy: admin.id, publishedAt: at })
      .returning({ id: ledgerEntries.id })
      .get();
    if (group.kind === "call") entryIds.set(group.referenceKey, entry.id);
    const lines = entryLines(group);
    tx.insert(ledgerLines)
      .values(lines.map((line, position) => ({ entryId: entry.id, position, type: line.type, amountMinor: Number(line.amount), description: null, recallable: line.recallable })))
      .run();
    const positionOf = new Map(lines.map((line, position) => [`${line.type}\u0000${line.recallable}`, position]));
    for (const row of group.rows) allocation.run({ entryId: entry.id, entityId: row.entity!.id, position: positionOf.get(`${row.type}\u0000${row.recallable}`)!, amount: Number(row.amount!) });
  }

  const payment = tx
    .insert(callPayments)
    .values({ id: p("id"), entryId: p("entryId"), entityId: p("entityId"), amountMinor: p("amount"), receivedOn: p("date"), createdBy: admin.id })
    .prepare();
  for (const row of plan.payments) payment.run({ id: randomUUID(), entryId: entryIds.get(row.referenceKey!)!, entityId: row.entity!.id, amount: Number(row.amount!), date: row.date! });

  const valuation = tx
    .insert(valuations)
    .values({ id: p("id"), fundId: fund.id, entityId: p("entityId"), date: p("date"), navMinor: p("nav") })
    .onConflictDoUpdate({ target: [valuations.fundId, valuations.entityId, valuations.date], set: { navMinor: sql`excluded.nav_minor` } })
    .prepare();
  for (const row of plan.valuations) valuation.run({ id: randomUUID(), entityId: row.entity!.id, date: row.date!, nav: Number(row.amount!) });

  const pnl = tx
    .insert(pnlRows)
    .values({
      fundId: fund.id,
      quarter: p("quarter"),
      entityId: p("entityId"),
      managementFeesMinor: p("managementFees"),
      partnershipExpensesMinor: p("partnershipExpenses"),
      otherIncomeMinor: p("otherIncome"),
      realizedGainMinor: p("realizedGain"),
      unrealizedGainChangeMinor: p("unrealizedGainChange"),
      carriedInterestChangeMinor: p("carriedInterestChange"),
    })
    .onConflictDoUpdate({
      target: [pnlRows.fundId, pnlRows.quarter, pnlRows.entityId],
      set: {
        managementFeesMinor: sql`excluded.management_fees_minor`,
        partnershipExpensesMinor: sql`excluded.partnership_expenses_minor`,
        otherIncomeMinor: sql`excluded.other_income_minor`,
        realizedGainMinor: sql`excluded.realized_gain_minor`,
        unrealizedGainChangeMinor: sql`excluded.unrealized_gain_change_minor`,
        carriedInterestChangeMinor: sql`excluded.carried_interest_change_minor`,
      },
    })
    .prepare();
  for (const row of plan.pnl) {
    const a = row.amounts!;
    pnl.run({
      quarter: row.quarter!,
      entityId: row.entity!.id,
      managementFees: Number(a.managementFees),
      partnershipExpenses: Number(a.partnershipExpenses),
      otherIncome: Number(a.otherIncome),
      realizedGain: Number(a.realizedGain),
      unrealizedGainChange: Number(a.unrealizedGainChange),
      carriedInterestChange: Number(a.carriedInterestChange),
    });
  }

  // No reminders for history: a call whose reminder or overdue day is today or later is marked as reminded.
  const today = firmDay(at);
  const quiet: (typeof callReminders.$inferInsert)[] = [];
  for (const group of plan.calls) {
    const days = reminderDays(group.dueDate!);
    const kinds = (["reminder", "overdue"] as const).filter((kind) => (kind === "reminder" ? days.reminder : days.overdue) >= today);
    if (!kinds.length) continue;
    const entryId = entryIds.get(group.referenceKey)!;
    for (const entityId of new Set(group.rows.map((r) => r.entity!.id))) for (const kind of kinds) quiet.push({ entryId, entityId, kind, sentAt: at });
  }
  insertChunks(quiet, 500, (chunk) => tx.insert(callReminders).values(chunk).run());
}
