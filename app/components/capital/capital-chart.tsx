import { capitalLpCopy } from "~/content/capital-lp";

/** The chart's geometry (app/modules/capital-account/chart.server.ts chartGeometry): paths in a 100 × 100 box, ticks in percent. */
export type ChartShape = {
  grid: string;
  paidIn: string;
  distributed: string;
  nav: string | null;
  navDots: string | null;
  yTicks: { y: number; label: string }[];
  xTicks: { x: number; label: string; align: "start" | "middle" | "end" }[];
};

/** A chart as the page shows it: its geometry, the sentence a screen reader hears, and its data as table rows. */
export type ChartView = {
  shape: ChartShape;
  summary: string;
  caption: string;
  /** Period ('Q3 2025', '2024'), paid in, distributions (both cumulative), NAV; oldest first, as drawn. */
  rows: [string, string, string, string][];
};

const c = capitalLpCopy.chart;

/** The series' colours, one place: the line, and its legend's swatch. */
const SERIES = {
  paidIn: { stroke: "stroke-brand-600 dark:stroke-brand-300", swatch: "bg-brand-600 dark:bg-brand-300" },
  distributed: { stroke: "stroke-amber-600 dark:stroke-amber-400", swatch: "bg-amber-600 dark:bg-amber-400" },
  nav: { stroke: "stroke-indigo-600 dark:stroke-indigo-400", swatch: "bg-indigo-600 dark:bg-indigo-400" },
} as const;

const ALIGN = { start: undefined, middle: "-translate-x-1/2", end: "-translate-x-full" } as const;

/**
 * The capital account's chart (issue 24 §8): cumulative paid in and
 * distributions as step lines, the NAV as a line with its points, drawn on
 * the server as SVG (no script). The SVG stretches to the column's width
 * (preserveAspectRatio none, strokes kept at their width by
 * non-scaling-stroke), and the axes' labels are HTML beside it, so they stay
 * readable from a phone to a wide screen. Colours come from classes with dark
 * variants. The SVG is an image with a one-sentence summary; its data is a
 * table under "Show the chart's data".
 */
export function CapitalChart({ chart }: { chart: ChartView }) {
  const { shape } = chart;
  return (
    <figure className="mt-6 rounded-lg border border-slate-200 p-3 sm:p-5 dark:border-slate-800">
      <figcaption className="flex flex-wrap items-baseline justify-between gap-x-6 gap-y-2">
        <span className="text-sm font-semibold">{c.title}</span>
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600 dark:text-slate-300">
          {(["paidIn", "distributed", "nav"] as const).map((series) => (
            <li key={series} className="flex items-center gap-1.5">
              <span aria-hidden="true" className={`h-0.5 w-4 rounded-full ${SERIES[series].swatch}`} />
              {c.legend[series]}
            </li>
          ))}
        </ul>
      </figcaption>
      <div className="relative mt-4 mr-3 mb-7 ml-14 h-44 sm:h-56">
        <svg
          viewBox="0 0 100 100"
          preserveAspectRatio="none"
          role="img"
          aria-label={chart.summary}
          className="absolute inset-0 size-full overflow-visible fill-none [&_path]:[vector-effect:non-scaling-stroke]"
        >
          <path d={shape.grid} className="stroke-slate-200 dark:stroke-slate-800" />
          <path d={shape.distributed} className={`stroke-2 ${SERIES.distributed.stroke}`} strokeLinejoin="round" />
          <path d={shape.paidIn} className={`stroke-2 ${SERIES.paidIn.stroke}`} strokeLinejoin="round" />
          {shape.nav ? <path d={shape.nav} className={`stroke-2 ${SERIES.nav.stroke}`} strokeLinejoin="round" /> : null}
          {shape.navDots ? <path d={shape.navDots} className={`stroke-[7px] ${SERIES.nav.stroke}`} strokeLinecap="round" /> : null}
        </svg>
        <div aria-hidden="true" className="text-[11px] text-slate-600 tabular-nums dark:text-slate-300 [&_span]:absolute [&_span]:whitespace-nowrap">
          <div className="[&>span]:right-full [&>span]:-translate-y-1/2 [&>span]:pr-2">
            {shape.yTicks.map((tick) => (
              <span key={tick.label} style={{ top: `${tick.y}%` }}>
                {tick.label}
              </span>
            ))}
          </div>
          <div className="[&>span]:top-full [&>span]:mt-1.5">
            {shape.xTicks.map((tick) => (
              <span key={tick.label} className={ALIGN[tick.align]} style={{ left: `${tick.x}%` }}>
                {tick.label}
              </span>
            ))}
          </div>
        </div>
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer font-medium text-brand-700 select-none dark:text-brand-300">{c.showData}</summary>
        <div className="mt-2 overflow-x-auto">
          <table className="w-full text-right text-[11px] tabular-nums sm:text-sm [&_:is(td,th)]:px-1 [&_:is(td,th)]:py-1 sm:[&_:is(td,th)]:px-2 [&_th]:font-medium [&_th:first-child]:text-left [&_tr]:border-b [&_tr]:border-slate-200 dark:[&_tr]:border-slate-800">
            <caption className="sr-only">{chart.caption}</caption>
            <thead className="text-slate-600 dark:text-slate-300">
              <tr>
                <th scope="col">{c.columns.period}</th>
                <th scope="col">{c.columns.paidIn}</th>
                <th scope="col">{c.columns.distributed}</th>
                <th scope="col">{c.columns.nav}</th>
              </tr>
            </thead>
            <tbody>
              {chart.rows.map(([quarter, paidIn, distributed, nav]) => (
                <tr key={quarter}>
                  <th scope="row">{quarter}</th>
                  <td>{paidIn}</td>
                  <td>{distributed}</td>
                  <td>{nav}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
