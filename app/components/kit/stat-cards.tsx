import { Link } from "react-router";

export type Stat = {
  label: string;
  /** The figure as shown ('1,204'). */
  value: string;
  /** What the figure counts, when the label alone does not say ('confirmed subscribers'). */
  hint?: string;
  /** The list the figure counts. */
  to: string;
  /** Draws the eye (overdue pitches). */
  alert?: boolean;
  /** The figure's test id. */
  testId?: string;
};

/**
 * Figures that link to their lists (DESIGN.md §2): cards that size to their
 * content, two a row on a phone, as many as fit on wider screens. The list
 * takes its name from the section around it (a heading): a list is not among
 * the elements that should carry aria-label (html-validate's aria-label-misuse).
 * `label` is kept for callers without such a section.
 */
export function StatCards({ label, stats }: { label?: string; stats: readonly Stat[] }) {
  return (
    <ul aria-label={label} className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-[repeat(auto-fill,minmax(11rem,1fr))]">
      {stats.map((stat) => (
        <li key={stat.label}>
          <Link
            to={stat.to}
            className={`flex h-full flex-col rounded-lg border bg-white px-4 py-3 shadow-sm hover:border-brand-500 dark:bg-slate-900 ${
              stat.alert ? "border-red-300 dark:border-red-800" : "border-slate-200 dark:border-slate-800"
            }`}
          >
            <span className="text-sm font-medium text-slate-700 dark:text-slate-200">{stat.label}</span>
            <span data-testid={stat.testId} className={`mt-1 text-2xl font-semibold tabular-nums ${stat.alert ? "text-red-700 dark:text-red-300" : ""}`}>
              {stat.value}
            </span>
            {stat.hint ? <span className="mt-0.5 text-xs text-slate-600 dark:text-slate-300">{stat.hint}</span> : null}
          </Link>
        </li>
      ))}
    </ul>
  );
}
