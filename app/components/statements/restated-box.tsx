import { History } from "lucide-react";
import { statementCopy as c } from "~/content/statements";
import type { StatementView } from "./statement-view";

/**
 * A restated statement's box (issue 25 §2): it replaces version n − 1, and
 * these rows of the quarter changed (previous → restated). A plain table, small
 * enough to stay one on a phone (a row's name, then its two amounts).
 */
export function RestatedBox({ version, differences }: { version: number; differences: StatementView["differences"] }) {
  return (
    <section aria-labelledby="restated-title" data-testid="restated-box" className="statement-restated mt-6 rounded-xl border border-amber-300 bg-amber-50/70 p-4 sm:p-5 dark:border-amber-800 dark:bg-amber-950/30">
      <h2 id="restated-title" className="flex items-center gap-2 text-base font-semibold text-amber-950 dark:text-amber-100">
        <History aria-hidden="true" className="size-4 shrink-0" />
        {c.differences.title(version - 1)}
      </h2>
      {differences.length ? (
        <>
          <p className="mt-1 text-sm text-amber-950/80 dark:text-amber-100/80">{c.differences.intro}</p>
          <table className="mt-3 w-full text-sm">
            <caption className="sr-only">{c.differences.caption}</caption>
            <thead className="text-left text-xs text-amber-950/70 uppercase dark:text-amber-100/70">
              <tr>
                <th scope="col" className="py-1 pr-3 font-semibold">
                  {c.differences.columns.row}
                </th>
                <th scope="col" className="py-1 pr-3 text-right font-semibold">
                  {c.differences.columns.previous}
                </th>
                <th scope="col" className="py-1 text-right font-semibold">
                  {c.differences.columns.current}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-amber-200 dark:divide-amber-900">
              {differences.map((d) => (
                <tr key={d.key} data-testid="restated-row">
                  <th scope="row" className="py-1.5 pr-3 text-left font-medium">
                    {d.label}
                  </th>
                  <td className="py-1.5 pr-3 text-right text-slate-600 tabular-nums line-through decoration-slate-400 dark:text-slate-300">{d.previous}</td>
                  <td className="py-1.5 text-right font-semibold tabular-nums">{d.current}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : (
        <p className="mt-1 text-sm text-amber-950/80 dark:text-amber-100/80">{c.differences.none}</p>
      )}
    </section>
  );
}
