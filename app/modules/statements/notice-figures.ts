import { percentageOf } from "./rollforward";

/**
 * A call's or distribution's notice figures in the ILPA notice layout (issue
 * 25 §3): pure, bigint minor units. notice-docs.server.ts reads the inputs.
 *
 * "Before this notice" is every published entry of the fund earlier than this
 * one: an earlier date (a call's notice date, a distribution's payment date),
 * or the same date, the same kind and a lower number. An entry of the other
 * kind on the same date is neither before nor after (a call and a
 * distribution of one day are simultaneous): it is not counted before. Calls
 * count here from their notice date, as the notice and the capital account
 * page count them (the statement counts them by due date).
 *
 * The investor's unfunded commitment after the notice = their commitment in
 * force on the entry's date − everything called of them up to and including
 * this notice + the recallable part of the distributions up to and including it.
 */

export type NoticeAmount = { type: string; amount: bigint };

export type NoticeFigureInput = {
  kind: "call" | "distribution";
  /** The commitments in force on the entry's date, summed over the fund's entities. */
  fundCommitments: bigint;
  /** The fund's published calls and distributions before this entry (fund-level totals). */
  fundBefore: { contributions: bigint; distributions: bigint };
  /** The entry's lines (fund-level), in their order. */
  fundLines: readonly NoticeAmount[];
  investor: {
    /** Their commitment in force on the entry's date. */
    commitment: bigint;
    /** Their shares of the entries before this one; `recallable` is the recallable part of the distributions. */
    before: { contributions: bigint; distributions: bigint; recallable: bigint };
    /** Their share of each line of this entry, with whether the line is recallable (a return of capital). */
    lines: readonly (NoticeAmount & { recallable: boolean })[];
  };
};

export type NoticeFigures = {
  fund: { totalCommitments: bigint; contributionsBefore: bigint; distributionsBefore: bigint; thisNotice: NoticeAmount[]; total: bigint };
  investor: {
    commitment: bigint;
    /** Percentage of the fund's commitments, 4 decimals ("12.5000"). */
    shareOfFund: string;
    contributionsBefore: bigint;
    distributionsBefore: bigint;
    thisNotice: NoticeAmount[];
    /** Due (a call) or payable (a distribution). */
    total: bigint;
    contributionsAfter: bigint;
    distributionsAfter: bigint;
    unfundedAfter: bigint;
  };
};

/** Amounts summed by type, each type where it first appears. */
export function byType(lines: readonly NoticeAmount[]): NoticeAmount[] {
  const sums = new Map<string, bigint>();
  for (const line of lines) sums.set(line.type, (sums.get(line.type) ?? 0n) + line.amount);
  return [...sums].map(([type, amount]) => ({ type, amount }));
}

const total = (lines: readonly NoticeAmount[]) => lines.reduce((sum, line) => sum + line.amount, 0n);

export function noticeFigures(input: NoticeFigureInput): NoticeFigures {
  const { investor } = input;
  const isCall = input.kind === "call";
  const own = total(investor.lines);
  const recallableNow = isCall ? 0n : investor.lines.reduce((sum, line) => sum + (line.recallable ? line.amount : 0n), 0n);
  const contributionsAfter = investor.before.contributions + (isCall ? own : 0n);
  const distributionsAfter = investor.before.distributions + (isCall ? 0n : own);
  return {
    fund: {
      totalCommitments: input.fundCommitments,
      contributionsBefore: input.fundBefore.contributions,
      distributionsBefore: input.fundBefore.distributions,
      thisNotice: byType(input.fundLines),
      total: total(input.fundLines),
    },
    investor: {
      commitment: investor.commitment,
      shareOfFund: percentageOf(investor.commitment, input.fundCommitments),
      contributionsBefore: investor.before.contributions,
      distributionsBefore: investor.before.distributions,
      thisNotice: byType(investor.lines),
      total: own,
      contributionsAfter,
      distributionsAfter,
      unfundedAfter: investor.commitment - contributionsAfter + investor.before.recallable + recallableNow,
    },
  };
}
