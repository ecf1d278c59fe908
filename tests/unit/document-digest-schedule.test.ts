import { afterEach, describe, expect, test } from "vitest";
import { digestRunKey, latestDigestSlot, previousDigestSlot } from "~/modules/document-mail/digest-schedule";

/**
 * The weekly digest goes out on Mondays at 08:00 Zurich time: 07:00 UTC in
 * winter (CET), 06:00 UTC in summer (CEST). In 2026 summer time starts on
 * Sunday 29 March and ends on Sunday 25 October.
 */
const slot = (iso: string) => latestDigestSlot(new Date(iso)).toISOString();
const ORIGINAL_TZ = process.env.TZ;

afterEach(() => {
  process.env.TZ = ORIGINAL_TZ;
});

describe("latestDigestSlot", () => {
  test("winter: Monday 08:00 Zurich is 07:00 UTC; the slot starts at that millisecond", () => {
    expect(slot("2026-11-30T07:00:00.000Z")).toBe("2026-11-30T07:00:00.000Z");
    expect(slot("2026-11-30T06:59:59.999Z")).toBe("2026-11-23T07:00:00.000Z");
    expect(slot("2026-11-30T09:30:00Z")).toBe("2026-11-30T07:00:00.000Z");
  });

  test("summer: Monday 08:00 Zurich is 06:00 UTC", () => {
    expect(slot("2026-06-15T06:00:00Z")).toBe("2026-06-15T06:00:00.000Z");
    expect(slot("2026-06-15T05:59:59Z")).toBe("2026-06-08T06:00:00.000Z");
  });

  test("the rest of the week belongs to that Monday's slot, up to Sunday night Zurich time", () => {
    expect(slot("2026-12-02T12:00:00Z")).toBe("2026-11-30T07:00:00.000Z"); // Wednesday
    expect(slot("2026-12-06T22:59:59Z")).toBe("2026-11-30T07:00:00.000Z"); // Sunday 23:59:59 Zurich
    // Sunday 23:30 UTC is already Monday 00:30 in Zurich: a new week, but its slot has not come.
    expect(slot("2026-12-06T23:30:00Z")).toBe("2026-11-30T07:00:00.000Z");
  });

  test("the week summer time starts (Sunday 29 March 2026): the Monday after is at 06:00 UTC, the one before at 07:00", () => {
    expect(slot("2026-03-29T01:30:00Z")).toBe("2026-03-23T07:00:00.000Z"); // the night of the change
    expect(slot("2026-03-30T05:59:59Z")).toBe("2026-03-23T07:00:00.000Z");
    expect(slot("2026-03-30T06:00:00Z")).toBe("2026-03-30T06:00:00.000Z");
    expect(previousDigestSlot(new Date("2026-03-30T06:00:00Z")).toISOString()).toBe("2026-03-23T07:00:00.000Z");
  });

  test("the week summer time ends (Sunday 25 October 2026): the Monday after is at 07:00 UTC, the one before at 06:00", () => {
    expect(slot("2026-10-25T00:30:00Z")).toBe("2026-10-19T06:00:00.000Z");
    expect(slot("2026-10-26T06:30:00Z")).toBe("2026-10-19T06:00:00.000Z"); // 07:30 Zurich: not yet
    expect(slot("2026-10-26T07:00:00Z")).toBe("2026-10-26T07:00:00.000Z");
    expect(previousDigestSlot(new Date("2026-10-26T07:00:00Z")).toISOString()).toBe("2026-10-19T06:00:00.000Z");
  });

  test("does not depend on the server's own time zone", () => {
    const seen = new Set<string>();
    for (const zone of ["UTC", "America/Los_Angeles", "Pacific/Kiritimati", "Asia/Kolkata"]) {
      process.env.TZ = zone;
      seen.add([slot("2026-03-30T06:00:00Z"), slot("2026-03-30T05:59:00Z"), slot("2026-10-26T06:30:00Z"), slot("2026-11-29T23:30:00Z")].join(" "));
    }
    expect([...seen]).toEqual([
      "2026-03-30T06:00:00.000Z 2026-03-23T07:00:00.000Z 2026-10-19T06:00:00.000Z 2026-11-23T07:00:00.000Z",
    ]);
  });

  test("a year boundary", () => {
    expect(slot("2027-01-01T12:00:00Z")).toBe("2026-12-28T07:00:00.000Z");
    expect(previousDigestSlot(new Date("2027-01-04T07:00:00Z")).toISOString()).toBe("2026-12-28T07:00:00.000Z");
  });
});

describe("digestRunKey", () => {
  test("names the week by its Monday's Zurich date", () => {
    expect(digestRunKey(new Date("2026-11-30T07:00:00Z"))).toBe("document-digest:2026-11-30");
    expect(digestRunKey(new Date("2026-03-30T06:00:00Z"))).toBe("document-digest:2026-03-30");
  });
});
