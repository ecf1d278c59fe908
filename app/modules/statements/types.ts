/**
 * The shapes the statements' parts share (issue 25, decision 041): the
 * roll-forward's figures, a statement as frozen at publishing and as drawn into
 * its PDF, and a notice's figures. Amounts inside the domain are bigint minor
 * units; what is stored (statements.figures JSON) and what goes to the PDF
 * worker are decimal strings with the currency's minor digits ("-1234.56"),
 * as JSON answers carry them (money.ts toDecimalString).
 */

/** The quarter's P&L rows, signed as they move NAV (fees, expenses, losses, carry accrual negative). */
export type PnlAmounts = {
  managementFees: bigint;
  partnershipExpenses: bigint;
  otherIncome: bigint;
  realizedGain: bigint;
  unrealizedGainChange: bigint;
  carriedInterestChange: bigint;
};

export const PNL_KEYS = ["managementFees", "partnershipExpenses", "otherIncome", "realizedGain", "unrealizedGainChange", "carriedInterestChange"] as const satisfies readonly (keyof PnlAmounts)[];

/** One column of the ILPA roll-forward (the quarter, year to date or inception to date), in bigint. */
export type RollForwardColumn = PnlAmounts & {
  /** The first quarter the column covers, and the last (the statement's quarter). */
  fromQuarter: string;
  toQuarter: string;
  beginningNav: bigint;
  contributions: bigint;
  /** Positive here; shown negative. */
  distributions: bigint;
  endingNav: bigint;
  totalCommitment: bigint;
  beginningUnfunded: bigint;
  commitmentIncreases: bigint;
  /** = contributions, shown negative ("less contributions"). */
  lessContributions: bigint;
  recallableDistributions: bigint;
  endingUnfunded: bigint;
};

/** The same column with every amount a decimal string (stored, and sent to the PDF worker). */
export type StoredColumn = { [K in keyof RollForwardColumn]: RollForwardColumn[K] extends bigint ? string : RollForwardColumn[K] };

/** A point of the capital account chart (capital-account/chart.server.ts ChartPoint) with its amounts as decimal strings. */
export type StoredChartPoint = { label: string; start: string; end: string; paidIn: string; distributed: string; nav: string | null };

/**
 * A statement as frozen at publishing (statements.figures) and drawn on
 * /lp/statements/:id and into its PDF: everything either needs, so an earlier
 * version reads the same after a restatement.
 */
export type StatementDoc = {
  firmName: string;
  fund: { slug: string; name: string; currency: string };
  entity: { id: string; name: string };
  quarter: string;
  /** The quarter's last day, 'YYYY-MM-DD'. */
  periodEnd: string;
  version: number;
  /** A later version of a published quarter. */
  restated: boolean;
  /** What the restatement changed against the previous version, per row of the quarter's column. */
  differences: { row: keyof StoredColumn; previous: string; current: string }[];
  columns: { quarter: StoredColumn; yearToDate: StoredColumn; inceptionToDate: StoredColumn };
  /** Inception to date starts at the first quarter the portal holds; true when that is later than the commitment's. */
  inceptionPartial: boolean;
  /** A call noticed on or before the period end and due after it: contributions count by due date (footnote). */
  callsNoticedNotDue: boolean;
  paidInToDate: string;
  distributedToDate: string;
  dpi: number | null;
  rvpi: number | null;
  tvpi: number | null;
  irr: number | null;
  irrNote: string | null;
  /** commitment ÷ the fund's commitments at period end, as a percentage string with 4 decimals ("12.5000"). */
  shareOfFund: string;
  chart: StoredChartPoint[];
  publishedOn: string;
};

/** A notice's amounts by type (a call's or distribution's line types). */
export type NoticeLine = { type: string; amount: string };

/** A call or distribution notice per entity (ILPA notice layout), amounts as decimal strings. */
export type NoticeDoc = {
  firmName: string;
  kind: "call" | "distribution";
  fund: { slug: string; name: string; currency: string };
  entity: { id: string; name: string };
  /** "Call 3", "Distribution 1" */
  reference: string;
  noticeDate: string;
  /** A call's due date or a distribution's payment date. */
  dueOrPaymentDate: string;
  fundSection: {
    totalCommitments: string;
    contributionsBefore: string;
    distributionsBefore: string;
    thisNotice: NoticeLine[];
  };
  investorSection: {
    commitment: string;
    /** Percentage of the fund, 4 decimals. */
    shareOfFund: string;
    contributionsBefore: string;
    distributionsBefore: string;
    thisNotice: NoticeLine[];
    /** The amount due (a call) or payable (a distribution). */
    total: string;
    unfundedAfter: string;
  };
  /** A call's payment instructions as label/value pairs (never mailed), with the standing line; null for a distribution. */
  paymentInstructions: { label: string; value: string }[] | null;
  standingLine: string | null;
};
