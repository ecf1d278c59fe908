/**
 * Copy of the admin's 'Email Lists (Copy & Export)' page
 * (SPEC.md §2, §8). The list labels and empty texts live with the lists
 * (`LISTS` in ~/modules/email-lists/lists).
 */

const numbers = new Intl.NumberFormat("en-US");

/** '100,000' (fixed locale, so the server and the browser render the same text). */
export function formatCount(count: number): string {
  return numbers.format(count);
}

const columnWords = { company: "Company", name: "Name", email: "Email", date: "Date" };
const directionWords = { asc: "ascending", desc: "descending" };

export const emailListsCopy = {
  section: "Email Lists (Copy & Export)",
  intro:
    "Sort a table by clicking a column heading. Copy All copies every row of the table as tab-separated text, in the order shown; Download CSV saves the same rows as a spreadsheet file.",
  /** Every column, direction and status the lists know has its words here (checked in modules/email-lists/lists.ts). */
  columns: columnWords,
  directions: directionWords,
  /** Read (politely) when a table's order changes. */
  sortedBy: (column: keyof typeof columnWords, direction: keyof typeof directionWords) =>
    `Sorted by ${emailListsCopy.columns[column]}, ${emailListsCopy.directions[direction]}`,
  total: (count: number) => `${formatCount(count)} total`,
  showing: (first: number, last: number, total: number) =>
    `Showing ${formatCount(first)}\u2013${formatCount(last)} of ${formatCount(total)}`,
  pageOfPages: (page: number, pages: number) => `Page ${formatCount(page)} of ${formatCount(pages)}`,
  previous: "Previous",
  next: "Next",
  /** Read after the visible 'Previous' / 'Next', so each paging link has its own name. */
  pageOf: (label: string) => ` page of ${label}`,
  copyAll: "Copy All",
  download: "Download CSV",
  /** Read after the visible 'Copy All' / 'Download CSV', so each table's controls have their own names. */
  controlSuffix: (label: string) => ` ${label}`,
  error: (label: string) => `Failed to load ${label}. Please try refreshing the page.`,
  /** The newsletter table's status filter (a GET form; confirmed by default). */
  statusFilter: {
    label: "Status",
    submit: "Show",
    options: { confirmed: "Confirmed", pending: "Pending confirmation", unsubscribed: "Unsubscribed" },
    /** The empty row when a status other than confirmed has no one. */
    empty: { pending: "No addresses waiting for confirmation", unsubscribed: "No unsubscribed addresses" },
  },
} as const;

export const emailListToasts = {
  copied: (label: string) => ({ title: "Copied!", description: `${label} copied to clipboard` }),
  copyFailed: { title: "Failed to copy", description: "Please try again", variant: "destructive" },
} as const;
