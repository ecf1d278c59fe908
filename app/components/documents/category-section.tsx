import { ChevronRight } from "lucide-react";
import type { ReactNode } from "react";

/**
 * One collapsible document category (SPEC.md §2): a `<details>` that works
 * without JavaScript, collapsed by default, its summary the category name and
 * a count badge.
 */
export function CategorySection({
  id,
  label,
  count,
  children,
  open = false,
}: {
  id: string;
  label: string;
  count: number;
  children: ReactNode;
  open?: boolean;
}) {
  return (
    <details id={id} open={open} className="group border-b border-slate-200 last:border-b-0 dark:border-slate-800">
      <summary className="flex cursor-pointer list-none items-center gap-2 py-3 font-semibold select-none [&::-webkit-details-marker]:hidden">
        <ChevronRight aria-hidden="true" className="size-4 shrink-0 transition-transform group-open:rotate-90" />
        <span>{label}</span>
        <span className="ml-auto rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-700 tabular-nums dark:bg-slate-800 dark:text-slate-200">
          <span className="sr-only">(</span>
          {count}
          <span className="sr-only">{count === 1 ? " document)" : " documents)"}</span>
        </span>
      </summary>
      <div className="pb-4">{children}</div>
    </details>
  );
}
