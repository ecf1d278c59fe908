/**
 * The quarterly capital account statements' pages (issue 25 §1–2, decision 041):
 * the admin's /admin/funds/{slug}/statements (the quarters, the P&L import and
 * its tie-out preview, publishing and restating, the watermark setting), the
 * investor's /lp/statements and /lp/statements/{id}, and the links to them on
 * the fund, capital account and notice pages. The rules' messages (a refused
 * import or publication) are in content/statements-rules.ts.
 */

const count = (n: number) => n.toLocaleString("en-US");
const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

/** The roll-forward's rows (StoredColumn's keys) as the statement names them (ILPA). */
export const rollForwardLabels = {
  beginningNav: "Beginning NAV",
  contributions: "Contributions",
  distributions: "Distributions",
  managementFees: "Management fees (net of offsets)",
  partnershipExpenses: "Partnership expenses",
  otherIncome: "Interest and other income",
  realizedGain: "Realized gain / (loss)",
  unrealizedGainChange: "Change in unrealized gain / (loss)",
  carriedInterestChange: "Carried interest: change in accrual",
  endingNav: "Ending NAV",
  totalCommitment: "Total commitment",
  beginningUnfunded: "Beginning unfunded commitment",
  commitmentIncreases: "plus commitment increases",
  lessContributions: "less contributions",
  recallableDistributions: "plus recallable distributions",
  endingUnfunded: "Ending unfunded commitment",
} as const;

/** The statement's table and what is said around it (shared by the investor's page and, in words, by the PDF's). */
export const statementCopy = {
  /** The table's two parts. */
  groups: { nav: "Net asset value", commitment: "Commitment" },
  columns: {
    row: "Row",
    quarter: (quarter: string) => quarter,
    quarterHint: "Quarter",
    yearToDate: "Year to date",
    inceptionToDate: "Inception to date",
    /** An imported history: inception to date starts at the first quarter the portal holds. */
    since: (quarter: string) => `Since ${quarter}`,
  },
  caption: (fund: string, entity: string, quarter: string) => `Capital account of ${entity} in ${fund}, ${quarter}: the quarter, year to date and inception to date`,
  figures: {
    title: "As of the quarter end",
    paidIn: "Paid in to date",
    distributed: "Distributed to date",
    dpi: "DPI",
    rvpi: "RVPI",
    tvpi: "TVPI",
    irr: "Net IRR",
    share: "Share of the fund",
    shareHint: "Your commitment ÷ the fund's",
    notMeaningful: "n/m",
  },
  notes: {
    title: "Notes",
    /** The due-date footnote (issue 25 §1). */
    dueDate:
      "Contributions count by due date. A call noticed on or before the quarter end and due after it counts in the next quarter here, while the capital account page counts it as called from its notice date, so the two figures can differ.",
    inceptionPartial: (quarter: string) => `Inception to date starts at ${quarter}, the first quarter the portal holds for this fund.`,
    signs: "Amounts in parentheses are negative: distributions, fees, expenses, losses and a carried interest accrual reduce NAV.",
  },
  restated: "Restated",
  differences: {
    title: (version: number) => `Restated: what changed against version ${version}`,
    intro: "This version replaces the earlier one. The rows of the quarter that changed:",
    caption: "The rows the restatement changed",
    columns: { row: "Row", previous: "Previous", current: "Restated" },
    none: "No amount of the quarter changed; the restatement corrected other details.",
  },
  versions: {
    title: "Versions",
    current: (version: number) => `Version ${version} (this page)`,
    earlier: (version: number) => `Version ${version}`,
    superseded: "superseded",
    later: "A restated version replaces this one.",
    readLater: "Read the restated version",
  },
  meta: {
    periodEnded: (date: string) => `Period ended ${date}`,
    version: (version: number) => `Version ${version}`,
    publishedOn: (date: string) => `Published ${date}`,
    entity: "Entity",
    fund: "Fund",
    currency: "Currency",
  },
  pdf: "Download PDF",
  pdfLabel: (title: string) => `Download the PDF of ${title}`,
  pdfPending: "The PDF is being made. It shows here within a minute or two.",
  print: "Print",
} as const;

/** /lp/statements and /lp/statements/{id}. */
export const lpStatementsCopy = {
  title: "Statements",
  intro: "Your quarterly capital account statements, per entity and fund, newest first. Each one is a page you can print and a PDF to keep.",
  empty: "No statements yet. When the firm publishes a quarter's statements for an entity you are a member of, they show here.",
  entityTabs: "Entities",
  allEntities: "All entities",
  table: "Statements",
  columns: { quarter: "Quarter", fund: "Fund", entity: "Entity", version: "Version", actions: "Open" },
  version: (version: number) => `v${version}`,
  view: "View",
  viewLabel: (quarter: string, fund: string, entity: string) => `View the ${quarter} statement of ${entity} in ${fund}`,
  pdf: "PDF",
  pdfLabel: (quarter: string, fund: string, entity: string) => `Download the PDF of the ${quarter} statement of ${entity} in ${fund}`,
  pdfPending: "PDF soon",
  statement: {
    title: "Capital account statement",
    documentTitle: (fund: string, quarter: string, entity: string) => `Capital account statement — ${fund} — ${quarter} — ${entity}`,
    back: "All statements",
    description: "A quarterly capital account statement: the ILPA roll-forward of the quarter, the year and since inception.",
  },
  notFound: { title: "Statement not found", message: "There is no statement at this address." },
  /** The links from other pages of the portal. */
  links: {
    all: "All statements",
    latest: (quarter: string) => `${quarter} statement`,
    latestLabel: (quarter: string, fund: string) => `Latest statement: ${fund}, ${quarter}`,
    noticePdf: "Download the notice (PDF)",
    noticePdfLabel: (entity: string) => `Download the notice of ${entity} (PDF)`,
    noticePdfPending: "The notice PDF is being made.",
  },
} as const;

/** /admin/funds/{slug}/statements. */
export const fundStatementsCopy = {
  title: "Statements",
  intro: (fund: string) => `Import each quarter's P&L for ${fund} from the fund administrator, check that every entity ties out to the cent, then publish the quarter's statements: a page and a PDF for each entity.`,
  back: (fund: string) => fund,
  /** The fund page's section and link. */
  fundLink: "Statements",
  fundSection: {
    title: "Quarterly statements",
    intro: "The P&L imports, the published quarters and their statements.",
    none: "No quarter imported yet.",
    latest: (quarter: string, status: string) => `Latest: ${quarter}, ${status}`,
    open: "Open statements",
  },
  quarters: {
    title: "Quarters",
    intro: "A quarter is published once its P&L ties out. Once published, nothing may be dated inside it; a correction is a restatement.",
    table: "The fund's quarters",
    columns: { quarter: "Quarter", pnl: "P&L rows", status: "Status", pdfs: "PDFs", actions: "Actions" },
    empty: "No quarter yet. Import a quarter's P&L below to start.",
    status: { none: "Not published", published: (version: number) => (version > 1 ? `Published v${version} (Restated)` : `Published v${version}`), reopened: "Restating" },
    statusHint: { published: (date: string) => `Published ${date}`, reopened: (version: number) => `Version ${version} stays readable until the restatement is published.` },
    pdfs: {
      none: "—",
      running: (done: number, total: number, failed: number) => `${count(done)} of ${count(total)} made${failed ? ` · ${count(failed)} failed` : ""}`,
      finished: (done: number, total: number, failed: number) => (failed ? `${count(done)} of ${count(total)} made · ${count(failed)} failed` : `All ${count(total)} made`),
    },
    waitsUntil: (end: string) => `Can be published once the quarter is over (after ${end}).`,
    refresh: "Refresh",
    refreshHint: "PDFs are being made in the background. Refresh to see how far they are.",
    liveHint: "PDFs are being made in the background; this list follows them.",
  },
  publish: {
    menu: "Publish",
    restatementMenu: "Publish the restatement",
    confirm: (quarter: string, n: number, version: number) =>
      `Publish version ${version} of ${quarter}: a statement for each of ${plural(n, "entity", "entities")}, as a page and a PDF addressed to it, announced by e-mail. Nothing may be dated inside the quarter afterwards.`,
    submit: "Publish now",
    submitting: "Publishing...",
  },
  restate: {
    menu: "Restate",
    confirm: (quarter: string, version: number) =>
      `Reopen ${quarter} for a restatement? Dates inside the quarter are allowed again, and a new import replaces its P&L. Version ${version} stays readable until you publish version ${version + 1}.`,
    submit: "Reopen the quarter",
    submitting: "Reopening...",
  },
  import: {
    title: "Import a quarter's P&L",
    intro: "One fund and one quarter per file: a row for every entity with a commitment in the fund at the quarter end. You see each entity's tie-out before anything is saved, and the import is all or nothing.",
    file: "CSV file",
    hint: (mb: number) => `UTF-8, comma separated, with a header row; at most ${mb} MB.`,
    submit: "Preview the import",
    submitting: "Reading the file...",
    fileRequired: "Choose a CSV file",
    tooLarge: (mb: number) => `The file is larger than ${mb} MB`,
    formatTitle: "The file's columns",
    format: [
      { name: "entity or entity_id", text: "The entity's id, or its name as the firm records it." },
      { name: "fund", text: "The fund's slug or name: every row names this fund." },
      { name: "quarter", text: "The quarter, as 2026-Q3: every row names the same quarter." },
      { name: "management_fees, partnership_expenses", text: "Negative: they reduce NAV (net of offsets)." },
      { name: "other_income, realized_gain, unrealized_gain_change", text: "Signed as they move NAV: income and gains positive, losses negative." },
      { name: "carried_interest_change", text: "The change in the carry accrual: negative when the accrual grows." },
    ],
    amountsNote: "Amounts in the fund's currency, digits with a decimal point and a leading minus when negative: -12500.00. No currency sign, no thousands separators.",
    exampleTitle: "Example",
    example: (fund: string) =>
      `entity,fund,quarter,management_fees,partnership_expenses,other_income,realized_gain,unrealized_gain_change,carried_interest_change\nAtlas Holdings AG,${fund},2026-Q3,-12500.00,-1800.00,250.00,0.00,84000.00,-13990.00\n"Keller, Brunner & Co",${fund},2026-Q3,-6250.00,-900.00,125.00,0.00,42000.00,-6995.00`,
  },
  preview: {
    title: (fileName: string) => (fileName ? `Preview: ${fileName}` : "Preview"),
    caption: "Each entity's tie-out",
    columns: { entity: "Entity", expected: "Expected NAV", actual: "NAV (valuation)", difference: "Difference" },
    figures: { quarter: "Quarter", entities: "Entities", ties: "Tie out" },
    ties: (ok: number, total: number) => `${count(ok)} of ${count(total)}`,
    tieExplained: "Expected NAV is the roll-forward: beginning NAV + contributions − distributions + the P&L rows. It must equal the valuation at the quarter end to the cent; the difference is the valuation − expected.",
    nothingSaved: "Nothing has been saved yet.",
    fixAndRetry: "Nothing was imported. Correct the rows with errors (or the valuations they tie to) and upload the file again.",
    moreErrors: (n: number) => `${plural(n, "more row", "more rows")} with errors not shown: correct the ones above and preview again.`,
    confirm: (quarter: string, n: number) => `Import ${quarter} (${plural(n, "entity", "entities")})`,
    confirming: "Importing...",
    replaces: (quarter: string) => `The ${quarter} P&L already imported is replaced.`,
  },
  watermark: {
    title: "Watermark",
    intro: "Applies to statements made from now on; each investor's download carries their name and e-mail address on every page.",
    label: "Watermark statements with each reader's name",
    submit: "Save",
    submitting: "Saving...",
  },
  toasts: {
    imported: (quarter: string, n: number) => ({ title: "P&L imported", description: `${quarter}: ${plural(n, "entity", "entities")} tie out. Publish the quarter when ready.` }),
    published: (quarter: string, version: number, n: number) => ({ title: `${quarter} published`, description: `Version ${version}: ${plural(n, "statement", "statements")} are being made as PDFs.` }),
    reopened: (quarter: string) => ({ title: `${quarter} reopened`, description: "Correct what needs it, import the P&L again if it changed, then publish the restatement." }),
    watermark: (on: boolean) => ({ title: on ? "Watermark on" : "Watermark off", description: on ? "New statements carry each reader's name." : "New statements are not watermarked." }),
    failed: "Not done",
    importFailed: "Import refused",
  },
  notFound: { title: "Fund not found", message: "There is no fund at this address." },
} as const;
