/**
 * The statements' rules as their messages say them (issue 25, decision 041):
 * the P&L import's file and row errors, the tie-out's verdicts and the JSON
 * import's request errors. The pages' own copy is content/statements.ts.
 */

const list = (items: string[]) => (items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`);

/** The P&L import (CSV from the fund administrator): its header, its rows, and the import as a whole. */
export const pnlCsvMessages = {
  /** Wrong columns, in one message. */
  columns: ({ missing, unknown, twice }: { missing: string[]; unknown: string[]; twice: string[] }) =>
    [
      "The header must name the columns entity (or entity_id), fund, quarter, management_fees, partnership_expenses, other_income, realized_gain, unrealized_gain_change and carried_interest_change, separated by commas.",
      missing.length ? `Missing: ${list(missing)}.` : "",
      unknown.length ? `Not known: ${list(unknown.map((name) => `"${name}"`))}.` : "",
      twice.length ? `Named twice: ${list(twice)}.` : "",
    ]
      .filter(Boolean)
      .join(" "),
  quarter: "Enter the quarter as YYYY-Q1 to YYYY-Q4, like 2026-Q3",
  otherQuarter: (quarter: string) => `Another quarter: this file's rows are for ${quarter}. Import each quarter as a file of its own.`,
  notCommitted: "This entity has no commitment in the fund",
  notYetCommitted: (quarterEnd: string) => `This entity's commitment starts after the quarter's end (${quarterEnd}): it has no P&L for this quarter`,
  /** The lines of an entity listed more than once (the first 5 named). */
  duplicate: (lines: number[]) =>
    `Listed more than once for this quarter (lines ${lines.length > 5 ? `${lines.slice(0, 5).join(", ")} and ${(lines.length - 5).toLocaleString("en-US")} more` : list(lines.map(String))})`,
  /** An entity with a commitment in force at the quarter's end that the file leaves out. */
  missing: "No row for this entity: every entity with a commitment in the fund at the quarter's end needs one",
  amountTooLarge: (column: string) => `${column}: the amount is too large`,
  /** A cell's own message (parseSignedAmount's), prefixed by its column. */
  amount: (column: string, message: string) => `${column}: ${message}`,
  /** The import refused after reading (a row error, or a row that does not tie). */
  refused: (errors: number) => `Nothing was imported: ${errors.toLocaleString("en-US")} ${errors === 1 ? "row has an error" : "rows have errors"}. Correct the file and preview it again.`,
  changed: "The file changed since its preview. Check the preview again before importing.",
} as const;

/** The tie-out (beginning NAV + contributions − distributions + the P&L = the valuation at quarter end, to the cent). */
export const tieOutMessages = {
  /** Amounts already formatted in the fund's currency. */
  doesNotTie: ({ expected, actual, difference }: { expected: string; actual: string; difference: string }) =>
    `Does not tie out: the roll-forward gives ${expected}, the valuation is ${actual} (difference ${difference})`,
  noValuation: (date: string) => `No valuation at the quarter's end (${date}): import the NAVs first`,
  noPnl: "No P&L row for this quarter",
} as const;

/** POST /api/statements/import: the request itself. */
export const statementsImportMessages = {
  fund: "Name the fund: ?fund= followed by its slug, like ?fund=fund-ii",
  contentType: "Send the CSV as a text/csv body, or as multipart/form-data with a file field",
  fileRequired: "Choose a CSV file (the form's file field)",
} as const;

// --- publishing (C)

/** Publishing a fund's quarter, restating it, and the closed-quarter rule (modules/statements/publish.server.ts, lock.server.ts). */
export const publishingMessages = {
  fund: "Choose a fund",
  quarter: "Enter the quarter as YYYY-Q1 to YYYY-Q4, like 2026-Q3",
  /** A payment, valuation, commitment, call or distribution dated inside a published quarter. */
  quarterClosed: (quarter: string) =>
    `${quarter} is published and closed: nothing may be dated inside it. To correct it, restate the quarter (this reopens it), then publish it again.`,
  alreadyPublished: (quarter: string) => `${quarter} is already published. Restate it first to publish a corrected version.`,
  notOver: (quarter: string, end: string) => `${quarter} is not over yet: it can be published from the day after ${end}.`,
  noPnl: (quarter: string) => `${quarter} has no P&L yet: import the fund administrator's CSV for the quarter first.`,
  doesNotTie: (quarter: string, rows: number) =>
    `${quarter} does not tie out for ${rows.toLocaleString("en-US")} ${rows === 1 ? "entity" : "entities"}: correct the P&L or the valuations and import again. Nothing was published.`,
  noEntities: (quarter: string) => `No entity has a commitment in the fund at the end of ${quarter}: there is nothing to publish.`,
  notPublished: (quarter: string) => `${quarter} has no published version to restate.`,
  jobNotFound: "No PDF job with this id",
} as const;

/** The documents the PDF job makes: their titles and description. */
export const statementDocumentCopy = {
  statementTitle: (fund: string, quarter: string, entity: string) => `Capital account statement — ${fund} — ${quarter} — ${entity}`,
  restatedDescription: (version: number) => `Restated (version ${version}): replaces the earlier version of this statement, which stays available.`,
  /** reference: "Call 3", "Distribution 1". */
  noticeTitle: (kind: "call" | "distribution", fund: string, reference: string, entity: string) =>
    `${kind === "call" ? "Capital call notice" : "Distribution notice"} — ${fund} — ${reference} — ${entity}`,
} as const;
