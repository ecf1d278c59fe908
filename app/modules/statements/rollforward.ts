import { capitalMetrics, type IrrNote } from "../capital/metrics";
import { compareQuarters, previousQuarter, quarterEnd, quarterOf, quarterStart, yearStartQuarter } from "./quarter";
import { PNL_KEYS, type PnlAmounts, type RollForwardColumn } from "./types";

/**
 * The ILPA roll-forward of one entity in one fund (issue 25 §1, decision 041):
 * pure, bigint minor units of the fund's currency, 'YYYY-MM-DD' dates and
 * '2026-Q3' quarters. No database: inputs.server.ts reads the history.
 *
 * A column covers the quarters `fromQuarter`…`toQuarter`, from the day after
 * `before` (the previous quarter's end) to `end` (its last quarter's end):
 * - beginning NAV: the valuation dated exactly `before`, else 0;
 * - contributions: the entity's share of the published calls **due** in the
 *   period (the capital account page counts them from the notice date: a call
 *   noticed by the period's end and due after it is the statement's footnote,
 *   `callsNoticedNotDue`);
 * - distributions: by payment date, with their recallable part;
 * - the six P&L amounts: the sum of the quarters' P&L rows in the period (a
 *   quarter without a row counts 0; the tie-out reports it);
 * - ending NAV: the valuation dated exactly `end`. **Without one** the column
 *   shows the roll-forward's own result (beginning + contributions −
 *   distributions + P&L), so the column still adds up on the page; the quarter
 *   cannot be published then, because `tieOut` reports `actual: null` and the
 *   tie-out refuses it (`no_valuation`).
 * - unfunded: beginning = the commitment in force at `before` − contributions
 *   before the period + recallable distributions before it; increases = the
 *   commitment in force at `end` − at `before` (a column that starts at the
 *   commitment's acceptance: the whole commitment); ending = beginning +
 *   increases − contributions + recallable distributions (= the commitment at
 *   `end` − every contribution due by then + every recallable distribution).
 *
 * The three columns: the quarter; year to date (from Q1 of the quarter's
 * calendar year, or the inception quarter when later); inception to date
 * (from the quarter of the commitment's acceptance, or the first quarter the
 * history holds P&L for when that is later: an imported history, the column
 * then says "Since {quarter}", `inceptionPartial`).
 */

export type EntityFundHistory = {
  /** Every amount the commitment had, by date; the first is the accepted amount on its acceptance date. In input order for equal dates. */
  commitmentChanges: readonly { effectiveOn: string; amount: bigint }[];
  /** The entity's allocated total of each published call. */
  calls: readonly { noticeDate: string; dueDate: string; amount: bigint }[];
  /** The entity's share of each published distribution, and the recallable part of it. */
  distributions: readonly { date: string; amount: bigint; recallable: bigint }[];
  valuations: readonly { date: string; nav: bigint }[];
  /** The P&L rows by quarter ('2026-Q3'). */
  pnl: ReadonlyMap<string, PnlAmounts>;
  /** Payments received against calls. */
  payments: readonly { date: string; amount: bigint }[];
};

export type RollForward = {
  quarter: RollForwardColumn;
  yearToDate: RollForwardColumn;
  inceptionToDate: RollForwardColumn;
  /** Inception to date starts later than the commitment's acceptance quarter (the first quarter with P&L). */
  inceptionPartial: boolean;
  /** A call noticed on or before the quarter's end and due after it (counted in a later quarter: footnote). */
  callsNoticedNotDue: boolean;
};

/** The roll-forward's rows in the statement's order (ILPA): the NAV's, then the unfunded commitment's. */
export const STATEMENT_ROWS = [
  "beginningNav",
  "contributions",
  "distributions",
  ...PNL_KEYS,
  "endingNav",
  "totalCommitment",
  "beginningUnfunded",
  "commitmentIncreases",
  "lessContributions",
  "recallableDistributions",
  "endingUnfunded",
] as const satisfies readonly (keyof RollForwardColumn)[];
export type StatementRow = (typeof STATEMENT_ROWS)[number];

export const ZERO_PNL: PnlAmounts = Object.freeze({
  managementFees: 0n,
  partnershipExpenses: 0n,
  otherIncome: 0n,
  realizedGain: 0n,
  unrealizedGainChange: 0n,
  carriedInterestChange: 0n,
});

/** The sum of the six P&L amounts (signed as they move NAV). */
export function pnlTotal(pnl: PnlAmounts): bigint {
  let total = 0n;
  for (const key of PNL_KEYS) total += pnl[key];
  return total;
}

/** The commitment in force on `date`: the latest change on or before it (of equal dates, the later in the input); 0 before the first. */
export function commitmentInForce(changes: EntityFundHistory["commitmentChanges"], date: string): bigint {
  let amount = 0n;
  let at = "";
  for (const change of changes) {
    if (change.effectiveOn <= date && change.effectiveOn >= at) {
      amount = change.amount;
      at = change.effectiveOn;
    }
  }
  return amount;
}

/** The NAV of the valuation dated exactly `date`, or null. */
export function navAt(valuations: EntityFundHistory["valuations"], date: string): bigint | null {
  let nav: bigint | null = null;
  for (const valuation of valuations) if (valuation.date === date) nav = valuation.nav;
  return nav;
}

/** The acceptance date: the earliest change's. */
function acceptedOn(history: EntityFundHistory): string | null {
  let first: string | null = null;
  for (const change of history.commitmentChanges) if (first === null || change.effectiveOn < first) first = change.effectiveOn;
  return first;
}

/**
 * Where inception to date starts for a statement of `quarter`: the acceptance
 * quarter, or the first quarter (up to `quarter`) the history holds P&L for
 * when later; never after `quarter`.
 */
export function inceptionOf(history: EntityFundHistory, quarter: string): { fromQuarter: string; partial: boolean } {
  const accepted = acceptedOn(history);
  const acceptance = accepted === null ? quarter : quarterOf(accepted);
  let firstPnl: string | null = null;
  for (const q of history.pnl.keys()) if (compareQuarters(q, quarter) <= 0 && (firstPnl === null || compareQuarters(q, firstPnl) < 0)) firstPnl = q;
  let from = firstPnl !== null && compareQuarters(firstPnl, acceptance) > 0 ? firstPnl : acceptance;
  if (compareQuarters(from, quarter) > 0) from = quarter;
  return { fromQuarter: from, partial: compareQuarters(from, acceptance) > 0 };
}

/** The P&L of the quarters from…to, summed per row. */
function pnlOver(history: EntityFundHistory, from: string, to: string): PnlAmounts {
  const sum = { ...ZERO_PNL };
  for (const [q, amounts] of history.pnl) {
    if (compareQuarters(q, from) < 0 || compareQuarters(q, to) > 0) continue;
    for (const key of PNL_KEYS) sum[key] += amounts[key];
  }
  return sum;
}

/** One column of the roll-forward over the quarters from…to (see the module's comment). */
export function rollForwardColumn(history: EntityFundHistory, fromQuarter: string, toQuarter: string): RollForwardColumn & { expectedEndingNav: bigint; actualEndingNav: bigint | null } {
  const start = quarterStart(fromQuarter);
  const end = quarterEnd(toQuarter);
  const before = quarterEnd(previousQuarter(fromQuarter));

  let contributions = 0n;
  let contributionsBefore = 0n;
  for (const call of history.calls) {
    if (call.dueDate < start) contributionsBefore += call.amount;
    else if (call.dueDate <= end) contributions += call.amount;
  }
  let distributions = 0n;
  let recallableDistributions = 0n;
  let recallableBefore = 0n;
  for (const distribution of history.distributions) {
    if (distribution.date < start) recallableBefore += distribution.recallable;
    else if (distribution.date <= end) {
      distributions += distribution.amount;
      recallableDistributions += distribution.recallable;
    }
  }
  const pnl = pnlOver(history, fromQuarter, toQuarter);
  const beginningNav = navAt(history.valuations, before) ?? 0n;
  const expectedEndingNav = beginningNav + contributions - distributions + pnlTotal(pnl);
  const actualEndingNav = navAt(history.valuations, end);

  const commitmentAtStart = commitmentInForce(history.commitmentChanges, before);
  const totalCommitment = commitmentInForce(history.commitmentChanges, end);
  const beginningUnfunded = commitmentAtStart - contributionsBefore + recallableBefore;
  const commitmentIncreases = totalCommitment - commitmentAtStart;

  return {
    fromQuarter,
    toQuarter,
    beginningNav,
    contributions,
    distributions,
    ...pnl,
    endingNav: actualEndingNav ?? expectedEndingNav,
    totalCommitment,
    beginningUnfunded,
    commitmentIncreases,
    lessContributions: contributions,
    recallableDistributions,
    endingUnfunded: beginningUnfunded + commitmentIncreases - contributions + recallableDistributions,
    expectedEndingNav,
    actualEndingNav,
  };
}

/** Without the tie-out's two extra fields: the shape types.ts shares. */
function plain(column: ReturnType<typeof rollForwardColumn>): RollForwardColumn {
  const { expectedEndingNav: _expected, actualEndingNav: _actual, ...rest } = column;
  return rest;
}

/** The statement's three columns for `quarter`, and its two footnotes' flags. */
export function rollForward(history: EntityFundHistory, quarter: string): RollForward {
  const inception = inceptionOf(history, quarter);
  const yearStart = yearStartQuarter(quarter);
  const ytdFrom = compareQuarters(inception.fromQuarter, yearStart) > 0 ? inception.fromQuarter : yearStart;
  const end = quarterEnd(quarter);
  return {
    quarter: plain(rollForwardColumn(history, quarter, quarter)),
    yearToDate: plain(rollForwardColumn(history, ytdFrom, quarter)),
    inceptionToDate: plain(rollForwardColumn(history, inception.fromQuarter, quarter)),
    inceptionPartial: inception.partial,
    callsNoticedNotDue: history.calls.some((call) => call.noticeDate <= end && call.dueDate > end),
  };
}

export type TieOut = {
  /** beginning NAV + contributions − distributions + the six P&L amounts of the quarter. */
  expected: bigint;
  /** The valuation at the quarter's end; null without one. */
  actual: bigint | null;
  /** actual − expected; null without a valuation. */
  difference: bigint | null;
  /** Only when the two are equal, to the cent. */
  ok: boolean;
};

/** The quarter's tie-out (the product's promise to the LP): the roll-forward's ending NAV against the valuation, to the cent. */
export function tieOut(history: EntityFundHistory, quarter: string): TieOut {
  const column = rollForwardColumn(history, quarter, quarter);
  const actual = column.actualEndingNav;
  const difference = actual === null ? null : actual - column.expectedEndingNav;
  return { expected: column.expectedEndingNav, actual, difference, ok: difference === 0n };
}

export type StatementMetrics = {
  paidInToDate: bigint;
  distributedToDate: bigint;
  dpi: number | null;
  rvpi: number | null;
  tvpi: number | null;
  irr: number | null;
  irrNote: IrrNote | null;
};

/**
 * Below the table: paid in and distributed to the quarter's end, and DPI,
 * RVPI, TVPI and net IRR as of it, computed as the capital account page
 * computes them (capital/metrics.ts) from the flows dated on or before the
 * quarter's end and the quarter-end valuation only (none: "awaiting valuation").
 */
export function statementMetrics(history: EntityFundHistory, quarter: string): StatementMetrics {
  const end = quarterEnd(quarter);
  const nav = navAt(history.valuations, end);
  const metrics = capitalMetrics({
    commitment: commitmentInForce(history.commitmentChanges, end),
    calls: history.calls.filter((c) => c.noticeDate <= end).map((c) => ({ date: c.noticeDate, amount: c.amount })),
    payments: history.payments.filter((p) => p.date <= end),
    distributions: history.distributions.filter((d) => d.date <= end),
    valuations: nav === null ? [] : [{ date: end, nav }],
  });
  return {
    paidInToDate: metrics.paidIn,
    distributedToDate: metrics.distributed,
    dpi: metrics.dpi,
    rvpi: metrics.rvpi,
    tvpi: metrics.tvpi,
    irr: metrics.irr,
    irrNote: metrics.irrNote,
  };
}

/**
 * `part` ÷ `whole` as a percentage with 4 decimals ("12.5000"), in bigint,
 * rounded half up; "0.0000" when the whole is not positive.
 */
export function percentageOf(part: bigint, whole: bigint): string {
  if (whole <= 0n || part <= 0n) return "0.0000";
  const units = (part * 1_000_000n * 2n + whole) / (2n * whole);
  const text = units.toString().padStart(5, "0");
  return `${text.slice(0, -4)}.${text.slice(-4)}`;
}
