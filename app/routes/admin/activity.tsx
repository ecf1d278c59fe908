import { Download } from "lucide-react";
import { AdminPageHeader, adminPageTitle } from "~/components/admin/page-header";
import type { ComponentProps, ReactNode } from "react";
import { data, Form, Link, useLocation } from "react-router";
import type { Route } from "./+types/activity";
import { DataTable, OneLine, type DataColumn } from "~/components/kit/data-table";
import { EmptyState } from "~/components/kit/empty-state";
import { PageLink } from "~/components/ui/pager";
import { Field, SelectField } from "~/components/kit/fields";
import { Button, buttonClass } from "~/components/ui/form";
import { activityCopy as c, activityFilterMessages } from "~/content/activity";
import { ADMIN_PATHS } from "~/modules/admin/paths";
import { listActivity, type AuditRow } from "~/modules/audit/activity.server";
import { AUDIT_EVENTS, auditEventLabels, isAuditEvent } from "~/modules/audit/events";
import { ActivityFilters, FILTER_PARAMS, formatCursor, parseCursor, type ActivityCursor } from "~/modules/audit/schema";
import { requireAdmin } from "~/modules/auth/guards.server";
import { adminTimestamp } from "~/modules/dates/format";
import { pageMeta } from "~/modules/seo/meta";

const PAGE = ADMIN_PATHS.activity;
const EXPORT = `${PAGE}.csv`;

type FilterName = (typeof FILTER_PARAMS)[number];
type TypedFilters = Record<FilterName, string>;

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: adminPageTitle("activity"), description: c.intro, path: PAGE, noindex: true });

/** A row as the table shows it. */
function view(row: AuditRow) {
  let details: [string, string][] = [];
  let count: number | null = null;
  try {
    const parsed = JSON.parse(row.details) as Record<string, unknown>;
    details = Object.entries(parsed).map(([key, value]) => [key, typeof value === "string" ? value : JSON.stringify(value)]);
    // A refusal row that stands for more of them (decision 030).
    if (typeof parsed.count === "number" && (row.event === "request.cross_site_refused" || row.event === "request.rate_limited")) count = parsed.count;
  } catch {
    details = [["details", row.details]];
  }
  return {
    id: row.id,
    whenIso: row.at.toISOString(),
    when: adminTimestamp(row.at),
    event: row.event,
    eventLabel: isAuditEvent(row.event) ? auditEventLabels[row.event] : row.event,
    repeated: count === null ? null : c.repeated(count),
    actor: row.actorEmail,
    target: row.targetType ? { type: row.targetType, id: row.targetId, label: row.targetLabel } : null,
    ip: row.ip,
    userAgent: row.userAgent,
    requestId: row.requestId,
    details,
  };
}

/**
 * /admin/activity: the audit trail, newest first, filtered by a GET form
 * (event, actor, target, a range of UTC days) that works without JavaScript,
 * paged by keyset links (`before` / `after` a row), with a CSV export of
 * everything the filters match. Bad filters answer 400 with field messages.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const typed = Object.fromEntries(FILTER_PARAMS.map((name) => [name, params.get(name) ?? ""])) as TypedFilters;
  const parsed = ActivityFilters.safeParse(typed);
  const cursorParam = params.get("before") ?? params.get("after");
  const before = parseCursor(params.get("before"));
  const after = parseCursor(params.get("after"));
  if (!parsed.success || (cursorParam !== null && !before && !after)) {
    const errors: Partial<Record<FilterName | "cursor", string[]>> = {};
    for (const issue of parsed.error?.issues ?? []) (errors[issue.path[0] as FilterName] ??= []).push(issue.message);
    if (cursorParam !== null && !before && !after) errors.cursor = [activityFilterMessages.cursor];
    return data({ typed, errors, filtered: true, rows: [], newer: null, older: null }, { status: 400 });
  }
  const page = listActivity(parsed.data, { before, after });
  const filtered = Object.values(parsed.data).some((value) => value !== undefined);
  return { typed, errors: null, filtered, rows: page.rows.map(view), newer: page.newer, older: page.older };
}

/** This page's address with the filters as typed and, for paging, a cursor. */
function hrefWith(typed: TypedFilters, path: string, cursor?: { name: "before" | "after"; at: ActivityCursor }): string {
  const params = new URLSearchParams();
  for (const name of FILTER_PARAMS) if (typed[name]) params.set(name, typed[name]);
  if (cursor) params.set(cursor.name, formatCursor(cursor.at));
  const query = params.toString();
  return `${path}${query ? `?${query}` : ""}`;
}

/** One filter: its label, control (a text or date input unless `select` is given), hint and message. */
function Filter({
  name,
  label,
  typed,
  hint,
  errors,
  input,
  select,
}: {
  name: FilterName;
  label: string;
  typed: TypedFilters;
  hint?: string;
  errors: Partial<Record<string, string[]>> | null;
  input?: ComponentProps<"input">;
  select?: ReactNode;
}) {
  const field = { id: `activity-${name}`, name, label, hint, errors: errors?.[name], defaultValue: typed[name] };
  return select ? <SelectField {...field}>{select}</SelectField> : <Field autoComplete="off" {...field} {...input} />;
}

function Filters({ typed, errors }: { typed: TypedFilters; errors: Partial<Record<string, string[]>> | null }) {
  const f = c.filters;
  const anyFilter = FILTER_PARAMS.some((name) => typed[name]);
  const shared = { typed, errors };
  // The fields are uncontrolled: a new query (Clear filters, Back) makes a new form showing it.
  const { search } = useLocation();
  return (
    <Form key={search} method="get" action={PAGE} role="search" aria-label={f.label} className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      <Filter
        name="event"
        label={f.event}
        {...shared}
        select={
          <>
            <option value="">{f.anyEvent}</option>
            {AUDIT_EVENTS.map((event) => (
              <option key={event} value={event}>
                {auditEventLabels[event]}
              </option>
            ))}
          </>
        }
      />
      <Filter name="actor" label={f.actor} hint={f.actorHint} input={{ inputMode: "email" }} {...shared} />
      <Filter name="target" label={f.target} hint={f.targetHint} {...shared} />
      <Filter name="from" label={f.from} input={{ type: "date" }} {...shared} />
      <Filter name="to" label={f.to} input={{ type: "date" }} {...shared} />
      <div className="flex items-end gap-3">
        <Button type="submit">{f.submit}</Button>
        {anyFilter ? (
          <Link to={PAGE} className={buttonClass("secondary")}>
            {f.clear}
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

function NotRecorded() {
  return (
    <>
      <span aria-hidden="true">{c.none}</span>
      <span className="sr-only">{c.notRecorded}</span>
    </>
  );
}

type ViewRow = ReturnType<typeof view>;

/** A row's details as shown under 'Details': the event's own fields, then the browser and the request id. */
function detailLines(row: ViewRow): Array<[string, string, string]> {
  return [
    ...row.details.map(([key, value]): [string, string, string] => [key, value, "break-all"]),
    ...(row.userAgent ? [[c.browser, row.userAgent, "break-words"] as [string, string, string]] : []),
    ...(row.requestId ? [[c.requestId, row.requestId, "font-mono break-all"] as [string, string, string]] : []),
  ];
}

/**
 * One line per event (time, event, actor, target, address); the browser, the
 * request id and the event's details open under 'Details' (a disclosure, no
 * script needed). Below 640 px each row is a card: the event and the time
 * first, the rest under them.
 */
const activityColumns: ReadonlyArray<DataColumn<ViewRow>> = [
  {
    key: "when",
    header: c.columns.when,
    width: "w-44",
    card: "meta",
    className: "whitespace-nowrap tabular-nums",
    cell: (row) => <time dateTime={row.whenIso}>{row.when}</time>,
  },
  {
    key: "event",
    header: c.columns.event,
    width: "w-[30%]",
    card: "primary",
    cell: (row) => (
      <>
        <OneLine title={`${row.eventLabel} (${row.event})`}>
          <span className="font-medium">{row.eventLabel}</span> <code className="text-xs font-normal text-slate-600 dark:text-slate-300">{row.event}</code>
        </OneLine>
        {row.repeated ? <span className="block truncate text-xs font-medium">{row.repeated}</span> : null}
      </>
    ),
  },
  {
    key: "actor",
    header: c.columns.actor,
    width: "w-[19%]",
    cell: (row) => <OneLine title={row.actor ?? c.visitor}>{row.actor ?? <span className="italic">{c.visitor}</span>}</OneLine>,
  },
  {
    key: "target",
    header: c.columns.target,
    cell: (row) =>
      row.target ? (
        <OneLine title={`${row.target.label ?? row.target.id ?? ""} (${row.target.type}${row.target.id ? ` ${row.target.id}` : ""})`}>
          <span>{row.target.label ?? row.target.id}</span>{" "}
          <span className="text-xs text-slate-600 dark:text-slate-300">
            {row.target.type}
            {row.target.id && row.target.id !== row.target.label ? ` · ${row.target.id}` : ""}
          </span>
        </OneLine>
      ) : (
        <NotRecorded />
      ),
  },
  {
    key: "from",
    header: c.columns.from,
    width: "w-28",
    className: "text-xs",
    cell: (row) => (
      <OneLine className="font-mono" title={row.ip ?? undefined}>
        {row.ip ?? <NotRecorded />}
      </OneLine>
    ),
  },
  {
    key: "details",
    header: c.columns.details,
    width: "w-20",
    className: "text-xs sm:relative",
    cell: (row) => (
      <details>
        <summary className="cursor-pointer font-medium text-brand-800 select-none dark:text-brand-200">
          {c.columns.details}
          <span className="sr-only">{` ${c.detailsOf(row.eventLabel, row.when)}`}</span>
        </summary>
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5 sm:absolute sm:right-4 sm:z-10 sm:w-96 sm:rounded-md sm:border sm:border-slate-200 sm:bg-white sm:p-3 sm:shadow-lg sm:dark:border-slate-700 sm:dark:bg-slate-900">
          {detailLines(row).map(([key, value, className], i) => (
            <div key={`${i}-${key}`} className="contents">
              <dt className="text-slate-600 dark:text-slate-300">{key}</dt>
              <dd className={className}>{value}</dd>
            </div>
          ))}
        </dl>
      </details>
    ),
  },
];

export default function Activity({ loaderData }: Route.ComponentProps) {
  const { typed, errors, filtered, rows, newer, older } = loaderData;
  return (
    <div>
      <AdminPageHeader page="activity" intro={c.intro} />
      <Filters typed={typed} errors={errors} />
      {errors ? (
        <p role="alert" className="mt-6 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
          {errors.cursor?.[0] ?? c.invalid}
        </p>
      ) : (
        <>
          <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm text-slate-600 dark:text-slate-300">{c.timesInUtc}</p>
            <div className="flex flex-col items-end">
              <a href={hrefWith(typed, EXPORT)} download className={buttonClass("secondary")} aria-describedby="activity-export-hint">
                <Download aria-hidden="true" className="size-4" />
                {c.export}
              </a>
              <p id="activity-export-hint" className="mt-1 text-xs text-slate-600 dark:text-slate-300">
                {c.exportHint}
              </p>
            </div>
          </div>
          {rows.length === 0 ? (
            <EmptyState>{filtered ? c.noMatch : c.empty}</EmptyState>
          ) : (
            <DataTable label={c.caption} columns={activityColumns} rows={rows} rowKey={(row) => String(row.id)} rowTestId="activity-row" dense />
          )}
          {newer || older ? (
            <nav aria-label={c.paging.label} className="mt-4 flex flex-wrap items-center justify-end gap-2">
              {newer ? (
                <Link to={hrefWith(typed, PAGE)} className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300">
                  {c.paging.newest}
                </Link>
              ) : null}
              <PageLink
                to={newer ? hrefWith(typed, PAGE, { name: "after", at: newer }) : hrefWith(typed, PAGE)}
                label={c.title}
                direction="previous"
                disabled={!newer}
              />
              <PageLink
                to={older ? hrefWith(typed, PAGE, { name: "before", at: older }) : hrefWith(typed, PAGE)}
                label={c.title}
                direction="next"
                disabled={!older}
              />
            </nav>
          ) : null}
        </>
      )}
    </div>
  );
}
