import { describe, expect, test } from "vitest";
import { chartGeometry, chartPoints, DOT_LIMIT, MAX_QUARTER_POINTS, quarterlyPoints, type ChartFlow } from "~/modules/capital-account/chart.server";

/**
 * The capital account's chart (issue 24 §8): flows become one point per
 * quarter (per year for a long history), and the points SVG paths in a
 * 100 × 100 box: cumulative paid in and distributions as steps, the NAV as a
 * line with dots. Pure functions: no database, no DOM.
 */

/** The e2e flow's history: a call paid in part, a distribution, a valuation. */
const short: ChartFlow[] = [
  { date: "2024-02-01", kind: "call", amount: "20000.00" },
  { date: "2024-02-01", kind: "call", amount: "5000.00" },
  { date: "2024-02-20", kind: "payment", amount: "10000.00" },
  { date: "2025-06-30", kind: "distribution", amount: "2000.00" },
  { date: "2025-09-30", kind: "valuation", amount: "11000.00" },
];

/** The y of the last point of a step path (its last V, or its start when it never rose). */
function lastY(path: string): number {
  const v = [...path.matchAll(/V(-?[\d.]+)/g)].pop();
  return Number(v ? v[1] : /^M[\d.]+,([\d.]+)/.exec(path)![1]);
}

/** Every number in a path, to check the rounding. */
const numbers = (path: string) => [...path.matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => m[0]);

/** Ten years of quarters, as the bench seeds them: a call paid each quarter, a distribution from the ninth, a NAV at each quarter end. */
function decade(): ChartFlow[] {
  const flows: ChartFlow[] = [];
  for (let q = 0; q < 40; q++) {
    const year = 2015 + Math.floor(q / 4);
    const month = String((q % 4) * 3 + 2).padStart(2, "0");
    const end = ["03-31", "06-30", "09-30", "12-31"][q % 4];
    flows.push({ date: `${year}-${month}-10`, kind: "call", amount: "20000.00" });
    flows.push({ date: `${year}-${month}-25`, kind: "payment", amount: "20000.00" });
    if (q >= 8) flows.push({ date: `${year}-${month}-28`, kind: "distribution", amount: "5000.00" });
    flows.push({ date: `${year}-${end}`, kind: "valuation", amount: `${(q + 1) * 21000}.00` });
  }
  return flows;
}

describe("chartPoints", () => {
  test("one point per quarter from the first payment to the last flow, every quarter between, sums to each quarter's end", () => {
    const points = quarterlyPoints(short, "USD");
    expect(points.map((p) => p.label)).toEqual(["Q1 2024", "Q2 2024", "Q3 2024", "Q4 2024", "Q1 2025", "Q2 2025", "Q3 2025"]);
    expect(points[0]).toEqual({ label: "Q1 2024", start: "2024-01-01", end: "2024-03-31", paidIn: 1_000_000n, distributed: 0n, nav: null });
    // Calls are not drawn (called is not paid in); quarters without a valuation have no NAV.
    expect(points.map((p) => p.nav)).toEqual([null, null, null, null, null, null, 1_100_000n]);
    // The last point's figures are the account's: paid in $10,000.00, distributed $2,000.00.
    expect(points.at(-1)).toMatchObject({ paidIn: 1_000_000n, distributed: 200_000n });
  });

  test("calls alone draw nothing; a quarter's NAV is its latest valuation", () => {
    expect(chartPoints([{ date: "2024-02-01", kind: "call", amount: "10.00" }], "USD")).toEqual([]);
    const points = chartPoints(
      [
        { date: "2024-04-10", kind: "payment", amount: "100.00" },
        { date: "2024-05-31", kind: "valuation", amount: "90.00" },
        { date: "2024-06-30", kind: "valuation", amount: "95.00" },
      ],
      "USD",
    );
    expect(points).toEqual([{ label: "Q2 2024", start: "2024-04-01", end: "2024-06-30", paidIn: 10_000n, distributed: 0n, nav: 9_500n }]);
  });

  test(`a history of more than ${MAX_QUARTER_POINTS} quarters is drawn year by year, the last year to its latest quarter`, () => {
    const flows: ChartFlow[] = [...decade(), { date: "2025-02-10", kind: "payment", amount: "20000.00" }];
    const quarters = quarterlyPoints(flows, "USD");
    expect(quarters).toHaveLength(41);
    const years = chartPoints(flows, "USD");
    expect(years.map((p) => p.label)).toEqual([...Array.from({ length: 10 }, (_, i) => String(2015 + i)), "Q1 2025"]);
    // Each year's point is its last quarter's sums; the last is the account's.
    expect(years[0]).toEqual({ ...quarters[3], label: "2015", start: "2015-01-01" });
    expect(years.at(-1)).toEqual(quarters.at(-1));
    expect(years.at(-1)!.paidIn).toBe(41n * 2_000_000n);
    expect(years.at(-1)!.distributed).toBe(32n * 500_000n);
  });
});

describe("chartGeometry", () => {
  test("step lines start at zero, step at each quarter's end, and end at the account's paid in and distributed", () => {
    const points = chartPoints(short, "USD");
    const g = chartGeometry(points, "USD");
    // $11,000 NAV is the top: the scale is nice()d to $12,000, so $10,000 paid in sits at 1/6 from the top.
    expect(g.yTicks.map((t) => t.label)).toEqual(["$0", "$2K", "$4K", "$6K", "$8K", "$10K", "$12K"]);
    expect(g.paidIn).toMatch(/^M0,100H/);
    expect(lastY(g.paidIn)).toBeCloseTo(100 - (10_000 / 12_000) * 100, 1);
    expect(lastY(g.distributed)).toBeCloseTo(100 - (2_000 / 12_000) * 100, 1);
    // Both series reach the right edge (the end of the last quarter).
    expect(g.paidIn).toMatch(/H100(V[\d.]+)?$/);
    expect(g.distributed).toMatch(/H100(V[\d.]+)?$/);
    // One valuation: no line, one dot, at the right edge.
    expect(g.nav).toBeNull();
    expect(g.navDots).toBe(`M100,${(100 - (11_000 / 12_000) * 100).toFixed(1)}h0`);
    expect(g.grid.split("M")).toHaveLength(g.yTicks.length + 1);
  });

  test("coordinates are rounded to one decimal and written with H and V where a step allows, never twice in a row", () => {
    const g = chartGeometry(chartPoints(decade(), "USD"), "USD");
    for (const path of [g.paidIn, g.distributed, g.nav!, g.grid]) {
      for (const n of numbers(path)) expect(n).toMatch(/^-?\d+(\.\d)?$/);
      expect(path).not.toMatch(/H[\d.]+H|V[\d.]+V/);
    }
    expect(g.paidIn).not.toContain("L");
    expect(g.nav).toMatch(/^M[\d.]+,[\d.]+(L[\d.]+,[\d.]+)+$/);
    // 10 yearly points: no more than DOT_LIMIT, so each has its dot.
    expect(DOT_LIMIT).toBeGreaterThanOrEqual(10);
    expect(g.navDots!.match(/h0/g)).toHaveLength(10);
    // Years under the axis, at most six.
    expect(g.xTicks.length).toBeLessThanOrEqual(6);
    expect(g.xTicks.every((t) => /^\d{4}$/.test(t.label) && t.x >= 0 && t.x <= 100)).toBe(true);
    // The HTML stays small: every path of a decade's chart together under 700 characters.
    expect(g.paidIn.length + g.distributed.length + g.nav!.length + g.navDots!.length).toBeLessThan(700);
  });

  test("a short history is labelled by quarter; ticks sit at their quarter's start", () => {
    const g = chartGeometry(
      chartPoints(
        [
          { date: "2024-04-10", kind: "payment", amount: "100.00" },
          { date: "2024-09-30", kind: "valuation", amount: "120.00" },
        ],
        "USD",
      ),
      "USD",
    );
    expect(g.xTicks).toEqual([
      { x: 0, label: "Q2 2024", align: "start" },
      { x: 49.7, label: "Q3 2024", align: "middle" },
    ]);
  });

  test("amounts are placed by the currency's own minor digits (JPY has none)", () => {
    const g = chartGeometry(chartPoints([{ date: "2024-01-10", kind: "payment", amount: "500000" }], "JPY"), "JPY");
    expect(g.yTicks.at(-1)!.label).toBe("¥500K");
    expect(lastY(g.paidIn)).toBe(0);
  });
});
