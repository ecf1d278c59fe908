import type { AuditEventName } from "~/modules/audit/events";

/** The admin activity page (/admin/activity): the audit trail, its filters and its export. */
export const activityCopy = {
  title: "Activity",
  intro: "Who did what, when and from where: sign-ins, account changes, documents, fund access and exports.",
  filters: {
    label: "Filter activity",
    event: "Event",
    anyEvent: "All events",
    actor: "Actor",
    actorHint: "An e-mail address, or 'visitor' for people who were not signed in.",
    target: "Target",
    targetHint: "An e-mail address, a document title or an id.",
    from: "From",
    to: "To",
    submit: "Filter",
    clear: "Clear filters",
  },
  export: "Download CSV",
  exportHint: "Every event that matches the filters, as a spreadsheet.",
  caption: "Activity, newest first",
  tableLabel: "Activity table",
  timesInUtc: "Times are in UTC.",
  columns: { when: "When", event: "Event", actor: "Actor", target: "Target", from: "From", details: "Details" },
  visitor: "Visitor",
  none: "—",
  notRecorded: "Not recorded",
  requestId: "Request",
  empty: "No activity has been recorded yet.",
  noMatch: "No activity matches these filters.",
  paging: { label: "Activity pages", newest: "Newest events" },
  invalid: "Some filters could not be used. Correct them and filter again.",
} as const;

/** What each event is called on the activity page and in its export. */
export const auditEventLabels: Record<AuditEventName, string> = {
  "auth.sign_in": "Signed in",
  "auth.sign_in_failed": "Sign-in failed",
  "auth.sign_out": "Signed out",
  "auth.register": "Requested investor access",
  "auth.password_reset_requested": "Requested a password reset",
  "auth.password_reset": "Reset the password",
  "user.status_changed": "Changed an investor's status",
  "document.uploaded": "Uploaded a document",
  "document.deleted": "Deleted a document",
  "document.accessed": "Opened a document",
  "fund.access_granted": "Fund I access granted",
  "fund.access_requested": "Fund II access requested",
  "fund.token_validated": "Fund access link used",
  "fund.token_refused": "Fund access link refused",
  "fund.access_revoked": "Revoked fund access",
  "fund.link_resent": "Resent a fund access link",
  "email_list.exported": "Downloaded an e-mail list",
  "email_list.copied": "Copied an e-mail list",
  "audit.exported": "Exported the activity",
  "request.cross_site_refused": "Cross-site request refused",
  "request.rate_limited": "Rate limit reached",
};

/** Field messages of the activity filters. */
export const activityFilterMessages = {
  event: "Choose an event from the list.",
  actor: "Enter an e-mail address or 'visitor' (at most 254 characters).",
  target: "Enter at most 200 characters.",
  date: "Enter a date as YYYY-MM-DD.",
  range: "The start date must be on or before the end date.",
  cursor: "This page link is not valid. Start again from the newest events.",
} as const;
