import { firm } from "./firm";
import { oneLine } from "./mail-safe";

/**
 * Copy of a fund's two admin operations beside its page (issue 24 §6, §7):
 * the valuations (NAV) import from a CSV file with its preview, and the
 * fund's payment instructions, changed only with a fresh two-factor code;
 * also the block that shows them on an investor's call notice, and the mail
 * every admin gets when they change. (`fund-admin.ts` holds the fund-access
 * admin copy of SPEC §8.)
 */

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
const list = (items: readonly string[]) => (items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);

/** /admin/funds/{slug}/valuations. */
export const valuationsImportCopy = {
  title: "Import valuations",
  intro: (fund: string) =>
    `Upload the fund administrator's NAV report for ${fund} as a CSV file. You see every row with its errors before anything is saved, and the import is all or nothing.`,
  back: (fund: string) => fund,
  upload: {
    title: "Upload a CSV file",
    file: "CSV file",
    hint: (mb: number, rows: number) =>
      `UTF-8, comma separated, with a header row; at most ${mb} MB and ${rows.toLocaleString("en-US")} rows. One date per file.`,
    submit: "Preview the import",
    submitting: "Reading the file...",
    formatTitle: "The file's columns",
    format: [
      { name: "entity_id or entity_name", text: "The entity's id, or its name as the firm records it (case and spacing aside). The name column may also be called entity." },
      { name: "fund", text: "The fund's slug or name: every row names this fund." },
      { name: "date", text: "The valuation date, YYYY-MM-DD (the quarter end)." },
      { name: "nav", text: "The entity's NAV in the fund's currency, digits with a decimal point: 1250000.00. No currency sign, no thousands separators." },
    ],
    exampleTitle: "Example",
    example: (fund: string) => `entity_name,fund,date,nav\nAtlas Holdings AG,${fund},2025-12-31,1250000.00\n"Keller, Brunner & Co",${fund},2025-12-31,980400.50`,
  },
  preview: {
    title: (fileName: string) => (fileName ? `Preview: ${fileName}` : "Preview"),
    caption: "The file's rows and their outcome",
    columns: { entity: "Entity", date: "Date", nav: "NAV" },
    figures: { date: "Valuation date", entities: "Entities ready", total: "Total NAV ready" },
    nothingSaved: "Nothing has been saved yet.",
    fixAndRetry: "Nothing was imported. Correct the rows with errors in the file and upload it again.",
    confirm: (n: number) => `Import ${plural(n, "valuation", "valuations")}`,
    confirming: "Importing...",
    confirmHint: (date: string) => `An entity that already has a NAV at ${date} gets the new value.`,
  },
  toasts: {
    imported: (n: number, fund: string, date: string) => ({
      title: "Valuations imported",
      description: `${plural(n, "NAV", "NAVs")} of ${fund} at ${date} saved.`,
    }),
    failed: "Import refused",
  },
  notFound: { title: "Fund not found", message: "There is no fund at this address." },
} as const;

/** What a CSV file or one of its rows is refused for (app/modules/valuations/valuations-csv.server.ts). */
export const valuationsCsvMessages = {
  fileRequired: "Choose a CSV file",
  tooLarge: (mb: number) => `The file is larger than ${mb} MB`,
  notUtf8: "The file is not UTF-8 text. Save it as CSV UTF-8 and upload it again.",
  binary: "The file is not a CSV text file.",
  empty: "The file is empty",
  noRows: "The file has a header row but no rows under it",
  tooManyRows: (max: number) => `The file has more than ${max.toLocaleString("en-US")} rows: split it into smaller files`,
  unreadable: (line: number | null) => `The file is not valid CSV${line ? ` (line ${line})` : ""}: check its quotes`,
  rowTooLong: (line: number | null) => `A row is too long${line ? ` (line ${line})` : ""}`,
  /** Wrong columns, in one message. */
  columns: ({ missing, unknown, twice }: { missing: string[]; unknown: string[]; twice: string[] }) =>
    [
      "The header must name the columns entity_id (or entity / entity_name), fund, date and nav, separated by commas.",
      missing.length ? `Missing: ${list(missing)}.` : "",
      unknown.length ? `Not known: ${list(unknown.map((name) => `"${name}"`))}.` : "",
      twice.length ? `Named twice: ${list(twice)}.` : "",
    ]
      .filter(Boolean)
      .join(" "),
  cells: (cells: number, expected: number) => `This row has ${plural(cells, "cell", "cells")}; the header has ${expected}`,
  formula: (column: string) => `${column}: a formula is not a value. Export the values, not the formulas.`,
  entityRequired: "Name an entity (entity_id or its name)",
  unknownEntityId: "No entity has this id",
  unknownEntityName: "No entity has this name",
  ambiguous: (n: number) => `${n} entities in this fund have this name: use entity_id`,
  nameMismatch: (name: string) => `The name does not match this entity_id, which is ${name}`,
  fundRequired: "Name the fund",
  otherFund: (fund: string) => `Another fund: this page imports ${fund} only`,
  date: "Enter the date as YYYY-MM-DD",
  otherDate: (date: string) => `Another date: this file's valuations are at ${date}. Import each date as a file of its own.`,
  /** The lines of an entity listed more than once (the first 5 named). */
  duplicate: (lines: number[]) =>
    `Listed more than once for this date (lines ${lines.length > 5 ? `${lines.slice(0, 5).join(", ")} and ${(lines.length - 5).toLocaleString("en-US")} more` : list(lines.map(String))})`,
  changed: "The file changed since its preview. Check the preview again before importing.",
} as const;

/** /admin/funds/{slug}/payment-instructions, the notice block and the admins' mail (issue 24 §6). */
export const paymentInstructionsCopy = {
  title: "Payment instructions",
  intro: (fund: string) =>
    `The bank account investors pay ${fund}'s capital calls into. They see it on each call notice in the portal, never in an e-mail.`,
  back: (fund: string) => fund,
  current: "Current details",
  notSet: "Not set. Call notices tell investors to contact the firm before they pay.",
  lastChanged: (when: string, who: string) => `Last changed ${when} UTC by ${who}.`,
  fields: {
    beneficiary: "Beneficiary",
    bankName: "Bank",
    bankAddress: "Bank address",
    account: "IBAN or account number",
    swift: "SWIFT / BIC",
    routing: "ABA routing number",
    reference: "Payment reference",
  },
  hints: {
    beneficiary: "The account holder's name, as the bank has it.",
    bankAddress: "Optional.",
    account: "Spaces are ignored. An IBAN is checked for typing errors.",
    swift: "8 or 11 letters and digits.",
    routing: "Optional: 9 digits, for payments from US banks.",
    reference: "What investors write on the transfer, e.g. the fund and the call number.",
  },
  change: {
    title: "Change the payment instructions",
    set: "Set the payment instructions",
    warning:
      "Investors will pay capital calls into this account. Check the details with the bank by phone before you save: every change is e-mailed to all admins and recorded in the activity log.",
    submit: "Save the payment instructions",
    submitting: "Saving...",
  },
  toasts: {
    saved: (fund: string) => ({ title: "Payment instructions saved", description: `Every admin has been told that ${fund}'s bank details changed.` }),
    unchanged: { title: "Nothing changed", description: "These are the payment instructions already saved." },
    failed: "Not saved",
  },
  notFound: { title: "Fund not found", message: "There is no fund at this address." },
  /** The firm's standing line beside the bank details (notice page, admin page). */
  standing:
    "We never change bank details by e-mail. If a message asks you to pay into a different account, do not pay: call your contact at the firm first.",
  /** An investor's call notice. */
  notice: {
    title: "Payment instructions",
    notSet: "The payment instructions are not on this page yet. Contact the firm by phone before you pay.",
  },
} as const;

/** What the payment instructions' fields are refused for (app/modules/funds/payment-instructions.server.ts). */
export const paymentInstructionsMessages = {
  beneficiary: "Enter the beneficiary's name (at most 140 characters)",
  bankName: "Enter the bank's name (at most 140 characters)",
  bankAddress: "Enter the bank's address on one line (at most 200 characters)",
  account: "Enter an IBAN or an account number (letters and digits, at most 34)",
  iban: "This IBAN is not valid: check it for a typing error",
  swift: "Enter a SWIFT / BIC code of 8 or 11 letters and digits",
  routing: "Enter a 9-digit ABA routing number, or leave it empty",
  routingChecksum: "This ABA routing number is not valid: check it for a typing error",
  reference: "Enter the payment reference (at most 140 characters)",
  oneLine: "Use one line, without control characters",
  code: "Enter the 6-digit code from your authenticator app",
} as const;

/** The mail to every admin when a fund's payment instructions change. It never carries the details. */
export const paymentInstructionsMails = {
  changed: (input: { fund: string; actor: { name: string; email: string }; when: string; changed: string[]; url: string }) => ({
    subject: `Payment instructions changed: ${oneLine(input.fund)}`,
    text: [
      "Hello,",
      "",
      `The payment instructions (bank details) of ${oneLine(input.fund)} were changed on ${input.when} UTC.`,
      `Changed by: ${oneLine(input.actor.name)} (${oneLine(input.actor.email)})`,
      `What changed: ${list(input.changed)}`,
      "",
      `Review them in the admin portal: ${input.url}`,
      "If you did not expect this change, call the colleague named above (not by e-mail) and check the details with the bank before any capital call goes out.",
      "",
      `This e-mail never contains bank details. ${firm.name}`,
    ].join("\n"),
  }),
} as const;
