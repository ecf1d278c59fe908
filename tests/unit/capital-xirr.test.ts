import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { dayNumber, daysBetween, xirr, type DatedFlow } from "~/modules/capital/xirr";

/**
 * XIRR, actual/365 as in Excel: Newton from 0.1, and a bracketing solver where
 * Newton fails (short losing histories). Two flows have a closed form:
 * −a, then +b after n days → (b/a)^(365/n) − 1.
 */

const closedForm = (a: number, b: number, days: number) => Math.pow(b / a, 365 / days) - 1;

/** Excel's documented XIRR example. */
const excel: DatedFlow[] = [
  { date: "2008-01-01", amount: -10_000 },
  { date: "2008-03-01", amount: 2_750 },
  { date: "2008-10-30", amount: 4_250 },
  { date: "2009-02-15", amount: 3_250 },
  { date: "2009-04-01", amount: 2_750 },
];

describe("xirr", () => {
  test("Excel's example: 37.34%", () => {
    expect(Math.abs(xirr(excel)! - 0.373362535)).toBeLessThan(1e-6);
  });

  test("the order of the flows does not matter", () => {
    const expected = xirr(excel)!;
    for (const order of [[4, 3, 2, 1, 0], [2, 0, 4, 1, 3], [1, 2, 3, 4, 0]]) {
      expect(xirr(order.map((i) => excel[i]!))).toBeCloseTo(expected, 10);
    }
  });

  test("a short losing history, where Newton alone fails: −1000, then +10 after 400 days", () => {
    const rate = xirr([
      { date: "2020-01-01", amount: -1000 },
      { date: "2021-02-04", amount: 10 }, // 400 days later (2020 is a leap year)
    ]);
    expect(rate).toBeCloseTo(-0.985, 3);
    expect(Math.abs(rate! - closedForm(1000, 10, 400))).toBeLessThan(1e-9);
  });

  test("a near-total loss: a cent back on a thousand after a year", () => {
    const rate = xirr([
      { date: "2021-01-01", amount: -1000 },
      { date: "2022-01-01", amount: 0.01 },
    ]);
    expect(Math.abs(rate! - -0.99999)).toBeLessThan(1e-9);
    expect(rate! > -1).toBe(true);
  });

  test("a loss over thirty years, after several calls", () => {
    const rate = xirr([
      { date: "2000-01-01", amount: -500 },
      { date: "2000-07-01", amount: -500 },
      { date: "2030-01-01", amount: 1 },
    ]);
    expect(rate).not.toBeNull();
    expect(rate! < -0.15 && rate! > -0.25).toBe(true);
  });

  test("a large gain: ten times in two years", () => {
    expect(
      xirr([
        { date: "2021-01-01", amount: -1_000_000 },
        { date: "2023-01-01", amount: 10_000_000 },
      ]),
    ).toBeCloseTo(Math.sqrt(10) - 1, 9);
  });

  test("a huge short gain: a thousand times in a month", () => {
    const rate = xirr([
      { date: "2021-01-01", amount: -1000 },
      { date: "2021-01-31", amount: 1_000_000 },
    ])!;
    const expected = closedForm(1000, 1_000_000, 30);
    expect(Math.abs(rate - expected) / expected).toBeLessThan(1e-9);
  });

  test("zero: the money back, no more", () => {
    expect(
      xirr([
        { date: "2021-01-01", amount: -1000 },
        { date: "2021-06-01", amount: -1000 },
        { date: "2024-03-01", amount: 2000 },
      ]),
    ).toBeCloseTo(0, 9);
  });

  test("flows on the same day as the first still count", () => {
    expect(
      xirr([
        { date: "2021-01-01", amount: -1000 },
        { date: "2021-01-01", amount: 100 },
        { date: "2022-01-01", amount: 990 },
      ]),
    ).toBeCloseTo(0.1, 9);
  });

  test("no sign change: null", () => {
    expect(xirr([])).toBeNull();
    expect(xirr([{ date: "2021-01-01", amount: -1000 }])).toBeNull();
    expect(
      xirr([
        { date: "2021-01-01", amount: 100 },
        { date: "2022-01-01", amount: 200 },
      ]),
    ).toBeNull();
    expect(
      xirr([
        { date: "2021-01-01", amount: -100 },
        { date: "2022-01-01", amount: 0 },
        { date: "2023-01-01", amount: -5 },
      ]),
    ).toBeNull();
  });

  test("no rate solves it: null", () => {
    // +100, −300, +250 (in years 0, 1, 2): NPV = 100 − 300v + 250v² has no real root.
    expect(
      xirr([
        { date: "2021-01-01", amount: 100 },
        { date: "2022-01-01", amount: -300 },
        { date: "2023-01-01", amount: 250 },
      ]),
    ).toBeNull();
  });

  test("refuses a date that is not a calendar date, and a non-finite amount", () => {
    expect(() => xirr([{ date: "2021-02-30", amount: -1 }, { date: "2022-01-01", amount: 2 }])).toThrow(RangeError);
    expect(() => xirr([{ date: "2021/01/01", amount: -1 }, { date: "2022-01-01", amount: 2 }])).toThrow(RangeError);
    expect(() => xirr([{ date: "2021-01-01", amount: Number.NaN }, { date: "2022-01-01", amount: 2 }])).toThrow(RangeError);
  });

  test("two flows: the closed form, losses and gains, short and long", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 1e9, noNaN: true }),
        fc.double({ min: 1e-4, max: 1e3, noNaN: true }),
        fc.integer({ min: 30, max: 365 * 30 }),
        (paid, multiple, days) => {
          const back = paid * multiple;
          const expected = closedForm(paid, back, days);
          fc.pre(Number.isFinite(expected) && expected > -1 + 1e-9);
          const end = new Date(Date.UTC(2010, 0, 1 + days)).toISOString().slice(0, 10);
          const rate = xirr([
            { date: "2010-01-01", amount: -paid },
            { date: end, amount: back },
          ]);
          expect(rate).not.toBeNull();
          expect(Math.abs(rate! - expected)).toBeLessThanOrEqual(1e-7 * Math.max(1, Math.abs(expected)));
        },
      ),
    );
  });

  test("a fund's flows (calls, then distributions): the rate zeroes the NPV", () => {
    // A residual of 1e-6 of the flows' size: the solver stops at a rate step of 1e-10, which leaves ~1e-8 on steep curves.
    // Amounts within four orders of magnitude and the cash back a year or more after the last call keep the rate
    // within the solver's range (a gain of 3× in a day is a rate of 10^190).
    const flow = fc.record({ day: fc.integer({ min: 0, max: 3650 }), amount: fc.double({ min: 1e3, max: 1e7, noNaN: true }) });
    fc.assert(
      fc.property(fc.array(flow, { minLength: 1, maxLength: 8 }), fc.array(flow, { minLength: 1, maxLength: 8 }), (paid, received) => {
        // Every payment before every distribution: one sign change, one root.
        const lastPaid = Math.max(...paid.map((p) => p.day));
        const flows = [
          ...paid.map((p) => ({ day: p.day, amount: -p.amount })),
          ...received.map((r) => ({ day: lastPaid + 365 + r.day, amount: r.amount })),
        ];
        const first = Math.min(...flows.map((f) => f.day));
        const rate = xirr(flows.map((f) => ({ date: new Date(Date.UTC(2000, 0, 1 + f.day)).toISOString().slice(0, 10), amount: f.amount })));
        expect(rate).not.toBeNull();
        const npv = flows.reduce((sum, f) => sum + f.amount * Math.pow(1 + rate!, -(f.day - first) / 365), 0);
        const scale = flows.reduce((sum, f) => sum + Math.abs(f.amount) * Math.pow(1 + rate!, -(f.day - first) / 365), 0);
        expect(Math.abs(npv) / scale).toBeLessThan(1e-6);
      }),
    );
  });
});

describe("calendar days", () => {
  test("count actual days, leap years included", () => {
    expect(daysBetween("2020-01-01", "2021-01-01")).toBe(366);
    expect(daysBetween("2021-01-01", "2022-01-01")).toBe(365);
    expect(daysBetween("2022-01-01", "2021-01-01")).toBe(-365);
    expect(dayNumber("1970-01-02")).toBe(1);
    expect(() => dayNumber("2023-02-29")).toThrow(RangeError);
    expect(() => dayNumber("")).toThrow(RangeError);
  });
});
