import { publishedDocumentsCopy } from "./documents";

/**
 * Copy of the admin's 'Potential Investor Management (Fund II)'
 * section (SPEC.md §2, §8): the fund access requests, the fund document
 * upload form and the published fund documents panels.
 */

type FundKey = "fund-i" | "fund-ii";

export const fundAdminCopy = {
  section: "Potential Investor Management (Fund II)",
  fundNames: { "fund-i": "Deeptech Fund I", "fund-ii": "Deeptech Fund II" } satisfies Record<FundKey, string>,
  fundBadges: { "fund-i": "Fund I", "fund-ii": "Fund II" } satisfies Record<FundKey, string>,
  /** Neither fund has a published document: one line instead of each fund's empty categories. */
  noDocuments: { title: "Published fund documents", text: "No fund documents yet.", action: "Upload a fund document" },
  /** One fund has documents, this one none. */
  noFundDocuments: (fund: string) => `No ${fund} documents yet.`,
} as const;

export const fundAccessListCopy = {
  title: "Fund Access Requests",
  intro: "Everyone who asked for the fund documents. Fund II access comes as an e-mailed link; revoking a request stops its link at once.",
  empty: "No fund access requests yet",
  columns: { name: "Name", fund: "Fund", email: "Email", confirmation: "Confirmation", requested: "Requested", actions: "Actions" },
  error: "Failed to load fund access requests. Please try refreshing the page.",
  total: (count: number) => `${count} total`,
  accredited: "\u2713 Accredited investor confirmed",
  notAccredited: "\u26a0 Not confirmed",
  revokedBadge: "Revoked",
  /** Dates and times are 'MMM dd, yyyy HH:mm' in UTC. */
  requested: (when: string) => `Requested ${when} UTC`,
  revokedOn: (when: string) => `Access revoked ${when} UTC`,
  revoke: "Revoke access",
  revoking: "Revoking...",
  resend: "Send new link",
  resending: "Sending...",
  confirmTitle: "Please confirm",
  confirmRevoke: (name: string, fundName: string) => `Revoke ${name}'s access to the ${fundName} documents?`,
  confirmRevokeDetail: "Their access link and any browser that used it stop working at once. You can send a new link later.",
  cancel: "Cancel",
  requestGone: "This access request no longer exists; nothing was changed.",
  alreadyRevoked: (name: string) => `${name}'s access is already revoked; nothing was changed.`,
} as const;

export const fundAccessToasts = {
  revoked: (name: string) => ({ title: "Access revoked", description: `${name}'s access to the fund documents has been revoked.` }),
  linkSent: (name: string) => ({ title: "Link sent", description: `${name} will receive a new access link.` }),
  revokeFailed: { title: "Update failed" },
  resendFailed: { title: "Link not sent" },
} as const;

export const fundDocumentToasts = {
  uploaded: { title: "Fund document uploaded", description: "The fund document has been uploaded successfully" },
  uploadFailed: { title: "Upload failed" },
  deleted: { title: "Fund document deleted", description: "The fund document has been deleted successfully" },
  deleteFailed: { title: "Delete failed" },
} as const;

export const fundUploadFormCopy = {
  title: "Upload Fund II document",
  intro: "Shown on the fund's documents page to everyone with access. PDF, Word, Excel or PowerPoint, up to 50 MB.",
  titleLabel: "Title",
  descriptionLabel: "Description (optional)",
  categoryLabel: "Category",
  fundLabel: "Fund",
  fileLabel: "File",
  fileHint: "PDF, Word, Excel or PowerPoint (.pdf, .doc, .docx, .xls, .xlsx, .ppt, .pptx), at most 50 MB.",
  submit: "Upload Fund Document",
  submitting: "Uploading...",
  progressLabel: "Upload progress",
  progressText: (sentMb: string, totalMb: string) => `${sentMb} of ${totalMb} sent`,
} as const;

/** The two published fund documents panels: Fund II (the active fund) first, then Fund I. */
export const publishedFundDocumentsCopy = {
  "fund-ii": {
    ...publishedDocumentsCopy,
    title: "Published Fund II documents",
    confirmDelete: "Delete this fund document?",
    confirmButton: "Delete fund document",
    documentGone: "This fund document no longer exists.",
  },
  "fund-i": {
    ...publishedDocumentsCopy,
    title: "Published Fund I documents",
    confirmDelete: "Delete this fund document?",
    confirmButton: "Delete fund document",
    documentGone: "This fund document no longer exists.",
  },
} as const;

export const publishedFundListLabels = {
  "fund-ii": "Published Fund II documents by category",
  "fund-i": "Published Fund I documents by category",
} as const satisfies Record<FundKey, string>;
