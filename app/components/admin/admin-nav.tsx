import { useEffect, useRef } from "react";
import { Link, useLocation } from "react-router";
import { adminNavCopy, type AdminPageKey } from "~/content/admin-workspace";
import { ADMIN_PAGES, ADMIN_PATHS } from "~/modules/admin/paths";

/** What waits on each page, shown as a count beside its link. */
export type AdminBadges = Partial<Record<keyof typeof adminNavCopy.badge, number>>;

function NavLinks({ current, badges }: { current: AdminPageKey | null; badges: AdminBadges }) {
  return (
    <ul className="space-y-1">
      {ADMIN_PAGES.map((page) => {
        const active = page === current;
        const counted = page === "investors" || page === "fund-access" || page === "pitches" ? page : null;
        const count = counted ? (badges[counted] ?? 0) : 0;
        return (
          <li key={page}>
            <Link
              to={ADMIN_PATHS[page]}
              aria-current={active ? "page" : undefined}
              className={`flex items-center justify-between gap-3 rounded-md px-3 py-2 text-sm font-medium ${
                active
                  ? "bg-brand-50 text-brand-900 dark:bg-brand-900 dark:text-white"
                  : "text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
              }`}
            >
              <span>{adminNavCopy.pages[page]}</span>
              {counted && count > 0 ? (
                <span className="rounded-full bg-brand-700 px-2 py-0.5 text-xs font-semibold text-white dark:bg-brand-300 dark:text-slate-950">
                  <span aria-hidden="true" data-testid={`nav-badge-${page}`}>
                    {count.toLocaleString("en-US")}
                  </span>
                  <span className="sr-only">{`, ${adminNavCopy.badge[counted](count)}`}</span>
                </span>
              ) : null}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The workspace's navigation: plain links (they work without JavaScript), the
 * current page marked with aria-current. From the md width a sidebar; below
 * it a disclosure ('Admin menu') that opens without JavaScript.
 */
export function AdminNav({ current, badges }: { current: AdminPageKey | null; badges: AdminBadges }) {
  const menu = useRef<HTMLDetailsElement>(null);
  const { pathname } = useLocation();
  // The layout stays mounted across pages: the menu closes once its link has been followed.
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [pathname]);
  return (
    <>
      <nav aria-label={adminNavCopy.label} data-testid="admin-sidebar" className="hidden md:sticky md:top-32 md:block md:self-start">
        <NavLinks current={current} badges={badges} />
      </nav>
      <details ref={menu} data-testid="admin-menu" className="group rounded-lg border border-slate-200 md:hidden dark:border-slate-800">
        <summary className="cursor-pointer list-none px-4 py-3 text-sm font-semibold">
          {adminNavCopy.menu}
          <span className="sr-only">{current ? ` (${adminNavCopy.pages[current]})` : ""}</span>
        </summary>
        <nav aria-label={adminNavCopy.label} className="border-t border-slate-200 p-2 dark:border-slate-800">
          <NavLinks current={current} badges={badges} />
        </nav>
      </details>
    </>
  );
}
