import { tz } from "@date-fns/tz";
import { setHours, startOfWeek, subWeeks } from "date-fns";
import { FIRM_TIME_ZONE, isoDay } from "../dates/format";

/**
 * When the weekly document digest goes out: Mondays at 08:00 in the firm's
 * zone (Europe/Zurich), i.e. 07:00 UTC in winter and 06:00 UTC in summer.
 * Pure functions of the time, so the daylight-saving weeks can be tested.
 */
const zurich = tz(FIRM_TIME_ZONE);
const DIGEST_HOUR = 8;

/** Monday 08:00 Zurich time of the (Zurich) week that holds `at`. */
function mondayAt8(at: Date): Date {
  const monday = startOfWeek(at, { weekStartsOn: 1, in: zurich });
  return new Date(setHours(monday, DIGEST_HOUR, { in: zurich }).getTime());
}

/** The latest digest slot at or before `now`: this week's Monday 08:00 Zurich once it has come, else last week's. */
export function latestDigestSlot(now: Date): Date {
  const slot = mondayAt8(now);
  return slot.getTime() <= now.getTime() ? slot : previousDigestSlot(slot);
}

/** The slot a week before `slot` (its digest covers the documents from that slot up to `slot`). */
export function previousDigestSlot(slot: Date): Date {
  return mondayAt8(subWeeks(slot, 1, { in: zurich }));
}

/** The scheduled_runs key that makes a week's digest happen once: 'document-digest:2026-11-30' (the Monday, Zurich date). */
export function digestRunKey(slot: Date): string {
  return `document-digest:${isoDay(slot, FIRM_TIME_ZONE)}`;
}
