import type { ReactNode } from "react";
import { adminNavCopy, type AdminPageKey } from "~/content/admin-workspace";

/**
 * An admin page's heading: its title is its navigation label (one name per
 * page). SPEC.md's quoted name for the page's section, where it has one, is the
 * section heading under it.
 */
export function AdminPageHeader({ page, specName, intro }: { page: AdminPageKey; specName?: string; intro?: ReactNode }) {
  return (
    <div className="min-w-0">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{adminNavCopy.pages[page]}</h1>
      {specName ? <h2 className="mt-1 text-base font-medium text-slate-600 dark:text-slate-300">{specName}</h2> : null}
      {intro ? <p className="mt-2 max-w-3xl text-sm text-slate-600 dark:text-slate-300">{intro}</p> : null}
    </div>
  );
}

/** The document title of an admin page: its navigation label. */
export const adminPageTitle = (page: AdminPageKey) => adminNavCopy.pages[page];
