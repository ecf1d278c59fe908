import { z } from "zod";
import { FUND_CATEGORIES } from "../documents/constants";
import { uploadFieldsSchema } from "../documents/schema";
import { FUND_IDS } from "../fund-access/constants";

const fundCategoryValues = FUND_CATEGORIES.map((c) => c.value) as [string, ...string[]];

/** Fund document upload fields (SPEC.md §5): the LP rules, the five fund categories, and fundId (default fund-ii). */
export const FundUploadFields = uploadFieldsSchema(fundCategoryValues).extend({
  fundId: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z
      .enum(FUND_IDS, { error: "Fund must be fund-i or fund-ii" })
      .optional()
      .transform((v) => v ?? "fund-ii"),
  ),
});
export type FundUploadFields = z.output<typeof FundUploadFields>;
