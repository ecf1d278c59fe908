import { scaleLinear, scaleUtc } from "d3-scale";
import { curveLinear, curveStepAfter, line } from "d3-shape";
import { formatMoney, minorDigits, parseSignedAmount } from "../capital/money";
import type { FlowKind } from "./capital-account.server";

/**
 * The capital account's chart (issue 24 §8, DESIGN.md §10): an entity's
 * cumulative paid-in capital and cumulative distributions as step lines, and
 * its NAV as a line with points, over time. Server-side geometry only (d3-scale
 * for the scales, d3-shape for the lines): the page renders the paths as SVG in
 * its HTML, and no chart code reaches the browser.
 *
 * Two steps, both pure:
 * - `chartPoints`: the flows summed to one point per calendar quarter, from
 *   the quarter of the first payment, distribution or valuation to the quarter
 *   of the last (every quarter between, so the series is regular): paid in and
 *   distributed to the quarter's end, and the NAV of the latest valuation dated
 *   in that quarter (null when none was). A history of more than
 *   MAX_QUARTER_POINTS quarters is drawn by year instead (each year's end, the
 *   last year to its latest quarter), so a chart and its data table stay the
 *   same size however long the history: ten years are eleven points, not forty.
 *   Money stays bigint minor units; the last point's paid in and distributed are
 *   the account's.
 * - `chartGeometry`: the points as SVG path data in a 100 × 100 box (x and y in
 *   percent of the plot; the page stretches it to its width), coordinates
 *   rounded to one decimal, written with the shortest commands (H and V for a
 *   step), and the axes' ticks at the same percentages for HTML labels.
 *   Coordinates are floats: they place ink, they are never money.
 */

export type ChartFlow = { date: string; kind: FlowKind; amount: string };

export type ChartPoint = {
  /** "Q3 2025" for a quarter, "2024" for a whole year (a year still running: its latest quarter, "Q1 2026"). */
  label: string;
  /** The period's first and last days, 'YYYY-MM-DD' (the first period starts with the history's first quarter). */
  start: string;
  end: string;
  /** Cumulative to the period's end, minor units. */
  paidIn: bigint;
  distributed: bigint;
  /** The latest valuation dated in the period; null when there was none. */
  nav: bigint | null;
};

/** Up to this many quarters are drawn quarter by quarter; a longer history year by year. */
export const MAX_QUARTER_POINTS = 20;

const pad = (n: number) => String(n).padStart(2, "0");
const LAST_DAY = ["03-31", "06-30", "09-30", "12-31"] as const;

function quarterIndexOf(date: string): number {
  return Number(date.slice(0, 4)) * 4 + Math.floor((Number(date.slice(5, 7)) - 1) / 3);
}

/** One point per quarter from the first flow that moves money or values it to the last; [] when there is none (calls alone draw nothing). */
export function quarterlyPoints(flows: readonly ChartFlow[], currency: string): ChartPoint[] {
  const minor = (amount: string) => {
    const parsed = parseSignedAmount(amount, currency);
    if (!parsed.ok) throw new RangeError(`Not an amount in ${currency}: ${amount}`);
    return parsed.minor;
  };
  const drawn = flows.filter((f) => f.kind !== "call").sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  if (!drawn.length) return [];
  const first = quarterIndexOf(drawn[0]!.date);
  const last = quarterIndexOf(drawn[drawn.length - 1]!.date);
  const points: ChartPoint[] = [];
  let paidIn = 0n;
  let distributed = 0n;
  let i = 0;
  for (let index = first; index <= last; index++) {
    const year = Math.floor(index / 4);
    const q = (index % 4) + 1;
    const end = `${year}-${LAST_DAY[q - 1]}`;
    let nav: { date: string; value: bigint } | null = null;
    for (; i < drawn.length && drawn[i]!.date <= end; i++) {
      const flow = drawn[i]!;
      if (flow.kind === "payment") paidIn += minor(flow.amount);
      else if (flow.kind === "distribution") distributed += minor(flow.amount);
      // Of two valuations in a quarter, the later date; of two on one date, the later one listed.
      else if (flow.kind === "valuation" && (!nav || flow.date >= nav.date)) nav = { date: flow.date, value: minor(flow.amount) };
    }
    points.push({ label: `Q${q} ${year}`, start: `${year}-${pad(q * 3 - 2)}-01`, end, paidIn, distributed, nav: nav?.value ?? null });
  }
  return points;
}

/**
 * The chart's points: quarterlyPoints, or for a history longer than
 * MAX_QUARTER_POINTS one point per year (its last quarter's sums, the latest
 * NAV of its quarters).
 */
export function chartPoints(flows: readonly ChartFlow[], currency: string): ChartPoint[] {
  const quarters = quarterlyPoints(flows, currency);
  if (quarters.length <= MAX_QUARTER_POINTS) return quarters;
  const years: ChartPoint[] = [];
  for (const quarter of quarters) {
    const year = quarter.end.slice(0, 4);
    const current = years[years.length - 1];
    if (current && current.end.slice(0, 4) === year) {
      years[years.length - 1] = { ...quarter, label: quarter.end.endsWith("12-31") ? year : quarter.label, start: current.start, nav: quarter.nav ?? current.nav };
    } else {
      years.push({ ...quarter, label: quarter.end.endsWith("12-31") ? year : quarter.label });
    }
  }
  return years;
}

/**
 * What the chart's one-sentence summary (its text for those who cannot see
 * it: the page's and the statement PDF's) says of the points: the first and
 * last period, paid in and distributed by the last one's end, and the latest
 * NAV with its period. Null when there is no point.
 */
export function chartSummaryFacts(points: readonly ChartPoint[], currency: string) {
  const first = points[0];
  const last = points[points.length - 1];
  if (!first || !last) return null;
  const money = (minor: bigint) => formatMoney(minor, currency);
  const valued = points.findLast((p) => p.nav !== null);
  return {
    from: first.label,
    to: last.label,
    paidIn: money(last.paidIn),
    distributed: money(last.distributed),
    nav: valued ? money(valued.nav!) : null,
    navPeriod: valued ? valued.label : null,
  };
}

/** The chart's SVG data: path strings in a 100 × 100 box (y down), and the axes' ticks in percent. */
export type ChartGeometry = {
  /** Horizontal grid lines at the y ticks, one path. */
  grid: string;
  paidIn: string;
  distributed: string;
  /** The NAV line through the quarters that have one; null with fewer than two. */
  nav: string | null;
  /** NAV points as zero-length segments (drawn as dots by round caps): all of them up to DOT_LIMIT, else the latest. */
  navDots: string | null;
  /** Percent from the top, and the label ('$1.5M'). */
  yTicks: { y: number; label: string }[];
  /** Percent from the left, the label ('2024', 'Q3 2025'), and how the label sits on its tick. */
  xTicks: { x: number; label: string; align: "start" | "middle" | "end" }[];
};

/** Up to this many NAV points each get a dot; a longer history dots only its latest. */
export const DOT_LIMIT = 12;
/** At most this many labels under the x axis. */
const MAX_X_LABELS = 6;

/** A number rounded to one decimal, as short as it writes ('12.5', '40', '0'). */
const round = (value: number) => {
  const r = Math.round(value * 10) / 10;
  return Object.is(r, -0) ? 0 : r;
};

/**
 * A d3-path context that writes the shortest SVG commands: H or V when only
 * one coordinate moves, nothing for a move to where the pen already is.
 */
class CompactPath {
  private done = "";
  /** The last command, kept open: a run of H (or V) becomes its last one. */
  private open = "";
  private kind: "M" | "H" | "V" | "L" = "M";
  private x = Number.NaN;
  private y = Number.NaN;
  private write(kind: CompactPath["kind"], command: string) {
    if (!(kind === this.kind && (kind === "H" || kind === "V"))) this.done += this.open;
    this.open = command;
    this.kind = kind;
  }
  moveTo(x: number, y: number) {
    this.x = round(x);
    this.y = round(y);
    this.write("M", `M${this.x},${this.y}`);
  }
  lineTo(x: number, y: number) {
    const rx = round(x);
    const ry = round(y);
    if (rx === this.x && ry === this.y) return;
    if (ry === this.y) this.write("H", `H${rx}`);
    else if (rx === this.x) this.write("V", `V${ry}`);
    else this.write("L", `L${rx},${ry}`);
    this.x = rx;
    this.y = ry;
  }
  closePath() {
    // A single point 'closes' in d3; the dots draw it instead.
  }
  toString() {
    return this.done + this.open;
  }
}

/** d3-shape's line through `points` with `curve`, written by CompactPath. */
function pathOf(points: readonly [number, number][], curve: typeof curveLinear): string {
  const context = new CompactPath();
  line<[number, number]>()
    .x((p) => p[0])
    .y((p) => p[1])
    .curve(curve)
    .context(context as unknown as CanvasRenderingContext2D)(points as [number, number][]);
  return context.toString();
}

const utc = (day: string) => new Date(`${day}T00:00:00Z`);
/** The instant a period has ended: the day after its last. */
const after = (point: ChartPoint) => new Date(utc(point.end).getTime() + 86_400_000);

/** Minor units as a number of major units, for placing ink (never for money). */
const major = (minor: bigint, digits: number) => Number(minor) / 10 ** digits;

/** The geometry of `points` (chartPoints' answer, not empty). */
export function chartGeometry(points: readonly ChartPoint[], currency: string): ChartGeometry {
  if (!points.length) throw new RangeError("chartGeometry needs at least one point");
  const digits = minorDigits(currency);
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const from = utc(first.start);
  const to = after(last);
  const x = scaleUtc().domain([from, to]).range([0, 100]);
  const top = points.reduce((max, p) => {
    const m = p.paidIn > p.distributed ? p.paidIn : p.distributed;
    const highest = p.nav !== null && p.nav > m ? p.nav : m;
    return highest > max ? highest : max;
  }, 0n);
  const y = scaleLinear()
    .domain([0, top > 0n ? major(top, digits) : 1])
    .nice(4)
    .range([100, 0]);

  // Each cumulative series starts at zero where the first period starts, then steps at each period's end.
  const start: [number, number] = [x(from), y(0)];
  const stepped = (value: (p: ChartPoint) => bigint) => pathOf([start, ...points.map((p): [number, number] => [x(after(p)), y(major(value(p), digits))])], curveStepAfter);
  const valued = points.filter((p) => p.nav !== null).map((p): [number, number] => [x(after(p)), y(major(p.nav!, digits))]);
  const dotted = valued.length <= DOT_LIMIT ? valued : valued.slice(-1);

  const yTicks = y.ticks(4);
  const compact = new Intl.NumberFormat("en-US", { style: "currency", currency, notation: "compact", minimumFractionDigits: 0, maximumFractionDigits: 1 });

  // Year starts where the chart spans two or more, else quarter starts; thinned to MAX_X_LABELS.
  let ticks: { at: Date; label: string }[] = [];
  for (let year = from.getUTCFullYear(); year <= to.getUTCFullYear(); year++) {
    const at = new Date(Date.UTC(year, 0, 1));
    if (at >= from && at <= to) ticks.push({ at, label: String(year) });
  }
  if (ticks.length < 2) {
    ticks = [];
    // The quarters drawn (the domain's end is the next quarter's start, not labelled).
    for (let at = from; at < to; at = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 3, 1))) {
      ticks.push({ at, label: `Q${Math.floor(at.getUTCMonth() / 3) + 1} ${at.getUTCFullYear()}` });
    }
  }
  const every = Math.ceil(ticks.length / MAX_X_LABELS);
  const xTicks = ticks
    .filter((_, i) => i % every === 0)
    .map(({ at, label }) => {
      const position = round(x(at));
      return { x: position, label, align: position < 8 ? ("start" as const) : position > 92 ? ("end" as const) : ("middle" as const) };
    });

  return {
    grid: yTicks.map((t) => `M0,${round(y(t))}H100`).join(""),
    paidIn: stepped((p) => p.paidIn),
    distributed: stepped((p) => p.distributed),
    nav: valued.length >= 2 ? pathOf(valued, curveLinear) : null,
    navDots: dotted.length ? dotted.map(([px, py]) => `M${round(px)},${round(py)}h0`).join("") : null,
    yTicks: yTicks.map((t) => ({ y: round(y(t)), label: compact.format(t) })),
    xTicks,
  };
}
