/**
 * XIRR (DESIGN.md §10): the annual rate at which dated flows have a net present
 * value of zero, actual/365 as in Excel (a flow's time is its days after the
 * first flow, ÷ 365). Floats are right here, unlike money: a rate is a ratio,
 * and the caller turns minor units into numbers (exact below 2^53).
 *
 * Newton–Raphson from 0.1 finds the usual case in a few steps, and is what Excel
 * does. It fails on short, losing histories (−1000, then +10 400 days later: the
 * first step lands far below −100%), so when it does not converge or leaves the
 * domain (rate ≤ −1), a scan finds where the NPV changes sign and bisection
 * closes in on it, in ln(1 + rate), where the NPV can be scaled so that nothing
 * overflows however close the rate gets to −100%.
 */

export type DatedFlow = { date: string /* YYYY-MM-DD */; amount: number };

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a calendar date 'YYYY-MM-DD'; throws on anything else (2025-02-30 included). */
export function dayNumber(date: string): number {
  const match = ISO_DAY.exec(date);
  if (match) {
    const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const ms = Date.UTC(y, m - 1, d);
    const back = new Date(ms);
    if (back.getUTCFullYear() === y && back.getUTCMonth() === m - 1 && back.getUTCDate() === d) return ms / DAY_MS;
  }
  throw new RangeError(`Not a calendar date (YYYY-MM-DD): ${JSON.stringify(date)}`);
}

/** Calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** Tolerance on the rate (relative above 100%). */
const TOLERANCE = 1e-10;
const NEWTON_GUESS = 0.1;
const NEWTON_STEPS = 100;
/** The scan's range, in ln(1 + rate): from a rate of −(1 − 1e−9) to one of about 1e10 (10^12 %). */
const SCAN_LOW = Math.log(1e-9);
const SCAN_HIGH = Math.log(1e10);
const SCAN_STEP = 0.05;

type Point = { t: number; a: number };

function newton(points: readonly Point[]): number | null {
  let rate = NEWTON_GUESS;
  for (let step = 0; step < NEWTON_STEPS; step++) {
    let npv = 0;
    let slope = 0;
    for (const { t, a } of points) {
      const discounted = a * Math.pow(1 + rate, -t);
      npv += discounted;
      slope -= (t * discounted) / (1 + rate);
    }
    if (!Number.isFinite(npv) || !Number.isFinite(slope) || slope === 0) return null;
    const next = rate - npv / slope;
    if (!Number.isFinite(next) || next <= -1) return null;
    if (Math.abs(next - rate) <= TOLERANCE * Math.max(1, Math.abs(next))) return solves(points, next) ? next : null;
    rate = next;
  }
  return null;
}

/** A small step is not yet a root: the NPV at `rate` must be nil next to the size of its terms. */
function solves(points: readonly Point[], rate: number): boolean {
  let npv = 0;
  let size = 0;
  for (const { t, a } of points) {
    const discounted = a * Math.pow(1 + rate, -t);
    npv += discounted;
    size += Math.abs(discounted);
  }
  return Number.isFinite(size) && Math.abs(npv) <= 1e-7 * size;
}

/**
 * The NPV at rate e^x − 1, times a positive factor e^(x·T) that keeps every term
 * at most |a|: T is the last flow's time when x < 0, else 0. The factor changes
 * neither the sign nor the roots, which is all the bisection needs.
 */
function scaledNpv(points: readonly Point[], last: number, x: number): number {
  const shift = x < 0 ? last : 0;
  let sum = 0;
  for (const { t, a } of points) sum += a * Math.exp(-x * (t - shift));
  return sum;
}

function bracketed(points: readonly Point[]): number | null {
  const last = points.reduce((max, p) => Math.max(max, p.t), 0);
  const at = (x: number) => scaledNpv(points, last, x);
  const home = Math.log(1 + NEWTON_GUESS);
  // Of all the sign changes on the grid, the one nearest the usual guess (several
  // roots happen only when the flows change sign more than once).
  let best: { lo: number; hi: number; flo: number } | null = null;
  let distance = Infinity;
  let x0 = SCAN_LOW;
  let f0 = at(x0);
  for (let i = 1; x0 < SCAN_HIGH; i++) {
    const x1 = Math.min(SCAN_LOW + i * SCAN_STEP, SCAN_HIGH);
    const f1 = at(x1);
    if (f0 === 0 || Math.sign(f0) !== Math.sign(f1)) {
      const d = Math.abs((x0 + x1) / 2 - home);
      if (d < distance) {
        distance = d;
        best = { lo: x0, hi: x1, flo: f0 };
      }
    }
    x0 = x1;
    f0 = f1;
  }
  if (!best) return null;
  let { lo, hi } = best;
  const { flo } = best;
  if (flo === 0) return Math.exp(lo) - 1;
  for (let step = 0; step < 200; step++) {
    const mid = (lo + hi) / 2;
    const fmid = at(mid);
    if (fmid === 0) return Math.exp(mid) - 1;
    if (Math.sign(fmid) === Math.sign(flo)) lo = mid;
    else hi = mid;
    const rlo = Math.exp(lo) - 1;
    const rhi = Math.exp(hi) - 1;
    if (rhi - rlo <= (TOLERANCE / 10) * Math.max(1, Math.abs(rhi)) || hi - lo <= 1e-15) break;
  }
  return Math.exp((lo + hi) / 2) - 1;
}

/**
 * The annual rate (0.1 = 10%) of dated flows (outflows negative, inflows
 * positive), in any order; null when the flows have no sign change (all ≥ 0 or
 * all ≤ 0) or no rate is found (Newton may find any rate; the scan looks between
 * −100% and about 10^12 %). With several roots (flows that change sign more than
 * once), Newton's from 0.1, else the one nearest 0.1. Throws on a date that is
 * not 'YYYY-MM-DD' or an amount that is not finite.
 */
export function xirr(flows: readonly DatedFlow[]): number | null {
  const days = flows.map((flow) => {
    if (!Number.isFinite(flow.amount)) throw new RangeError(`Not a finite amount: ${flow.amount}`);
    return dayNumber(flow.date);
  });
  if (days.length === 0) return null;
  // Times count from the earliest flow: any origin gives the same root, this one keeps them ≥ 0.
  const first = days.reduce((min, day) => Math.min(min, day), Infinity);
  const points: Point[] = [];
  flows.forEach((flow, i) => {
    if (flow.amount !== 0) points.push({ t: (days[i]! - first) / 365, a: flow.amount });
  });
  if (!points.some((p) => p.a > 0) || !points.some((p) => p.a < 0)) return null;
  return newton(points) ?? bracketed(points);
}
