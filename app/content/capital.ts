/**
 * The words of capital accounts (issue 24, DESIGN.md §10): entities, members
 * and commitments, on the admin pages and in the JSON answers' messages.
 */
/** Keyed by db/schema.ts's ENTITY_KINDS (content imports no module: modules/entities checks the keys). */
export const entityKindLabels = {
  individual: "Individual",
  joint: "Joint account",
  trust: "Trust",
  company: "Company",
  foundation: "Foundation",
  pension: "Pension fund",
  other: "Other",
} as const;

export const entityRoleLabels = {
  owner: "Owner",
  viewer: "Viewer",
} as const;

export const entityMessages = {
  nameRequired: "Enter the entity's name",
  nameTooLong: "Use at most 200 characters",
  nameCharacters: "Use letters, digits, spaces and punctuation only (no line breaks or control characters)",
  kind: "Choose what kind of entity it is",
  role: "Choose owner or viewer",
  userId: "Choose an approved investor",
  notApproved: "Not an approved investor account",
  duplicateMember: "This investor is listed twice",
  ownerRequired: "An entity needs at least one owner",
  alreadyMember: "This investor is already a member",
  lastOwner: "The entity's last owner cannot be removed: make another member an owner first",
  notMember: "Not a member of this entity",
  notFound: "Entity not found",
  tooManyMembers: "At most 50 members at once",
};

export const commitmentMessages = {
  entityId: "Choose an entity",
  fund: "Choose a fund",
  date: "Enter a date as YYYY-MM-DD",
  exists: "This entity already has a commitment in this fund: raise it instead",
  notFound: "Commitment not found",
  notHigher: "A raised commitment must be larger than the amount in force",
  beforeAccepted: "The date must be on or after the date the commitment was accepted",
  notLatest: "The date must be on or after the last change",
};

/** /admin/entities and /admin/entities/{id} (issue 24 §9). */
export const entitiesCopy = {
  intro: "The vehicles investors invest through: each holds its commitments, and its members see its capital account and documents.",
  table: {
    label: "Entities",
    columns: { name: "Name", kind: "Kind", members: "Members", commitments: "Commitments", created: "Created" },
    noCommitment: "None yet",
    owners: (names: string[]) => names.join(", "),
    memberCount: (n: number) => (n === 1 ? "1 member" : `${n} members`),
  },
  empty: { description: "No entities yet. Create the first one below: a name, its kind and an owner." },
  create: {
    title: "New entity",
    name: "Name",
    nameHint: "As on the subscription documents, e.g. “Meyer Family Trust”.",
    kind: "Kind",
    ownerEmail: "Owner's e-mail",
    ownerEmailHint: "An approved investor: they see everything about the entity.",
    submit: "Create entity",
    pending: "Creating…",
  },
  detail: {
    back: "All entities",
    kind: "Kind",
    created: "Created",
    members: "Members",
    membersIntro: "Owners and viewers see the entity's capital account and documents; members never see each other's e-mail addresses.",
    memberColumns: { name: "Name", email: "Email", role: "Role", actions: "Actions" },
    remove: "Remove from the entity",
    removeConfirm: (name: string) => `Remove ${name}? They lose the entity's documents and capital account at once.`,
    confirm: "Remove",
    cancel: "Cancel",
    addMember: "Add a member",
    memberEmail: "Investor's e-mail",
    memberEmailHint: "An approved investor account.",
    role: "Role",
    addMemberSubmit: "Add member",
    commitments: "Commitments",
    commitmentsIntro: "One per fund, in the fund's currency. A raise at a subsequent close keeps the earlier amounts.",
    commitmentColumns: { fund: "Fund", amount: "Commitment", accepted: "Accepted", history: "History" },
    noCommitments: "No commitment yet.",
    ledger: "Ledger",
    ledgerIntro: (shown: number) => `The entity's ${shown} newest transactions across its funds: its shares of calls and distributions, its payments and valuations.`,
    noLedger: "Nothing yet: the entity's shares appear here once a call or distribution is published.",
    raisedOn: (amount: string, date: string) => `${amount} from ${date}`,
    addCommitment: "Record a commitment",
    fund: "Fund",
    amount: "Amount",
    amountHint: (example: string) => `In the fund's currency, e.g. ${example}.`,
    acceptedOn: "Accepted on",
    addCommitmentSubmit: "Record commitment",
    raise: "Raise the commitment",
    raiseAmount: "New amount",
    effectiveOn: "Effective from",
    raiseSubmit: "Raise",
  },
  notFound: { title: "Entity not found", message: "This entity does not exist, or it was removed." },
  toasts: {
    created: (name: string) => ({ title: "Entity created", description: `${name} is ready for its commitments.` }),
    memberAdded: (name: string) => ({ title: "Member added", description: `${name} now sees the entity.` }),
    memberRemoved: (name: string) => ({ title: "Member removed", description: `${name} no longer sees the entity.` }),
    commitmentAdded: (fund: string) => ({ title: "Commitment recorded", description: `The commitment to ${fund} is recorded.` }),
    commitmentRaised: (fund: string) => ({ title: "Commitment raised", description: `The commitment to ${fund} is raised; the earlier amount stays in its history.` }),
    failed: "Not saved",
  },
  unknownEmail: "No approved investor has this e-mail address",
};

/** The ledger's line types, as pages, notices and mails name them. */
export const ledgerLineLabels: Record<string, string> = {
  investment: "Investment",
  management_fee: "Management fee",
  fund_expenses: "Fund expenses",
  organizational_expenses: "Organizational expenses",
  return_of_capital: "Return of capital",
  realized_gain: "Realized gain",
  income: "Income",
  other: "Other",
};

/** "Call 3", "Distribution 1": a published entry's name, numbered per fund. */
export function ledgerReference(kind: "call" | "distribution", number: number): string {
  return `${kind === "call" ? "Call" : "Distribution"} ${number}`;
}

export const ledgerMessages = {
  fund: "Choose a fund",
  date: "Enter a date as YYYY-MM-DD",
  lines: "Add at least one line",
  tooManyLines: "At most 20 lines",
  callType: "Choose investment, management_fee, fund_expenses, organizational_expenses or other",
  distributionType: "Choose return_of_capital, realized_gain, income or other",
  description: "Use at most 200 characters",
  tooLarge: "The amount is too large",
  recallable: "Only a return of capital can be recallable",
  dueBeforeNotice: "The due date must be on or after the notice date",
  correctionOf: "Choose a published entry of the same fund and kind to correct",
  beforeNotice: "A payment cannot be dated before the call's notice date",
  noCommitments: "This fund has no commitments in force on that date",
  notFound: "Not found",
  published: "A published entry is never changed: correct it with a new entry",
  paymentOnDraft: "A draft cannot be paid: publish it first",
  entityId: "Choose an entity",
  notCalled: "This call asks nothing of that entity",
  overpaid: (outstanding: string) => `More than the ${outstanding} still due`,
};

/** The notice mails of a published call or distribution: no bank details, ever (DESIGN.md §10). */
export const ledgerMails = {
  notice(input: {
    kind: "call" | "distribution";
    fundName: string;
    reference: string;
    entityName: string;
    name: string;
    amount: string;
    date: string;
    dueDate?: string | undefined;
    lines: { label: string; amount: string }[];
    url: string;
  }): { subject: string; text: string } {
    const call = input.kind === "call";
    const breakdown = input.lines.map((line) => `  ${line.label}: ${line.amount}`).join("\n");
    return {
      subject: `${input.fundName}: ${input.reference} for ${input.entityName}`,
      text: [
        `Dear ${input.name},`,
        "",
        call
          ? `${input.fundName} has issued ${input.reference} to ${input.entityName}: ${input.amount}, due on ${input.dueDate}.`
          : `${input.fundName} makes ${input.reference} to ${input.entityName}: ${input.amount}, paid on ${input.date}.`,
        "",
        "The breakdown:",
        breakdown,
        "",
        call ? `The notice, with the payment instructions, is in the investor portal: ${input.url}` : `The notice is in the investor portal: ${input.url}`,
        "",
        call
          ? "We never send bank details by e-mail and never change them by e-mail. If a message asks you to pay elsewhere, call us before you pay."
          : "We never ask for bank details by e-mail.",
      ].join("\n"),
    };
  },
};

export const valuationMessages = {
  fund: "Choose a fund",
  date: "Enter a date as YYYY-MM-DD",
  entityId: "Name an entity",
  values: "Add at least one value",
  tooMany: "At most 10,000 values in one import",
  negative: "A NAV cannot be negative",
  duplicate: "This entity is listed twice",
  notCommitted: "This entity has no commitment in the fund",
};

/** /lp/capital-account (issue 24 §8). */
export const capitalAccountCopy = {
  title: "Capital account",
  intro: "Your commitments, what has been called and paid, distributions and the value of each holding, per entity and fund.",
  empty: "No capital account yet. When the firm records a commitment for an entity you are a member of, it shows here.",
  role: { owner: "Owner", viewer: "Viewer" } as Record<string, string>,
  figures: {
    commitment: "Commitment",
    called: "Called",
    paidIn: "Paid in",
    outstanding: "Outstanding",
    unfunded: "Unfunded",
    distributed: "Distributed",
    nav: "NAV",
  },
  navOn: (date: string) => `on ${date}`,
  noNav: "Awaiting the first valuation",
  multiples: { dpi: "DPI", rvpi: "RVPI", tvpi: "TVPI", irr: "Net IRR" },
  asOf: (date: string) => `as of ${date}`,
  notMeaningful: "n/m",
  irrNotes: {
    awaiting_valuation: "Awaiting the first valuation.",
    under_one_year: "Not shown in the first year: an annualised rate over a few months means little.",
    no_sign_change: "Not meaningful: the flows so far run in one direction only.",
    no_solution: "Not meaningful: no single rate fits these flows.",
  } as Record<string, string>,
  transactions: "Latest transactions",
  transactionColumns: { date: "Date", kind: "Transaction", entity: "Entity", fund: "Fund", amount: "Amount", reference: "Reference" },
  kinds: { call: "Capital call", payment: "Payment received", distribution: "Distribution", valuation: "Valuation" } as Record<string, string>,
  afterValuation: "after the valuation",
  /** A call's or distribution's notice PDF beside its reference, once made (issue 25 §3). */
  noticePdf: "PDF",
  noticePdfLabel: (reference: string, entity: string) => `${reference} notice of ${entity} (PDF)`,
  combined: "All entities and funds",
  combinedIntro: "Summed per currency; two currencies are never added.",
};

/** /lp/notices/{id}: a capital call's or a distribution's notice (issue 24 §4, §6). */
export const noticeCopy = {
  back: "Capital account",
  callTitle: (fund: string, reference: string) => `${fund}: ${reference}`,
  noticeDate: "Notice date",
  dueDate: "Due date",
  paymentDate: "Payment date",
  entity: "Entity",
  amount: "Amount",
  received: "Received",
  outstanding: "Still due",
  breakdown: "Breakdown",
  line: "Type",
  instructions: "Payment instructions",
  noInstructions: "The firm gives the payment instructions on this page only. If they are not shown yet, contact the firm by phone before you pay.",
  standing: "We never send bank details by e-mail and never change them by e-mail. If a message asks you to pay into another account, call us before you pay.",
  correction: "This notice corrects an earlier one.",
  notFound: { title: "Notice not found", message: "This notice does not exist, or it is not addressed to an entity you are a member of." },
};

/** /admin/funds and /admin/funds/{slug} (issue 24 §9). */
export const fundsCopy = {
  intro: "Each fund's commitments, what has been called, paid in and distributed, and its latest NAV.",
  table: {
    label: "Funds",
    columns: { name: "Fund", vintage: "Vintage", entities: "Entities", commitments: "Commitments", called: "Called", distributed: "Distributed", nav: "NAV" },
    calledShare: (share: string) => `${share} of commitments`,
    status: { closed: "Closed", open: "Open" } as Record<string, string>,
  },
  detail: {
    back: "All funds",
    figures: { commitments: "Commitments", called: "Called", paidIn: "Paid in", distributed: "Distributed", nav: "NAV", entities: "Entities" },
    navOn: (date: string) => `on ${date}`,
    noNav: "No valuation yet",
    commitments: "Commitments",
    noCommitments: "No commitment yet: record one on an entity's page.",
    commitmentColumns: { entity: "Entity", amount: "Commitment", accepted: "Accepted" },
    ledger: "Calls and distributions",
    noLedger: "No call or distribution yet.",
    ledgerColumns: { reference: "Reference", kind: "Kind", date: "Date", due: "Due", total: "Total", entities: "Entities", paid: "Paid in", status: "Status" },
    kinds: { call: "Capital call", distribution: "Distribution" } as Record<string, string>,
    statuses: { draft: "Draft", published: "Published" } as Record<string, string>,
    valuations: "Valuations",
    noValuations: "No valuation yet.",
    valuationColumns: { date: "Date", entities: "Entities", total: "Total NAV" },
  },
  notFound: { title: "Fund not found", message: "There is no fund at this address." },
};

/** A call's reminder (3 business days before the due date) and overdue notice (the business day after). */
export const ledgerReminderMails = {
  reminder(input: { kind: "reminder" | "overdue"; fundName: string; reference: string; name: string; outstanding: string; dueDate: string; url: string }) {
    const overdue = input.kind === "overdue";
    return {
      subject: overdue ? `${input.fundName}: ${input.reference} is overdue` : `${input.fundName}: ${input.reference} is due on ${input.dueDate}`,
      text: [
        `Dear ${input.name},`,
        "",
        overdue
          ? `${input.reference} of ${input.fundName} was due on ${input.dueDate}; ${input.outstanding} is still outstanding.`
          : `A reminder: ${input.reference} of ${input.fundName} is due on ${input.dueDate}; ${input.outstanding} is still outstanding.`,
        "",
        `The notice, with the payment instructions, is in the investor portal: ${input.url}`,
        "If you have paid in the last days, thank you: please disregard this message.",
        "",
        "We never send bank details by e-mail and never change them by e-mail.",
      ].join("\n"),
    };
  },
};
