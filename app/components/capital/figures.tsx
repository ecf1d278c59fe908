/** A figure of a capital account: its name, the value as shown, and a small line under it (a date, a note). */
export type Figure = { label: string; value: string; hint?: string | undefined; testId?: string };

/**
 * A capital account's figures as a description list: cards wide enough for
 * "$10,000,000.00", one a row on a narrow phone, two from 400 px, as many as
 * fit on wider screens (the layout of
 * the workspace's StatCards, without links: these figures are the page).
 */
export function FigureList({ figures, className = "mt-4" }: { figures: readonly Figure[]; className?: string }) {
  return (
    <dl className={`${className} grid grid-cols-1 gap-3 min-[400px]:grid-cols-2 sm:grid-cols-[repeat(auto-fill,minmax(12.5rem,1fr))]`}>
      {figures.map((figure) => (
        <div key={figure.label} className="flex flex-col rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm dark:border-slate-800 dark:bg-slate-900">
          <dt className="text-sm font-medium text-slate-700 dark:text-slate-200">{figure.label}</dt>
          <dd data-testid={figure.testId} className="mt-1 text-lg font-semibold tabular-nums [overflow-wrap:anywhere] sm:text-xl">
            {figure.value}
          </dd>
          {figure.hint ? <dd className="mt-0.5 text-xs text-slate-600 dark:text-slate-300">{figure.hint}</dd> : null}
        </div>
      ))}
    </dl>
  );
}
