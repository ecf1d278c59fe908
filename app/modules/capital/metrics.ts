import { daysBetween, xirr, type DatedFlow } from "./xirr";

/**
 * An entity's figures in one fund (DESIGN.md §10, the ILPA words), from its
 * commitment and its dated flows, all in bigint minor units of the fund's
 * currency and 'YYYY-MM-DD' dates.
 *
 * Two horizons:
 * - all time (every flow given, whatever its date): commitment, called, paid in,
 *   outstanding, unfunded, distributed, recallable; the caller decides which
 *   entries count (published ones) and passes only those;
 * - as of the latest valuation (`asOf`, its date): DPI, RVPI, TVPI and IRR use
 *   only the payments and distributions dated on or before it, so the NAV and
 *   the cash beside it describe the same day. Without a valuation there is no
 *   `asOf`: DPI is then over all flows, and RVPI, TVPI and IRR are null.
 *
 * Multiples are numbers rounded half away from zero to 4 decimals, computed in
 * bigint (the ratio × 10^4, rounded, then ÷ 10^4), and TVPI is the sum of the
 * rounded DPI and RVPI, so the three figures a statement shows add up.
 */

export type CapitalFlowsInput = {
  commitment: bigint;
  /** Capital calls: notice date and amount. */
  calls: readonly { date: string; amount: bigint }[];
  /** Payments received against calls: date received and amount. */
  payments: readonly { date: string; amount: bigint }[];
  /** Distributions: payment date, amount, and the part of it that may be called again. */
  distributions: readonly { date: string; amount: bigint; recallable: bigint }[];
  /** Valuations of the entity's interest: date and net asset value. */
  valuations: readonly { date: string; nav: bigint }[];
};

/**
 * Why there is no IRR: no valuation yet; the first flow is less than 365 days
 * before the valuation (an annualised rate of a few months means nothing); the
 * flows up to the valuation are all of one sign; or, rarely, no rate solves them.
 * Pages show "n/m" for the last three.
 */
export type IrrNote = "awaiting_valuation" | "under_one_year" | "no_sign_change" | "no_solution";

export type CapitalMetrics = {
  commitment: bigint;
  called: bigint;
  paidIn: bigint;
  /** called − paid in: called and not yet received. */
  outstanding: bigint;
  /** commitment − called + recallable distributions. */
  unfunded: bigint;
  distributed: bigint;
  /** The recallable part of the distributions. */
  recallable: bigint;
  /** The latest valuation's NAV and date; null without a valuation. */
  nav: bigint | null;
  navDate: string | null;
  /** The date of the multiples and the IRR: the latest valuation's, or null. */
  asOf: string | null;
  dpi: number | null;
  rvpi: number | null;
  tvpi: number | null;
  irr: number | null;
  irrNote: IrrNote | null;
};

/** An IRR needs the first flow at least this many days before the valuation. */
export const IRR_MIN_DAYS = 365;

const MULTIPLE_SCALE = 10_000n;

function sum<T>(items: readonly T[], value: (item: T) => bigint): bigint {
  let total = 0n;
  for (const item of items) total += value(item);
  return total;
}

/** a ÷ b × 10^4, rounded half away from zero (b > 0). */
function multipleUnits(a: bigint, b: bigint): bigint {
  const negative = a < 0n;
  const magnitude = ((negative ? -a : a) * MULTIPLE_SCALE * 2n + b) / (2n * b);
  return negative ? -magnitude : magnitude;
}

const toMultiple = (units: bigint) => Number(units) / Number(MULTIPLE_SCALE);

/** The latest valuation; of two on the same date, the later one in the input (the caller orders by entry). */
function latest(valuations: CapitalFlowsInput["valuations"]) {
  let best: CapitalFlowsInput["valuations"][number] | null = null;
  for (const valuation of valuations) if (!best || valuation.date >= best.date) best = valuation;
  return best;
}

/** The IRR and its note, as of `asOf` with the NAV `nav`. */
function irrAsOf(input: CapitalFlowsInput, asOf: string, nav: bigint): { irr: number | null; irrNote: IrrNote | null } {
  // 'YYYY-MM-DD' strings order as dates do.
  const payments = input.payments.filter((p) => p.date <= asOf);
  const distributions = input.distributions.filter((d) => d.date <= asOf);
  const flows: DatedFlow[] = [
    ...payments.map((p) => ({ date: p.date, amount: -Number(p.amount) })),
    ...distributions.map((d) => ({ date: d.date, amount: Number(d.amount) })),
    { date: asOf, amount: Number(nav) },
  ];
  const cash = flows.slice(0, -1).filter((f) => f.amount !== 0);
  if (cash.length === 0) return { irr: null, irrNote: "no_sign_change" };
  const first = cash.reduce((min, flow) => (flow.date < min ? flow.date : min), asOf);
  if (daysBetween(first, asOf) < IRR_MIN_DAYS) return { irr: null, irrNote: "under_one_year" };
  if (!flows.some((f) => f.amount > 0) || !flows.some((f) => f.amount < 0)) return { irr: null, irrNote: "no_sign_change" };
  const irr = xirr(flows);
  return irr === null ? { irr: null, irrNote: "no_solution" } : { irr, irrNote: null };
}

/** The capital account's figures; see the module's comment for the horizons and the rounding. */
export function capitalMetrics(input: CapitalFlowsInput): CapitalMetrics {
  const called = sum(input.calls, (c) => c.amount);
  const paidIn = sum(input.payments, (p) => p.amount);
  const distributed = sum(input.distributions, (d) => d.amount);
  const recallable = sum(input.distributions, (d) => d.recallable);
  const base = {
    commitment: input.commitment,
    called,
    paidIn,
    outstanding: called - paidIn,
    unfunded: input.commitment - called + recallable,
    distributed,
    recallable,
  };

  const valuation = latest(input.valuations);
  if (!valuation) {
    return {
      ...base,
      nav: null,
      navDate: null,
      asOf: null,
      dpi: paidIn > 0n ? toMultiple(multipleUnits(distributed, paidIn)) : null,
      rvpi: null,
      tvpi: null,
      irr: null,
      irrNote: "awaiting_valuation",
    };
  }

  const asOf = valuation.date;
  const paidInAsOf = sum(input.payments, (p) => (p.date <= asOf ? p.amount : 0n));
  const distributedAsOf = sum(input.distributions, (d) => (d.date <= asOf ? d.amount : 0n));
  let multiples = { dpi: null as number | null, rvpi: null as number | null, tvpi: null as number | null };
  if (paidInAsOf > 0n) {
    const dpi = multipleUnits(distributedAsOf, paidInAsOf);
    const rvpi = multipleUnits(valuation.nav, paidInAsOf);
    multiples = { dpi: toMultiple(dpi), rvpi: toMultiple(rvpi), tvpi: toMultiple(dpi + rvpi) };
  }
  return { ...base, nav: valuation.nav, navDate: asOf, asOf, ...multiples, ...irrAsOf(input, asOf, valuation.nav) };
}
