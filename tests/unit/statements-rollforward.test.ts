import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { capitalMetrics } from "~/modules/capital/metrics";
import { nextQuarter, quarterEnd, quarterOf } from "~/modules/statements/quarter";
import { percentageOf, pnlTotal, rollForward, statementMetrics, tieOut, ZERO_PNL, type EntityFundHistory } from "~/modules/statements/rollforward";
import { PNL_KEYS, type PnlAmounts, type RollForwardColumn } from "~/modules/statements/types";

/**
 * The ILPA roll-forward and its tie-out (issue 25 §1, decision 041), pure:
 * an entity that commits $1,000,000.00 in Q1 2025, raises it to $1,500,000.00
 * in Q4, is called three times (one call noticed in Q3 and due in Q4), gets a
 * partly recallable distribution, and whose NAV is valued at each quarter's end
 * exactly as its P&L rolls it forward.
 */

const usd = (dollars: number) => BigInt(Math.round(dollars * 100));
const pnl = (amounts: Partial<Record<keyof PnlAmounts, number>>): PnlAmounts => ({
  ...ZERO_PNL,
  ...Object.fromEntries(Object.entries(amounts).map(([key, dollars]) => [key, usd(dollars)])),
});

const history: EntityFundHistory = {
  commitmentChanges: [
    { effectiveOn: "2025-02-10", amount: usd(1_000_000) },
    { effectiveOn: "2025-11-15", amount: usd(1_500_000) },
  ],
  calls: [
    { noticeDate: "2025-02-15", dueDate: "2025-03-01", amount: usd(200_000) },
    { noticeDate: "2025-09-20", dueDate: "2025-10-05", amount: usd(100_000) },
    { noticeDate: "2026-01-10", dueDate: "2026-02-01", amount: usd(50_000) },
  ],
  distributions: [{ date: "2025-12-15", amount: usd(30_000), recallable: usd(20_000) }],
  valuations: [
    { date: "2025-03-31", nav: usd(195_000) },
    { date: "2025-06-30", nav: usd(190_000) },
    { date: "2025-09-30", nav: usd(188_000) },
    { date: "2025-12-31", nav: usd(263_000) },
    { date: "2026-03-31", nav: usd(325_500) },
  ],
  pnl: new Map([
    ["2025-Q1", pnl({ managementFees: -5_000 })],
    ["2025-Q2", pnl({ managementFees: -5_000 })],
    ["2025-Q3", pnl({ managementFees: -5_000, unrealizedGainChange: 3_000 })],
    ["2025-Q4", pnl({ managementFees: -5_000, partnershipExpenses: -1_000, otherIncome: 1_000, realizedGain: 12_000, carriedInterestChange: -2_000 })],
    ["2026-Q1", pnl({ managementFees: -7_500, unrealizedGainChange: 20_000 })],
  ]),
  payments: [
    { date: "2025-03-01", amount: usd(200_000) },
    { date: "2025-10-05", amount: usd(100_000) },
    { date: "2026-02-01", amount: usd(50_000) },
  ],
};

const withValuation = (date: string, nav: bigint): EntityFundHistory => ({
  ...history,
  valuations: history.valuations.map((v) => (v.date === date ? { date, nav } : v)),
});

describe("the tie-out", () => {
  test("every quarter of the fixture ties to the cent", () => {
    for (const quarter of ["2025-Q1", "2025-Q2", "2025-Q3", "2025-Q4", "2026-Q1"]) {
      expect(tieOut(history, quarter), quarter).toEqual({ expected: history.valuations.find((v) => v.date === quarterEnd(quarter))!.nav, actual: expect.any(BigInt), difference: 0n, ok: true });
    }
    // 188,000 + 100,000 contributions − 30,000 distributions + 5,000 of P&L.
    expect(tieOut(history, "2025-Q4")).toEqual({ expected: usd(263_000), actual: usd(263_000), difference: 0n, ok: true });
  });

  test("a cent off either way does not tie, and says by how much (actual − expected)", () => {
    expect(tieOut(withValuation("2025-12-31", usd(263_000) + 1n), "2025-Q4")).toEqual({ expected: usd(263_000), actual: usd(263_000) + 1n, difference: 1n, ok: false });
    expect(tieOut(withValuation("2025-12-31", usd(263_000) - 1n), "2025-Q4")).toMatchObject({ difference: -1n, ok: false });
    // The next quarter's beginning NAV is that valuation: a cent more there is a cent too many in Q1 2026.
    expect(tieOut(withValuation("2025-12-31", usd(263_000) + 1n), "2026-Q1")).toMatchObject({ expected: usd(325_500) + 1n, actual: usd(325_500), difference: -1n, ok: false });
  });

  test("without a valuation at the quarter's end there is nothing to tie to, and the column shows the roll-forward's result", () => {
    const missing = { ...history, valuations: history.valuations.filter((v) => v.date !== "2025-12-31") };
    expect(tieOut(missing, "2025-Q4")).toEqual({ expected: usd(263_000), actual: null, difference: null, ok: false });
    expect(rollForward(missing, "2025-Q4").quarter.endingNav).toBe(usd(263_000));
    // A valuation on another day of the quarter is not the quarter-end one.
    const early = { ...history, valuations: history.valuations.map((v) => (v.date === "2025-12-31" ? { date: "2025-12-30", nav: v.nav } : v)) };
    expect(tieOut(early, "2025-Q4").actual).toBeNull();
    // Beginning NAV is 0 without a valuation at the previous quarter's end.
    expect(rollForward(early, "2026-Q1").quarter.beginningNav).toBe(0n);
  });
});

describe("the columns", () => {
  test("the quarter: contributions by due date, a commitment raised inside it, a recallable distribution", () => {
    const q4 = rollForward(history, "2025-Q4").quarter;
    expect(q4).toEqual({
      fromQuarter: "2025-Q4",
      toQuarter: "2025-Q4",
      beginningNav: usd(188_000),
      contributions: usd(100_000),
      distributions: usd(30_000),
      ...pnl({ managementFees: -5_000, partnershipExpenses: -1_000, otherIncome: 1_000, realizedGain: 12_000, carriedInterestChange: -2_000 }),
      endingNav: usd(263_000),
      totalCommitment: usd(1_500_000),
      // $1,000,000 in force at the start, $200,000 contributed before.
      beginningUnfunded: usd(800_000),
      commitmentIncreases: usd(500_000),
      lessContributions: usd(100_000),
      recallableDistributions: usd(20_000),
      endingUnfunded: usd(1_220_000),
    } satisfies RollForwardColumn);
  });

  test("a call noticed in Q3 and due in Q4 counts in Q4, and Q3's statement says so in its footnote", () => {
    const q3 = rollForward(history, "2025-Q3");
    expect(q3.quarter.contributions).toBe(0n);
    expect(q3.callsNoticedNotDue).toBe(true);
    const q4 = rollForward(history, "2025-Q4");
    expect(q4.quarter.contributions).toBe(usd(100_000));
    expect(q4.callsNoticedNotDue).toBe(false);
    // The capital account page counts it as called from its notice date: the unfunded differ by it at Q3's end.
    const page = capitalMetrics({
      commitment: usd(1_000_000),
      calls: history.calls.filter((c) => c.noticeDate <= "2025-09-30").map((c) => ({ date: c.noticeDate, amount: c.amount })),
      payments: [],
      distributions: [],
      valuations: [],
    });
    expect(q3.quarter.endingUnfunded - page.unfunded).toBe(usd(100_000));
  });

  test("year to date and inception to date across a year end", () => {
    const q1 = rollForward(history, "2026-Q1");
    // A new year: year to date is the quarter alone.
    expect(q1.yearToDate).toEqual({ ...q1.quarter });
    expect(q1.yearToDate).toMatchObject({ fromQuarter: "2026-Q1", beginningNav: usd(263_000), beginningUnfunded: usd(1_220_000), commitmentIncreases: 0n, endingUnfunded: usd(1_170_000) });
    // Inception to date: from the acceptance quarter (Q1 2025), across the year end.
    expect(q1.inceptionPartial).toBe(false);
    expect(q1.inceptionToDate).toEqual({
      fromQuarter: "2025-Q1",
      toQuarter: "2026-Q1",
      beginningNav: 0n,
      contributions: usd(350_000),
      distributions: usd(30_000),
      ...pnl({ managementFees: -27_500, partnershipExpenses: -1_000, otherIncome: 1_000, realizedGain: 12_000, unrealizedGainChange: 23_000, carriedInterestChange: -2_000 }),
      endingNav: usd(325_500),
      totalCommitment: usd(1_500_000),
      beginningUnfunded: 0n,
      commitmentIncreases: usd(1_500_000),
      lessContributions: usd(350_000),
      recallableDistributions: usd(20_000),
      endingUnfunded: usd(1_170_000),
    } satisfies RollForwardColumn);
    // Q4 2025: year to date and inception to date are both Q1–Q4 2025.
    const q4 = rollForward(history, "2025-Q4");
    expect(q4.yearToDate).toEqual(q4.inceptionToDate);
    expect(q4.yearToDate).toMatchObject({ fromQuarter: "2025-Q1", contributions: usd(300_000), endingNav: usd(263_000), endingUnfunded: usd(1_220_000) });
  });

  test("an imported history starts inception to date at its first quarter of P&L, and says so", () => {
    const imported: EntityFundHistory = { ...history, pnl: new Map([...history.pnl].filter(([q]) => q >= "2025-Q3")) };
    const q1 = rollForward(imported, "2026-Q1");
    expect(q1.inceptionPartial).toBe(true);
    expect(q1.inceptionToDate).toMatchObject({
      fromQuarter: "2025-Q3",
      // The valuation at the end of Q2 2025, before the first imported quarter.
      beginningNav: usd(190_000),
      contributions: usd(150_000),
      beginningUnfunded: usd(800_000),
      commitmentIncreases: usd(500_000),
      endingNav: usd(325_500),
      endingUnfunded: usd(1_170_000),
    });
    // Year to date is within the imported history: not partial on its own account.
    expect(q1.yearToDate.fromQuarter).toBe("2026-Q1");
    // The first imported quarter itself: inception to date is that quarter.
    expect(rollForward(imported, "2025-Q3")).toMatchObject({ inceptionPartial: true, inceptionToDate: { fromQuarter: "2025-Q3", toQuarter: "2025-Q3" } });
    // A later history's first quarter after the statement's is not used: inception is the statement's quarter at the latest.
    expect(rollForward(imported, "2025-Q2")).toMatchObject({ inceptionPartial: false, inceptionToDate: { fromQuarter: "2025-Q1" } });
  });
});

describe("the figures below the table", () => {
  test("paid in, distributed and the multiples as of the quarter's end, as the capital account page computes them", () => {
    expect(statementMetrics(history, "2025-Q4")).toEqual({
      paidInToDate: usd(300_000),
      distributedToDate: usd(30_000),
      dpi: 0.1,
      rvpi: 0.8767,
      tvpi: 0.9767,
      irr: null,
      irrNote: "under_one_year",
    });
    const q1 = statementMetrics(history, "2026-Q1");
    const page = capitalMetrics({
      commitment: usd(1_500_000),
      calls: history.calls.map((c) => ({ date: c.noticeDate, amount: c.amount })),
      payments: history.payments,
      distributions: history.distributions,
      valuations: [{ date: "2026-03-31", nav: usd(325_500) }],
    });
    expect(q1).toMatchObject({ paidInToDate: usd(350_000), dpi: page.dpi, rvpi: page.rvpi, tvpi: page.tvpi, irr: page.irr, irrNote: null });
    expect(q1.irr).toEqual(expect.any(Number));
    // Flows after the quarter's end do not count; without its valuation the multiples wait for one.
    const before = statementMetrics({ ...history, valuations: [] }, "2025-Q3");
    expect(before).toMatchObject({ paidInToDate: usd(200_000), distributedToDate: 0n, rvpi: null, irr: null, irrNote: "awaiting_valuation" });
  });

  test("the share of the fund is a percentage with 4 decimals, rounded half up in bigint", () => {
    expect(percentageOf(usd(1_000_000), usd(8_000_000))).toBe("12.5000");
    expect(percentageOf(1n, 3n)).toBe("33.3333");
    expect(percentageOf(2n, 3n)).toBe("66.6667");
    expect(percentageOf(5n, 5n)).toBe("100.0000");
    expect(percentageOf(1n, 2_000_000n)).toBe("0.0001");
    expect(percentageOf(1n, 2_000_001n)).toBe("0.0000");
    expect(percentageOf(5n, 0n)).toBe("0.0000");
    // A fund far beyond 2^53 cents still divides exactly.
    expect(percentageOf(10n ** 20n, 3n * 10n ** 20n)).toBe("33.3333");
  });
});

/** Random histories, valued at each quarter's end exactly as they roll forward (and a few cents off). */
const DAY = 86_400_000;
const dateOf = (offset: number) => new Date(Date.UTC(2024, 0, 1) + offset * DAY).toISOString().slice(0, 10);
const cents = fc.bigInt({ min: 0n, max: 10_000_000_00n });
const signed = fc.bigInt({ min: -1_000_000_00n, max: 1_000_000_00n });
const histories = fc
  .record({
    accepted: fc.integer({ min: 0, max: 360 }),
    commitment: fc.bigInt({ min: 1n, max: 50_000_000_00n }),
    raises: fc.array(fc.record({ day: fc.integer({ min: 0, max: 1000 }), amount: cents }), { maxLength: 2 }),
    calls: fc.array(fc.record({ day: fc.integer({ min: 0, max: 1000 }), notice: fc.integer({ min: 0, max: 90 }), amount: cents }), { maxLength: 8 }),
    distributions: fc.array(fc.record({ day: fc.integer({ min: 0, max: 1000 }), amount: cents, recallable: fc.bigInt({ min: 0n, max: 100n }) }), { maxLength: 5 }),
    pnl: fc.array(fc.tuple(signed, signed, signed, signed, signed, signed), { minLength: 16, maxLength: 16 }),
  })
  .map((input) => {
    const accepted = dateOf(input.accepted);
    const commitmentChanges = [
      { effectiveOn: accepted, amount: input.commitment },
      ...input.raises.map((r) => ({ effectiveOn: dateOf(input.accepted + r.day), amount: input.commitment + r.amount })).sort((a, b) => (a.effectiveOn < b.effectiveOn ? -1 : 1)),
    ];
    const calls = input.calls.map((c) => ({ noticeDate: dateOf(input.accepted + c.day), dueDate: dateOf(input.accepted + c.day + c.notice), amount: c.amount }));
    const distributions = input.distributions.map((d) => ({ date: dateOf(input.accepted + d.day), amount: d.amount, recallable: (d.amount * d.recallable) / 100n }));
    const quarters: string[] = [];
    for (let q = quarterOf(accepted); quarters.length < 16; q = nextQuarter(q)) quarters.push(q);
    const pnl = new Map(quarters.map((q, i) => [q, Object.fromEntries(PNL_KEYS.map((key, k) => [key, input.pnl[i]![k]!])) as PnlAmounts]));
    // Each quarter's end valued at what it rolls forward to.
    const valuations: { date: string; nav: bigint }[] = [];
    let nav = 0n;
    for (const q of quarters) {
      const [from, to] = [`${q.slice(0, 4)}-${["01", "04", "07", "10"][Number(q.slice(-1)) - 1]}-01`, quarterEnd(q)];
      for (const c of calls) if (c.dueDate >= from && c.dueDate <= to) nav += c.amount;
      for (const d of distributions) if (d.date >= from && d.date <= to) nav -= d.amount;
      nav += pnlTotal(pnl.get(q)!);
      valuations.push({ date: to, nav });
    }
    return { quarters, history: { commitmentChanges, calls, distributions, valuations, pnl, payments: [] } satisfies EntityFundHistory };
  });

const flow = (column: RollForwardColumn) => column.beginningNav + column.contributions - column.distributions + pnlTotal(column);

describe("properties", () => {
  test("a history valued as it rolls forward ties every quarter, and every column adds up", () => {
    fc.assert(
      fc.property(histories, fc.nat(15), ({ quarters, history }, i) => {
        const quarter = quarters[i]!;
        expect(tieOut(history, quarter)).toMatchObject({ difference: 0n, ok: true });
        const roll = rollForward(history, quarter);
        for (const column of [roll.quarter, roll.yearToDate, roll.inceptionToDate]) {
          // The NAV's roll-forward and the unfunded commitment's.
          expect(flow(column)).toBe(column.endingNav);
          expect(column.beginningUnfunded + column.commitmentIncreases - column.lessContributions + column.recallableDistributions).toBe(column.endingUnfunded);
          expect(column.endingNav).toBe(roll.quarter.endingNav);
          expect(column.endingUnfunded).toBe(roll.quarter.endingUnfunded);
          expect(column.totalCommitment).toBe(roll.quarter.totalCommitment);
        }
        // Inception to date from the acceptance: it starts at zero and raises the whole commitment.
        expect(roll.inceptionToDate).toMatchObject({ beginningNav: 0n, beginningUnfunded: 0n, commitmentIncreases: roll.quarter.totalCommitment });
        // Ending unfunded = commitment − every contribution due by the end + every recallable distribution by then.
        const end = quarterEnd(quarter);
        const due = history.calls.filter((c) => c.dueDate <= end).reduce((s, c) => s + c.amount, 0n);
        const recallable = history.distributions.filter((d) => d.date <= end).reduce((s, d) => s + d.recallable, 0n);
        expect(roll.quarter.endingUnfunded).toBe(roll.quarter.totalCommitment - due + recallable);
      }),
      { numRuns: 200 },
    );
  });

  test("any cent moved in a quarter's valuation is that quarter's difference, to the cent", () => {
    fc.assert(
      fc.property(histories, fc.nat(15), fc.bigInt({ min: -1000n, max: 1000n }).filter((n) => n !== 0n), ({ quarters, history }, i, off) => {
        const end = quarterEnd(quarters[i]!);
        const moved = { ...history, valuations: history.valuations.map((v) => (v.date === end ? { ...v, nav: v.nav + off } : v)) };
        expect(tieOut(moved, quarters[i]!)).toMatchObject({ difference: off, ok: false });
      }),
      { numRuns: 200 },
    );
  });
});
