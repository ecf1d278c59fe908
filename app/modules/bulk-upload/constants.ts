import { MAX_UPLOAD_BYTES } from "../documents/constants";

/**
 * The bulk per-investor upload's limits (issue 15 §1), shared by the page,
 * the receiver and server/app.ts's body limit. Zod-free, no server imports.
 */

/** Each file, as for a single upload: 50 MB. */
export const BULK_MAX_FILE_BYTES = MAX_UPLOAD_BYTES;
/** Files in one batch. */
export const BULK_MAX_FILES = 500;
/** All files of one batch together: 1 GiB. */
export const BULK_MAX_TOTAL_BYTES = 1024 * 1024 * 1024;
/** Room for the multipart framing of BULK_MAX_FILES parts and the text fields. */
export const BULK_MULTIPART_OVERHEAD_BYTES = 4 * 1024 * 1024;
/**
 * The server's hard ceiling for a bulk upload's body (server/app.ts): above
 * what the app accepts, so the app, not the transport, answers a batch over
 * its limits with the page's message.
 */
export const BULK_UPLOAD_BODY_LIMIT = BULK_MAX_TOTAL_BYTES + 64 * 1024 * 1024;
/** A staged batch not published or cancelled within this time is removed. */
export const BULK_BATCH_TTL_MS = 24 * 60 * 60 * 1000;

/** What the file picker offers. */
export const BULK_ACCEPT = ".pdf,application/pdf";

/** A batch id: 32 lower-case hex digits (it names a folder). */
export const BATCH_ID_PATTERN = /^[0-9a-f]{32}$/;

/** Why a file of a batch will not be published. */
export const FILE_PROBLEMS = ["no-match", "ambiguous", "not-pdf", "not-stampable", "empty", "investor-gone"] as const;
export type FileProblem = (typeof FILE_PROBLEMS)[number];

/** The bulk upload page (also the form's target); a batch's preview is below it. */
export const BULK_UPLOAD_PATH = "/admin/documents/bulk";

export function bulkBatchPath(batchId: string): string {
  return `${BULK_UPLOAD_PATH}/${batchId}`;
}

/** Under this id the upload form's refusal is shown (the page renders the action's answer). */
export const BULK_UPLOAD_FORM_ID = "bulk-upload";
