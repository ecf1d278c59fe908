import { statementPdfCopy as copy } from "~/content/pdf";
import type { StoredChartPoint } from "../statements/types";
import { chartGeometry, chartSummaryFacts, type ChartGeometry, type ChartPoint } from "../capital-account/chart.server";
import { parseSignedAmount } from "../capital/money";
import { COLOR, SIZE, put } from "./layout";
import { FONT } from "./fonts";

/**
 * The capital account's chart in a statement PDF (issue 25 §4): the same
 * geometry as the page's (capital-account/chart.server.ts chartGeometry, a
 * 100 × 100 box of SVG path data), scaled into a box of the page and drawn as
 * vector paths, with the axes' labels and a legend as real text.
 */

export type Box = { x: number; y: number; width: number; height: number };

/** The stored points (decimal strings) back in the chart's bigint shape. */
export function chartPointsOf(points: readonly StoredChartPoint[], currency: string): ChartPoint[] {
  const minor = (amount: string) => {
    const parsed = parseSignedAmount(amount, currency);
    if (!parsed.ok) throw new RangeError(`Not an amount in ${currency}: ${amount}`);
    return parsed.minor;
  };
  return points.map((p) => ({ label: p.label, start: p.start, end: p.end, paidIn: minor(p.paidIn), distributed: minor(p.distributed), nav: p.nav === null ? null : minor(p.nav) }));
}

const COMMAND = /([MLHVmlhv])([^MLHVmlhv]*)/g;

/**
 * SVG path data of the 100 × 100 box moved into `box` (x and y scaled apart,
 * so strokes keep their width). The geometry writes M, L, H, V and h (its
 * dots); relative commands scale without moving.
 */
export function scalePath(d: string, box: Box): string {
  const sx = box.width / 100;
  const sy = box.height / 100;
  const fmt = (n: number) => String(Math.round(n * 100) / 100);
  let out = "";
  for (const [, command = "", args = ""] of d.matchAll(COMMAND)) {
    const numbers = args.trim() ? args.trim().split(/[\s,]+/).map(Number) : [];
    const mapped = numbers.map((n, i) => {
      switch (command) {
        case "M":
        case "L":
          return i % 2 === 0 ? box.x + n * sx : box.y + n * sy;
        case "m":
        case "l":
          return i % 2 === 0 ? n * sx : n * sy;
        case "H":
          return box.x + n * sx;
        case "h":
          return n * sx;
        case "V":
          return box.y + n * sy;
        default:
          return n * sy;
      }
    });
    out += command + mapped.map(fmt).join(",");
  }
  return out;
}

/** Room under the plot for the x labels, left of it for the y labels, above it for the legend. */
const GUTTER = { left: 44, bottom: 16, top: 26, right: 6 } as const;

/**
 * The chart in `box`: the legend on top, the grid, the three series, the
 * labels. Returns the one-sentence summary the structure tree gives it as
 * alternative text, or null when there is nothing to draw (no point yet; the
 * box then says so).
 */
export function drawChart(doc: PDFKit.PDFDocument, box: Box, input: { points: readonly StoredChartPoint[]; currency: string; fund: string; entity: string }): void {
  const points = chartPointsOf(input.points, input.currency);
  // Legend: a short stroke in each series' colour, then its name.
  let lx = box.x;
  const ly = box.y + 4;
  const series = [
    { color: COLOR.paidIn, label: copy.chart.legend.paidIn },
    { color: COLOR.distributed, label: copy.chart.legend.distributed },
    { color: COLOR.nav, label: copy.chart.legend.nav },
  ];
  for (const { color, label } of series) {
    doc.save().lineWidth(1.6).lineCap("round").strokeColor(color).moveTo(lx, ly + 3.2).lineTo(lx + 10, ly + 3.2).stroke().restore();
    put(doc, label, lx + 14, ly, { size: SIZE.small, color: COLOR.body });
    lx += 14 + doc.font(FONT.regular).fontSize(SIZE.small).widthOfString(label) + 12;
  }

  const plot: Box = { x: box.x + GUTTER.left, y: box.y + GUTTER.top, width: box.width - GUTTER.left - GUTTER.right, height: box.height - GUTTER.top - GUTTER.bottom };
  if (!points.length) {
    doc.save().lineWidth(0.5).strokeColor(COLOR.hairline).rect(plot.x, plot.y, plot.width, plot.height).stroke().restore();
    put(doc, copy.chart.empty, plot.x + 12, plot.y + plot.height / 2 - 5, { size: SIZE.small, color: COLOR.muted, width: plot.width - 24, align: "center" });
    return;
  }
  const shape: ChartGeometry = chartGeometry(points, input.currency);
  doc.save().lineWidth(0.5).strokeColor(COLOR.hairline).path(scalePath(shape.grid, plot)).stroke().restore();
  const line = (d: string, color: string) => doc.save().lineWidth(1.4).lineJoin("round").strokeColor(color).path(scalePath(d, plot)).stroke().restore();
  line(shape.distributed, COLOR.distributed);
  line(shape.paidIn, COLOR.paidIn);
  if (shape.nav) line(shape.nav, COLOR.nav);
  if (shape.navDots) doc.save().lineWidth(3.6).lineCap("round").strokeColor(COLOR.nav).path(scalePath(shape.navDots, plot)).stroke().restore();

  for (const tick of shape.yTicks) {
    put(doc, tick.label, box.x, plot.y + (tick.y / 100) * plot.height - 3.5, { size: 6.5, color: COLOR.muted, width: GUTTER.left - 6, align: "right" });
  }
  doc.font(FONT.regular).fontSize(6.5);
  for (const tick of shape.xTicks) {
    const at = plot.x + (tick.x / 100) * plot.width;
    const width = doc.widthOfString(tick.label);
    const x = tick.align === "start" ? at : tick.align === "end" ? at - width : at - width / 2;
    doc.save().lineWidth(0.5).strokeColor(COLOR.rule).moveTo(at, plot.y + plot.height).lineTo(at, plot.y + plot.height + 2.5).stroke().restore();
    put(doc, tick.label, x, plot.y + plot.height + 5, { size: 6.5, color: COLOR.muted });
  }
}

/** The chart's alternative text: the page's one-sentence summary. */
export function chartSummary(input: { points: readonly StoredChartPoint[]; currency: string; fund: string; entity: string }): string {
  const facts = chartSummaryFacts(chartPointsOf(input.points, input.currency), input.currency);
  return facts ? copy.chart.summary({ fund: input.fund, entity: input.entity, ...facts }) : copy.chart.empty;
}
