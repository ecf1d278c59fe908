import { afterEach, describe, expect, test } from "vitest";
import { summaryDueAt, summaryRunKey, summarySlot } from "~/modules/pitch-summary/schedule.server";

/**
 * The daily pitch summary goes out at 08:00 Zurich time: 07:00 UTC in winter
 * (CET), 06:00 UTC in summer (CEST). In 2026 summer time starts on Sunday
 * 29 March and ends on Sunday 25 October. Before the hour, no summary is due
 * yet (not yesterday's either: a missed day is never sent late).
 */
const due = (iso: string, hour?: number) => {
  const answer = summaryDueAt(new Date(iso), hour);
  return answer ? `${answer.day} ${answer.slot.toISOString()}` : null;
};
const ORIGINAL_TZ = process.env.TZ;

afterEach(() => {
  process.env.TZ = ORIGINAL_TZ;
});

describe("summarySlot", () => {
  test("08:00 Zurich: 07:00 UTC in winter, 06:00 UTC in summer", () => {
    expect(summarySlot("2026-11-26").toISOString()).toBe("2026-11-26T07:00:00.000Z");
    expect(summarySlot("2026-06-15").toISOString()).toBe("2026-06-15T06:00:00.000Z");
  });

  test("the days summer time starts and ends (the switch is at night, 08:00 is already in the new offset)", () => {
    expect(summarySlot("2026-03-28").toISOString()).toBe("2026-03-28T07:00:00.000Z");
    expect(summarySlot("2026-03-29").toISOString()).toBe("2026-03-29T06:00:00.000Z");
    expect(summarySlot("2026-10-24").toISOString()).toBe("2026-10-24T06:00:00.000Z");
    expect(summarySlot("2026-10-25").toISOString()).toBe("2026-10-25T07:00:00.000Z");
  });

  test("another hour (PITCH_SUMMARY_HOUR)", () => {
    expect(summarySlot("2026-11-26", 0).toISOString()).toBe("2026-11-25T23:00:00.000Z");
    expect(summarySlot("2026-07-01", 17).toISOString()).toBe("2026-07-01T15:00:00.000Z");
  });
});

describe("summaryDueAt", () => {
  test("today's summary from 08:00 Zurich on, to the end of the Zurich day; nothing before", () => {
    expect(due("2026-11-26T06:59:59.999Z")).toBeNull();
    expect(due("2026-11-26T07:00:00Z")).toBe("2026-11-26 2026-11-26T07:00:00.000Z");
    expect(due("2026-11-26T22:59:59Z")).toBe("2026-11-26 2026-11-26T07:00:00.000Z"); // 23:59:59 Zurich
    // 23:30 UTC is already 27 November 00:30 in Zurich: that day's hour has not come.
    expect(due("2026-11-26T23:30:00Z")).toBeNull();
  });

  test("after downtime past the hour: the same day's summary, late", () => {
    expect(due("2026-11-26T16:45:00Z")).toBe("2026-11-26 2026-11-26T07:00:00.000Z");
  });

  test("the day summer time starts (Sunday 29 March 2026): 06:00 UTC", () => {
    expect(due("2026-03-29T05:59:59Z")).toBeNull();
    expect(due("2026-03-29T06:00:00Z")).toBe("2026-03-29 2026-03-29T06:00:00.000Z");
    expect(due("2026-03-28T23:30:00Z")).toBeNull(); // Sunday 00:30 CET
    expect(due("2026-03-28T22:30:00Z")).toBe("2026-03-28 2026-03-28T07:00:00.000Z"); // still Saturday 23:30 CET
  });

  test("the day summer time ends (Sunday 25 October 2026): 07:00 UTC", () => {
    expect(due("2026-10-25T06:30:00Z")).toBeNull(); // 07:30 CET
    expect(due("2026-10-25T07:00:00Z")).toBe("2026-10-25 2026-10-25T07:00:00.000Z");
    expect(due("2026-10-24T21:59:59Z")).toBe("2026-10-24 2026-10-24T06:00:00.000Z"); // Saturday 23:59:59 CEST
    expect(due("2026-10-24T22:00:00Z")).toBeNull(); // Sunday 00:00 CEST
  });

  test("an hour of 0: due all day long", () => {
    expect(due("2026-11-25T23:00:00Z", 0)).toBe("2026-11-26 2026-11-25T23:00:00.000Z");
  });

  test("does not depend on the server's own time zone", () => {
    const seen = new Set<string>();
    for (const zone of ["UTC", "America/Los_Angeles", "Pacific/Kiritimati", "Asia/Kolkata"]) {
      process.env.TZ = zone;
      seen.add([due("2026-03-29T06:00:00Z"), due("2026-03-29T05:59:00Z"), due("2026-10-25T07:30:00Z"), due("2026-11-26T22:30:00Z")].map(String).join(" "));
    }
    expect([...seen]).toEqual([
      "2026-03-29 2026-03-29T06:00:00.000Z null 2026-10-25 2026-10-25T07:00:00.000Z 2026-11-26 2026-11-26T07:00:00.000Z",
    ]);
  });
});

describe("summaryRunKey", () => {
  test("names the Zurich day", () => {
    expect(summaryRunKey("2026-11-26")).toBe("pitch-summary:2026-11-26");
  });
});
