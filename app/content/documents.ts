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

/** The documents page's list (issue 23): the published documents as a table, the upload on its own page. */
export const documentsListCopy = {
  intro: "Documents for your limited partners: who each one is for, and who has opened it.",
  upload: "Upload",
  bulkUpload: "Bulk upload",
  tableLabel: "Published LP documents",
  columns: { title: "Title", category: "Category", audience: "Audience", opened: "Opened", uploaded: "Uploaded", actions: "Actions" },
  /** 'Opened' cell: investors of the audience who opened it, of how many. */
  opened: (opened: number, of: number) => `${opened} of ${of}`,
  categoryTabs: "Categories",
  allCategories: "All",
  empty: "No documents yet.",
  viewFile: "View file",
  /** The upload page (/admin/documents/upload). */
  uploadIntro: "PDF, Word, Excel or PowerPoint, up to 50 MB. It is published as soon as it is uploaded.",
  bulkHint: "Per-investor PDFs, such as quarterly statements, many at once:",
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
  timesInUtc: "Times are in UTC.",
} as const;

/** Who an LP document is for, its watermark switch, and who has read it (issue 15). */
export const audienceCopy = {
  legend: "Who can see it",
  all: "All approved investors",
  allHint: "Every approved investor, now and later.",
  selected: "Selected investors",
  selectedHint: "Only the investors ticked below, e.g. for a capital account statement or a capital call notice.",
  pickerLegend: "Investors",
  searchLabel: "Find investors",
  searchHint: "Name, e-mail, company or reference code. Ticked investors stay ticked.",
  searchButton: "Search",
  noMatches: "No approved investor matches that search.",
  more: (shown: number) => `Showing the first ${shown} matches; search to narrow them down.`,
  notApproved: "Not approved now: keeps their place, sees it once approved again",
  chosen: (n: number) => (n === 1 ? "1 investor ticked" : `${n} investors ticked`),
  watermark: "Stamp the viewer's name and e-mail on every page",
  watermarkHint: "PDFs only. Each investor's view and download is a copy stamped with their name, e-mail and the time; the stored file never changes.",
  /** The documents page's summary of a document's audience. */
  summaryAll: "All approved investors",
  summarySelected: (n: number) => (n === 1 ? "1 selected investor" : `${n} selected investors`),
  watermarked: "Stamped",
  openedBy: (opened: number, of: number) => `Opened by ${opened} of ${of}`,
  manage: "Audience and read status",
  manageOf: (title: string) => `Audience and read status of ${title}`,
} as const;

export const readStatusCopy = {
  audienceTitle: "Audience",
  audienceIntro: "Change who can see this document. Investors who lose it get 'not found' from their next request on.",
  save: "Save audience",
  saving: "Saving…",
  saved: { title: "Audience saved" },
  saveFailed: { title: "Could not save the audience" },
  title: "Read status",
  filters: { all: "Everyone", opened: "Opened", unopened: "Not yet" },
  filterLabel: "Show",
  columns: { investor: "Investor", reference: "Reference", viewed: "Viewed", downloaded: "Downloaded" },
  notYet: "Not yet",
  empty: "Nobody in this view.",
  caption: (title: string) => `Who of the audience has opened ${title}`,
  remind: "Remind those who haven't opened it",
  reminding: "Sending reminders…",
  remindHint: "Each investor gets at most one reminder about this document a day.",
  reminded: (queued: number, skipped: number) => ({
    title: queued === 1 ? "1 reminder sent" : `${queued} reminders sent`,
    description: skipped === 0 ? "" : skipped === 1 ? "1 investor was reminded less than 24 hours ago." : `${skipped} investors were reminded less than 24 hours ago.`,
  }),
  remindFailed: { title: "Could not send reminders" },
  nobodyToRemind: "Everyone in the audience has opened it.",
} as const;

/** Documents addressed to entities (issue 24 §2): the upload's and the audience change's messages about the chosen entities. */
export const recipientEntityMessages = {
  invalid: (count: number) => (count === 1 ? "One chosen entity does not exist" : `${count} chosen entities do not exist`),
  tooMany: (max: number) => `Choose at most ${max.toLocaleString("en-US")} entities, or publish to all approved investors`,
} as const;
