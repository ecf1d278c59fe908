/**
 * Document rules shared by the server and the browser (zod-free, so forms can
 * check before sending without loading a validation library). SPEC.md §3, §5, §9.
 * Their messages are in content/validation.ts.
 * One set of rules for LP and fund documents; where they differ (categories,
 * the fundId field) the difference is data here.
 */

export const LP_CATEGORIES = [
  { value: "fund_documents", label: "Fund Documents" },
  { value: "executive_summary", label: "Executive Summary" },
  { value: "pitchdeck", label: "Pitch Deck" },
  { value: "newsletters", label: "Newsletters" },
  { value: "reports", label: "Reports" },
  { value: "portfolio_company_news", label: "Portfolio Company News" },
  { value: "research", label: "Research" },
] as const;

export type LpCategory = (typeof LP_CATEGORIES)[number]["value"];

/** Fund document categories: a subset of the LP ones (SPEC.md §3). */
export const FUND_CATEGORIES = LP_CATEGORIES.filter((c) =>
  ["fund_documents", "executive_summary", "pitchdeck", "newsletters", "research"].includes(c.value),
);

export const DEFAULT_CATEGORY = "fund_documents" satisfies LpCategory;

/** The form ids under which the no-JavaScript upload outcome comes back (form flash). */
export const LP_UPLOAD_FORM_ID = "lp-upload";
/** The LP upload form's own page (its no-JavaScript post goes to /admin/documents, which redirects back here when refused). */
export const LP_UPLOAD_PATH = "/admin/documents/upload";
export const FUND_UPLOAD_FORM_ID = "fund-upload";

/** 50 MB, in bytes (an upload of exactly this size is accepted). */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

/** What the file picker offers. */
export const UPLOAD_ACCEPT = ".pdf,.doc,.docx,.xls,.xlsx,.ppt,.pptx";

export const TITLE_MAX = 200;

/** Who an LP document is for: every approved investor, or the chosen ones (document_recipients). */
export const AUDIENCES = ["all", "selected"] as const;
export type Audience = (typeof AUDIENCES)[number];
/** At most this many chosen investors per document (more: publish to all approved investors). */
export const MAX_RECIPIENTS = 2000;
/** The access page's forms: the audience (its outcome comes back under this form id) and the reminder. */
export const AUDIENCE_FORM_ID = "document-audience";
export const SET_AUDIENCE_INTENT = "set-audience";
export const REMIND_INTENT = "remind-unopened";
/** The body limit of an audience change (JSON or form): room for MAX_RECIPIENTS ids (about 80 KB). */
export const AUDIENCE_BODY_BYTES = 256 * 1024;
export const DESCRIPTION_MAX = 2000;

/** Bytes as megabytes with 2 decimals (SPEC.md §9), e.g. "1.25 MB". */
export function formatMegabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
}

export function categoryLabel(value: string): string {
  return LP_CATEGORIES.find((c) => c.value === value)?.label ?? value;
}
