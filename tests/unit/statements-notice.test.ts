import { describe, expect, test } from "vitest";
import { byType, noticeFigures, type NoticeFigureInput } from "~/modules/statements/notice-figures";

/**
 * A notice's figures in the ILPA notice layout (issue 25 §3), pure: the fund's
 * and the investor's cumulative calls and distributions before the notice,
 * this notice by type, and the investor's unfunded commitment after it.
 */

const usd = (dollars: number) => BigInt(Math.round(dollars * 100));

/** Fund of $8,000,000 in commitments; the investor holds $1,000,000 (12.5 %), has been called $300,000 and received $50,000, $20,000 of it recallable. */
const call: NoticeFigureInput = {
  kind: "call",
  fundCommitments: usd(8_000_000),
  fundBefore: { contributions: usd(2_400_000), distributions: usd(400_000) },
  fundLines: [
    { type: "investment", amount: usd(600_000) },
    { type: "management_fee", amount: usd(40_000) },
    { type: "investment", amount: usd(160_000) },
  ],
  investor: {
    commitment: usd(1_000_000),
    before: { contributions: usd(300_000), distributions: usd(50_000), recallable: usd(20_000) },
    lines: [
      { type: "investment", amount: usd(75_000), recallable: false },
      { type: "management_fee", amount: usd(5_000), recallable: false },
      { type: "investment", amount: usd(20_000), recallable: false },
    ],
  },
};

describe("a call's notice", () => {
  test("the fund's section: commitments, cumulative before, and this notice by type", () => {
    expect(noticeFigures(call).fund).toEqual({
      totalCommitments: usd(8_000_000),
      contributionsBefore: usd(2_400_000),
      distributionsBefore: usd(400_000),
      thisNotice: [
        { type: "investment", amount: usd(760_000) },
        { type: "management_fee", amount: usd(40_000) },
      ],
      total: usd(800_000),
    });
  });

  test("the investor's section: cumulative before and after, the amount due and the unfunded commitment after it", () => {
    expect(noticeFigures(call).investor).toEqual({
      commitment: usd(1_000_000),
      shareOfFund: "12.5000",
      contributionsBefore: usd(300_000),
      distributionsBefore: usd(50_000),
      thisNotice: [
        { type: "investment", amount: usd(95_000) },
        { type: "management_fee", amount: usd(5_000) },
      ],
      total: usd(100_000),
      contributionsAfter: usd(400_000),
      distributionsAfter: usd(50_000),
      // 1,000,000 − (300,000 + 100,000) + 20,000 recallable.
      unfundedAfter: usd(620_000),
    });
  });

  test("the first call of a fund: nothing before, the whole commitment less this call unfunded after", () => {
    const first = noticeFigures({ ...call, fundBefore: { contributions: 0n, distributions: 0n }, investor: { ...call.investor, before: { contributions: 0n, distributions: 0n, recallable: 0n } } });
    expect(first.fund).toMatchObject({ contributionsBefore: 0n, distributionsBefore: 0n });
    expect(first.investor).toMatchObject({ contributionsBefore: 0n, contributionsAfter: usd(100_000), unfundedAfter: usd(900_000) });
  });
});

describe("a distribution's notice", () => {
  const distribution: NoticeFigureInput = {
    ...call,
    kind: "distribution",
    fundLines: [
      { type: "return_of_capital", amount: usd(400_000) },
      { type: "realized_gain", amount: usd(240_000) },
    ],
    investor: {
      ...call.investor,
      lines: [
        { type: "return_of_capital", amount: usd(50_000), recallable: true },
        { type: "realized_gain", amount: usd(30_000), recallable: false },
      ],
    },
  };

  test("adds to distributions, not contributions; its recallable part adds back to the unfunded commitment", () => {
    const figures = noticeFigures(distribution);
    expect(figures.fund).toMatchObject({ total: usd(640_000), thisNotice: [{ type: "return_of_capital", amount: usd(400_000) }, { type: "realized_gain", amount: usd(240_000) }] });
    expect(figures.investor).toMatchObject({
      total: usd(80_000),
      contributionsAfter: usd(300_000),
      distributionsAfter: usd(130_000),
      // 1,000,000 − 300,000 + 20,000 recallable before + 50,000 recallable now.
      unfundedAfter: usd(770_000),
    });
  });

  test("a return of capital that is not recallable leaves the unfunded commitment where it was", () => {
    const figures = noticeFigures({ ...distribution, investor: { ...distribution.investor, lines: distribution.investor.lines.map((l) => ({ ...l, recallable: false })) } });
    expect(figures.investor.unfundedAfter).toBe(usd(720_000));
  });
});

test("amounts by type keep the order in which each type first appears", () => {
  expect(
    byType([
      { type: "b", amount: 1n },
      { type: "a", amount: 2n },
      { type: "b", amount: 3n },
    ]),
  ).toEqual([
    { type: "b", amount: 4n },
    { type: "a", amount: 2n },
  ]);
  expect(byType([])).toEqual([]);
});
