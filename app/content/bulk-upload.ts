/**
 * Copy of the bulk per-investor upload (issue 15 §1): the upload page, the
 * preview of a batch and its answers. The texts that state a limit take it as
 * a parameter: the module fills in its own constants (modules/bulk-upload/
 * messages.ts), so the texts never disagree with the rules.
 */

/** The batch limits the texts state. */
export type BulkLimits = { maxFiles: number; fileMb: number; totalGb: number; ttlHours: number };

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

export const bulkUploadCopy = {
  title: "Bulk upload per-investor documents",
  intro:
    "For quarterly statements and other documents meant for one investor each: choose all the PDFs at once. Each file goes to the approved investor whose reference code or e-mail address appears in its name, for example Q3-2026-LRV-0042.pdf or statement_jane.doe@example.com.pdf. Nothing is published before you have checked the list on the next page.",
  linkFromDocuments: "Bulk upload per-investor PDFs",
  back: "Back to the LP documents",
  titleLabel: "Title",
  titleHint: "Given to every document of the batch, e.g. Capital account statement Q3 2026.",
  descriptionLabel: "Description (optional)",
  categoryLabel: "Category",
  watermarkLabel: "Stamp the viewer's name and e-mail on every page",
  filesLabel: "PDF files",
  filesHint: (l: BulkLimits) =>
    `PDF only. At most ${l.maxFiles} files, each up to ${l.fileMb} MB, ${l.totalGb} GB in all. Matching ignores case and needs the code or address whole: LRV-004 does not match LRV-0042. A batch not published within ${l.ttlHours} hours is deleted.`,
  submit: "Upload and review",
  limitsTitle: "Limits",
  failedTitle: "Upload refused",
} as const;

/** The batch's answers, made with the module's limits (modules/bulk-upload/messages.ts `bulkUploadMessages`). */
export const bulkUploadMessageTexts = (l: BulkLimits) => ({
  filesRequired: "Choose at least one PDF file",
  fileTooLarge: (name: string) => (name ? `${name} is larger than ${l.fileMb} MB` : `A file is larger than ${l.fileMb} MB`),
  tooManyFiles: `A batch can have at most ${l.maxFiles} files`,
  tooLarge: `A batch can be at most ${l.totalGb} GB in all`,
  batchGone: `This batch no longer exists: it was published or cancelled, or it expired after ${l.ttlHours} hours.`,
  batchChanged: "The batch changed since this page was shown (an investor's access changed). Please review it again.",
  nothingToPublish: "No file of this batch can be published.",
});

export const bulkPreviewCopy = {
  title: "Review the batch",
  intro: "Check who receives each file. Only the matched files are published, each visible to its investor alone.",
  uploadedAt: (when: string) => `Uploaded ${when} (UTC)`,
  fields: {
    title: "Title",
    category: "Category",
    description: "Description",
    watermark: "Watermark",
    watermarkOn: "Each page stamped with the viewer's name and e-mail",
    watermarkOff: "No stamp",
    noDescription: "None",
  },
  summary: (matched: number, refused: number) =>
    `${plural(matched, "file matches", "files match")} an investor${refused > 0 ? `; ${plural(refused, "file", "files")} will not be published` : ""}.`,
  caption: "Files of the batch and the investor each one goes to",
  columns: { file: "File", size: "Size", investor: "Investor", code: "Reference code", outcome: "Outcome" },
  willPublish: "Will be published",
  noCode: "None",
  problems: {
    "no-match": "Not published: no investor matches",
    ambiguous: "Not published: more than one investor matches",
    "not-pdf": "Not published: not a PDF",
    "not-stampable": "Not published: this PDF cannot be stamped (encrypted or damaged)",
    empty: "Not published: the file is empty",
    "investor-gone": "Not published: the file names an account that may not receive documents (not an approved investor)",
  },
  ambiguousWith: (emails: string[]) => `Matches ${emails.join(", ")}`,
  publish: (n: number) => `Publish ${plural(n, "document", "documents")}`,
  cancel: "Cancel",
  nothing: "No file of this batch matches an investor. Cancel it, rename the files and upload them again.",
  notFoundTitle: "Batch not found",
  backToUpload: "Back to the bulk upload",
} as const;

export const bulkUploadToasts = {
  published: (n: number) => ({ title: "Documents published", description: `${plural(n, "document was", "documents were")} published, each to its investor.` }),
  cancelled: { title: "Upload cancelled", description: "Nothing was published and the files were deleted." },
  publishFailed: { title: "Publishing failed" },
} as const;
