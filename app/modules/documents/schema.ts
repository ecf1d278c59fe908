import { z } from "zod";
import { DESCRIPTION_MAX, LP_CATEGORIES, TITLE_MAX, uploadMessages } from "./constants";

const categoryValues = LP_CATEGORIES.map((c) => c.value) as [string, ...string[]];

/** The text fields of an upload form; `categories` lists the allowed values (LP or fund). */
export function uploadFieldsSchema<const C extends readonly [string, ...string[]]>(categories: C) {
  return z.object({
    title: z
      .string({ error: uploadMessages.titleRequired })
      .trim()
      .min(1, uploadMessages.titleRequired)
      .max(TITLE_MAX, uploadMessages.titleTooLong),
    description: z
      .string()
      .trim()
      .max(DESCRIPTION_MAX, uploadMessages.descriptionTooLong)
      .optional()
      .transform((v) => (v ? v : null)),
    category: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z
        .enum(categories, { error: uploadMessages.categoryInvalid })
        .optional()
        .transform((v) => v ?? "fund_documents"),
    ),
  });
}

/** LP document upload fields (SPEC.md §5). */
export const LpUploadFields = uploadFieldsSchema(categoryValues);
export type LpUploadFields = z.output<typeof LpUploadFields>;

/** Document ids are UUIDs; anything else is answered 404 without touching the database. */
export const DocumentId = z.uuid();
