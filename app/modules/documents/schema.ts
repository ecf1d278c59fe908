import { z } from "zod";
import { FUND_IDS } from "../fund-access/constants";
import { uploadMessages } from "~/content/validation";
import { DEFAULT_CATEGORY, DESCRIPTION_MAX, FUND_CATEGORIES, LP_CATEGORIES, TITLE_MAX } from "./constants";

type Categories = readonly { value: string }[];

function categoryValues(categories: Categories): [string, ...string[]] {
  return categories.map((c) => c.value) as [string, ...string[]];
}

/** The text fields every upload form has (SPEC.md §5); `categories` are the ones its scope allows. */
function uploadFieldsSchema(categories: Categories) {
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
        .enum(categoryValues(categories), { error: uploadMessages.categoryInvalid })
        .optional()
        .transform((v) => v ?? DEFAULT_CATEGORY),
    ),
  });
}

/** LP document upload fields: the seven LP categories. */
export const LpUploadFields = uploadFieldsSchema(LP_CATEGORIES);
export type LpUploadFields = z.output<typeof LpUploadFields>;

/** Fund document upload fields: the five fund categories, and fundId (default fund-ii). */
export const FundUploadFields = uploadFieldsSchema(FUND_CATEGORIES).extend({
  fundId: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z
      .enum(FUND_IDS, { error: uploadMessages.fundInvalid })
      .optional()
      .transform((v) => v ?? "fund-ii"),
  ),
});
export type FundUploadFields = z.output<typeof FundUploadFields>;

/** Document ids are UUIDs; anything else is answered 404 without touching the database. */
export const DocumentId = z.uuid();
