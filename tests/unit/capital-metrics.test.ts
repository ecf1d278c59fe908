import { describe, expect, test } from "vitest";
import { capitalMetrics, type CapitalFlowsInput } from "~/modules/capital/metrics";
import { xirr } from "~/modules/capital/xirr";

/**
 * An entity's capital account figures (DESIGN.md §10): the totals are all-time;
 * the multiples and the IRR are as of the latest valuation, from the flows dated
 * on or before it.
 */

const none: CapitalFlowsInput = { commitment: 0n, calls: [], payments: [], distributions: [], valuations: [] };

/** $1,000,000.00 committed; some flows after the latest valuation (2023-12-31). */
const account: CapitalFlowsInput = {
  commitment: 100_000_000n,
  calls: [
    { date: "2020-01-15", amount: 25_000_000n },
    { date: "2021-03-01", amount: 15_000_000n },
    { date: "2024-02-01", amount: 10_000_000n },
  ],
  payments: [
    { date: "2020-01-31", amount: 25_000_000n },
    { date: "2021-03-20", amount: 15_000_000n },
    { date: "2024-02-20", amount: 5_000_000n },
  ],
  distributions: [
    { date: "2022-06-30", amount: 8_000_000n, recallable: 2_000_000n },
    { date: "2024-03-31", amount: 1_000_000n, recallable: 0n },
  ],
  valuations: [
    { date: "2023-12-31", nav: 42_000_000n },
    { date: "2022-12-31", nav: 40_000_000n },
  ],
};

describe("capitalMetrics", () => {
  test("all-time totals count every flow given", () => {
    const m = capitalMetrics(account);
    expect(m).toMatchObject({
      commitment: 100_000_000n,
      called: 50_000_000n,
      paidIn: 45_000_000n,
      outstanding: 5_000_000n,
      unfunded: 52_000_000n, // 1,000,000 − 500,000 + 20,000 recallable
      distributed: 9_000_000n,
      recallable: 2_000_000n,
    });
  });

  test("the multiples and the IRR are as of the latest valuation, whatever the input order", () => {
    const m = capitalMetrics(account);
    expect(m.nav).toBe(42_000_000n);
    expect(m.navDate).toBe("2023-12-31");
    expect(m.asOf).toBe("2023-12-31");
    // As of 2023-12-31: paid in 400,000, distributed 80,000, NAV 420,000.
    expect(m.dpi).toBe(0.2);
    expect(m.rvpi).toBe(1.05);
    expect(m.tvpi).toBe(1.25);
    const expected = xirr([
      { date: "2020-01-31", amount: -25_000_000 },
      { date: "2021-03-20", amount: -15_000_000 },
      { date: "2022-06-30", amount: 8_000_000 },
      { date: "2023-12-31", amount: 42_000_000 },
    ])!;
    expect(m.irr).toBeCloseTo(expected, 12);
    expect(m.irr).toBeCloseTo(0.071, 3); // TVPI 1.25 over about four years
    expect(m.irrNote).toBeNull();
  });

  test("a flow dated on the valuation day counts", () => {
    const m = capitalMetrics({ ...account, distributions: [...account.distributions, { date: "2023-12-31", amount: 4_000_000n, recallable: 0n }] });
    expect(m.dpi).toBe(0.3);
    expect(m.tvpi).toBe(1.35);
  });

  test("no valuation: DPI over all flows, no RVPI, TVPI or IRR", () => {
    const m = capitalMetrics({ ...account, valuations: [] });
    expect(m).toMatchObject({ nav: null, navDate: null, asOf: null, rvpi: null, tvpi: null, irr: null, irrNote: "awaiting_valuation" });
    expect(m.dpi).toBe(0.2); // 90,000 ÷ 450,000
    expect(m.paidIn).toBe(45_000_000n);
  });

  test("nothing paid in: no multiples", () => {
    const m = capitalMetrics({ ...none, commitment: 100n, valuations: [{ date: "2023-12-31", nav: 0n }] });
    expect(m).toMatchObject({ dpi: null, rvpi: null, tvpi: null, irr: null, irrNote: "no_sign_change", unfunded: 100n, outstanding: 0n });
    expect(capitalMetrics(none)).toMatchObject({ dpi: null, irrNote: "awaiting_valuation" });
  });

  test("paid in only after the valuation: nothing as of it", () => {
    const m = capitalMetrics({
      ...none,
      payments: [{ date: "2024-01-10", amount: 1_000n }],
      valuations: [{ date: "2023-12-31", nav: 1_000n }],
    });
    expect(m).toMatchObject({ paidIn: 1_000n, dpi: null, rvpi: null, tvpi: null, irr: null, irrNote: "no_sign_change" });
  });

  test("under one year: the first flow less than 365 days before the valuation", () => {
    const base = { ...none, commitment: 1_000n, valuations: [{ date: "2024-01-01", nav: 1_100n }] };
    const short = capitalMetrics({ ...base, payments: [{ date: "2023-01-02", amount: 1_000n }] }); // 364 days
    expect(short).toMatchObject({ irr: null, irrNote: "under_one_year", dpi: 0, rvpi: 1.1, tvpi: 1.1 });
    const year = capitalMetrics({ ...base, payments: [{ date: "2023-01-01", amount: 1_000n }] }); // 365 days
    expect(year.irrNote).toBeNull();
    expect(year.irr).toBeCloseTo(0.1, 9);
  });

  test("a zero payment is no first flow", () => {
    const m = capitalMetrics({
      ...none,
      payments: [
        { date: "2020-01-01", amount: 0n },
        { date: "2023-06-01", amount: 1_000n },
      ],
      valuations: [{ date: "2024-01-01", nav: 1_100n }],
    });
    expect(m.irrNote).toBe("under_one_year");
  });

  test("all flows of one sign: no IRR", () => {
    // Written off: paid in, nothing back, NAV zero.
    const m = capitalMetrics({
      ...none,
      payments: [{ date: "2020-01-01", amount: 1_000n }],
      valuations: [{ date: "2023-12-31", nav: 0n }],
    });
    expect(m).toMatchObject({ dpi: 0, rvpi: 0, tvpi: 0, irr: null, irrNote: "no_sign_change" });
  });

  test("flows no rate solves: no_solution", () => {
    // +100, −300, +250 a year apart: 100 − 300v + 250v² has no real root.
    const m = capitalMetrics({
      ...none,
      distributions: [{ date: "2021-01-01", amount: 100n, recallable: 0n }],
      payments: [{ date: "2022-01-01", amount: 300n }],
      valuations: [{ date: "2023-01-01", nav: 250n }],
    });
    expect(m).toMatchObject({ irr: null, irrNote: "no_solution" });
  });

  test("the latest valuation wins; of two on one date, the later entry", () => {
    const payments = [{ date: "2020-01-01", amount: 1_000n }];
    const m = capitalMetrics({
      ...none,
      payments,
      valuations: [
        { date: "2023-06-30", nav: 900n },
        { date: "2023-12-31", nav: 1_000n },
        { date: "2023-12-31", nav: 1_200n },
        { date: "2023-09-30", nav: 950n },
      ],
    });
    expect(m).toMatchObject({ nav: 1_200n, navDate: "2023-12-31", rvpi: 1.2 });
  });

  test("multiples round half away from zero to 4 decimals; TVPI is DPI + RVPI as shown", () => {
    const thirds = capitalMetrics({
      ...none,
      payments: [{ date: "2020-01-01", amount: 3n }],
      distributions: [{ date: "2021-01-01", amount: 1n, recallable: 0n }],
      valuations: [{ date: "2022-01-01", nav: 1n }],
    });
    expect(thirds).toMatchObject({ dpi: 0.3333, rvpi: 0.3333, tvpi: 0.6666 });
    const twoThirds = capitalMetrics({
      ...none,
      payments: [{ date: "2020-01-01", amount: 3n }],
      valuations: [{ date: "2022-01-01", nav: 2n }],
    });
    expect(twoThirds.rvpi).toBe(0.6667);
    const half = capitalMetrics({
      ...none,
      payments: [{ date: "2020-01-01", amount: 20_000n }],
      valuations: [{ date: "2022-01-01", nav: 1n }],
    });
    expect(half.rvpi).toBe(0.0001); // 0.00005 rounds up
    const negative = capitalMetrics({
      ...none,
      payments: [{ date: "2020-01-01", amount: 20_000n }],
      valuations: [{ date: "2022-01-01", nav: -1n }],
    });
    expect(negative.rvpi).toBe(-0.0001);
  });

  test("unfunded adds recallable distributions back; corrections may be negative", () => {
    const m = capitalMetrics({
      ...none,
      commitment: 1_000n,
      calls: [
        { date: "2020-01-01", amount: 600n },
        { date: "2020-02-01", amount: -100n }, // a correction
      ],
      payments: [{ date: "2020-01-20", amount: 450n }],
      distributions: [{ date: "2021-01-01", amount: 300n, recallable: 200n }],
    });
    expect(m).toMatchObject({ called: 500n, paidIn: 450n, outstanding: 50n, unfunded: 700n, distributed: 300n });
  });
});
