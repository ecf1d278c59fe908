import { Link } from "react-router";

export type FilterTab = { key: string; label: string; count: number | null; href: string };

/**
 * A list's views as tabs with counts (All · Pending 3 · Approved 120 · …):
 * links that set one query parameter and keep the others (search, sort), so
 * they work without a script. The current one is marked for screen readers.
 * On a phone the tabs wrap onto a second row rather than scroll sideways.
 */
export function FilterTabs({ label, tabs, current }: { label: string; tabs: readonly FilterTab[]; current: string }) {
  return (
    <nav aria-label={label} className="mt-6 border-b border-slate-200 dark:border-slate-800">
      <ul className="-mb-px flex flex-wrap gap-x-1">
        {tabs.map((tab) => {
          const active = tab.key === current;
          return (
            <li key={tab.key}>
              <Link
                to={tab.href}
                preventScrollReset
                aria-current={active ? "page" : undefined}
                className={`inline-flex items-center gap-2 border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap ${
                  active
                    ? "border-brand-600 text-slate-900 dark:border-brand-300 dark:text-white"
                    : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white"
                }`}
              >
                {tab.label}
                {tab.count === null ? null : (
                  <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs tabular-nums text-slate-700 dark:bg-slate-800 dark:text-slate-200">
                    {tab.count.toLocaleString("en-US")}
                  </span>
                )}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
