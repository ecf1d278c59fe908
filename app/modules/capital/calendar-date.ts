import { z } from "~/modules/validation/z";
import { dayNumber } from "./xirr";

/**
 * Calendar dates (DESIGN.md §10): 'YYYY-MM-DD' in JSON and in the database,
 * a real day of the Gregorian calendar; "today", "due" and "overdue" are
 * decided in Europe/Zurich by the callers that need them.
 */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== "string") return false;
  try {
    dayNumber(value);
    return true;
  } catch {
    return false;
  }
}

/** A zod field for a calendar date, with the caller's message. */
export function calendarDateSchema(message: string) {
  return z.unknown().refine(isCalendarDate, { message }).transform((value) => value as string);
}
