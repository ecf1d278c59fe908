import { Download } from "lucide-react";
import { AdminPageHeader, adminPageTitle } from "~/components/admin/page-header";
import { data, Form, Link, useLocation } from "react-router";
import type { Route } from "./+types/pitches";
import { Badge, DataTable, OneLine, type BadgeTone, type DataColumn } from "~/components/kit/data-table";
import { EmptyState } from "~/components/kit/empty-state";
import { Pager } from "~/components/ui/pager";
import { CheckboxField, Field, SelectField } from "~/components/kit/fields";
import { Button, buttonClass } from "~/components/ui/form";
import { pitchListCopy as c, pitchStatusLabels } from "~/content/pitch-inbox";
import { ADMIN_PATHS } from "~/modules/admin/paths";
import { requireAdmin } from "~/modules/auth/guards.server";
import { now } from "~/modules/config/clock.server";
import { isAppError } from "~/modules/http/app-error";
import { clockText, dueDayText, listPitchAdmins, listPitches, statusLabel } from "~/modules/pitch-inbox/inbox.server";
import { PITCH_FILTER_PARAMS, PITCH_PAGE_SIZE, PITCH_QUERY_MAX, PITCH_STATUS_VALUES, PitchFilters } from "~/modules/pitch-inbox/schema";
import { clockState } from "~/modules/pitch-clock/clock.server";
import { PITCH_STAGES } from "~/modules/pitches/constants";
import { pageMeta } from "~/modules/seo/meta";

const PAGE = ADMIN_PATHS.pitches;
const EXPORT = `${PAGE}.csv`;

type FilterName = (typeof PITCH_FILTER_PARAMS)[number];
type Typed = Record<FilterName | "page", string>;
type Errors = Partial<Record<FilterName | "page", string[]>>;

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: adminPageTitle("pitches"), description: c.intro, path: PAGE, noindex: true });

/**
 * /admin/pitches: the pitch inbox, newest first, filtered by a GET form that works
 * without JavaScript (status, stage, owner, overdue, search), paged by links
 * (`?page=N`, PITCH_PAGE_SIZE a page; past the end shows the last page), with a CSV
 * export of everything the filters match. Bad filters answer 400 with field messages.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const typed = Object.fromEntries([...PITCH_FILTER_PARAMS, "page"].map((name) => [name, params.get(name) ?? ""])) as Typed;
  const admins = listPitchAdmins();
  const owners = admins.map((admin) => ({ id: admin.id, name: admin.name }));
  const refused = (errors: Errors) =>
    data({ typed, errors, owners, rows: [], page: 1, total: 0, filtered: true }, { status: 400 });
  const parsed = PitchFilters.safeParse(typed);
  if (!parsed.success) {
    const errors: Errors = {};
    for (const issue of parsed.error.issues) (errors[issue.path[0] as FilterName] ??= []).push(issue.message);
    return refused(errors);
  }
  const at = now();
  let result;
  try {
    result = listPitches(parsed.data, undefined, at);
    if (result.pitches.length === 0 && result.total > 0) {
      result = listPitches({ ...parsed.data, page: Math.ceil(result.total / PITCH_PAGE_SIZE) }, undefined, at);
    }
  } catch (error) {
    if (isAppError(error) && error.options.fields) return refused(error.options.fields as Errors);
    throw error;
  }
  const names = new Map(admins.map((admin) => [admin.id, admin.name]));
  const rows = result.pitches.map((pitch) => ({
    id: pitch.id,
    company: pitch.company,
    name: pitch.name,
    email: pitch.email,
    stage: pitch.stage,
    status: statusLabel(pitch.status),
    statusKey: pitch.status,
    owner: pitch.ownerId ? (names.get(pitch.ownerId) ?? c.formerAdmin) : null,
    due: dueDayText(pitch.dueAt),
    clock: clockText(pitch, at),
    clockKind: clockState(pitch, at).kind,
  }));
  const filtered = PITCH_FILTER_PARAMS.some((name) => typed[name] !== "");
  return { typed, errors: null, owners, rows, page: result.page, total: result.total, filtered };
}

/** This page's (or the export's) address with the filters as typed and, for paging, a page. */
function hrefWith(typed: Typed, path: string, page?: number): string {
  const params = new URLSearchParams();
  for (const name of PITCH_FILTER_PARAMS) if (typed[name]) params.set(name, typed[name]);
  if (page && page > 1) params.set("page", String(page));
  const query = params.toString();
  return `${path}${query ? `?${query}` : ""}`;
}

function Filters({ typed, errors, owners }: { typed: Typed; errors: Errors | null; owners: { id: string; name: string }[] }) {
  const f = c.filters;
  const { search } = useLocation();
  const anyFilter = PITCH_FILTER_PARAMS.some((name) => typed[name]);
  const shared = (name: FilterName) => ({ id: `pitches-${name}`, name, errors: errors?.[name] });
  return (
    // The fields are uncontrolled: a new query (Clear filters, Back) makes a new form showing it.
    <Form key={search} method="get" action={PAGE} role="search" aria-label={f.label} className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      <Field
        {...shared("q")}
        className="sm:col-span-2 lg:col-span-3"
        label={f.q}
        hint={f.qHint}
        type="search"
        defaultValue={typed.q}
        maxLength={PITCH_QUERY_MAX}
        autoComplete="off"
      />
      <SelectField {...shared("status")} label={f.status} defaultValue={typed.status}>
        <option value="">{f.anyStatus}</option>
        {PITCH_STATUS_VALUES.map((status) => (
          <option key={status} value={status}>
            {pitchStatusLabels[status]}
          </option>
        ))}
      </SelectField>
      <SelectField {...shared("stage")} label={f.stage} defaultValue={typed.stage}>
        <option value="">{f.anyStage}</option>
        {PITCH_STAGES.map((stage) => (
          <option key={stage} value={stage}>
            {stage}
          </option>
        ))}
      </SelectField>
      <SelectField {...shared("owner")} label={f.owner} defaultValue={typed.owner}>
        <option value="">{f.anyOwner}</option>
        <option value="none">{f.nobody}</option>
        {owners.map((owner) => (
          <option key={owner.id} value={owner.id}>
            {owner.name}
          </option>
        ))}
      </SelectField>
      <CheckboxField
        {...shared("overdue")}
        className="self-center"
        label={f.overdue}
        value="1"
        defaultChecked={typed.overdue === "1" || typed.overdue === "true"}
      />
      <div className="flex items-end gap-3 sm:col-span-2 lg:col-span-2">
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

type Row = Extract<Route.ComponentProps["loaderData"], { errors: null }>["rows"][number];

const clockClass: Record<string, string> = {
  overdue: "font-semibold text-red-800 dark:text-red-300",
  due_today: "font-semibold text-amber-900 dark:text-amber-200",
  due: "text-slate-700 dark:text-slate-200",
  answered: "text-slate-600 dark:text-slate-300",
};

const statusTone: Record<string, BadgeTone> = { new: "info", in_review: "warning", partner_call: "warning", passed: "neutral", invested: "success" };

/** The inbox: one line a pitch; below 640 px a card (company and status, the clock, then the rest). */
const pitchColumns: ReadonlyArray<DataColumn<Row>> = [
  {
    key: "company",
    header: c.columns.company,
    width: "w-[18%]",
    card: "primary",
    cell: (row) => (
      <Link to={`${PAGE}/${row.id}`} className="font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300">
        {row.company}
      </Link>
    ),
  },
  {
    key: "founder",
    header: c.columns.founder,
    cell: (row) => (
      <>
        <OneLine>{row.name}</OneLine>
        <span className="block truncate text-xs text-slate-600 dark:text-slate-300" title={row.email}>
          {row.email}
        </span>
      </>
    ),
  },
  { key: "stage", header: c.columns.stage, width: "w-24", cell: (row) => row.stage },
  { key: "status", header: c.columns.status, width: "w-32", card: "badge", cell: (row) => <Badge tone={statusTone[row.statusKey]}>{row.status}</Badge> },
  {
    key: "owner",
    header: c.columns.owner,
    width: "w-[14%]",
    cell: (row) => <OneLine title={row.owner ?? c.nobody}>{row.owner ?? <span className="text-slate-600 dark:text-slate-300">{c.nobody}</span>}</OneLine>,
  },
  { key: "due", header: c.columns.due, width: "w-28", className: "whitespace-nowrap tabular-nums", cell: (row) => row.due },
  { key: "clock", header: c.columns.clock, width: "w-48", card: "meta", cell: (row) => <span className={clockClass[row.clockKind] ?? ""}>{row.clock}</span> },
];

export default function Pitches({ loaderData }: Route.ComponentProps) {
  const { typed, errors, owners, rows, page, total, filtered } = loaderData;
  return (
    <div>
      <AdminPageHeader page="pitches" intro={c.intro} />
      <Filters typed={typed} errors={errors} owners={owners} />
      {errors ? (
        <p role="alert" className="mt-6 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
          {c.invalid}
        </p>
      ) : (
        <>
          <div className="mt-6 flex flex-col items-end">
            <a href={hrefWith(typed, EXPORT)} download className={buttonClass("secondary")} aria-describedby="pitches-export-hint">
              <Download aria-hidden="true" className="size-4" />
              {c.export}
            </a>
            <p id="pitches-export-hint" className="mt-1 text-xs text-slate-600 dark:text-slate-300">
              {c.exportHint}
            </p>
          </div>
          {rows.length === 0 ? (
            <EmptyState>{filtered ? c.noMatch : c.empty}</EmptyState>
          ) : (
            <DataTable label={c.caption} columns={pitchColumns} rows={rows as Row[]} rowKey={(row) => row.id} rowTestId="pitch-row" />
          )}
          <Pager label={c.title} page={page} total={total} shown={rows.length} pageSize={PITCH_PAGE_SIZE} hrefFor={(p) => hrefWith(typed, PAGE, p)} />
        </>
      )}
    </div>
  );
}
