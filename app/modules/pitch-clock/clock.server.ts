import { TZDate } from "@date-fns/tz";
import Holidays from "date-holidays";
import { businessDays } from "~/content/business-days";
import { FIRM_TIME_ZONE, isoDay } from "../dates/format";

/**
 * The pitch response clock (issue 16): a pitch is due at the end of the 5th business
 * day after the (Zurich) day it came in, and overdue from then until a reply is sent.
 * Business days are Monday to Friday, minus the seat's public holidays (date-holidays)
 * and the firm's closing days (app/content/business-days.ts). Calendar days are
 * handled as 'yyyy-MM-dd' strings, so daylight-saving changes never shift a day; only
 * the edges (which day an instant falls on, when a day ends) use the firm's zone.
 */

/** A calendar day in the firm's zone, 'yyyy-MM-dd'. */
export type Day = string;

const holidays = new Holidays(businessDays.office.country, businessDays.office.state);
const closedByYear = new Map<number, ReadonlySet<Day>>();

function closedDays(year: number): ReadonlySet<Day> {
  let days = closedByYear.get(year);
  if (!days) {
    const types = new Set(businessDays.holidayTypes);
    const set = new Set<Day>();
    for (const h of holidays.getHolidays(year)) if (types.has(h.type)) set.add(h.date.slice(0, 10));
    for (const md of businessDays.closingDays) set.add(`${year}-${md}`);
    days = set;
    closedByYear.set(year, days);
  }
  return days;
}

function parts(day: Day): [number, number, number] {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return [y, m, d];
}

/** `day` moved by `n` calendar days. */
export function addCalendarDays(day: Day, n: number): Day {
  const [y, m, d] = parts(day);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** Monday to Friday, not a public holiday of the seat, not a closing day of the firm. */
export function isBusinessDay(day: Day): boolean {
  const [y, m, d] = parts(day);
  const weekday = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !closedDays(y).has(day);
}

/** The `n`th business day after `day` (`day` itself never counts). */
export function addBusinessDays(day: Day, n: number): Day {
  let current = day;
  for (let left = n; left > 0; ) {
    current = addCalendarDays(current, 1);
    if (isBusinessDay(current)) left--;
  }
  return current;
}

/** Business days after `from` up to and including `to` (0 when `to` is not after `from`). */
export function businessDaysBetween(from: Day, to: Day): number {
  let count = 0;
  for (let current = addCalendarDays(from, 1); current <= to; current = addCalendarDays(current, 1)) {
    if (isBusinessDay(current)) count++;
  }
  return count;
}

/** The firm's calendar day that holds `instant`. */
export function firmDay(instant: Date): Day {
  return isoDay(instant, FIRM_TIME_ZONE);
}

/** The instant `day` ends in the firm's zone (midnight starting the next day). */
export function endOfFirmDay(day: Day): Date {
  const [y, m, d] = parts(addCalendarDays(day, 1));
  return new Date(new TZDate(y, m - 1, d, FIRM_TIME_ZONE).getTime());
}

/** The day a pitch submitted at `submittedAt` must be answered by. */
export function dueDayFor(submittedAt: Date): Day {
  return addBusinessDays(firmDay(submittedAt), businessDays.answerWithin);
}

/** When a pitch submitted at `submittedAt` becomes overdue: the end of its due day. */
export function dueAtFor(submittedAt: Date): Date {
  return endOfFirmDay(dueDayFor(submittedAt));
}

/** The due day of a stored `dueAt` (the day that ends at that instant). */
export function dueDayOf(dueAt: Date): Day {
  return firmDay(new Date(dueAt.getTime() - 1));
}

export type ClockState =
  | { kind: "answered"; on: Date }
  | { kind: "due"; inBusinessDays: number; dueDay: Day }
  | { kind: "due_today"; dueDay: Day }
  | { kind: "overdue"; byBusinessDays: number; dueDay: Day };

/**
 * Where a pitch stands against its clock at `now`: answered; due in n business days;
 * due today; or overdue by n business days (at least 1: a pitch due on Friday is
 * overdue by 1 on the weekend).
 */
export function clockState(pitch: { dueAt: Date; answeredAt: Date | null }, now: Date): ClockState {
  if (pitch.answeredAt) return { kind: "answered", on: pitch.answeredAt };
  const dueDay = dueDayOf(pitch.dueAt);
  const today = firmDay(now);
  if (now.getTime() >= pitch.dueAt.getTime()) {
    return { kind: "overdue", byBusinessDays: Math.max(1, businessDaysBetween(dueDay, today)), dueDay };
  }
  if (today === dueDay) return { kind: "due_today", dueDay };
  return { kind: "due", inBusinessDays: Math.max(1, businessDaysBetween(today, dueDay)), dueDay };
}

/**
 * Unanswered pitches with `dueAt` at or before this instant are due within 1 business
 * day or overdue (the navigation badge): the end of the next business day after today.
 */
export function dueSoonCutoff(now: Date): Date {
  return endOfFirmDay(addBusinessDays(firmDay(now), 1));
}
