import { ChevronLeft, ChevronRight } from "lucide-react";
import type { MouseEvent, ReactNode } from "react";
import { Link } from "react-router";
import { emailListsCopy } from "~/content/email-lists";

/**
 * Paging of the admin pages' lists (DESIGN.md §3: paging is links with
 * query parameters, read by the loader; with JavaScript the links navigate in
 * place). Shared by the e-mail tables and the LP user and fund access
 * request lists, so every list pages, reads and sounds the same:
 * 'Showing 1–50 of 1,234', 'Previous' / 'Page 1 of 25' / 'Next', each link
 * named after its list ('Next page of Pending Requests').
 */

/** At most this many rows of a list on a page, so the dashboard does not grow with its lists. */
export const LIST_PAGE_SIZE = 50;

/** The last page of a list of `total` rows (1 for an empty list). */
export function lastPageOf(total: number, pageSize = LIST_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/**
 * The current address with one list's page parameter changed (the first page
 * drops it), every other parameter kept except those in `drop`, and the
 * list's anchor as the hash.
 */
export function pageHref({
  pathname,
  search,
  param,
  page,
  anchor,
  drop = [],
}: {
  pathname: string;
  search: string;
  param: string;
  page: number;
  anchor: string;
  drop?: readonly string[];
}): string {
  const params = new URLSearchParams(search);
  for (const name of drop) params.delete(name);
  if (page > 1) params.set(param, String(page));
  else params.delete(param);
  const query = params.toString();
  return `${pathname}${query ? `?${query}` : ""}#${anchor}`;
}

/** 'Previous' / 'Next': a link to the neighbouring page; at either end it stays (disabled), so focus is not lost. */
export function PageLink({
  to,
  label,
  direction,
  disabled,
}: {
  /** Where the link goes (when disabled: the current page). */
  to: string;
  /** The list's name, read after 'Previous' / 'Next'. */
  label: string;
  direction: "previous" | "next";
  disabled: boolean;
}) {
  const stay = (event: MouseEvent) => {
    if (disabled) event.preventDefault();
  };
  return (
    <Link
      to={to}
      preventScrollReset
      onClick={stay}
      aria-disabled={disabled || undefined}
      tabIndex={disabled ? -1 : undefined}
      className={`inline-flex items-center gap-1 rounded-md border px-3 py-1.5 text-sm font-medium ${
        disabled
          ? "cursor-not-allowed border-slate-200 text-slate-500 dark:border-slate-800 dark:text-slate-400"
          : "border-slate-300 text-slate-800 hover:bg-slate-50 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800"
      }`}
    >
      {direction === "previous" ? <ChevronLeft aria-hidden="true" className="size-4" /> : null}
      {direction === "previous" ? emailListsCopy.previous : emailListsCopy.next}
      <span className="sr-only">{emailListsCopy.pageOf(label)}</span>
      {direction === "next" ? <ChevronRight aria-hidden="true" className="size-4" /> : null}
    </Link>
  );
}

/**
 * Below a list: 'Showing 1–50 of N' (read politely when it changes, with
 * `children`, e.g. a table's sort), and when there is more than a page the
 * Previous / 'Page X of Y' / Next links. `hrefFor(page)` is a page's address.
 */
export function Pager({
  label,
  page,
  total,
  shown,
  hrefFor,
  pageSize = LIST_PAGE_SIZE,
  children,
}: {
  label: string;
  /** The page shown, 1-based. */
  page: number;
  /** How many rows the whole list has. */
  total: number;
  /** How many rows this page shows. */
  shown: number;
  hrefFor: (page: number) => string;
  pageSize?: number;
  children?: ReactNode;
}) {
  const first = (page - 1) * pageSize + 1;
  const last = first + shown - 1;
  const lastPage = lastPageOf(total, pageSize);
  return (
    <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
      <div aria-live="polite" aria-atomic="true" className="text-sm text-slate-600 dark:text-slate-300">
        {total > 0 ? <p>{emailListsCopy.showing(first, last, total)}</p> : null}
        {children}
      </div>
      {total > pageSize ? (
        <div className="flex items-center gap-2">
          <PageLink to={hrefFor(page <= 1 ? page : page - 1)} label={label} direction="previous" disabled={page <= 1} />
          <span className="text-sm text-slate-600 dark:text-slate-300">{emailListsCopy.pageOfPages(page, lastPage)}</span>
          <PageLink to={hrefFor(page >= lastPage ? page : page + 1)} label={label} direction="next" disabled={page >= lastPage} />
        </div>
      ) : null}
    </div>
  );
}
