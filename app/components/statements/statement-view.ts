import type { Figure } from "~/components/capital/figures";
import { capitalAccountCopy } from "~/content/capital";
import { rollForwardLabels, statementCopy as c } from "~/content/statements";
import { formatMoney, parseSignedAmount } from "~/modules/capital/money";
import type { StatementDoc, StoredColumn } from "~/modules/statements/types";

/**
 * A frozen statement (StatementDoc) as the investor's page shows it: every
 * amount formatted in the fund's currency with negatives in parentheses, the
 * roll-forward's rows in the ILPA order with their three columns, the figures
 * below the table, the notes and a restatement's differences. Pure (no data
 * access): the page's loader calls it, so the browser gets strings only.
 */

type RowKey = keyof typeof rollForwardLabels;

/** A row of the roll-forward as shown: its label and the three columns' amounts; `total` rows are bold. */
export type RollForwardRowView = {
  key: RowKey;
  label: string;
  values: [string, string, string];
  total: boolean;
  /** The "plus" and "less" lines under the beginning unfunded commitment. */
  indent: boolean;
};

export type RollForwardView = {
  caption: string;
  /** The three columns' headings: the quarter, year to date, inception to date (or "Since 2024-Q1"). */
  headings: [string, string, string];
  groups: { key: "nav" | "commitment"; title: string; rows: RollForwardRowView[] }[];
};

export type StatementView = {
  fund: { slug: string; name: string; currency: string };
  entity: { id: string; name: string };
  quarter: string;
  version: number;
  restated: boolean;
  periodEnd: string;
  publishedOn: string;
  table: RollForwardView;
  figures: Figure[];
  irrNote: string | null;
  notes: string[];
  differences: { key: string; label: string; previous: string; current: string }[];
};

const NAV_ROWS = [
  "beginningNav",
  "contributions",
  "distributions",
  "managementFees",
  "partnershipExpenses",
  "otherIncome",
  "realizedGain",
  "unrealizedGainChange",
  "carriedInterestChange",
  "endingNav",
] as const satisfies readonly RowKey[];

const COMMITMENT_ROWS = ["totalCommitment", "beginningUnfunded", "commitmentIncreases", "lessContributions", "recallableDistributions", "endingUnfunded"] as const satisfies readonly RowKey[];

/** Stored positive, shown negative (they take away). */
const SHOWN_NEGATIVE = new Set<string>(["distributions", "lessContributions"]);
const TOTALS = new Set<string>(["endingNav", "endingUnfunded"]);
const INDENTED = new Set<string>(["commitmentIncreases", "lessContributions", "recallableDistributions"]);

/** A stored decimal string as the statement shows it: the fund's currency, negatives in parentheses; rows that take away negated. */
export function statementAmount(row: string, amount: string, currency: string): string {
  const parsed = parseSignedAmount(amount, currency);
  if (!parsed.ok) return amount;
  const minor = SHOWN_NEGATIVE.has(row) ? -parsed.minor : parsed.minor;
  return formatMoney(minor, currency, { parentheses: true });
}

const multiple = (value: number | null) => (value === null ? c.figures.notMeaningful : `${value.toFixed(2)}×`);
const percent = (value: number | null) => (value === null ? c.figures.notMeaningful : `${(value * 100).toFixed(1)} %`);

/** "12.5000" → "12.50 %" (the stored share has 4 decimals; the page shows 2, cut as text, never through a float). */
export function shareOfFund(share: string): string {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(share);
  if (!match) return share;
  return `${match[1]}.${(match[2] ?? "").padEnd(2, "0").slice(0, 2)} %`;
}

export function statementView(doc: StatementDoc, day: (date: string) => string): StatementView {
  const { currency } = doc.fund;
  const { quarter, yearToDate, inceptionToDate } = doc.columns;
  const row = (key: RowKey): RollForwardRowView => {
    const value = (column: StoredColumn) => statementAmount(key, column[key], currency);
    return { key, label: rollForwardLabels[key], values: [value(quarter), value(yearToDate), value(inceptionToDate)], total: TOTALS.has(key), indent: INDENTED.has(key) };
  };
  const figures: Figure[] = [
    { label: c.figures.paidIn, value: formatMoney(minorOf(doc.paidInToDate, currency), currency, { parentheses: true }), testId: "statement-paid-in" },
    { label: c.figures.distributed, value: formatMoney(minorOf(doc.distributedToDate, currency), currency, { parentheses: true }), testId: "statement-distributed" },
    { label: c.figures.dpi, value: multiple(doc.dpi), testId: "statement-dpi" },
    { label: c.figures.rvpi, value: multiple(doc.rvpi), testId: "statement-rvpi" },
    { label: c.figures.tvpi, value: multiple(doc.tvpi), testId: "statement-tvpi" },
    { label: c.figures.irr, value: percent(doc.irr), testId: "statement-irr" },
    { label: c.figures.share, value: shareOfFund(doc.shareOfFund), hint: c.figures.shareHint, testId: "statement-share" },
  ];
  const notes = [...(doc.callsNoticedNotDue ? [c.notes.dueDate] : []), ...(doc.inceptionPartial ? [c.notes.inceptionPartial(inceptionToDate.fromQuarter)] : []), c.notes.signs];
  return {
    fund: doc.fund,
    entity: doc.entity,
    quarter: doc.quarter,
    version: doc.version,
    restated: doc.restated,
    periodEnd: day(doc.periodEnd),
    publishedOn: day(doc.publishedOn),
    table: {
      caption: c.caption(doc.fund.name, doc.entity.name, doc.quarter),
      headings: [c.columns.quarter(doc.quarter), c.columns.yearToDate, doc.inceptionPartial ? c.columns.since(inceptionToDate.fromQuarter) : c.columns.inceptionToDate],
      groups: [
        { key: "nav", title: c.groups.nav, rows: NAV_ROWS.map(row) },
        { key: "commitment", title: c.groups.commitment, rows: COMMITMENT_ROWS.map(row) },
      ],
    },
    figures,
    irrNote: doc.irrNote ? (capitalAccountCopy.irrNotes[doc.irrNote] ?? null) : null,
    notes,
    differences: doc.differences
      .filter((d): d is typeof d & { row: RowKey } => d.row in rollForwardLabels)
      .map((d) => ({ key: d.row, label: rollForwardLabels[d.row], previous: statementAmount(d.row, d.previous, currency), current: statementAmount(d.row, d.current, currency) })),
  };
}

function minorOf(amount: string, currency: string): bigint {
  const parsed = parseSignedAmount(amount, currency);
  return parsed.ok ? parsed.minor : 0n;
}
