import type { NoticeDoc, StatementDoc, StoredColumn } from "~/modules/statements/types";

/**
 * Hand-written statements and notices for the PDF tests and bench
 * (tests/integration/pdf-*.test.ts, bench/statements-pdf.ts): the figures as
 * the publishing step freezes them (decimal strings), consistent with each
 * other (each column ties: beginning NAV + contributions − distributions + the
 * P&L rows = ending NAV; unfunded = beginning + increases − contributions +
 * recallable).
 */

const column = (values: Partial<StoredColumn> & Pick<StoredColumn, "fromQuarter" | "toQuarter">): StoredColumn => ({
  beginningNav: "0.00",
  contributions: "0.00",
  distributions: "0.00",
  managementFees: "0.00",
  partnershipExpenses: "0.00",
  otherIncome: "0.00",
  realizedGain: "0.00",
  unrealizedGainChange: "0.00",
  carriedInterestChange: "0.00",
  endingNav: "0.00",
  totalCommitment: "0.00",
  beginningUnfunded: "0.00",
  commitmentIncreases: "0.00",
  lessContributions: "0.00",
  recallableDistributions: "0.00",
  endingUnfunded: "0.00",
  ...values,
});

export const ENTITY_ID = "5b0f3c1e-8d2a-4f6b-9c47-1e2d3a4b5c6d";

/** Atlas Holdings AG in Lumen Ridge Fund II, 2026-Q3: a quarter with a call, a distribution, fees and a loss. */
export function statementFixture(overrides: Partial<StatementDoc> = {}): StatementDoc {
  return {
    firmName: "Lumen Ridge Ventures",
    fund: { slug: "fund-ii", name: "Lumen Ridge Fund II", currency: "USD" },
    entity: { id: ENTITY_ID, name: "Atlas Holdings AG" },
    quarter: "2026-Q3",
    periodEnd: "2026-09-30",
    version: 1,
    restated: false,
    differences: [],
    columns: {
      // 1,812,400.00 + 250,000.00 − 60,000.00 − 12,500.00 − 1,800.00 + 250.00 + 15,000.00 − 48,250.00 − 4,620.25 = 1,950,479.75
      quarter: column({
        fromQuarter: "2026-Q3",
        toQuarter: "2026-Q3",
        beginningNav: "1812400.00",
        contributions: "250000.00",
        distributions: "60000.00",
        managementFees: "-12500.00",
        partnershipExpenses: "-1800.00",
        otherIncome: "250.00",
        realizedGain: "15000.00",
        unrealizedGainChange: "-48250.00",
        carriedInterestChange: "-4620.25",
        endingNav: "1950479.75",
        totalCommitment: "5000000.00",
        beginningUnfunded: "2750000.00",
        commitmentIncreases: "0.00",
        lessContributions: "250000.00",
        recallableDistributions: "20000.00",
        endingUnfunded: "2520000.00",
      }),
      // 1,475,000.00 + 750,000.00 − 160,000.00 − 37,500.00 − 5,400.00 + 900.00 + 15,000.00 − 77,400.00 − 10,020.25 = 1,950,479.75
      yearToDate: column({
        fromQuarter: "2026-Q1",
        toQuarter: "2026-Q3",
        beginningNav: "1475000.00",
        contributions: "750000.00",
        distributions: "160000.00",
        managementFees: "-37500.00",
        partnershipExpenses: "-5400.00",
        otherIncome: "900.00",
        realizedGain: "15000.00",
        unrealizedGainChange: "-77400.00",
        carriedInterestChange: "-10020.25",
        endingNav: "1950479.75",
        totalCommitment: "5000000.00",
        beginningUnfunded: "3000000.00",
        commitmentIncreases: "250000.00",
        lessContributions: "750000.00",
        recallableDistributions: "20000.00",
        endingUnfunded: "2520000.00",
      }),
      // 0 + 2,500,000.00 − 210,000.00 − 150,000.00 − 21,600.00 + 3,100.00 + 15,000.00 − 160,000.00 − 26,020.25 = 1,950,479.75
      inceptionToDate: column({
        fromQuarter: "2024-Q4",
        toQuarter: "2026-Q3",
        beginningNav: "0.00",
        contributions: "2500000.00",
        distributions: "210000.00",
        managementFees: "-150000.00",
        partnershipExpenses: "-21600.00",
        otherIncome: "3100.00",
        realizedGain: "15000.00",
        unrealizedGainChange: "-160000.00",
        carriedInterestChange: "-26020.25",
        endingNav: "1950479.75",
        totalCommitment: "5000000.00",
        beginningUnfunded: "0.00",
        commitmentIncreases: "5000000.00",
        lessContributions: "2500000.00",
        recallableDistributions: "20000.00",
        endingUnfunded: "2520000.00",
      }),
    },
    inceptionPartial: false,
    callsNoticedNotDue: false,
    paidInToDate: "2500000.00",
    distributedToDate: "210000.00",
    dpi: 0.084,
    rvpi: 0.78019190,
    tvpi: 0.86419190,
    irr: -0.0712,
    irrNote: null,
    shareOfFund: "6.2500",
    chart: [
      { label: "Q4 2024", start: "2024-10-01", end: "2024-12-31", paidIn: "500000.00", distributed: "0.00", nav: "480000.00" },
      { label: "Q1 2025", start: "2025-01-01", end: "2025-03-31", paidIn: "750000.00", distributed: "0.00", nav: "715000.00" },
      { label: "Q2 2025", start: "2025-04-01", end: "2025-06-30", paidIn: "1000000.00", distributed: "0.00", nav: "952000.00" },
      { label: "Q3 2025", start: "2025-07-01", end: "2025-09-30", paidIn: "1250000.00", distributed: "50000.00", nav: "1150000.00" },
      { label: "Q4 2025", start: "2025-10-01", end: "2025-12-31", paidIn: "1750000.00", distributed: "50000.00", nav: "1475000.00" },
      { label: "Q1 2026", start: "2026-01-01", end: "2026-03-31", paidIn: "2000000.00", distributed: "100000.00", nav: "1640000.00" },
      { label: "Q2 2026", start: "2026-04-01", end: "2026-06-30", paidIn: "2250000.00", distributed: "150000.00", nav: "1812400.00" },
      { label: "Q3 2026", start: "2026-07-01", end: "2026-09-30", paidIn: "2500000.00", distributed: "210000.00", nav: "1950479.75" },
    ],
    publishedOn: "2026-10-20",
    ...overrides,
  };
}

/** Call 3 of Lumen Ridge Fund II to Atlas Holdings AG: an investment and a management fee. */
export function callNoticeFixture(overrides: Partial<NoticeDoc> = {}): NoticeDoc {
  return {
    firmName: "Lumen Ridge Ventures",
    kind: "call",
    fund: { slug: "fund-ii", name: "Lumen Ridge Fund II", currency: "USD" },
    entity: { id: ENTITY_ID, name: "Atlas Holdings AG" },
    reference: "Call 3",
    noticeDate: "2026-09-15",
    dueOrPaymentDate: "2026-10-15",
    fundSection: {
      totalCommitments: "80000000.00",
      contributionsBefore: "36000000.00",
      distributionsBefore: "2400000.00",
      thisNotice: [
        { type: "investment", amount: "3600000.00" },
        { type: "management_fee", amount: "400000.00" },
      ],
    },
    investorSection: {
      commitment: "5000000.00",
      shareOfFund: "6.2500",
      contributionsBefore: "2250000.00",
      distributionsBefore: "150000.00",
      thisNotice: [
        { type: "investment", amount: "225000.00" },
        { type: "management_fee", amount: "25000.00" },
      ],
      total: "250000.00",
      unfundedAfter: "2520000.00",
    },
    paymentInstructions: [
      { label: "Beneficiary", value: "Lumen Ridge Fund II SCSp" },
      { label: "Bank", value: "Zürcher Kantonalbank, Zurich" },
      { label: "IBAN", value: "CH93 0076 2011 6238 5295 7" },
      { label: "BIC / SWIFT", value: "ZKBKCHZZ80A" },
      { label: "Reference", value: "LRF2 Call 3 Atlas Holdings AG" },
    ],
    standingLine: "We never send bank details by e-mail and never change them by e-mail. If a message asks you to pay into another account, call us before you pay.",
    ...overrides,
  };
}

/** Distribution 2 of Lumen Ridge Fund II to Atlas Holdings AG: a return of capital and a realized gain. */
export function distributionNoticeFixture(overrides: Partial<NoticeDoc> = {}): NoticeDoc {
  return {
    ...callNoticeFixture(),
    kind: "distribution",
    reference: "Distribution 2",
    noticeDate: "2026-08-20",
    dueOrPaymentDate: "2026-08-28",
    fundSection: {
      totalCommitments: "80000000.00",
      contributionsBefore: "36000000.00",
      distributionsBefore: "2400000.00",
      thisNotice: [
        { type: "return_of_capital", amount: "640000.00" },
        { type: "realized_gain", amount: "320000.00" },
      ],
    },
    investorSection: {
      commitment: "5000000.00",
      shareOfFund: "6.2500",
      contributionsBefore: "2250000.00",
      distributionsBefore: "150000.00",
      thisNotice: [
        { type: "return_of_capital", amount: "40000.00" },
        { type: "realized_gain", amount: "20000.00" },
      ],
      total: "60000.00",
      unfundedAfter: "2770000.00",
    },
    paymentInstructions: null,
    standingLine: null,
    ...overrides,
  };
}
