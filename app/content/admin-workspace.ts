/** The admin workspace: its navigation and the overview's blocks. Page titles come from SPEC.md where it names them. */

export type AdminPageKey = "overview" | "investors" | "fund-access" | "funds" | "entities" | "documents" | "pitches" | "email-lists" | "activity" | "account";
export type AdminGroupKey = "people" | "funds" | "documents" | "deal-flow" | "lists" | "system";

export const adminNavCopy = {
  label: "Admin",
  /** Each page's navigation label, which is also its title (sentence case). */
  pages: {
    overview: "Overview",
    investors: "Investors",
    "fund-access": "Fund access",
    funds: "Funds",
    entities: "Entities",
    documents: "Documents",
    pitches: "Pitches",
    "email-lists": "Email lists",
    activity: "Activity",
    account: "Account",
  } satisfies Record<AdminPageKey, string>,
  /** The sidebar's groups, by the firm's work. */
  groups: {
    people: "People",
    funds: "Funds",
    documents: "Documents",
    "deal-flow": "Deal flow",
    lists: "Lists",
    system: "System",
  } satisfies Record<AdminGroupKey, string>,
  /** What a badge counts, read after the link's name. */
  badge: {
    investors: (count: number) => `${count} pending`,
    "fund-access": (count: number) => `${count} new this week`,
    pitches: (count: number) => `${count} due within a business day or overdue`,
  },
} as const;

/** The workspaces' frame (app/components/layout/workspace-frame.tsx). */
export const workspaceFrameCopy = {
  /** The phone's menu button. */
  menu: "Menu",
  /** The navigation's name inside the phone's menu (the sidebar's is the workspace's name): landmarks' names differ. */
  menuNav: (nav: string) => `${nav} menu`,
  /** The slim footer's link to the marketing site. */
  site: "Public site",
} as const;

export const overviewCopy = {
  intro: "What needs your attention today.",
  pending: {
    title: "Pending investor requests",
    intro: "The requests that have waited longest.",
    more: (total: number) => `All investors (${total.toLocaleString("en-US")} pending)`,
    all: "All investors",
  },
  fundRequests: {
    title: "Fund II requests this week",
    empty: "No Fund II access requests in the last 7 days",
    more: (total: number) => `All fund access requests (${total.toLocaleString("en-US")} this week)`,
    all: "All fund access requests",
  },
  accesses: {
    title: "Latest document access",
    empty: "No document has been opened yet",
    all: "All documents",
    view: "viewed",
    download: "downloaded",
    unknownDocument: "A deleted document",
    unknownActor: "A former user",
    fundDocument: "Fund document",
  },
  counts: {
    title: "At a glance",
    approvedInvestors: "Approved investors",
    documents: "LP documents",
    subscribers: "Newsletter subscribers",
    subscribersHint: "Confirmed sign-ups only",
    newPitches: "New pitches",
    newPitchesHint: "Not yet picked up",
    overduePitches: "Overdue pitches",
    overduePitchesHint: "Past the 5-business-day reply",
  },
  calls: {
    title: "Capital calls",
    intro: "Published calls due in the next 7 days and not yet paid in full, and every payment past its due date.",
    all: "All funds",
    dueSoon: "Due in the next 7 days",
    dueSoonEmpty: "No call falls due in the next 7 days",
    overdue: "Overdue payments",
    overdueEmpty: "No payment is overdue",
    call: (fund: string, reference: string) => `${fund} · ${reference}`,
    dueOn: (day: string) => `due ${day}`,
    owing: (outstanding: string, entities: number) => `${outstanding} outstanding from ${entities.toLocaleString("en-US")} ${entities === 1 ? "entity" : "entities"}`,
    overdueLine: (entity: string, outstanding: string) => `${entity} owes ${outstanding}`,
    more: (n: number) => `and ${n.toLocaleString("en-US")} more`,
  },
  loadFailed: "This part could not be loaded. Please try refreshing the page.",
  /** Before the link to where an old dashboard section (#anchor) lives now. */
  moved: "This section has its own page now:",
  /** Link names of the sections an older link to this page may point at (by its #anchor). */
  sections: {
    "lp-management": "Existing Investor/LP Management",
    "approved-users": "Approved Investors",
    "rejected-users": "Rejected Requests",
    "upload-document": "Upload an LP document",
    "published-documents": "Published LP documents",
    "fund-management": "Potential Investor Management (Fund II)",
    "fund-access-requests": "Fund access requests",
    "upload-fund-document": "Upload a fund document",
    "published-fund-ii-documents": "Published Fund II documents",
    "published-fund-i-documents": "Published Fund I documents",
    "email-lists": "Email Lists (Copy & Export)",
    "email-list-lp-users": "LP portal users",
    "email-list-rejected-lp-users": "Rejected LP users",
    "email-list-fund-ii-requests": "Fund II access requests",
    "email-list-newsletter": "Newsletter subscribers",
  } as Record<string, string>,
} as const;

export const investorsCopy = {
  search: {
    label: "Search investors",
    placeholder: "Name, e-mail, company or reference code",
    status: "Status",
    statuses: { all: "All", pending: "Pending", approved: "Approved", rejected: "Rejected" },
    submit: "Search",
    clear: "Clear",
    results: (query: string) => `Results for “${query}”`,
  },
  /** The investors table (issue 23): status tabs with counts, one paged table. */
  table: {
    label: "Investors",
    tabs: "Investors by status",
    columns: { name: "Name", email: "Email", status: "Status", referenceCode: "Reference code", requested: "Requested", actions: "Actions" },
    /** The status badge of a request still waiting (SPEC's 'Approved' and 'Rejected' come from adminCopy). */
    pending: "Pending",
    /** Under the request date of an approved investor, when the audit trail knows it. */
    approvedOn: (date: string) => `Approved ${date}`,
    emptyAll: "No investors yet",
    noMatch: (query: string) => `No investors match “${query}”`,
    errorAll: "Failed to load investors. Please try refreshing the page.",
    /** The row menu's link to the reference code field. */
    addCode: "Add reference code",
    editCode: "Edit reference code",
  },
} as const;

/** An investor's reference code ("LRV-0042"): shown and set on the investors page, matched by bulk uploads. */
export const referenceCodeCopy = {
  label: "Reference code",
  /** Beside the investor's name. */
  shown: (code: string) => `Ref. ${code}`,
  hint: "Reference codes: 2 to 20 letters and digits, single hyphens between them (e.g. LRV-0042), case ignored. Leave the field empty to remove a code. Bulk uploads match file names on them.",
  save: "Save",
  saving: "Saving...",
  saved: (name: string, code: string) => ({ title: "Reference code saved", description: `${name}'s reference code is now ${code}.` }),
  removed: (name: string) => ({ title: "Reference code removed", description: `${name} no longer has a reference code.` }),
  failedTitle: "Reference code not saved",
  invalid: "Use 2 to 20 letters and digits, with single hyphens between them (e.g. LRV-0042)",
  taken: (code: string, email: string) => `${code} is already used by ${email}`,
  adminAccount: "Reference codes are for investors, not administrators",
  /** The table's cell of an investor without a code (read by screen readers; a dash is shown). */
  none: "None",
  /** Under the field in the row menu. */
  shortHint: "2 to 20 letters and digits, hyphens between (e.g. LRV-0042). Leave empty to remove.",
} as const;

export const documentsPageCopy = {
  title: "LP documents",
} as const;
