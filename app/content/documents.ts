/**
 * Copy of the document screens (SPEC.md §2, §8): the investor list, the admin
 * upload form, the published documents panel and a document's access history.
 * The upload rules' messages are in ./validation.ts.
 */

export const investorDocumentsCopy = {
  title: "Documents",
  intro: "Fund reports, updates and research shared with our limited partners.",
  emptyAll: "No documents available yet",
  emptyCategory: "No documents in this category yet",
  loadError: "Failed to load documents. Please try refreshing the page.",
  view: "View",
  download: "Download",
  /** Accessible names of the buttons, e.g. "View Q3 2026 Report". */
  viewLabel: (title: string) => `View ${title}`,
  downloadLabel: (title: string) => `Download ${title}`,
  opensInNewTab: "(opens in a new tab)",
  listLabel: "Documents by category",
  documentCount: (n: number) => (n === 1 ? "1 document" : `${n} documents`),
} as const;

export const documentToasts = {
  downloadStarted: { title: "Download started" },
  downloadFailed: { title: "Download failed", description: "Could not download the file" },
  uploaded: { title: "Document uploaded", description: "The document has been uploaded successfully" },
  uploadFailed: { title: "Upload failed" },
  deleted: { title: "Document deleted", description: "The document has been deleted successfully" },
  deleteFailed: { title: "Delete failed" },
} as const;

export const uploadFormCopy = {
  title: "Upload LP document",
  intro: "PDF, Word, Excel or PowerPoint, up to 50 MB.",
  titleLabel: "Title",
  descriptionLabel: "Description (optional)",
  categoryLabel: "Category",
  fileLabel: "File",
  fileHint: "PDF, Word, Excel or PowerPoint (.pdf, .doc, .docx, .xls, .xlsx, .ppt, .pptx), at most 50 MB.",
  submit: "Upload Document",
  submitting: "Uploading...",
  progressLabel: "Upload progress",
  progressText: (sentMb: string, totalMb: string) => `${sentMb} of ${totalMb} sent`,
} as const;

export const publishedDocumentsCopy = {
  title: "Published LP documents",
  emptyCategory: "No documents in this category",
  loadFailedTitle: "Failed to load documents",
  loadFailedDescription: "Could not fetch documents from the server",
  view: "View",
  delete: "Delete",
  deleting: "Deleting...",
  confirmDelete: "Are you sure you want to delete this document?",
  confirmButton: "Delete document",
  cancel: "Cancel",
  documentGone: "This document no longer exists.",
  views: (n: number) => (n === 1 ? "1 view" : `${n} views`),
  downloads: (n: number) => (n === 1 ? "1 download" : `${n} downloads`),
  lastAccess: (when: string) => `last opened ${when}`,
  neverOpened: "not opened yet",
  history: "Access history",
} as const;

export const accessHistoryCopy = {
  title: "Access history",
  back: "Back to the LP documents",
  summary: (views: number, downloads: number) =>
    `${views === 1 ? "1 view" : `${views} views`} · ${downloads === 1 ? "1 download" : `${downloads} downloads`}`,
  empty: "Nobody has viewed or downloaded this document yet.",
  showing: (shown: number, total: number) => `Showing the latest ${shown} of ${total} accesses.`,
  columns: { when: "When", who: "Who", action: "Action", ip: "IP address", browser: "Browser" },
  actions: { view: "Viewed", download: "Downloaded" },
  unknownUser: "Deleted user",
  notRecorded: "Not recorded",
  caption: (title: string) => `Accesses of ${title}, newest first`,
  tableLabel: "Access history table",
  timesInUtc: "Times are in UTC.",
} as const;
