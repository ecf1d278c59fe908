import { Download } from "lucide-react";
import { Form, useLocation } from "react-router";
import { DataTable, type DataColumn } from "~/components/kit/data-table";
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
 * One e-mail list (SPEC.md §2 'Email Lists (Copy & Export)'): the kit's table,
 * whose column headings are sort links (no JavaScript needed; with it they
 * navigate in place), a page of rows at a time (the page scrolls, not a box
 * in it: decision 010), paging links, Copy All (with JavaScript) and Download CSV.
 */
export function EmailListTable({ list, data, views }: { list: ListKey; data: EmailListData; views: ListViews }) {
  const definition = LISTS[list];
  const sectionId = emailListSectionId(list);
  const titleId = `${sectionId}-title`;
  const labelId = `${sectionId}-label`;
  const { search } = useLocation();
  const { sort, page, total, rows } = data;
  const filter = views[list].filter ?? {};
  const status = list === "newsletter" ? (filter.status ?? DEFAULT_NEWSLETTER_STATUS) : null;
  const empty = status && status !== "confirmed" ? emailListsCopy.statusFilter.empty[status] : definition.empty;

  const sortOf = (column: SortColumn) => {
    const next = nextSort(sort, column);
    return { href: listViewHref(search, list, { sort: next, page: 1 }), active: sort.column === column ? sort.direction : null, next: next.direction };
  };

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
          <DataTable
            label={definition.label}
            columns={definition.columns.map(
              (column): DataColumn<EmailListRowView> => ({
                key: column,
                header: emailListsCopy.columns[column],
                card: column === "email" ? "primary" : column === "date" ? "meta" : undefined,
                className: column === "email" ? "break-all" : undefined,
                sort: sortOf(column),
                cell: (row) => (column === "date" ? <time dateTime={row.dateTime}>{row.date}</time> : (row[column] ?? "")),
              }),
            )}
            rows={rows}
            rowKey={(row) => `${row.email}\u0000${row.dateTime}`}
            emptyRow={empty}
          />
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
