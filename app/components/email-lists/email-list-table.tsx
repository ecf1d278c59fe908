import { ArrowDown, ArrowUp, ArrowUpDown, Download } from "lucide-react";
import { useEffect, useRef } from "react";
import { Form, Link, useLocation } from "react-router";
import { Pager } from "~/components/ui/pager";
import { emailListsCopy } from "~/content/email-lists";
import { exportHref } from "~/modules/email-lists/export";
import {
  DEFAULT_NEWSLETTER_STATUS,
  LISTS,
  NEWSLETTER_STATUSES,
  nextSort,
  type ListKey,
  type NewsletterStatus,
  type SortColumn,
  type SortState,
} from "~/modules/email-lists/lists";
import { CopyAllButton } from "./copy-all-button";
import { EMAIL_LIST_PAGE_SIZE, EMAIL_LISTS_PATH, emailListParams, emailListSectionId, listViewHref, type ListViews } from "./params";

/** One row as the table shows it: the loader fills a missing company with 'N/A' and formats the date. */
export type EmailListRowView = {
  company?: string;
  name?: string;
  email: string;
  date: string;
  dateTime: string;
};

/** One table's page: its sort, the page shown (1-based), the list's size and at most a page of rows. */
export type EmailListData = {
  sort: SortState;
  page: number;
  total: number;
  rows: EmailListRowView[];
  failed: boolean;
};

const ariaSort = { asc: "ascending", desc: "descending" } as const;

function SortHeader({ list, column, views }: { list: ListKey; column: SortColumn; views: ListViews }) {
  const { sort } = views[list];
  const { search } = useLocation();
  const active = sort.column === column;
  const next = nextSort(sort, column);
  const Icon = active ? (sort.direction === "asc" ? ArrowUp : ArrowDown) : ArrowUpDown;
  const name = emailListsCopy.columns[column];
  return (
    <th
      scope="col"
      aria-sort={active ? ariaSort[sort.direction] : "none"}
      aria-label={name}
      className="sticky top-0 z-10 border-b border-slate-200 bg-slate-50 px-4 py-2.5 text-left font-semibold whitespace-nowrap text-slate-800 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    >
      <Link
        to={listViewHref(search, list, { sort: next, page: 1 })}
        preventScrollReset
        aria-label={emailListsCopy.sortBy(column, next.direction)}
        className="inline-flex items-center gap-1 rounded-sm -outline-offset-2 hover:underline"
      >
        {name}
        <Icon
          aria-hidden="true"
          className={`size-3.5 shrink-0 ${active ? "text-brand-700 dark:text-brand-300" : "text-slate-500 dark:text-slate-400"}`}
        />
      </Link>
    </th>
  );
}

/**
 * The newsletter table's status filter: a GET form (works without
 * JavaScript) that keeps the other tables' parameters and starts this table
 * at its first page.
 */
function StatusFilter({ list, status }: { list: ListKey; status: NewsletterStatus }) {
  const { search } = useLocation();
  const names = emailListParams(list);
  const kept = [...new URLSearchParams(search).entries()].filter(([name]) => name !== names.status && name !== names.page);
  const id = `${emailListSectionId(list)}-status`;
  const c = emailListsCopy.statusFilter;
  return (
    <Form method="get" action={EMAIL_LISTS_PATH} preventScrollReset className="mt-3 flex flex-wrap items-end gap-2">
      {kept.map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div>
        <label htmlFor={id} className="mb-1 block text-sm font-medium">
          {c.label}
        </label>
        <select
          id={id}
          name={names.status}
          defaultValue={status}
          key={status}
          className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm dark:border-slate-600 dark:bg-slate-900"
        >
          {NEWSLETTER_STATUSES.map((value) => (
            <option key={value} value={value}>
              {c.options[value]}
            </option>
          ))}
        </select>
      </div>
      <button
        type="submit"
        className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
      >
        {c.submit}
        <span className="sr-only">{emailListsCopy.controlSuffix(LISTS[list].label)}</span>
      </button>
    </Form>
  );
}

/**
 * One e-mail list (SPEC.md §2 'Email Lists (Copy & Export)'): a table whose
 * column headings are sort links (no JavaScript needed; with it they
 * navigate in place), at most a page of rows in an area about 24 rem tall
 * that scrolls (a named, focusable region), paging links, Copy All (with
 * JavaScript) and Download CSV.
 */
export function EmailListTable({ list, data, views }: { list: ListKey; data: EmailListData; views: ListViews }) {
  const definition = LISTS[list];
  const sectionId = emailListSectionId(list);
  const titleId = `${sectionId}-title`;
  const labelId = `${sectionId}-label`;
  const region = useRef<HTMLDivElement>(null);
  const { search } = useLocation();
  const { sort, page, total, rows } = data;
  const filter = views[list].filter ?? {};
  const status = list === "newsletter" ? (filter.status ?? DEFAULT_NEWSLETTER_STATUS) : null;
  const empty = status && status !== "confirmed" ? emailListsCopy.statusFilter.empty[status] : definition.empty;

  // A new sort or page starts at the top of the table (the region itself stays, so focus stays on the clicked link).
  useEffect(() => {
    if (region.current) region.current.scrollTop = 0;
  }, [sort.column, sort.direction, page]);

  return (
    <section id={sectionId} aria-labelledby={titleId} className="mt-8 scroll-mt-40" data-testid={sectionId}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={titleId} className="flex flex-wrap items-baseline gap-2 text-lg font-semibold">
          <span id={labelId}>{definition.label}</span>{" "}
          {data.failed ? null : (
            <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-sm font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-200">
              {emailListsCopy.total(total)}
            </span>
          )}
        </h2>
        <div className="flex flex-wrap items-center gap-2">
          <CopyAllButton list={list} sort={sort} filter={filter} />
          <a
            href={exportHref(list, "csv", sort, filter)}
            download
            className="inline-flex items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
          >
            <Download aria-hidden="true" className="size-4" />
            {emailListsCopy.download}
            <span className="sr-only">{emailListsCopy.controlSuffix(definition.label)}</span>
          </a>
        </div>
      </div>
      {status ? <StatusFilter list={list} status={status} /> : null}
      {data.failed ? (
        <p
          role="alert"
          className="mt-3 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {emailListsCopy.error(definition.label)}
        </p>
      ) : (
        <>
          <div
            ref={region}
            role="region"
            aria-label={emailListsCopy.regionLabel(definition.label)}
            tabIndex={0}
            className="mt-3 max-h-96 overflow-auto rounded-lg border border-slate-200 dark:border-slate-800"
          >
            <table aria-labelledby={labelId} className="min-w-full border-separate border-spacing-0 text-left text-sm">
              <thead>
                <tr>
                  {definition.columns.map((column) => (
                    <SortHeader key={column} list={list} column={column} views={views} />
                  ))}
                </tr>
              </thead>
              {/* Cell styles live here, not on each cell, so the page stays small. */}
              <tbody className="text-slate-800 dark:text-slate-200 [&_td]:border-b [&_td]:border-slate-100 [&_td]:px-4 [&_td]:py-2 [&_td]:whitespace-nowrap dark:[&_td]:border-slate-800/70 [&>tr:nth-child(even)]:bg-slate-50/60 dark:[&>tr:nth-child(even)]:bg-slate-900/40">
                {rows.length === 0 ? (
                  <tr>
                    <td colSpan={definition.columns.length} className="py-6! text-center text-slate-600 dark:text-slate-300">
                      {empty}
                    </td>
                  </tr>
                ) : (
                  rows.map((row, index) => (
                    <tr key={index}>
                      {definition.columns.map((column) => (
                        <td key={column}>{column === "date" ? <time dateTime={row.dateTime}>{row.date}</time> : (row[column] ?? "")}</td>
                      ))}
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </div>
          <Pager
            label={definition.label}
            page={page}
            total={total}
            shown={rows.length}
            pageSize={EMAIL_LIST_PAGE_SIZE}
            hrefFor={(target) => listViewHref(search, list, { sort, page: target })}
          >
            <p className="sr-only">{emailListsCopy.sortedBy(sort.column, sort.direction)}</p>
          </Pager>
        </>
      )}
    </section>
  );
}
