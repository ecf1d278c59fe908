import { BellRing } from "lucide-react";
import { Link, useLocation } from "react-router";
import { readStatusCopy } from "~/content/documents";
import { AUDIENCE_FORM_ID, REMIND_INTENT, SET_AUDIENCE_INTENT } from "~/modules/documents/constants";
import { DataTable, PersonLines, type DataColumn } from "../kit/data-table";
import { EmptyState } from "../kit/empty-state";
import { useFormFlash } from "../ui/use-form-flash";
import { Button } from "../ui/form";
import { pageHref, Pager } from "../ui/pager";
import { AudienceFields, type AudienceState } from "./audience-fields";

export type ReadFilter = "all" | "opened" | "unopened";
export const READ_FILTER_PARAM = "read";
export const READ_PAGE_PARAM = "page";

/** One investor of the audience: when they first viewed and downloaded the document ('MMM dd, yyyy HH:mm', UTC). */
export type AudienceRow = {
  id: string;
  name: string;
  email: string;
  referenceCode: string | null;
  viewed: { text: string; iso: string } | null;
  downloaded: { text: string; iso: string } | null;
};

const sectionTitle = "text-xl font-semibold";

/**
 * The access page's audience form: a plain POST (with and without
 * JavaScript) whose outcome comes back as the form flash `document-audience`.
 */
export function AudienceForm({ documentId, state, action }: { documentId: string; state: AudienceState; action: string }) {
  const flash = useFormFlash(AUDIENCE_FORM_ID, "error");
  const errorsFor = (name: string) => flash?.fieldErrors?.[name];
  const hasFieldErrors = Object.values(flash?.fieldErrors ?? {}).some((e) => e?.length);
  return (
    <section id="document-audience" aria-labelledby="document-audience-title" className="mt-10 scroll-mt-40">
      <h2 id="document-audience-title" className={sectionTitle}>
        {readStatusCopy.audienceTitle}
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{readStatusCopy.audienceIntro}</p>
      <form
        method="post"
        action={action}
        aria-labelledby="document-audience-title"
        className="mt-4 grid gap-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:grid-cols-2 dark:border-slate-800 dark:bg-slate-900"
      >
        {flash?.message && !hasFieldErrors ? (
          <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-800 sm:col-span-2 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
            {flash.message}
          </p>
        ) : null}
        <input type="hidden" name="intent" value={SET_AUDIENCE_INTENT} />
        <input type="hidden" name="documentId" value={documentId} />
        <AudienceFields formId={AUDIENCE_FORM_ID} state={state} searchAction={`${action}#document-audience`} errorsFor={errorsFor} />
        <div className="sm:col-span-2">
          <Button type="submit">{readStatusCopy.save}</Button>
        </div>
      </form>
    </section>
  );
}

function When({ value }: { value: { text: string; iso: string } | null }) {
  return value ? <time dateTime={value.iso}>{value.text}</time> : <span className="text-slate-600 dark:text-slate-300">{readStatusCopy.notYet}</span>;
}

/** One investor of the audience a line; below 640 px a card (the investor, then the two dates). */
const audienceColumns: ReadonlyArray<DataColumn<AudienceRow>> = [
  { key: "investor", header: readStatusCopy.columns.investor, card: "primary", rowHeader: true, cell: (row) => <PersonLines name={row.name} email={row.email} /> },
  { key: "reference", header: readStatusCopy.columns.reference, width: "w-32", className: "font-mono text-xs", cell: (row) => row.referenceCode ?? <span aria-hidden="true">—</span> },
  { key: "viewed", header: readStatusCopy.columns.viewed, width: "w-48", className: "tabular-nums", cell: (row) => <When value={row.viewed} /> },
  { key: "downloaded", header: readStatusCopy.columns.downloaded, width: "w-48", className: "tabular-nums", cell: (row) => <When value={row.downloaded} /> },
];

/**
 * 'Read status': 'Opened by N of M', the audience with when each first viewed
 * and downloaded (filter: everyone, opened, not yet; paged), and the reminder
 * button for those who have not opened it.
 */
export function ReadStatus({
  documentId,
  title,
  openedBy,
  unopened,
  filter,
  page,
  total,
  rows,
  action,
}: {
  documentId: string;
  title: string;
  openedBy: string;
  unopened: number;
  filter: ReadFilter;
  page: number;
  total: number;
  rows: AudienceRow[];
  action: string;
}) {
  const c = readStatusCopy;
  const location = useLocation();
  const filterHref = (value: ReadFilter) => {
    const params = new URLSearchParams(location.search);
    params.delete(READ_PAGE_PARAM);
    if (value === "all") params.delete(READ_FILTER_PARAM);
    else params.set(READ_FILTER_PARAM, value);
    const query = params.toString();
    return `${location.pathname}${query ? `?${query}` : ""}#read-status`;
  };
  return (
    <section id="read-status" aria-labelledby="read-status-title" className="mt-10 scroll-mt-40">
      <h2 id="read-status-title" className={sectionTitle}>
        {c.title}
      </h2>
      <p className="mt-2 inline-block rounded-full bg-slate-100 px-3 py-1 text-sm font-medium text-slate-800 tabular-nums dark:bg-slate-800 dark:text-slate-100" data-testid="opened-by">
        {openedBy}
      </p>
      <form method="post" action={`${action}#read-status`} className="mt-4 flex flex-wrap items-center gap-3">
        <input type="hidden" name="intent" value={REMIND_INTENT} />
        <input type="hidden" name="documentId" value={documentId} />
        {unopened > 0 ? (
          <Button type="submit" variant="secondary" aria-describedby="remind-hint">
            <BellRing aria-hidden="true" className="size-4" />
            {c.remind}
          </Button>
        ) : null}
        <p id="remind-hint" className="text-xs text-slate-600 dark:text-slate-300">
          {unopened > 0 ? c.remindHint : c.nobodyToRemind}
        </p>
      </form>
      <nav aria-label={c.filterLabel} className="mt-4 flex flex-wrap gap-2 text-sm">
        {(["all", "opened", "unopened"] as const).map((value) => (
          <Link
            key={value}
            to={filterHref(value)}
            preventScrollReset
            aria-current={filter === value ? "page" : undefined}
            className="rounded-full border border-slate-300 px-3 py-1 font-medium hover:bg-slate-50 aria-[current=page]:border-brand-700 aria-[current=page]:bg-brand-700 aria-[current=page]:text-white dark:border-slate-600 dark:hover:bg-slate-800 dark:aria-[current=page]:border-brand-300 dark:aria-[current=page]:bg-brand-300 dark:aria-[current=page]:text-slate-950"
          >
            {c.filters[value]}
          </Link>
        ))}
      </nav>
      {rows.length === 0 ? (
        <EmptyState>{c.empty}</EmptyState>
      ) : (
        <DataTable label={c.caption(title)} columns={audienceColumns} rows={rows} rowKey={(row) => row.id} rowTestId="audience-row" />
      )}
      <Pager
        label={c.title}
        page={page}
        total={total}
        shown={rows.length}
        hrefFor={(p) => pageHref({ pathname: location.pathname, search: location.search, param: READ_PAGE_PARAM, page: p, anchor: "read-status" })}
      />
    </section>
  );
}
