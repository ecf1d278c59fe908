import { z } from "~/modules/validation/z";
import { activityFilterMessages as m } from "~/content/activity";
import { AUDIT_EVENTS } from "./events";

/**
 * The activity page's filters, read from its GET query (and the CSV export's):
 * an event name, an actor (an e-mail, or 'visitor'), a target (an e-mail,
 * title or id), and a range of UTC days. Empty fields are no filter.
 */

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const emptyToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

function isRealDay(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

const day = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .trim()
    .refine((v) => DAY.test(v) && isRealDay(v), m.date)
    .optional(),
);

export const ActivityFilters = z
  .object({
    event: z.preprocess(emptyToUndefined, z.enum(AUDIT_EVENTS, { error: m.event }).optional()),
    actor: z.preprocess(emptyToUndefined, z.string().trim().toLowerCase().max(254, m.actor).optional()),
    target: z.preprocess(emptyToUndefined, z.string().trim().max(200, m.target).optional()),
    from: day,
    to: day,
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, {
    message: m.range,
    path: ["to"],
    // Checked whenever both days are good, whatever else is wrong, so every message shows at once.
    when: ({ value }) => {
      const days = value as { from?: unknown; to?: unknown };
      return day.safeParse(days.from).success && day.safeParse(days.to).success;
    },
  });

export type ActivityFilters = z.output<typeof ActivityFilters>;

/** A position in the newest-first list: the time and id of a row. */
export type ActivityCursor = { at: number; id: number };

const CURSOR = /^(\d{1,15})\.(\d{1,15})$/;

export function parseCursor(value: string | null): ActivityCursor | null {
  const match = CURSOR.exec(value ?? "");
  return match ? { at: Number(match[1]), id: Number(match[2]) } : null;
}

export function formatCursor(cursor: ActivityCursor): string {
  return `${cursor.at}.${cursor.id}`;
}

/** The filter names in the query, in the form's order (paging and export links keep them). */
export const FILTER_PARAMS = ["event", "actor", "target", "from", "to"] as const;
