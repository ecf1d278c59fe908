import { z } from "~/modules/validation/z";
import { FUND_IDS } from "../fund-access/constants";
import { uploadMessages } from "~/content/validation";
import { recipientEntityMessages } from "~/content/documents";
import { AUDIENCES, DEFAULT_CATEGORY, DESCRIPTION_MAX, FUND_CATEGORIES, LP_CATEGORIES, MAX_RECIPIENTS, TITLE_MAX } from "./constants";

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
      .max(TITLE_MAX, uploadMessages.titleTooLong(TITLE_MAX)),
    description: z
      .string()
      .trim()
      .max(DESCRIPTION_MAX, uploadMessages.descriptionTooLong(DESCRIPTION_MAX))
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

/** Empty values count as absent (a form's unchosen radio, an API client's blank field). */
const blankAsAbsent = (v: unknown) => (v === "" ? undefined : v);

/** A repeated field of ids: one value or many (forms, multipart), trimmed, blanks dropped, each once. */
function idList(max: number, tooMany: string) {
  return z
    .array(z.string().trim().max(64))
    .max(max, tooMany)
    .transform((ids) => [...new Set(ids.filter(Boolean))]);
}
const asList = (v: unknown) => (Array.isArray(v) ? v : [v]);

/**
 * Who an LP document is for and whether views are stamped (issue 15, issue 24
 * §2): `audience` all (default) | selected, `recipientIds` repeated (investor
 * user ids) and `recipientEntityIds` repeated (entity ids; every current member
 * reads it), both only read for 'selected'; `watermark` on | absent. Shared by
 * the upload and the audience change after upload. `recipientEntityIds` left
 * out is undefined: none for an upload, unchanged for an audience change (the
 * admin page's form names investors only); whether 'selected' then has anyone
 * is checked with the document's entities (documents.server.ts).
 */
export const AudienceFields = z
  .object({
    audience: z.preprocess(blankAsAbsent, z.enum(AUDIENCES, { error: uploadMessages.audienceInvalid }).optional().transform((v) => v ?? "all")),
    recipientIds: z.preprocess((v) => (v === undefined ? [] : asList(v)), idList(MAX_RECIPIENTS, uploadMessages.recipientsTooMany(MAX_RECIPIENTS))),
    recipientEntityIds: z.preprocess(
      (v) => (v === undefined ? undefined : asList(v)),
      idList(MAX_RECIPIENTS, recipientEntityMessages.tooMany(MAX_RECIPIENTS)).optional(),
    ),
    // "on" or absent from forms; JSON may say true or false.
    watermark: z.preprocess(
      (v) => (v === true ? "on" : v === false ? undefined : blankAsAbsent(v)),
      z.literal("on", { error: uploadMessages.watermarkInvalid }).optional().transform((v) => v === "on"),
    ),
  })
  .transform((v) => ({
    ...v,
    recipientIds: v.audience === "selected" ? v.recipientIds : [],
    recipientEntityIds: v.audience === "selected" ? v.recipientEntityIds : [],
  }))
  .refine((v) => v.audience === "all" || v.recipientIds.length > 0 || v.recipientEntityIds === undefined || v.recipientEntityIds.length > 0, {
    message: uploadMessages.recipientsRequired,
    path: ["recipientIds"],
  });
export type AudienceFields = z.output<typeof AudienceFields>;

/**
 * PATCH /api/documents/{id} (JSON): only what changes, in JSON's own types; a
 * field left out keeps its value (the route merges, then AudienceFields checks
 * the whole). A blank or null value is a mistake, never "the default".
 */
export const AudiencePatch = z.object({
  audience: z.enum(AUDIENCES, { error: uploadMessages.audienceInvalid }).optional(),
  recipientIds: z.array(z.string({ error: uploadMessages.recipientsInvalid(1) }), { error: uploadMessages.recipientsInvalid(1) }).optional(),
  recipientEntityIds: z
    .array(z.string({ error: recipientEntityMessages.invalid(1) }), { error: recipientEntityMessages.invalid(1) })
    .optional(),
  watermark: z.boolean({ error: uploadMessages.watermarkInvalid }).optional(),
});

/** LP document upload fields: the seven LP categories, and the audience. */
export const LpUploadFields = z.intersection(uploadFieldsSchema(LP_CATEGORIES), AudienceFields);
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
