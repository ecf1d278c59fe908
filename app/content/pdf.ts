/**
 * The words of the PDFs (issue 25 §1, §3, §4; decision 041): the quarterly
 * capital account statement and the call and distribution notices. The
 * statement's row labels, figures and notes are the investor page's
 * (content/statements.ts), so the page and its PDF say the same; what is only
 * in the PDFs (the running header, the notice layout, the footer, the
 * document's metadata) is here.
 */
import { capitalAccountCopy, ledgerLineLabels, noticeCopy } from "./capital";
import { capitalLpCopy } from "./capital-lp";
import { lpStatementsCopy, rollForwardLabels, statementCopy } from "./statements";

export { rollForwardLabels };

export const statementPdfCopy = {
  /** The running header's right-hand words. */
  kicker: "Capital account statement",
  title: lpStatementsCopy.statement.title,
  /** The document's title (its info dictionary, shown by readers): the stored document's title (issue 25 §2). */
  documentTitle: lpStatementsCopy.statement.documentTitle,
  subject: (entity: string, fund: string, quarter: string) => `The ILPA capital account roll-forward of ${entity} in ${fund} for ${quarter}`,
  keywords: "capital account statement, ILPA, roll-forward",
  restated: statementCopy.restated,
  meta: {
    entity: statementCopy.meta.entity,
    investorId: "Investor ID",
    investorIdValue: (id: string) => `Investor ID ${id}`,
    quarter: "Quarter",
    periodEnd: "Period end",
    currency: statementCopy.meta.currency,
    version: "Version",
  },
  periodEnded: statementCopy.meta.periodEnded,
  table: {
    title: "Capital account roll-forward",
    groups: statementCopy.groups,
    columns: statementCopy.columns,
  },
  figures: statementCopy.figures,
  notMeaningful: capitalAccountCopy.notMeaningful,
  irrNotes: capitalAccountCopy.irrNotes,
  chart: {
    title: capitalLpCopy.chart.title,
    legend: capitalLpCopy.chart.legend,
    summary: capitalLpCopy.chart.summary,
    empty: capitalLpCopy.chart.empty,
  },
  notes: statementCopy.notes,
  differences: statementCopy.differences,
  footer: {
    left: (firm: string, version: number, publishedOn: string) => `${firm} · Version ${version} · Published ${publishedOn}`,
    confidential: (entity: string) => `Confidential: prepared for ${entity}`,
    page: (n: number, total: number) => `Page ${n} of ${total}`,
  },
};

export const noticePdfCopy = {
  kicker: { call: "Capital call notice", distribution: "Distribution notice" },
  title: { call: "Capital call notice", distribution: "Distribution notice" },
  subtitle: (fund: string, reference: string) => `${fund} · ${reference}`,
  documentTitle: (kind: "call" | "distribution", fund: string, reference: string, entity: string) =>
    `${kind === "call" ? "Capital call notice" : "Distribution notice"} — ${fund} — ${reference} — ${entity}`,
  subject: (kind: "call" | "distribution", reference: string, entity: string, fund: string) =>
    `${kind === "call" ? "Capital call" : "Distribution"} notice ${reference} to ${entity} in ${fund}`,
  keywords: "capital call, distribution, notice, ILPA",
  meta: {
    fund: "Fund",
    entity: "Entity",
    investorId: "Investor ID",
    reference: "Notice",
    noticeDate: noticeCopy.noticeDate,
    dueDate: noticeCopy.dueDate,
    paymentDate: noticeCopy.paymentDate,
    currency: "Currency",
  },
  headline: {
    call: "Amount due",
    distribution: "Amount payable to you",
    callDate: (date: string) => `Due ${date}`,
    distributionDate: (date: string) => `Payable on ${date}`,
  },
  fundSection: {
    title: "The fund",
    totalCommitments: "Total commitments",
    contributionsBefore: "Cumulative contributions before this notice",
    distributionsBefore: "Cumulative distributions before this notice",
    thisNotice: "This notice",
    total: "Total of this notice",
  },
  investorSection: {
    title: (entity: string) => `Your investment: ${entity}`,
    commitment: "Commitment",
    shareOfFund: "Share of the fund",
    contributionsBefore: "Cumulative contributions before this notice",
    distributionsBefore: "Cumulative distributions before this notice",
    thisNotice: "This notice",
    totalCall: "Amount due",
    totalDistribution: "Amount payable",
    unfundedAfter: "Unfunded commitment after this notice",
  },
  /** A line's type ("management_fee") as the ledger names it. */
  lineLabel: (type: string) => ledgerLineLabels[type] ?? type,
  columns: { item: "Item", amount: "Amount" },
  instructions: {
    title: noticeCopy.instructions,
    intro: (amount: string, date: string) => `Please pay ${amount} by ${date}, to this account:`,
    none: "The payment instructions are on this notice's page in the investor portal. If they are not shown there yet, call the firm before you pay.",
    standingTitle: "Bank details never change by e-mail",
  },
  footer: {
    left: (firm: string, reference: string, noticeDate: string) => `${firm} · ${reference} · ${noticeDate}`,
    page: (n: number, total: number) => `Page ${n} of ${total}`,
  },
};

/** Percentages as the statements write them: "12.5000 %". */
export const percentText = (value: string) => `${value} %`;
