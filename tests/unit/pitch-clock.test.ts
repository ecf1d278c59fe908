import { afterEach, describe, expect, test } from "vitest";
import {
  addBusinessDays,
  addCalendarDays,
  businessDaysBetween,
  clockState,
  dueAtFor,
  dueDayFor,
  dueDayOf,
  dueSoonCutoff,
  endOfFirmDay,
  firmDay,
  isBusinessDay,
} from "~/modules/pitch-clock/clock.server";

/**
 * The pitch response clock (issue 16): due at the end of the 5th business day
 * after the Zurich day a pitch came in. Business days skip weekends, canton
 * Zurich public holidays and the firm's closing days (24 Dec, 27–31 Dec, 2 Jan).
 * The due instant is the Zurich midnight ending the due day: 23:00 UTC in winter
 * (CET), 22:00 UTC in summer (CEST). In 2026 summer time runs from Sunday 29 March
 * to Sunday 25 October; 2026-11-27 is a Friday.
 */
const due = (iso: string) => dueAtFor(new Date(iso)).toISOString();
const dueDay = (iso: string) => dueDayFor(new Date(iso));
const ORIGINAL_TZ = process.env.TZ;

afterEach(() => {
  process.env.TZ = ORIGINAL_TZ;
});

describe("business days", () => {
  test("weekends do not count", () => {
    expect(isBusinessDay("2026-11-27")).toBe(true); // Friday
    expect(isBusinessDay("2026-11-28")).toBe(false);
    expect(isBusinessDay("2026-11-29")).toBe(false);
    expect(addBusinessDays("2026-11-27", 1)).toBe("2026-11-30");
    expect(addBusinessDays("2026-11-28", 1)).toBe("2026-11-30");
  });

  test("Zurich public holidays: Good Friday, Easter Monday, Labour Day, Ascension, Whit Monday, 1 August", () => {
    for (const day of ["2026-04-03", "2026-04-06", "2026-05-01", "2026-05-14", "2026-05-25"]) expect(isBusinessDay(day), day).toBe(false);
    expect(isBusinessDay("2025-08-01")).toBe(false); // a Friday
    expect(isBusinessDay("2026-04-02")).toBe(true); // Maundy Thursday is no holiday
    expect(isBusinessDay("2026-04-07")).toBe(true);
    expect(isBusinessDay("2026-05-15")).toBe(true); // the Friday after Ascension
  });

  test("Christmas to 2 January: public holidays and the firm's closing days, in any year", () => {
    // 2026: 23 Dec is a Wednesday, 4 Jan 2027 a Monday.
    expect(isBusinessDay("2026-12-23")).toBe(true);
    for (let day = "2026-12-24"; day <= "2027-01-03"; day = addCalendarDays(day, 1)) expect(isBusinessDay(day), day).toBe(false);
    expect(isBusinessDay("2027-01-04")).toBe(true);
    // A year in which 2 January is a Wednesday (a closing day, not a public holiday) and 3 January a Thursday.
    expect(isBusinessDay("2030-01-02")).toBe(false);
    expect(isBusinessDay("2030-01-03")).toBe(true);
    expect(isBusinessDay("2029-12-27")).toBe(false); // Thursday, closing day
  });

  test("businessDaysBetween counts the days after the first, up to and including the second", () => {
    expect(businessDaysBetween("2026-11-25", "2026-11-30")).toBe(3); // Thu, Fri, Mon
    expect(businessDaysBetween("2026-11-27", "2026-11-29")).toBe(0);
    expect(businessDaysBetween("2026-11-30", "2026-11-25")).toBe(0);
    expect(businessDaysBetween("2026-12-23", "2027-01-05")).toBe(2);
  });
});

describe("dueAtFor", () => {
  test("a Monday pitch is due the next Monday, a Wednesday pitch the next Wednesday (weekend skipped)", () => {
    expect(due("2026-11-23T09:00:00Z")).toBe("2026-11-30T23:00:00.000Z");
    expect(due("2026-11-25T09:00:00Z")).toBe("2026-12-02T23:00:00.000Z");
  });

  test("a Friday evening pitch (21:30 Zurich, 20:30 UTC) counts from Friday: due the next Friday", () => {
    expect(dueDay("2026-11-27T20:30:00Z")).toBe("2026-12-04");
    expect(due("2026-11-27T20:30:00Z")).toBe("2026-12-04T23:00:00.000Z");
    // Saturday and Sunday pitches are due the same Friday: the weekend adds nothing.
    expect(due("2026-11-28T12:00:00Z")).toBe("2026-12-04T23:00:00.000Z");
    expect(due("2026-11-29T22:59:59Z")).toBe("2026-12-04T23:00:00.000Z");
  });

  test("23:30 UTC is already the next day in Zurich", () => {
    // Thursday 23:30 Zurich (22:30 UTC) counts from Thursday: due the next Thursday.
    expect(due("2026-11-26T22:30:00Z")).toBe("2026-12-03T23:00:00.000Z");
    // Thursday 23:30 UTC is Friday 00:30 in Zurich: due the next Friday.
    expect(firmDay(new Date("2026-11-26T23:30:00Z"))).toBe("2026-11-27");
    expect(due("2026-11-26T23:30:00Z")).toBe("2026-12-04T23:00:00.000Z");
  });

  test("Easter: Good Friday and Easter Monday are skipped; a pitch on Easter Monday counts from Tuesday on", () => {
    // Thursday 2 April 2026 (CEST): Tue 7, Wed 8, Thu 9, Fri 10, Mon 13.
    expect(due("2026-04-02T08:00:00Z")).toBe("2026-04-13T22:00:00.000Z");
    // Submitted on the holiday itself: the same due day.
    expect(due("2026-04-06T10:00:00Z")).toBe("2026-04-13T22:00:00.000Z");
    // Submitted on Good Friday evening.
    expect(due("2026-04-03T19:30:00Z")).toBe("2026-04-13T22:00:00.000Z");
  });

  test("Ascension and Whit Monday are skipped", () => {
    // Monday 11 May 2026: Tue 12, Wed 13, (Thu 14 Ascension), Fri 15, Mon 18, Tue 19.
    expect(due("2026-05-11T08:00:00Z")).toBe("2026-05-19T22:00:00.000Z");
    // Wednesday 20 May: Thu 21, Fri 22, (Mon 25 Whit Monday), Tue 26, Wed 27, Thu 28.
    expect(due("2026-05-20T08:00:00Z")).toBe("2026-05-28T22:00:00.000Z");
    // Wednesday 13 May, across both: Fri 15, Mon 18, Tue 19, Wed 20, Thu 21.
    expect(due("2026-05-13T08:00:00Z")).toBe("2026-05-21T22:00:00.000Z");
  });

  test("over Christmas and the year end: nothing counts from 24 December to 2 January", () => {
    // Wednesday 23 December 2026: Mon 4, Tue 5, Wed 6, Thu 7, Fri 8 January 2027.
    expect(due("2026-12-23T09:00:00Z")).toBe("2027-01-08T23:00:00.000Z");
    // Monday 21 December: Tue 22, Wed 23, then Mon 4, Tue 5, Wed 6 January.
    expect(due("2026-12-21T09:00:00Z")).toBe("2027-01-06T23:00:00.000Z");
    // Submitted on Christmas Day or New Year's Eve (closing day): counts from 4 January.
    expect(due("2026-12-25T10:00:00Z")).toBe("2027-01-08T23:00:00.000Z");
    expect(due("2026-12-31T22:30:00Z")).toBe("2027-01-08T23:00:00.000Z"); // 23:30 on 31 Dec in Zurich
    expect(due("2026-12-31T23:30:00Z")).toBe("2027-01-08T23:00:00.000Z"); // already 1 January in Zurich
    // Thursday 23 December 2027: closed Fri 24 and Mon 27 – Fri 31; Mon 3 – Fri 7 January 2028.
    expect(due("2027-12-23T09:00:00Z")).toBe("2028-01-07T23:00:00.000Z");
  });

  test("a year end without closing days in the way: mid-December 2026 into the new year is the same rule", () => {
    // Thursday 17 December 2026: Fri 18, Mon 21, Tue 22, Wed 23, Mon 4 January.
    expect(due("2026-12-17T09:00:00Z")).toBe("2027-01-04T23:00:00.000Z");
  });

  test("summer time starts (Sunday 29 March 2026): the due instant moves from 23:00 to 22:00 UTC", () => {
    // Due on Friday 27 March (CET) and on Monday 30 March (CEST).
    expect(due("2026-03-20T09:00:00Z")).toBe("2026-03-27T23:00:00.000Z");
    expect(due("2026-03-23T09:00:00Z")).toBe("2026-03-30T22:00:00.000Z");
    // Wednesday 25 March, 23:00 CET (22:00 UTC): Thu 26, Fri 27, Mon 30, Tue 31, Wed 1 April.
    expect(due("2026-03-25T22:00:00Z")).toBe("2026-04-01T22:00:00.000Z");
    // Submitted just before and just after the switch (01:59:59 CET, 03:00 CEST), both Sunday:
    // Mon 30, Tue 31, Wed 1, Thu 2, (Good Friday, Easter Monday), Tue 7 April.
    expect(due("2026-03-29T00:59:59Z")).toBe("2026-04-07T22:00:00.000Z");
    expect(due("2026-03-29T01:00:00Z")).toBe("2026-04-07T22:00:00.000Z");
    // Saturday 28 March 23:30 CET is still Saturday; 23:30 UTC is Sunday 01:30 CET.
    expect(firmDay(new Date("2026-03-28T22:30:00Z"))).toBe("2026-03-28");
    expect(firmDay(new Date("2026-03-28T23:30:00Z"))).toBe("2026-03-29");
  });

  test("summer time ends (Sunday 25 October 2026): the due instant moves from 22:00 to 23:00 UTC", () => {
    expect(due("2026-10-16T08:00:00Z")).toBe("2026-10-23T22:00:00.000Z");
    expect(due("2026-10-19T08:00:00Z")).toBe("2026-10-26T23:00:00.000Z");
    // Both 02:30s of the night of the change (CEST, then CET) are Sunday: due Friday 30 October.
    expect(due("2026-10-25T00:30:00Z")).toBe("2026-10-30T23:00:00.000Z");
    expect(due("2026-10-25T01:30:00Z")).toBe("2026-10-30T23:00:00.000Z");
    // Saturday 24 October 23:30 CEST (21:30 UTC) is Saturday; 22:30 UTC is Sunday 00:30 CEST.
    expect(firmDay(new Date("2026-10-24T21:30:00Z"))).toBe("2026-10-24");
    expect(firmDay(new Date("2026-10-24T22:30:00Z"))).toBe("2026-10-25");
  });

  test("the end of a Zurich day is its midnight, on days of 23 and 25 hours too", () => {
    expect(endOfFirmDay("2026-03-28").toISOString()).toBe("2026-03-28T23:00:00.000Z");
    expect(endOfFirmDay("2026-03-29").toISOString()).toBe("2026-03-29T22:00:00.000Z"); // 23 hours long
    expect(endOfFirmDay("2026-10-24").toISOString()).toBe("2026-10-24T22:00:00.000Z");
    expect(endOfFirmDay("2026-10-25").toISOString()).toBe("2026-10-25T23:00:00.000Z"); // 25 hours long
    for (const day of ["2026-03-29", "2026-03-30", "2026-10-25", "2026-10-26", "2026-12-31"]) expect(dueDayOf(endOfFirmDay(day))).toBe(day);
  });

  test("does not depend on the server's own time zone", () => {
    const seen = new Set<string>();
    for (const zone of ["UTC", "America/Los_Angeles", "Pacific/Kiritimati", "Asia/Kolkata"]) {
      process.env.TZ = zone;
      seen.add([due("2026-11-27T20:30:00Z"), due("2026-11-26T23:30:00Z"), due("2026-03-29T01:00:00Z"), due("2026-10-19T08:00:00Z")].join(" "));
    }
    expect([...seen]).toEqual(["2026-12-04T23:00:00.000Z 2026-12-04T23:00:00.000Z 2026-04-07T22:00:00.000Z 2026-10-26T23:00:00.000Z"]);
  });
});

describe("clockState", () => {
  // Due on Monday 30 November 2026: overdue from 23:00 UTC (midnight in Zurich).
  const pitch = { dueAt: new Date("2026-11-30T23:00:00Z"), answeredAt: null };
  const at = (iso: string) => clockState(pitch, new Date(iso));

  test("due in n business days, counted from today's Zurich day", () => {
    expect(at("2026-11-23T09:00:00Z")).toEqual({ kind: "due", inBusinessDays: 5, dueDay: "2026-11-30" });
    expect(at("2026-11-25T10:00:00Z")).toEqual({ kind: "due", inBusinessDays: 3, dueDay: "2026-11-30" });
    expect(at("2026-11-27T10:00:00Z")).toEqual({ kind: "due", inBusinessDays: 1, dueDay: "2026-11-30" });
    expect(at("2026-11-29T12:00:00Z")).toEqual({ kind: "due", inBusinessDays: 1, dueDay: "2026-11-30" }); // Sunday
  });

  test("due today from Zurich midnight to the last millisecond of the due day", () => {
    expect(at("2026-11-29T23:00:00Z")).toEqual({ kind: "due_today", dueDay: "2026-11-30" }); // Monday 00:00 Zurich
    expect(at("2026-11-30T08:00:00Z")).toEqual({ kind: "due_today", dueDay: "2026-11-30" });
    expect(at("2026-11-30T22:59:59.999Z")).toEqual({ kind: "due_today", dueDay: "2026-11-30" });
  });

  test("overdue by n business days, at least 1", () => {
    expect(at("2026-11-30T23:00:00Z")).toEqual({ kind: "overdue", byBusinessDays: 1, dueDay: "2026-11-30" });
    expect(at("2026-12-01T12:00:00Z")).toEqual({ kind: "overdue", byBusinessDays: 1, dueDay: "2026-11-30" });
    expect(at("2026-12-02T12:00:00Z")).toEqual({ kind: "overdue", byBusinessDays: 2, dueDay: "2026-11-30" });
    expect(at("2026-12-07T12:00:00Z")).toEqual({ kind: "overdue", byBusinessDays: 5, dueDay: "2026-11-30" });
  });

  test("a pitch due on a Friday is overdue by 1 over the weekend and on Monday, by 2 on Tuesday", () => {
    const friday = { dueAt: new Date("2026-12-04T23:00:00Z"), answeredAt: null };
    expect(clockState(friday, new Date("2026-12-05T10:00:00Z"))).toMatchObject({ kind: "overdue", byBusinessDays: 1 });
    expect(clockState(friday, new Date("2026-12-07T10:00:00Z"))).toMatchObject({ kind: "overdue", byBusinessDays: 1 });
    expect(clockState(friday, new Date("2026-12-08T10:00:00Z"))).toMatchObject({ kind: "overdue", byBusinessDays: 2 });
  });

  test("overdue across the closing days counts only business days", () => {
    const beforeChristmas = { dueAt: endOfFirmDay("2026-12-23"), answeredAt: null };
    expect(clockState(beforeChristmas, new Date("2026-12-30T10:00:00Z"))).toMatchObject({ kind: "overdue", byBusinessDays: 1 });
    expect(clockState(beforeChristmas, new Date("2027-01-05T10:00:00Z"))).toMatchObject({ kind: "overdue", byBusinessDays: 2 });
  });

  test("across the switch to summer time the day still ends at Zurich midnight", () => {
    const monday = { dueAt: dueAtFor(new Date("2026-03-23T09:00:00Z")), answeredAt: null };
    expect(clockState(monday, new Date("2026-03-28T12:00:00Z"))).toMatchObject({ kind: "due", inBusinessDays: 1 });
    expect(clockState(monday, new Date("2026-03-30T21:59:59Z"))).toMatchObject({ kind: "due_today" });
    expect(clockState(monday, new Date("2026-03-30T22:00:00Z"))).toMatchObject({ kind: "overdue", byBusinessDays: 1 });
  });

  test("answered stops the clock, even when late", () => {
    const on = new Date("2026-12-03T10:00:00Z");
    expect(clockState({ ...pitch, answeredAt: on }, new Date("2026-12-10T10:00:00Z"))).toEqual({ kind: "answered", on });
  });
});

describe("dueSoonCutoff", () => {
  const cutoff = (iso: string) => dueSoonCutoff(new Date(iso)).toISOString();

  test("the end of the next business day", () => {
    expect(cutoff("2026-11-25T10:00:00Z")).toBe("2026-11-26T23:00:00.000Z"); // Wednesday → end of Thursday
    expect(cutoff("2026-11-27T10:00:00Z")).toBe("2026-11-30T23:00:00.000Z"); // Friday → end of Monday
    expect(cutoff("2026-11-28T10:00:00Z")).toBe("2026-11-30T23:00:00.000Z"); // Saturday → end of Monday
    expect(cutoff("2026-11-26T23:30:00Z")).toBe("2026-11-30T23:00:00.000Z"); // already Friday in Zurich
  });

  test("over holidays, closing days and the switch to summer time", () => {
    expect(cutoff("2026-12-23T10:00:00Z")).toBe("2027-01-04T23:00:00.000Z");
    expect(cutoff("2026-04-02T10:00:00Z")).toBe("2026-04-07T22:00:00.000Z"); // Thursday before Easter → Tuesday
    expect(cutoff("2026-03-27T10:00:00Z")).toBe("2026-03-30T22:00:00.000Z"); // CET Friday → CEST Monday
  });

  test("takes in a pitch due today and one due the next business day, not one due after", () => {
    const now = new Date("2026-11-27T10:00:00Z"); // Friday
    const limit = dueSoonCutoff(now).getTime();
    expect(endOfFirmDay("2026-11-27").getTime()).toBeLessThanOrEqual(limit);
    expect(endOfFirmDay("2026-11-30").getTime()).toBeLessThanOrEqual(limit);
    expect(endOfFirmDay("2026-12-01").getTime()).toBeGreaterThan(limit);
  });
});
