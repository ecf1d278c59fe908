/**
 * Copy of a fund's history import (issue 25 §5): /admin/funds/{slug}/import,
 * years of past calls, payments, distributions and valuations from a CSV file
 * (and optionally the quarters' P&L rows), previewed, then imported all or
 * nothing without a mail (app/modules/history-import/).
 */

const n = (count: number) => count.toLocaleString("en-US");
const plural = (count: number, one: string, many: string) => `${n(count)} ${count === 1 ? one : many}`;
const list = (items: readonly string[]) => (items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);
/** Lines of a file, the first 5 named. */
const lines = (numbers: readonly number[]) => (numbers.length > 5 ? `${numbers.slice(0, 5).map(n).join(", ")} and ${n(numbers.length - 5)} more` : list(numbers.map(n)));

/** What a file or one of its rows is refused for. File-level messages shared with the valuations import live in content/fund-operations.ts. */
export const historyImportMessages = {
  historyRequired: "Choose the history CSV file",
  /** The two files together. */
  tooLarge: (mb: number) => `The files are larger than ${mb} MB together`,
  tooManyFiles: "Send one history file and at most one P&L file",
  /** Wrong columns of the history file, in one message. */
  columns: ({ missing, unknown, twice }: { missing: string[]; unknown: string[]; twice: string[] }) =>
    [
      "The header must name the columns entity, event, date and amount, and where rows need them due_date, reference, type and recallable, separated by commas.",
      missing.length ? `Missing: ${list(missing)}.` : "",
      unknown.length ? `Not known: ${list(unknown.map((name) => `"${name}"`))}.` : "",
      twice.length ? `Named twice: ${list(twice)}.` : "",
    ]
      .filter(Boolean)
      .join(" "),
  event: "Enter the event as call, payment, distribution or valuation",
  future: (today: string) => `A date after today (${today}): the history import is for what has happened`,
  dueDateRequired: "A call needs its due date, YYYY-MM-DD",
  dueBeforeNotice: "The due date is before the notice date",
  dueDateNotCall: "Only a call has a due date: leave due_date empty",
  referenceRequired: (event: "call" | "payment" | "distribution") =>
    event === "payment" ? "Name the call this payment pays (its reference in this file, like Call 3)" : `Name the ${event} this row belongs to (a reference like ${event === "call" ? "Call 3" : "Distribution 2"})`,
  referenceTooLong: "A reference may have at most 100 characters",
  callType: "Enter the call's type: investment, management_fee, fund_expenses, organizational_expenses or other",
  distributionType: "Enter the distribution's type: return_of_capital, realized_gain, income or other",
  noType: (event: "payment" | "valuation") => `A ${event} has no type: leave type empty`,
  recallable: "Enter recallable as yes or no",
  recallableNotRoc: "Only a distribution's return_of_capital can be recallable",
  amountTooLarge: "The amount is too large",
  commitmentLater: (acceptedOn: string) => `This entity's commitment starts on ${acceptedOn}, after this date`,
  /** Rows of one call or distribution that disagree with its first row. */
  otherNoticeDate: (line: number, date: string) => `Another notice date: this call's first row (line ${n(line)}) has ${date}`,
  otherDueDate: (line: number, date: string) => `Another due date: this call's first row (line ${n(line)}) has ${date}`,
  otherPaymentDate: (line: number, date: string) => `Another payment date: this distribution's first row (line ${n(line)}) has ${date}`,
  duplicateShare: (numbers: number[]) => `Listed more than once for this entity and type (lines ${lines(numbers)})`,
  referenceOfCall: (line: number) => `This reference is a call's (line ${n(line)}): give the distribution a reference of its own`,
  /** `reference`: the fund's entry, "Call 3". */
  alreadyPublished: (reference: string) => `${reference} of the fund has the same date and total: this looks imported already (importing it again would count it twice)`,
  unknownCall: "No call in this file has this reference",
  paysDistribution: "This reference is a distribution's: a payment pays a call",
  notCalled: "This call asks nothing of this entity",
  beforeNotice: "A payment cannot be dated before the call's notice date",
  /** `outstanding`: formatted in the fund's currency. */
  overpaid: (outstanding: string) => `More than the entity's share still due (${outstanding})`,
  quarterNotOver: (quarter: string, end: string) => `${quarter} is not over yet (it ends on ${end}): import past quarters only`,
  expired: "This preview has expired (a preview is kept for an hour). Upload the files again.",
  changed: "The files or the fund's records changed since the preview. Check the new preview before importing.",
  refused: (errors: number) => `Nothing was imported: ${plural(errors, "row has an error", "rows have errors")}. Correct the files and preview them again.`,
} as const;

const FORMAT = [
  { name: "entity", text: "The entity's id, or its name as the firm records it (case and spacing aside). The entity needs a commitment in the fund." },
  { name: "event", text: "call, payment, distribution or valuation." },
  { name: "date", text: "YYYY-MM-DD: a call's notice date, a payment's received date, a distribution's payment date, a valuation's date." },
  { name: "due_date", text: "Calls only: the due date." },
  { name: "reference", text: "Groups the rows of one call or distribution across entities, like Call 3. A payment names the call it pays." },
  { name: "type", text: "A call's: investment, management_fee, fund_expenses, organizational_expenses, other. A distribution's: return_of_capital, realized_gain, income, other." },
  { name: "recallable", text: "yes or no: a distribution's return_of_capital only." },
  { name: "amount", text: "Digits with a decimal point, like 125000.00, in the fund's currency. A valuation's NAV may be 0." },
] as const;

/** /admin/funds/{slug}/import. */
export const historyImportCopy = {
  title: "Import history",
  intro: (fund: string) =>
    `Bring ${fund}'s past calls, payments, distributions and valuations into the portal from a CSV file, with the quarters' P&L if you have it. The preview shows what would be saved and every error before anything is written, and the import is all or nothing. No e-mail goes out: investors are not notified of history.`,
  back: (fund: string) => fund,
  upload: {
    title: "Upload the files",
    history: "History CSV",
    historyHint: (mb: number, rows: number) => `UTF-8, comma separated, with a header row; one row per entity per event, at most ${n(rows)} rows. The two files at most ${mb} MB together.`,
    pnl: "P&L CSV (optional)",
    pnlHint: (rows: number) => `The quarterly P&L import's columns, any number of past quarters of this fund; at most ${n(rows)} rows.`,
    submit: "Preview the import",
    submitting: "Checking the files...",
  },
  format: {
    title: "The history file's columns",
    /** The panel's summary once a preview is shown (it folds away). */
    folded: "The files' columns",
    columns: FORMAT,
    note: "One row per entity per event, and per type: a call with two types is two rows per entity. Calls and distributions are published in date order, numbered after the fund's existing ones.",
    pnlTitle: "The P&L file",
    pnlText: "The columns of the quarterly P&L import: entity, fund, quarter (2024-Q3), management_fees, partnership_expenses, other_income, realized_gain, unrealized_gain_change and carried_interest_change, signed as they move NAV.",
    exampleTitle: "Example",
    example: [
      "entity,event,date,due_date,reference,type,recallable,amount",
      "Atlas Holdings AG,call,2023-02-01,2023-02-15,Call 1,investment,,200000.00",
      "Atlas Holdings AG,call,2023-02-01,2023-02-15,Call 1,management_fee,,5000.00",
      "Atlas Holdings AG,payment,2023-02-14,,Call 1,,,205000.00",
      "Atlas Holdings AG,distribution,2023-11-20,,Distribution 1,return_of_capital,yes,40000.00",
      "Atlas Holdings AG,valuation,2023-12-31,,,,,231500.00",
    ].join("\n"),
  },
  preview: {
    title: (names: string) => (names ? `Preview: ${names}` : "Preview"),
    summary: (rows: number, withErrors: number) => `${plural(rows, "row", "rows")} read, ${withErrors ? `${plural(withErrors, "row", "rows")} with errors` : "no errors"}`,
    whatTitle: "What the import saves",
    whatCaption: "What the import saves, per event",
    columns: { event: "Event", rows: "Rows", saves: "Saves", total: "Total" },
    kinds: { call: "Calls", payment: "Payments", distribution: "Distributions", valuation: "Valuations", pnl: "P&L" },
    saves: {
      calls: (count: number, first: number | null, last: number | null) =>
        count === 0 ? "—" : `${plural(count, "published call", "published calls")}${first !== null && last !== null ? (first === last ? ` (Call ${n(first)})` : ` (Call ${n(first)} to ${n(last)})`) : ""}`,
      distributions: (count: number, first: number | null, last: number | null) =>
        count === 0
          ? "—"
          : `${plural(count, "published distribution", "published distributions")}${first !== null && last !== null ? (first === last ? ` (Distribution ${n(first)})` : ` (Distribution ${n(first)} to ${n(last)})`) : ""}`,
      payments: (count: number) => (count === 0 ? "—" : plural(count, "payment received", "payments received")),
      valuations: (count: number, replacing: number) =>
        count === 0 ? "—" : `${plural(count, "NAV", "NAVs")}${replacing ? ` (${replacing === 1 ? "1 replaces a saved one" : `${n(replacing)} replace saved ones`})` : ""}`,
      pnl: (quarters: number, replacing: number) =>
        quarters === 0 ? "—" : `${plural(quarters, "quarter", "quarters")}${replacing ? ` (${replacing === 1 ? "1 row replaces a saved one" : `${n(replacing)} rows replace saved ones`})` : ""}`,
    },
    period: (from: string, to: string) => `From ${from} to ${to}.`,
    errorsTitle: "Errors",
    errorsCaption: "The files' errors, by line",
    errorColumns: { line: "Line", file: "File", column: "Column", message: "Error" },
    files: { history: "History", pnl: "P&L" },
    errorsShown: (shown: number, total: number) => (shown < total ? `The first ${n(shown)} of ${n(total)} errors.` : `${plural(total, "error", "errors")}.`),
    replacementsTitle: "Valuations it replaces",
    replacementsIntro: "These entities already have a NAV at the date: the import replaces it with the file's.",
    replacementsCaption: "Valuations the import replaces",
    replacementColumns: { entity: "Entity", date: "Date", current: "Now", imported: "From the file" },
    replacementsShown: (shown: number, total: number) => (shown < total ? `The first ${n(shown)} of ${n(total)}.` : ""),
    entriesTitle: "Calls and distributions",
    entriesCaption: "The calls and distributions the import publishes",
    entryColumns: { reference: "In the file", becomes: "Published as", date: "Date", due: "Due", entities: "Entities", total: "Total" },
    entriesShown: (shown: number, total: number) => (shown < total ? `The first ${n(shown)} of ${n(total)}.` : ""),
    nothingSaved: "Nothing has been saved yet.",
    noMail: "No notice, reminder or document e-mail goes out.",
    fixAndRetry: "Nothing can be imported yet. Correct the rows with errors in the files and upload them again.",
    confirm: "Import the history",
    confirming: "Importing...",
  },
  toasts: {
    imported: (fund: string, counts: { calls: number; distributions: number; payments: number; valuations: number; pnl: number }) => ({
      title: "History imported",
      description: `${fund}: ${list(
        [
          counts.calls ? plural(counts.calls, "call", "calls") : "",
          counts.payments ? plural(counts.payments, "payment", "payments") : "",
          counts.distributions ? plural(counts.distributions, "distribution", "distributions") : "",
          counts.valuations ? plural(counts.valuations, "valuation", "valuations") : "",
          counts.pnl ? plural(counts.pnl, "P&L row", "P&L rows") : "",
        ].filter(Boolean),
      )} saved.`,
    }),
    failed: "Import refused",
  },
} as const;
