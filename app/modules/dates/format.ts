import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";

/**
 * Every date a person reads (pages, exports, mails) is formatted here, in an
 * explicit time zone, so the text never depends on the server's own zone.
 * Lists and exports say "UTC" beside their times.
 */
export const DISPLAY_TIME_ZONE = "UTC";

/** The firm's seat: business days and daily mail follow this zone. */
export const FIRM_TIME_ZONE = "Europe/Zurich";

type DateLike = Date | string | number;

function inZone(value: DateLike, zone: string): TZDate {
  return new TZDate(new Date(value).getTime(), zone);
}

/** Admin dates, SPEC.md §9: 'MMM dd, yyyy' ('Mar 05, 2026'). */
export function adminDate(value: DateLike, zone = DISPLAY_TIME_ZONE): string {
  return format(inZone(value, zone), "MMM dd, yyyy");
}

/** Admin date and time: 'MMM dd, yyyy HH:mm' ('Mar 05, 2026 14:07'). */
export function adminDateTime(value: DateLike, zone = DISPLAY_TIME_ZONE): string {
  return format(inZone(value, zone), "MMM dd, yyyy HH:mm");
}

/** Admin time to the second (the activity page): 'MMM dd, yyyy HH:mm:ss' ('Mar 05, 2026 14:07:09'). */
export function adminTimestamp(value: DateLike, zone = DISPLAY_TIME_ZONE): string {
  return format(inZone(value, zone), "MMM dd, yyyy HH:mm:ss");
}

/** Public and investor pages, SPEC.md §9: 'MMM d, yyyy' ('Mar 5, 2026'). */
export function publicDate(value: DateLike, zone = DISPLAY_TIME_ZONE): string {
  return format(inZone(value, zone), "MMM d, yyyy");
}

/** Spreadsheet exports: 'yyyy-MM-dd HH:mm' ('2026-03-05 14:07'). */
export function exportDateTime(value: DateLike, zone = DISPLAY_TIME_ZONE): string {
  return format(inZone(value, zone), "yyyy-MM-dd HH:mm");
}

/** Spreadsheet exports to the second (the activity export): 'yyyy-MM-dd HH:mm:ss'. */
export function exportTimestamp(value: DateLike, zone = DISPLAY_TIME_ZONE): string {
  return format(inZone(value, zone), "yyyy-MM-dd HH:mm:ss");
}

/** File names and keys: 'yyyy-MM-dd'. */
export function isoDay(value: DateLike, zone = DISPLAY_TIME_ZONE): string {
  return format(inZone(value, zone), "yyyy-MM-dd");
}
