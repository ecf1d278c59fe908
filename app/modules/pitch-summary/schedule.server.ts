import { TZDate } from "@date-fns/tz";
import { FIRM_TIME_ZONE } from "../dates/format";
import { firmDay, type Day } from "../pitch-clock/clock.server";

/**
 * When the daily pitch summary goes out: every day at 08:00 in the firm's zone
 * (Europe/Zurich), i.e. 07:00 UTC in winter and 06:00 UTC in summer
 * (PITCH_SUMMARY_HOUR moves the hour). Pure functions of the time, so the
 * daylight-saving days can be tested.
 *
 * After downtime past the hour, the day's summary goes out late the same day
 * (at the first check once a process runs again); a day missed entirely is
 * never sent afterwards: the next morning's summary lists the same pitches,
 * one day later, so a late copy of an old day would only repeat it.
 */
export const SUMMARY_HOUR = 8;

/** `hour`:00 Zurich time on the firm's day `day`. */
export function summarySlot(day: Day, hour = SUMMARY_HOUR): Date {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return new Date(new TZDate(y, m - 1, d, hour, 0, 0, FIRM_TIME_ZONE).getTime());
}

/** The summary that may go out at `now`: today's (Zurich day) once its hour has come, else none yet. */
export function summaryDueAt(now: Date, hour = SUMMARY_HOUR): { day: Day; slot: Date } | null {
  const day = firmDay(now);
  const slot = summarySlot(day, hour);
  return slot.getTime() <= now.getTime() ? { day, slot } : null;
}

/** The scheduled_runs key that makes a day's summary happen once: 'pitch-summary:2026-11-26' (Zurich date). */
export function summaryRunKey(day: Day): string {
  return `pitch-summary:${day}`;
}
