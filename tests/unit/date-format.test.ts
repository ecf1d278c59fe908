import { afterEach, describe, expect, test } from "vitest";
import { adminDate, adminDateTime, exportDateTime, isoDay, publicDate } from "~/modules/dates/format";

// 23:30 UTC is already the next day in Zurich and still the same day in New York.
const LATE_EVENING_UTC = new Date("2026-03-05T23:30:00Z");
const ORIGINAL_TZ = process.env.TZ;

afterEach(() => {
  process.env.TZ = ORIGINAL_TZ;
});

describe("date formats", () => {
  test("read the same whatever the server's own time zone", () => {
    const seen = new Set<string>();
    for (const zone of ["UTC", "America/New_York", "Asia/Tokyo"]) {
      process.env.TZ = zone;
      seen.add([adminDate(LATE_EVENING_UTC), adminDateTime(LATE_EVENING_UTC), publicDate(LATE_EVENING_UTC)].join(" | "));
    }
    expect([...seen]).toEqual(["Mar 05, 2026 | Mar 05, 2026 23:30 | Mar 5, 2026"]);
  });

  test("exports and file names use sortable forms", () => {
    expect(exportDateTime("2026-03-05T14:07:09.123Z")).toBe("2026-03-05 14:07");
    expect(isoDay(LATE_EVENING_UTC)).toBe("2026-03-05");
  });

  test("an explicit zone moves the day", () => {
    expect(adminDate(LATE_EVENING_UTC, "Europe/Zurich")).toBe("Mar 06, 2026");
  });
});
