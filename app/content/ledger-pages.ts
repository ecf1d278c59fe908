/**
 * The admin's ledger pages (issue 24 §4, §5, §9): drafting a capital call or a
 * distribution (lines added and removed without JavaScript), its preview and
 * allocation per entity, publishing, payments received, corrections.
 */

type Kind = "call" | "distribution";

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** Messages of changing a draft (modules/ledger redraftEntry). */
export const redraftMessages = {
  otherFund: (fund: string) => `This draft belongs to ${fund}: draft a new entry for another fund`,
};

export const ledgerPagesCopy = {
  kinds: { call: "Capital call", distribution: "Distribution" } satisfies Record<Kind, string>,

  /** The fund page's links to the ledger pages (and to the fund's other admin pages). */
  fund: {
    newCall: "New capital call",
    newDistribution: "New distribution",
    importValuations: "Import valuations",
    paymentInstructions: "Payment instructions",
    /** A draft's reference in the fund's ledger (a number is given at publishing). */
    draft: "Draft",
  },

  /** The form of a new entry and of a draft's change. */
  form: {
    title: { call: "New capital call", distribution: "New distribution" } satisfies Record<Kind, string>,
    changeTitle: { call: "Change the draft call", distribution: "Change the draft distribution" } satisfies Record<Kind, string>,
    intro: {
      call: "Each line is split on its own over the commitments in force on the notice date, pro rata and to the cent. The preview shows every entity's share; nothing is sent until you publish.",
      distribution:
        "Each line is split on its own over the commitments in force on the payment date, pro rata and to the cent. The preview shows every entity's share; nothing is sent until you publish.",
    } satisfies Record<Kind, string>,
    back: (fund: string) => fund,
    backToDraft: "Back to the draft",
    dates: "Dates",
    noticeDate: "Notice date",
    noticeDateHint: "The day the notices go out. The split uses the commitments in force on it.",
    dueDate: "Due date",
    dueDateHint: "ILPA's best practice: at least 10 business days after the notice date.",
    paymentDate: "Payment date",
    paymentDateHint: "The day the money goes out. The split uses the commitments in force on it.",
    lines: "Lines",
    linesHint: { call: "What the call is for: up to 20 lines, each a type and a fund-level amount.", distribution: "What is distributed: up to 20 lines, each a type and a fund-level amount." } satisfies Record<Kind, string>,
    line: (n: number) => `Line ${n}`,
    type: "Type",
    amount: "Amount",
    amountHint: (currency: string) => `Fund level, in ${currency}.`,
    description: "Description",
    descriptionOptional: "Optional, e.g. the portfolio company.",
    recallable: "Recallable",
    recallableHint: "The fund may call it again: it adds back to each entity's unfunded commitment.",
    addLine: "Add a line",
    remove: "Remove",
    removeLine: (n: number) => `Remove line ${n}`,
    maxLines: "20 lines is the most one entry can have.",
    preview: "Preview the allocation",
    previewPending: "Splitting…",
    save: "Save and preview",
    cancel: "Cancel",
    corrects: (kind: Kind, reference: string, date: string) =>
      `This ${kind === "call" ? "call" : "distribution"} corrects ${reference} of ${date}. ${reference} stays as published; its investors get this entry's own notice.`,
    noCommitments: (fund: string) => `${fund} has no commitments yet. Record them on the entities' pages first: a call or distribution is split over them.`,
    entitiesLink: "Go to the entities",
    /** The form's summary when fields are refused. */
    fixFields: (n: number) => (n === 1 ? "One field needs a change: see the message under it." : `${n} fields need a change: see the messages under them.`),
    failed: "Not saved",
  },

  /** /admin/ledger/{id}: a draft's preview, a published call's payments, a published distribution. */
  entry: {
    draftTitle: { call: "Draft capital call", distribution: "Draft distribution" } satisfies Record<Kind, string>,
    draftBadge: "Draft — not sent",
    publishedBadge: "Published",
    draftNote: {
      call: "Nothing is sent yet. Check each entity's share below, then publish: the call gets its number and every member of each entity gets the notice.",
      distribution: "Nothing is sent yet. Check each entity's share below, then publish: the distribution gets its number and every member of each entity gets the notice.",
    } satisfies Record<Kind, string>,
    noticeDate: "Notice date",
    dueDate: "Due date",
    paymentDate: "Payment date",
    corrects: "Corrects",
    shortNotice: (days: number) =>
      `The due date is ${plural(days, "business day", "business days")} after the notice date. ILPA's best practice is at least 10: give investors more time, or say why in the notice.`,
    shortNoticeTitle: "Short notice",
    figures: {
      totalCalled: "Total called",
      totalDistributed: "Total distributed",
      entities: "Entities",
      lines: "Lines",
      received: "Received",
      outstanding: "Outstanding",
      paidInFull: "Paid in full",
      paidInFullValue: (paid: number, of: number) => `${paid.toLocaleString("en-US")} of ${of.toLocaleString("en-US")}`,
      recallable: "Recallable",
    },
    lines: "Lines",
    lineColumns: { type: "Type", description: "Description", recallable: "Recallable", amount: "Amount" },
    recallableYes: "Yes",
    recallableNo: "No",
    allocation: "Allocation per entity",
    allocationDraft: (date: string) =>
      `Each line split pro rata to the commitments in force on ${date}. Publishing splits again, so a commitment recorded before then is counted.`,
    allocationPublished: (date: string) => `Each line split pro rata to the commitments in force on ${date}.`,
    allocationColumns: { entity: "Entity", total: "Total" },
    /** A line's column when two lines have its type: "Investment (line 2)". */
    lineColumn: (label: string, line: number) => `${label} (line ${line})`,
    payments: "Payments",
    paymentsIntro: (dueDate: string) => `Due on ${dueDate}. Record each payment as it is received; an entity may pay in parts.`,
    paymentColumns: { entity: "Entity", due: "Due", received: "Received", outstanding: "Outstanding", state: "State", actions: "Actions" },
    states: { paid: "Paid", partly_paid: "Partly paid", due: "Due", overdue: "Overdue" } as Record<string, string>,
    recordPayment: "Record a payment",
    amountReceived: "Amount received",
    amountReceivedHint: (outstanding: string) => `${outstanding} is still due.`,
    receivedOn: "Date received",
    recordSubmit: "Record payment",
    recordPending: "Recording…",
    publish: "Publish and send notices",
    publishConfirm: (kind: Kind, entities: number) =>
      `Publishing fixes this ${kind === "call" ? "call" : "distribution"}, gives it the fund's next number and e-mails its notice to every member of ${plural(entities, "entity", "entities")}. A published entry is never changed, only corrected by a new one.`,
    publishNow: "Publish now",
    publishPending: "Publishing…",
    change: "Change",
    deleteDraft: "Delete draft",
    deleteConfirm: "Delete this draft? Nothing was sent; it goes for good.",
    deleteNow: "Delete",
    deletePending: "Deleting…",
    correct: { call: "Correct with a new call", distribution: "Correct with a new distribution" } satisfies Record<Kind, string>,
    correctHint: "A published entry is never changed: a correction is a new entry, with its own notice, that names this one.",
    noShares: "No entity has a share.",
  },

  toasts: {
    drafted: { title: "Draft saved", description: "Check the allocation per entity, then publish." },
    redrafted: { title: "Draft changed", description: "The lines are split again: check the allocation, then publish." },
    published: (reference: string, entities: number) => ({ title: `${reference} published`, description: `Its notices are on their way to the members of ${plural(entities, "entity", "entities")}.` }),
    alreadyPublished: (reference: string) => ({ title: `${reference} is published`, description: "It was published already: nothing was sent again." }),
    deleted: { title: "Draft deleted", description: "Nothing was sent." },
    paymentRecorded: (amount: string, entity: string, outstanding: string) => ({
      title: "Payment recorded",
      description: `${amount} from ${entity}; ${outstanding} still due.`,
    }),
    failed: "Not saved",
  },

  notFound: { title: "Entry not found", message: "This call or distribution does not exist, or its draft was deleted." },
  publishedCannotChange: { title: "Already published", description: "A published entry is never changed: correct it with a new entry." },
  meta: { description: "A fund's capital call or distribution: its lines, the allocation per entity, and its payments." },
};
