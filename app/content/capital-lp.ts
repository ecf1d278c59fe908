/**
 * The investor's side of capital accounts (issue 24 §8): the combined view,
 * the entity tabs and the chart of /lp/capital-account, and the full ledger
 * with its CSV export. The account page's figures, and the combined view's
 * title, keep their words in content/capital.ts (capitalAccountCopy).
 */

/** /lp/capital-account: what this file adds to the page. */
export const capitalLpCopy = {
  combined: {
    currency: (currency: string) => `In ${currency}`,
    navHint: "Each holding's latest valuation",
    holdings: (n: number) => (n === 1 ? "1 holding" : `${n} holdings`),
  },
  entityTabs: "Entities",
  entityLedger: "This entity's ledger",
  chart: {
    title: "Paid in, distributions and NAV",
    legend: { paidIn: "Paid in (cumulative)", distributed: "Distributions (cumulative)", nav: "NAV" },
    summary: (input: { fund: string; entity: string; from: string; to: string; paidIn: string; distributed: string; nav: string | null; navPeriod: string | null }) =>
      `${input.fund}, ${input.entity}, from ${input.from} to ${input.to}: paid in ${input.paidIn} and distributions ${input.distributed} by the end of ${input.to}` +
      (input.nav && input.navPeriod ? `; NAV ${input.nav} at the end of ${input.navPeriod}.` : "; no valuation yet."),
    showData: "Show the chart's data",
    tableCaption: (fund: string, entity: string) => `${fund}, ${entity}: paid in, distributions and NAV at the end of each period`,
    columns: { period: "Period", paidIn: "Paid in (cumulative)", distributed: "Distributions (cumulative)", nav: "NAV" },
    noNav: "—",
    empty: "The chart starts with the first payment, distribution or valuation.",
  },
  transactions: {
    fullLedger: "Full ledger",
    download: "Download CSV",
  },
};

/** /lp/capital-account/ledger and its CSV export. */
export const ledgerPageCopy = {
  title: "Ledger",
  intro: "Every transaction of your entities, newest first: capital calls, payments received, distributions and valuations.",
  back: "Capital account",
  filters: {
    label: "Filter the ledger",
    entity: "Entity",
    fund: "Fund",
    anyEntity: "All entities",
    anyFund: "All funds",
    submit: "Show",
    clear: "Clear filters",
  },
  table: "Transactions",
  columns: { date: "Date", kind: "Transaction", entity: "Entity", fund: "Fund", reference: "Reference", amount: "Amount" },
  empty: "No transactions yet. Capital calls, payments, distributions and valuations of your entities show here once the firm records them.",
  noMatch: "No transactions match these filters.",
  download: "Download CSV",
  downloadHint: "The transactions these filters show, all pages, as a spreadsheet.",
  notFound: { title: "Not found", message: "There is nothing to show for this entity or fund." },
};

/** The ledger's CSV: the header row, and the file's name. */
export const ledgerCsvHeader = ["Date", "Entity", "Fund", "Transaction", "Type", "Reference", "Amount", "Currency"] as const;

export function ledgerCsvFileName(day: string): string {
  return `lumen-ridge-capital-ledger-${day}.csv`;
}
