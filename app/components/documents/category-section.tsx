import { ChevronRight } from "lucide-react";
import type { ReactNode } from "react";

/**
 * One collapsible document category (SPEC.md §2): a `<details>` that works
 * without JavaScript, collapsed by default, its summary the category name and
 * a count badge. `quiet` (the investor's list) greys an empty category's
 * summary, so the eye goes to the ones with documents.
 */
export function CategorySection({
  id,
  label,
  count,
  children,
  open = false,
  quiet = false,
}: {
  id: string;
  label: string;
  count: number;
  children: ReactNode;
  open?: boolean;
  quiet?: boolean;
}) {
  const muted = quiet && count === 0;
  return (
    <details id={id} open={open} className="group border-b border-slate-200 last:border-b-0 dark:border-slate-800">
      <summary
        className={`flex cursor-pointer list-none items-center gap-2 py-3 select-none [&::-webkit-details-marker]:hidden ${
          muted ? "font-medium text-slate-600 dark:text-slate-400" : "font-semibold"
        }`}
      >
        <ChevronRight aria-hidden="true" className="size-4 shrink-0 transition-transform group-open:rotate-90" />
        <span>{label}</span>
        <span
          className={`ml-auto rounded-full px-2.5 py-0.5 text-xs font-semibold tabular-nums ${
            muted
              ? "border border-slate-200 text-slate-600 dark:border-slate-700 dark:text-slate-400"
              : "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200"
          }`}
        >
          <span className="sr-only">(</span>
          {count}
          <span className="sr-only">{count === 1 ? " document)" : " documents)"}</span>
        </span>
      </summary>
      <div className="pb-4">{children}</div>
    </details>
  );
}
