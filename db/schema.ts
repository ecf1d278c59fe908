import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * The whole data model of SPEC.md §3 plus what DESIGN.md needs (sessions,
 * mail outbox, access log). Timestamps are stored as integer milliseconds.
 */

const id = () =>
  text("id")
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID());

const createdAt = () =>
  integer("created_at", { mode: "timestamp_ms" })
    .notNull()
    .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`);

/** The pitch inbox's statuses (JSON values); their labels are in app/content/pitch-inbox.ts. */
export const PITCH_STATUSES = ["new", "in_review", "partner_call", "passed", "invested"] as const;

export const pitchSubmissions = sqliteTable(
  "pitch_submissions",
  {
    id: id(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    company: text("company").notNull(),
    stage: text("stage", { enum: ["Pre-Seed", "Seed", "Series A", "Series B", "Other"] }).notNull(),
    deckUrl: text("deck_url"),
    message: text("message").notNull(),
    createdAt: createdAt(),
    status: text("status", { enum: PITCH_STATUSES }).notNull().default("new"),
    /** The admin who owns the answer; null until someone takes it. */
    ownerId: text("owner_id").references(() => lpUsers.id, { onDelete: "set null" }),
    /**
     * The end of the 5th business day after submission (Europe/Zurich), as an instant:
     * the pitch is overdue from then on until answered (modules/pitch-clock). Set when the
     * pitch is stored; rows older than the inbox are filled in at start (0 until then).
     */
    dueAt: integer("due_at", { mode: "timestamp_ms" }).notNull().default(sql`0`),
    /** When the first reply to the founder was queued: the clock stops. */
    answeredAt: integer("answered_at", { mode: "timestamp_ms" }),
    /** An uploaded deck (PDF), kept privately under STORAGE_DIR; null when none. */
    deckPath: text("deck_path"),
    deckName: text("deck_name"),
    deckSize: integer("deck_size"),
  },
  (t) => [
    index("pitch_submissions_created_at_idx").on(t.createdAt),
    index("pitch_submissions_status_created_idx").on(t.status, t.createdAt),
    index("pitch_submissions_owner_created_idx").on(t.ownerId, t.createdAt),
    // Overdue and due-soon pitches: only the unanswered ones are in this index.
    index("pitch_submissions_open_due_idx")
      .on(t.dueAt)
      .where(sql`answered_at is null`),
  ],
);

/**
 * A pitch's timeline: status and owner changes, internal notes, replies sent to the
 * founder and deck openings, each with who and when. id orders events of one millisecond.
 */
export const pitchEvents = sqliteTable(
  "pitch_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    pitchId: text("pitch_id")
      .notNull()
      .references(() => pitchSubmissions.id, { onDelete: "cascade" }),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
    kind: text("kind", { enum: ["status", "owner", "note", "reply", "deck_opened"] }).notNull(),
    /** The admin who acted; the e-mail is kept so the timeline survives the account. */
    actorId: text("actor_id").references(() => lpUsers.id, { onDelete: "set null" }),
    actorEmail: text("actor_email"),
    /** status: old and new status; owner: old and new owner id (null: nobody). */
    fromValue: text("from_value"),
    toValue: text("to_value"),
    /** reply: the mail's subject and text; note: the note's text. */
    subject: text("subject"),
    body: text("body"),
  },
  (t) => [index("pitch_events_pitch_idx").on(t.pitchId, t.id)],
);

/**
 * Newsletter subscribers with double opt-in (decision 010): an address is 'pending' until
 * its confirmation link is followed, then 'confirmed' with the consent recorded;
 * 'unsubscribed' rows are kept so an import cannot bring them back.
 */
export const newsletterSubscribers = sqliteTable(
  "newsletter_subscribers",
  {
    id: id(),
    email: text("email").notNull().unique(),
    createdAt: createdAt(),
    status: text("status", { enum: ["pending", "confirmed", "unsubscribed"] })
      .notNull()
      .default("pending"),
    /** SHA-256 (hex) of the latest confirmation token; the token itself is never stored. */
    confirmTokenHash: text("confirm_token_hash").unique(),
    confirmExpiresAt: integer("confirm_expires_at", { mode: "timestamp_ms" }),
    /** When the latest confirmation link was queued (pending rows are purged 30 days after it). */
    confirmSentAt: integer("confirm_sent_at", { mode: "timestamp_ms" }),
    /** The consent: when, from which address and page, and the sign-up text and its version. */
    confirmedAt: integer("confirmed_at", { mode: "timestamp_ms" }),
    consentIp: text("consent_ip"),
    consentPage: text("consent_page"),
    consentText: text("consent_text"),
    consentVersion: text("consent_version"),
    unsubscribedAt: integer("unsubscribed_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("newsletter_subscribers_created_at_idx").on(t.createdAt),
    // Admin e-mail list sorted by address (app/modules/email-lists): ORDER BY email COLLATE NOCASE.
    index("newsletter_subscribers_email_nocase_idx").on(sql`${t.email} collate nocase`),
    index("newsletter_subscribers_status_created_idx").on(t.status, t.createdAt),
  ],
);

/**
 * How many newsletter_subscribers rows each status has, kept by triggers
 * (migration 0016): the admin's e-mail lists and overview read the number of
 * confirmed subscribers in O(1), where counting the status index took 3 ms at
 * 100,000 rows on every page load.
 */
export const newsletterStatusCounts = sqliteTable("newsletter_status_counts", {
  status: text("status", { enum: ["pending", "confirmed", "unsubscribed"] }).primaryKey(),
  n: integer("n").notNull(),
});

export const lpUsers = sqliteTable(
  "lp_users",
  {
    id: id(),
    email: text("email").notNull().unique(),
    passwordHash: text("password_hash").notNull(),
    name: text("name").notNull(),
    company: text("company"),
    isAdmin: integer("is_admin", { mode: "boolean" }).notNull().default(false),
    status: text("status", { enum: ["pending", "approved", "rejected"] })
      .notNull()
      .default("pending"),
    createdAt: createdAt(),
    /**
     * Name, e-mail and company, lower case without accents, one per line: what
     * the admin's investor search scans. Kept by triggers on every insert and
     * change (migration 0007), so no write path can forget it.
     */
    searchText: text("search_text"),
    /**
     * The firm's short reference for an investor ("LRV-0042"), set by an admin;
     * unique (case-insensitive, stored upper case). Bulk uploads match file names on it.
     */
    referenceCode: text("reference_code"),
    /** New-document e-mails: each new document, a weekly digest, or none (issue 15). */
    documentMail: text("document_mail", { enum: ["each", "weekly", "none"] })
      .notNull()
      .default("each"),
    /**
     * When the address was proved: the registration's mailed link was confirmed
     * (issue 21; decision 028), or an operator made the account (admin:create).
     * Accounts from before the confirmation step count as confirmed (migration 0014).
     */
    confirmedAt: integer("confirmed_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    uniqueIndex("lp_users_reference_code_idx").on(t.referenceCode),
    index("lp_users_status_idx").on(t.status),
    index("lp_users_created_at_idx").on(t.createdAt),
    // Admin e-mail lists (app/modules/email-lists/email-lists.server.ts): per indexed sort column
    // one index for "LP portal users" (non-admins of every status) and one for "Rejected LP users",
    // so each ORDER BY … LIMIT on e-mail or date walks an index instead of sorting, and each count
    // is a range of an index. Name and company sort by fold_case() (Unicode case folding, which
    // NOCASE lacks; decision 015), filtered by these same indexes' leading columns.
    index("lp_users_admin_email_idx").on(t.isAdmin, sql`${t.email} collate nocase`),
    index("lp_users_admin_created_at_idx").on(t.isAdmin, t.createdAt),
    index("lp_users_status_email_idx").on(t.status, t.isAdmin, sql`${t.email} collate nocase`),
    index("lp_users_status_created_at_idx").on(t.status, t.isAdmin, t.createdAt),
    // The investor search's count per status compares each row's folded text in this index alone.
    index("lp_users_status_search_idx").on(t.status, t.isAdmin, t.searchText),
  ],
);

/**
 * Investor registrations whose address is not proved yet (issue 21; decision 028): one per
 * address, until its mailed link is confirmed (then an lp_users row, status pending, takes
 * its place) or it is purged 30 days after its last link. Kept apart from lp_users so that
 * no admin list, count, search, export or match can show one.
 */
export const registrationRequests = sqliteTable("registration_requests", {
  id: id(),
  email: text("email").notNull().unique(),
  passwordHash: text("password_hash").notNull(),
  name: text("name").notNull(),
  company: text("company"),
  /** SHA-256 (hex) of the latest confirmation token; the token itself is never stored. */
  tokenHash: text("token_hash").notNull().unique(),
  expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  /** When the latest link was queued (the row is purged 30 days after it). */
  lastSentAt: integer("last_sent_at", { mode: "timestamp_ms" }).notNull(),
  createdAt: createdAt(),
});

export const documents = sqliteTable(
  "documents",
  {
    id: id(),
    title: text("title").notNull(),
    description: text("description"),
    category: text("category").notNull(),
    fileName: text("file_name").notNull(),
    filePath: text("file_path").notNull(),
    fileSize: integer("file_size").notNull(),
    mimeType: text("mime_type").notNull(),
    uploadedBy: text("uploaded_by").references(() => lpUsers.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    /** "all": every approved investor (SPEC's behaviour); "selected": the investors in document_recipients. */
    audience: text("audience", { enum: ["all", "selected"] })
      .notNull()
      .default("all"),
    /** Investors' views and downloads of this PDF are stamped with their name and e-mail. */
    watermark: integer("watermark", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [index("documents_category_idx").on(t.category), index("documents_created_at_idx").on(t.createdAt)],
);

/** The investors a "selected" LP document is addressed to. */
export const documentRecipients = sqliteTable(
  "document_recipients",
  {
    documentId: text("document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => lpUsers.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.userId] }), index("document_recipients_user_idx").on(t.userId, t.documentId)],
);

/** The last reminder about a document sent to an investor: at most one per 24 hours. */
export const documentReminders = sqliteTable(
  "document_reminders",
  {
    documentId: text("document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => lpUsers.id, { onDelete: "cascade" }),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.userId] })],
);

/**
 * Scheduled mail runs that must happen once however many processes run
 * (the weekly document digest): the first process to insert a run's key sends it.
 */
export const scheduledRuns = sqliteTable("scheduled_runs", {
  key: text("key").primaryKey(),
  startedAt: integer("started_at", { mode: "timestamp_ms" }).notNull(),
  finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
});

/**
 * The firm's funds (issue 24, decision 038), seeded by migration 0017 from app/content/funds.ts.
 * The slug is the stable key: SPEC's URLs and bodies (`fundId`) and the fund_id columns below
 * name a fund by it. The public pages' texts stay in content; the behaviours that differ per
 * fund are columns.
 */
export const funds = sqliteTable("funds", {
  id: id(),
  slug: text("slug", { enum: ["fund-i", "fund-ii"] }).notNull().unique(),
  name: text("name").notNull(),
  /** ISO 4217 code; the fund's amounts are in it (DESIGN.md §10). */
  currency: text("currency").notNull(),
  vintageYear: integer("vintage_year").notNull(),
  /** Whether the fund takes new commitments. */
  status: text("status", { enum: ["closed", "open"] }).notNull(),
  /**
   * How its document pages are reached: "open", a sign-up gives access at once (a cookie);
   * "by_request", access comes as a mailed link an admin can revoke or send again.
   */
  access: text("access", { enum: ["open", "by_request"] }).notNull(),
  /** The fund's bank details for capital calls (JSON), for later; unused so far. */
  paymentInstructions: text("payment_instructions"),
  createdAt: createdAt(),
});

export const fundAccessUsers = sqliteTable(
  "fund_access_users",
  {
    id: id(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    company: text("company"),
    phone: text("phone"),
    fundId: text("fund_id", { enum: ["fund-i", "fund-ii"] }).notNull(),
    accreditedConfirmation: integer("accredited_confirmation", { mode: "boolean" })
      .notNull()
      .default(false),
    /** SHA-256 (hex) of the 32-byte access token; the token itself is never stored. */
    accessTokenHash: text("access_token_hash").notNull().unique(),
    /**
     * SHA-256 of a fresh Fund II link mailed to the holder's stored address when the
     * address asks again (decision 012): it works beside the current token, so a stranger
     * typing the holder's address breaks nothing; the first use makes it the current
     * token. Null when none is out.
     */
    reissuedTokenHash: text("reissued_token_hash").unique(),
    revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("fund_access_users_email_fund_idx").on(t.email, t.fundId),
    index("fund_access_users_created_at_idx").on(t.createdAt),
    // Admin e-mail list "Fund II access requests", sorted by e-mail or date (name: fold_case, decision 015).
    index("fund_access_users_fund_email_idx").on(t.fundId, sql`${t.email} collate nocase`),
    index("fund_access_users_fund_created_at_idx").on(t.fundId, t.createdAt),
  ],
);

export const fundDocuments = sqliteTable(
  "fund_documents",
  {
    id: id(),
    fundId: text("fund_id", { enum: ["fund-i", "fund-ii"] }).notNull(),
    title: text("title").notNull(),
    description: text("description"),
    category: text("category").notNull(),
    fileName: text("file_name").notNull(),
    filePath: text("file_path").notNull(),
    fileSize: integer("file_size").notNull(),
    mimeType: text("mime_type").notNull(),
    uploadedBy: text("uploaded_by").references(() => lpUsers.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("fund_documents_fund_category_idx").on(t.fundId, t.category)],
);

/** Server-side sessions: the cookie carries only the id (stored here as its SHA-256); deleting a row ends the session. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: id(),
    tokenHash: text("token_hash").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => lpUsers.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["investor", "admin"] }).notNull(),
    /**
     * "full": signed in. "two_factor": the password was right and the account has
     * two-factor; the session lasts 5 minutes and can only submit a code.
     */
    stage: text("stage", { enum: ["full", "two_factor"] }).notNull().default("full"),
    /** Where the session started (the account page's session list). */
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    lastSeenAt: integer("last_seen_at", { mode: "timestamp_ms" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** Every e-mail goes through here first, so a failed send is retried, never lost. */
export const emailOutbox = sqliteTable(
  "email_outbox",
  {
    id: id(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    /**
     * Secrets the text refers to as {{name}} (access links), AES-256-GCM
     * encrypted; filled in only when sending and erased once the mail is out,
     * so the database never holds a usable token.
     */
    secretsEnc: text("secrets_enc"),
    /** Extra headers, a JSON object (List-Unsubscribe and List-Unsubscribe-Post on mail sent to many). */
    headers: text("headers"),
    /**
     * The LP document a mail is about (new-document notices, reminders): its mails still
     * pending are dropped when it is deleted or its audience changes.
     */
    documentId: text("document_id"),
    /** pending: to send; sent: delivered over SMTP; logged: no SMTP configured, written to the log. */
    status: text("status", { enum: ["pending", "sent", "logged"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    nextAttemptAt: integer("next_attempt_at", { mode: "timestamp_ms" }).notNull(),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("email_outbox_status_next_idx").on(t.status, t.nextAttemptAt),
    // The send rate (MAIL_RATE_PER_MINUTE) counts the mails sent in the last minute.
    index("email_outbox_sent_at_idx").on(t.sentAt),
    index("email_outbox_document_idx").on(t.documentId, t.status),
  ],
);

/** Who viewed or downloaded which document, and when. */
export const accessLog = sqliteTable(
  "access_log",
  {
    id: id(),
    action: text("action", { enum: ["view", "download"] }).notNull(),
    documentKind: text("document_kind", { enum: ["lp", "fund"] }).notNull(),
    documentId: text("document_id").notNull(),
    /** An lp_users id, or a fund_access_users id; the kind says which. */
    actorKind: text("actor_kind", { enum: ["lp_user", "fund_access_user"] }).notNull(),
    actorId: text("actor_id").notNull(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
  },
  (t) => [
    index("access_log_document_idx").on(t.documentKind, t.documentId, t.createdAt),
    // The admin overview's latest accesses walk this index backwards.
    index("access_log_created_at_idx").on(t.createdAt),
  ],
);

/** Single-use password reset links: only the SHA-256 of the token is kept; valid for one hour. */
export const passwordResets = sqliteTable(
  "password_resets",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => lpUsers.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    usedAt: integer("used_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [index("password_resets_user_idx").on(t.userId)],
);

/**
 * The audit trail (DESIGN.md §4): every security event and admin action, newest
 * read first. Append-only from the app: a trigger refuses updates, and deletes of
 * rows younger than 30 days (only the daily retention deletes; migration 0008).
 * The id is the rowid, so (at, id) orders rows written in the same millisecond.
 */
export const auditEvents = sqliteTable(
  "audit_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
    /** The signed-in user who acted; both null for a visitor. */
    actorId: text("actor_id"),
    actorEmail: text("actor_email"),
    event: text("event").notNull(),
    /** What the event is about: a user, a document, a fund access request, a session, a list. */
    targetType: text("target_type"),
    targetId: text("target_id"),
    /** How a person recognizes the target (an e-mail, a title); shown and searched with the id. */
    targetLabel: text("target_label"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    requestId: text("request_id"),
    /** JSON object; secrets redacted before writing. */
    details: text("details").notNull().default("{}"),
  },
  (t) => [
    index("audit_events_at_idx").on(t.at),
    index("audit_events_event_at_idx").on(t.event, t.at),
    index("audit_events_actor_at_idx").on(t.actorEmail, t.at),
    index("audit_events_target_id_at_idx").on(t.targetId, t.at),
    index("audit_events_target_label_at_idx").on(sql`${t.targetLabel} collate nocase`, t.at),
  ],
);

/**
 * An account's TOTP two-factor (RFC 6238), kept apart from lp_users so the
 * sealed secret never travels with the user row. `secretEnc` is sealed with
 * TOTP_KEYS for its account (modules/two-factor/seal.server.ts); `pendingEnc`
 * is a secret shown for enrolment and not yet confirmed by a code, sealed for
 * the account and the session it was shown to. `lastStep` is the time
 * step of the last accepted code: a code is accepted only for a later step.
 */
export const userTwoFactor = sqliteTable("user_two_factor", {
  userId: text("user_id")
    .primaryKey()
    .references(() => lpUsers.id, { onDelete: "cascade" }),
  secretEnc: text("secret_enc"),
  enabledAt: integer("enabled_at", { mode: "timestamp_ms" }),
  lastStep: integer("last_step"),
  pendingEnc: text("pending_enc"),
  pendingAt: integer("pending_at", { mode: "timestamp_ms" }),
});

/** Single-use recovery codes: only a keyed hash of each is kept (`h1.<key id>.<HMAC>`; plain SHA-256 rows from before still accepted). */
export const recoveryCodes = sqliteTable(
  "recovery_codes",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => lpUsers.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: integer("used_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("recovery_codes_user_hash_idx").on(t.userId, t.codeHash)],
);

/** What an investing entity is (issue 24): the words of the admin's form and the JSON. */
export const ENTITY_KINDS = ["individual", "joint", "trust", "company", "foundation", "pension", "other"] as const;
/** A member's role: an owner sees everything and (later) manages the members; a viewer reads. */
export const ENTITY_ROLES = ["owner", "viewer"] as const;

/**
 * Investing entities (DESIGN.md §10): what holds commitments. Approved
 * investor accounts are their members (entity_members); an investor sees
 * exactly the entities they are a member of.
 */
export const entities = sqliteTable(
  "entities",
  {
    id: id(),
    name: text("name").notNull(),
    kind: text("kind", { enum: ENTITY_KINDS }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("entities_name_idx").on(sql`${t.name} collate nocase`)],
);

export const entityMembers = sqliteTable(
  "entity_members",
  {
    entityId: text("entity_id")
      .notNull()
      .references(() => entities.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => lpUsers.id, { onDelete: "cascade" }),
    role: text("role", { enum: ENTITY_ROLES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.entityId, t.userId] }), index("entity_members_user_idx").on(t.userId, t.entityId)],
);

/**
 * One commitment per entity and fund, in the fund's currency as integer minor
 * units (cents). `amountMinor` is the amount in force now; commitment_changes
 * keeps every amount with the date it took effect (the first is the accepted
 * amount on `acceptedOn`), so the amount in force on any date can be read.
 * Dates are calendar dates, 'YYYY-MM-DD'.
 */
export const commitments = sqliteTable(
  "commitments",
  {
    id: id(),
    entityId: text("entity_id")
      .notNull()
      .references(() => entities.id, { onDelete: "restrict" }),
    fundId: text("fund_id")
      .notNull()
      .references(() => funds.id, { onDelete: "restrict" }),
    amountMinor: integer("amount_minor").notNull(),
    acceptedOn: text("accepted_on").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("commitments_entity_fund_idx").on(t.entityId, t.fundId), index("commitments_fund_idx").on(t.fundId)],
);

export const commitmentChanges = sqliteTable(
  "commitment_changes",
  {
    id: id(),
    commitmentId: text("commitment_id")
      .notNull()
      .references(() => commitments.id, { onDelete: "cascade" }),
    amountMinor: integer("amount_minor").notNull(),
    effectiveOn: text("effective_on").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("commitment_changes_commitment_idx").on(t.commitmentId, t.effectiveOn)],
);

/**
 * Documents addressed to entities (issue 24 §2): a 'selected' LP document is
 * read by the investors chosen in document_recipients and by every member of
 * an entity chosen here (decision 025's one access rule, extended).
 */
export const documentRecipientEntities = sqliteTable(
  "document_recipient_entities",
  {
    documentId: text("document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    entityId: text("entity_id")
      .notNull()
      .references(() => entities.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.entityId] }), index("document_recipient_entities_entity_idx").on(t.entityId, t.documentId)],
);

/** The ledger's kinds and types (DESIGN.md §10): a call's lines and a distribution's lines. */
export const LEDGER_KINDS = ["call", "distribution"] as const;
export const CALL_LINE_TYPES = ["investment", "management_fee", "fund_expenses", "organizational_expenses", "other"] as const;
export const DISTRIBUTION_LINE_TYPES = ["return_of_capital", "realized_gain", "income", "other"] as const;

/**
 * Capital calls and distributions of a fund (issue 24 §4–5), drafted, then
 * published; a published entry is never edited, only corrected by a new one
 * (`correctionOf`). `date` is a call's notice date or a distribution's payment
 * date; `dueDate` a call's. `number` is given at publishing, per fund and kind
 * (Call 1, Call 2, …; Distribution 1, …). Dates are 'YYYY-MM-DD'.
 */
export const ledgerEntries = sqliteTable(
  "ledger_entries",
  {
    id: id(),
    fundId: text("fund_id")
      .notNull()
      .references(() => funds.id, { onDelete: "restrict" }),
    kind: text("kind", { enum: LEDGER_KINDS }).notNull(),
    status: text("status", { enum: ["draft", "published"] }).notNull().default("draft"),
    number: integer("number"),
    date: text("date").notNull(),
    dueDate: text("due_date"),
    correctionOf: text("correction_of"),
    createdBy: text("created_by").references(() => lpUsers.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    publishedAt: integer("published_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    uniqueIndex("ledger_entries_number_idx").on(t.fundId, t.kind, t.number),
    index("ledger_entries_fund_idx").on(t.fundId, t.kind, t.status, t.date),
  ],
);

/** An entry's lines, in the order they were given: a type and a fund-level amount (minor units). */
export const ledgerLines = sqliteTable(
  "ledger_lines",
  {
    entryId: text("entry_id")
      .notNull()
      .references(() => ledgerEntries.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    type: text("type").notNull(),
    amountMinor: integer("amount_minor").notNull(),
    description: text("description"),
    /** A distribution's return of capital that may be called again (adds back to unfunded commitment). */
    recallable: integer("recallable", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.entryId, t.position] })],
);

/** Each line's share per entity (largest remainder, pro rata to the commitments in force on the entry's date). */
export const ledgerAllocations = sqliteTable(
  "ledger_allocations",
  {
    entryId: text("entry_id")
      .notNull()
      .references(() => ledgerEntries.id, { onDelete: "cascade" }),
    entityId: text("entity_id")
      .notNull()
      .references(() => entities.id, { onDelete: "restrict" }),
    position: integer("position").notNull(),
    amountMinor: integer("amount_minor").notNull(),
  },
  (t) => [primaryKey({ columns: [t.entryId, t.entityId, t.position] }), index("ledger_allocations_entity_idx").on(t.entityId, t.entryId)],
);

/** Payments received against a published call, per entity, in full or in part. */
export const callPayments = sqliteTable(
  "call_payments",
  {
    id: id(),
    entryId: text("entry_id")
      .notNull()
      .references(() => ledgerEntries.id, { onDelete: "restrict" }),
    entityId: text("entity_id")
      .notNull()
      .references(() => entities.id, { onDelete: "restrict" }),
    amountMinor: integer("amount_minor").notNull(),
    receivedOn: text("received_on").notNull(),
    createdBy: text("created_by").references(() => lpUsers.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  // (entry, entity, amount) covers a call's balances per entity and a fund's paid-in sum without reading the rows.
  (t) => [index("call_payments_entry_idx").on(t.entryId, t.entityId, t.amountMinor), index("call_payments_entity_idx").on(t.entityId)],
);

/** The reminder and overdue mails of a call, each sent once per entity (issue 24 §4). */
export const callReminders = sqliteTable(
  "call_reminders",
  {
    entryId: text("entry_id")
      .notNull()
      .references(() => ledgerEntries.id, { onDelete: "cascade" }),
    entityId: text("entity_id")
      .notNull()
      .references(() => entities.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["reminder", "overdue"] }).notNull(),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.entryId, t.entityId, t.kind] })],
);

/** Each entity's NAV in a fund at a date (quarter end), from the fund administrator (issue 24 §7). */
export const valuations = sqliteTable(
  "valuations",
  {
    id: id(),
    fundId: text("fund_id")
      .notNull()
      .references(() => funds.id, { onDelete: "restrict" }),
    entityId: text("entity_id")
      .notNull()
      .references(() => entities.id, { onDelete: "restrict" }),
    date: text("date").notNull(),
    navMinor: integer("nav_minor").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("valuations_fund_entity_date_idx").on(t.fundId, t.entityId, t.date),
    index("valuations_entity_idx").on(t.entityId, t.fundId, t.date),
    // A fund's NAV at a date, summed from the index alone (the admin's fund page at 2,000 entities).
    index("valuations_fund_date_idx").on(t.fundId, t.date, t.navMinor),
  ],
);

/**
 * A quarter's profit and loss per entity in a fund, from the fund
 * administrator (issue 25 §1, decision 041), in minor units of the fund's
 * currency, signed as they move NAV: fees, expenses, losses and a carry accrual
 * negative; income and gains positive. One import is one fund and one quarter
 * ('2026-Q3'); a later import of the same quarter (a restatement) replaces its rows.
 */
export const pnlRows = sqliteTable(
  "pnl_rows",
  {
    fundId: text("fund_id")
      .notNull()
      .references(() => funds.id, { onDelete: "restrict" }),
    quarter: text("quarter").notNull(),
    entityId: text("entity_id")
      .notNull()
      .references(() => entities.id, { onDelete: "restrict" }),
    managementFeesMinor: integer("management_fees_minor").notNull(),
    partnershipExpensesMinor: integer("partnership_expenses_minor").notNull(),
    otherIncomeMinor: integer("other_income_minor").notNull(),
    realizedGainMinor: integer("realized_gain_minor").notNull(),
    unrealizedGainChangeMinor: integer("unrealized_gain_change_minor").notNull(),
    carriedInterestChangeMinor: integer("carried_interest_change_minor").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.fundId, t.quarter, t.entityId] }), index("pnl_rows_entity_idx").on(t.entityId, t.fundId, t.quarter)],
);

/**
 * A fund's published quarter, one row per version (issue 25 §2). `published`:
 * the quarter is closed, nothing may be dated inside it; `reopened`: a
 * restatement is under way (dates inside it are allowed again until the next
 * version is published); `superseded`: a later version replaced it, and its
 * statements stay readable. `differences` (JSON) lists what a restatement changed.
 */
export const statementQuarters = sqliteTable(
  "statement_quarters",
  {
    id: id(),
    fundId: text("fund_id")
      .notNull()
      .references(() => funds.id, { onDelete: "restrict" }),
    quarter: text("quarter").notNull(),
    version: integer("version").notNull(),
    status: text("status", { enum: ["published", "reopened", "superseded"] }).notNull(),
    differences: text("differences"),
    publishedBy: text("published_by").references(() => lpUsers.id, { onDelete: "set null" }),
    publishedAt: integer("published_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [uniqueIndex("statement_quarters_version_idx").on(t.fundId, t.quarter, t.version), index("statement_quarters_status_idx").on(t.fundId, t.status, t.quarter)],
);

/**
 * One entity's capital account statement for a published quarter version: its
 * figures frozen at publishing (JSON, amounts as decimal strings), and the PDF
 * document once the background job has made it. One per version and entity.
 */
export const statements = sqliteTable(
  "statements",
  {
    id: id(),
    quarterId: text("quarter_id")
      .notNull()
      .references(() => statementQuarters.id, { onDelete: "restrict" }),
    entityId: text("entity_id")
      .notNull()
      .references(() => entities.id, { onDelete: "restrict" }),
    figures: text("figures").notNull(),
    documentId: text("document_id").references(() => documents.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("statements_quarter_entity_idx").on(t.quarterId, t.entityId), index("statements_entity_idx").on(t.entityId, t.quarterId)],
);

/** A published call's or distribution's notice PDF per entity (issue 25 §3). */
export const noticeDocuments = sqliteTable(
  "notice_documents",
  {
    entryId: text("entry_id")
      .notNull()
      .references(() => ledgerEntries.id, { onDelete: "restrict" }),
    entityId: text("entity_id")
      .notNull()
      .references(() => entities.id, { onDelete: "restrict" }),
    documentId: text("document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.entryId, t.entityId] })],
);

/**
 * Background PDF jobs (issue 25 §2–3): a quarter's statements or an entry's
 * notices. The items are derived (statements without a document; entities of
 * the entry without a notice document), so a restart resumes where it stopped
 * and the unique keys above make each PDF once.
 */
export const pdfJobs = sqliteTable(
  "pdf_jobs",
  {
    id: id(),
    kind: text("kind", { enum: ["statements", "notices"] }).notNull(),
    /** statement_quarters.id or ledger_entries.id */
    refId: text("ref_id").notNull(),
    total: integer("total").notNull(),
    status: text("status", { enum: ["running", "finished"] }).notNull().default("running"),
    createdAt: createdAt(),
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("pdf_jobs_ref_idx").on(t.kind, t.refId), index("pdf_jobs_status_idx").on(t.status)],
);

/** An item a PDF job could not make, and why; it is not tried again by that job. */
export const pdfJobFailures = sqliteTable(
  "pdf_job_failures",
  {
    jobId: text("job_id")
      .notNull()
      .references(() => pdfJobs.id, { onDelete: "cascade" }),
    entityId: text("entity_id").notNull(),
    message: text("message").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.entityId] })],
);

/** The firm's settings (key → JSON value), e.g. whether statements are watermarked. */
export const firmSettings = sqliteTable("firm_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
});

/**
 * Rate limit windows (app/modules/http/rate-limit.server.ts): rate-limiter-flexible's
 * SQLite store reads and writes them with its own SQL, so the columns are its
 * (decision 044). One row per bucket and key (`<bucket>:<key>`); `points` is the
 * attempts counted in the window, `expire` its end in milliseconds since the epoch.
 * Rows past `expire` count for nothing and are deleted every few minutes.
 */
export const rateLimits = sqliteTable("rate_limits", {
  key: text("key").primaryKey(),
  points: integer("points").notNull().default(0),
  expire: integer("expire"),
});
