import type { ReactNode } from "react";
import { useLocation } from "react-router";
import { Pager, pageHref } from "../ui/pager";

/** A confirm step's parameters: a paging link closes the step. */
const CONFIRM_PARAMS = ["confirm", "user", "request", "document"] as const;

/** One page of a list as a loader reads it: the page shown (1-based), the list's total, and whether reading failed. */
export type ListPageState = { page: number; total: number; failed: boolean };

/**
 * The frame of an admin list (investors, fund access requests): its heading
 * with the total, an error or empty text, the rows, and the pager (the page
 * scrolls, never a box inside it: decision 010). Paging is a link
 * that changes only `pageParam` (other parameters kept, an open confirm step
 * closed) and comes back to the section's anchor.
 */
export function ListSection({
  id,
  title,
  totalLabel,
  intro,
  state,
  count,
  pageParam,
  errorText,
  emptyText,
  testId,
  children,
}: {
  id: string;
  title: string;
  totalLabel: string;
  intro?: string;
  state: ListPageState;
  /** Rows on this page. */
  count: number;
  pageParam: string;
  errorText: string;
  emptyText: string;
  testId?: string;
  children: ReactNode;
}) {
  const { page, total, failed } = state;
  const titleId = `${id}-title`;
  const location = useLocation();

  const hrefFor = (target: number) =>
    pageHref({ pathname: location.pathname, search: location.search, param: pageParam, page: target, anchor: id, drop: CONFIRM_PARAMS });

  return (
    <section id={id} aria-labelledby={titleId} className="mt-8 scroll-mt-40" data-testid={testId ?? id}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={titleId} className="text-lg font-semibold">
          {title}
        </h2>
        {failed ? null : (
          <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-sm font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-200">
            {totalLabel}
          </span>
        )}
      </div>
      {intro ? <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{intro}</p> : null}
      {failed ? (
        <p
          role="alert"
          className="mt-3 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {errorText}
        </p>
      ) : count === 0 ? (
        <p className="mt-3 rounded-md border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300">
          {emptyText}
        </p>
      ) : (
        <>
          <div className="mt-3">
            {children}
          </div>
          <Pager label={title} page={page} total={total} shown={count} hrefFor={hrefFor} />
        </>
      )}
    </section>
  );
}
