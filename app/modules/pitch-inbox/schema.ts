import { z } from "~/modules/validation/z";
import { pitchFilterMessages as fm, pitchMessages as m } from "~/content/pitch-inbox";
import { PITCH_STAGES } from "../pitches/constants";

/**
 * The pitch inbox's inputs, validated at the edge (pages and JSON alike): the list's
 * filters (query parameters), a status / owner change, a note and a reply.
 */

export const PITCH_STATUS_VALUES = ["new", "in_review", "partner_call", "passed", "invested"] as const;
export type PitchStatus = (typeof PITCH_STATUS_VALUES)[number];

/** Rows on a page of the list (page and JSON). */
export const PITCH_PAGE_SIZE = 25;
export const PITCH_QUERY_MAX = 100;
export const SUBJECT_MAX = 200;
export const BODY_MAX = 10_000;
export const NOTE_MAX = 5_000;

/** The filters' query parameters, in the order the form shows them. */
export const PITCH_FILTER_PARAMS = ["q", "status", "stage", "owner", "overdue"] as const;

const blankToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

/**
 * The list's filters from query parameters (each a string; empty means "any"):
 * status, stage, owner (an admin's id, or "none"), overdue ("1"/"true"), q and page.
 * Whether an owner id is an admin's is checked by the list itself.
 */
export const PitchFilters = z.object({
  status: z.preprocess(blankToUndefined, z.enum(PITCH_STATUS_VALUES, { error: fm.status }).optional()),
  stage: z.preprocess(blankToUndefined, z.enum(PITCH_STAGES, { error: fm.stage }).optional()),
  owner: z.preprocess(
    blankToUndefined,
    z.string({ error: fm.owner }).max(100, fm.owner).regex(/^[\w-]+$/, fm.owner).optional(),
  ),
  overdue: z.preprocess(
    blankToUndefined,
    z
      .enum(["1", "true", "0", "false"], { error: fm.overdue })
      .optional()
      .transform((value) => value === "1" || value === "true"),
  ),
  q: z.preprocess(
    (value) => (typeof value === "string" ? value.trim().replace(/\s+/g, " ") : value),
    z.string({ error: fm.q }).max(PITCH_QUERY_MAX, fm.q).optional(),
  ),
  page: z.preprocess(
    blankToUndefined,
    z
      .string({ error: fm.page })
      .regex(/^\d{1,9}$/, fm.page)
      .transform(Number)
      .pipe(z.number().int().min(1, fm.page))
      .optional(),
  ),
});
export type PitchFilters = z.output<typeof PitchFilters>;

/** PATCH /api/pitches/:id: a new status, a new owner (null: nobody), or both. */
export const PitchPatch = z
  .object({
    status: z.enum(PITCH_STATUS_VALUES, { error: m.status }).optional(),
    ownerId: z.string({ error: m.owner }).min(1, m.owner).max(100, m.owner).nullable().optional(),
  })
  .refine((patch) => patch.status !== undefined || patch.ownerId !== undefined, { message: m.nothingToChange });
export type PitchPatch = z.output<typeof PitchPatch>;

/** A reply to the founder: a one-line subject and a text. */
export const ReplyInput = z.object({
  subject: z
    .string({ error: m.subject })
    .trim()
    .min(1, m.subject)
    .max(SUBJECT_MAX, m.subject)
    .refine((value) => !/[\r\n\u2028\u2029]/.test(value), { message: m.subject }),
  body: z
    .string({ error: m.body })
    .refine((value) => value.trim().length > 0, { message: m.body })
    .transform((value) => value.replace(/\r\n?/g, "\n"))
    .refine((value) => value.length <= BODY_MAX, { message: m.body }),
});
export type ReplyInput = z.output<typeof ReplyInput>;

/** An internal note. */
export const NoteInput = z.object({
  note: z
    .string({ error: m.note })
    .trim()
    .transform((value) => value.replace(/\r\n?/g, "\n"))
    .pipe(z.string().min(1, m.note).max(NOTE_MAX, m.note)),
});
