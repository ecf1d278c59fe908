import { z } from "~/modules/validation/z";
import { LpUploadFields } from "../documents/schema";
import { BATCH_ID_PATTERN, FILE_PROBLEMS } from "./constants";

/**
 * The bulk upload form's text fields, read by the LP upload's rules: title,
 * description, category and the watermark checkbox (the receiver keeps no
 * other field, so the audience is always the default, and each file's own
 * investor is set when it is published).
 */
export const BulkUploadFields = LpUploadFields;

export const BatchId = z.string().regex(BATCH_ID_PATTERN);

/** One file of a staged batch. */
export const BatchFile = z.object({
  /** The name the browser sent, as it was. */
  clientName: z.string(),
  /** The name shown and given to the document (cleaned; ".pdf" for a PDF). */
  fileName: z.string(),
  size: z.number().int().nonnegative(),
  /** Its file in the batch folder; null when it was refused and removed (empty, not a PDF). */
  storedName: z.string().regex(/^[0-9a-f]{32}$/).nullable(),
  /** The investor it matched, or null with the problem. */
  userId: z.string().nullable(),
  problem: z.enum(FILE_PROBLEMS).nullable(),
  /** For an ambiguous file: every investor it matched. */
  candidates: z.array(z.string()).optional(),
});
export type BatchFile = z.infer<typeof BatchFile>;

/** The manifest of a staged batch (`STORAGE_DIR/staging/<batchId>/manifest.json`). */
export const BatchManifest = z.object({
  version: z.literal(1),
  batchId: BatchId,
  createdAt: z.iso.datetime(),
  createdBy: z.string(),
  fields: z.object({ title: z.string(), description: z.string().nullable(), category: z.string(), watermark: z.boolean() }),
  files: z.array(BatchFile),
});
export type BatchManifest = z.infer<typeof BatchManifest>;
