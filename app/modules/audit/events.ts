import { auditEventWords } from "~/content/activity";

/**
 * The security events and admin actions the product records (log line and
 * audit row alike), one list so operators can alert on the names and the
 * activity page can offer them as a filter. Zod-free, no server imports.
 */
export const AUDIT_EVENTS = [
  "auth.sign_in",
  "auth.sign_in_failed",
  "auth.sign_out",
  "auth.register",
  /** A registration's confirmation link was asked for (registering, or 'Send the link again'); its address is not proved yet. */
  "auth.registration_link_requested",
  /** Migration 0014: the accounts made before registrations had to confirm their address count as confirmed. */
  "auth.accounts_marked_confirmed",
  "auth.password_reset_requested",
  "auth.password_reset",
  "auth.password_changed",
  "auth.two_factor_enabled",
  "auth.two_factor_disabled",
  "auth.two_factor_failed",
  "auth.two_factor_reset",
  "auth.recovery_code_used",
  "auth.recovery_codes_regenerated",
  "auth.session_revoked",
  "user.status_changed",
  /** An existing account made an admin on the server (admin:create --promote): its password, sessions and two-factor replaced. */
  "user.promoted_to_admin",
  "document.uploaded",
  "document.deleted",
  /** A view or download that starts a file (what the access log records). */
  "document.accessed",
  /** An LP document's audience or watermark switch changed after upload. */
  "document.audience_changed",
  /** Reminder mails queued to the investors who have not opened a document. */
  "document.reminders_sent",
  /** A batch of per-investor documents published from a bulk upload. */
  "document.bulk_published",
  /** An investor's new-document e-mail preference changed (account page or one-click unsubscribe). */
  "user.document_mail_changed",
  /** An admin set or changed an investor's reference code. */
  "user.reference_code_set",
  "fund.access_granted",
  "fund.access_requested",
  "fund.token_validated",
  "fund.token_refused",
  "fund.access_revoked",
  "fund.link_resent",
  "email_list.exported",
  "email_list.copied",
  /** A newsletter subscriber confirmed the address through the e-mailed link (the consent record). */
  "newsletter.confirmed",
  /** A newsletter subscriber unsubscribed through the signed link (page or RFC 8058 one-click). */
  "newsletter.unsubscribed",
  /** The confirmed subscribers were read over GET /api/newsletter/subscribers. */
  "newsletter.subscribers_read",
  "audit.exported",
  /** The pitch inbox (issue 16): a pitch's status or owner changed, a note added, a reply sent, the list exported. */
  "pitch.status_changed",
  "pitch.owner_changed",
  "pitch.note_added",
  "pitch.replied",
  "pitch.exported",
  /** Refusals anyone can cause at will: the first per address and minute is a row, the rest one row with `count` (decision 030). */
  "request.cross_site_refused",
  "request.rate_limited",
  /** The hourly budget of refusal rows was used up: more refusals that hour are in the log only. */
  "audit.flood_budget_reached",
  /** An admin opened a pitch's uploaded deck (also on the pitch's timeline). */
  "pitch.deck_opened",
  /** Capital accounts (issue 24): investing entities, their members, and commitments. */
  "entity.created",
  "entity.member_added",
  "entity.member_removed",
  "commitment.created",
  "commitment.raised",
  /** The fund ledger: calls and distributions drafted, deleted while drafts, published; payments received. */
  "capital_call.drafted",
  "capital_call.draft_deleted",
  "capital_call.redrafted",
  "capital_call.published",
  "capital_call.payment_recorded",
  "distribution.drafted",
  "distribution.draft_deleted",
  "distribution.redrafted",
  "distribution.published",
  /** A fund's NAVs at a date imported (CSV or JSON). */
  "valuation.imported",
  /** A fund's payment instructions (bank details) set or changed, with a fresh two-factor code; every admin is mailed. */
  "fund.payment_instructions_changed",
  /** A fund's quarter published (statements frozen, its PDFs queued), reopened for a restatement; a PDF job finished (issue 25). */
  "statements.published",
  "statements.reopened",
  "statements.pdf_job_finished",
  /** A firm setting changed (e.g. the statements' watermark). */
  "firm_setting.changed",
  /** A fund's quarter of P&L rows imported from the fund administrator's CSV (issue 25), every row tied out. */
  "statements.pnl_imported",
  /** A fund's past calls, payments, distributions, valuations and P&L imported at once (issue 25 §5), without a mail. */
  "history.imported",
] as const;

export type AuditEventName = (typeof AUDIT_EVENTS)[number];

/** What each event is called on the activity page and in its export (a missing one is a type error here). */
export const auditEventLabels: Record<AuditEventName, string> = auditEventWords;

export function isAuditEvent(value: string): value is AuditEventName {
  return (AUDIT_EVENTS as readonly string[]).includes(value);
}

/** What an event can be about. */
export type AuditTargetType = "user" | "document" | "fund_access_request" | "email_list" | "audit_trail" | "pitch" | "newsletter_subscriber" | "entity" | "commitment" | "ledger_entry" | "fund" | "statement_quarter";
