import { bulkPreviewCopy, bulkUploadCopy, bulkUploadMessageTexts, type BulkLimits } from "~/content/bulk-upload";
import { BULK_BATCH_TTL_MS, BULK_MAX_FILE_BYTES, BULK_MAX_FILES, BULK_MAX_TOTAL_BYTES, type FileProblem } from "./constants";

/**
 * The bulk upload's texts that state its limits, with this module's own numbers
 * (content takes them as parameters: content imports no module). Zod-free.
 */
export const BULK_LIMITS: BulkLimits = {
  maxFiles: BULK_MAX_FILES,
  fileMb: BULK_MAX_FILE_BYTES / (1024 * 1024),
  totalGb: BULK_MAX_TOTAL_BYTES / (1024 * 1024 * 1024),
  ttlHours: BULK_BATCH_TTL_MS / (60 * 60 * 1000),
};

export const bulkUploadMessages = bulkUploadMessageTexts(BULK_LIMITS);
export const bulkFilesHint = bulkUploadCopy.filesHint(BULK_LIMITS);
/** Every reason a file is held back has its words (a missing one is a type error here). */
export const FILE_PROBLEM_LABELS: Record<FileProblem, string> = bulkPreviewCopy.problems;
