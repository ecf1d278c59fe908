import { Search } from "lucide-react";
import { Form, Link, redirect, useLocation } from "react-router";
import { AdminPageHeader, adminPageTitle } from "~/components/admin/page-header";
import type { Route } from "./+types/investors";
import { InvestorTable } from "~/components/admin/investor-table";
import { SET_REFERENCE_CODE_INTENT } from "~/components/admin/reference-code-form";
import { EmptyState } from "~/components/kit/empty-state";
import { FilterTabs } from "~/components/kit/filter-tabs";
import { hrefWith, keptParams } from "~/components/kit/query";
import type { ColumnSort, SortDirection } from "~/components/kit/data-table";
import { StatusConfirmPanel, STATUS_INTENT, type ListKind } from "~/components/portal/status-actions";
import { userListPageParam } from "~/components/portal/user-list";
import { parsePage } from "~/components/email-lists/params";
import { Pager } from "~/components/ui/pager";
import { Button, buttonClass, inputClass } from "~/components/ui/form";
import { investorsCopy } from "~/content/admin-workspace";
import { adminCopy, type ConfirmKind } from "~/content/portal";
import { ADMIN_PATHS } from "~/modules/admin/paths";
import { requireAdmin } from "~/modules/auth/guards.server";
import { readFormData } from "~/modules/http/form-data.server";
import { cleanInvestorQuery, INVESTOR_QUERY_MAX } from "~/modules/lp-users/investor-search";
import type { InvestorFilter, InvestorSort, InvestorView } from "~/modules/lp-users/investor-table.server";
import type { UserStatus } from "~/modules/lp-users/schema";
import { pageMeta } from "~/modules/seo/meta";
import { safeRedirectPath } from "~/modules/toast/flash.server";
import { answerAdminIntent } from "./actions.server";
import { readConfirmUser, readInvestorTable } from "./lists.server";

const PAGE = ADMIN_PATHS.investors;
const LISTS: readonly ListKind[] = ["pending", "approved", "rejected"];
const TABS: readonly InvestorFilter[] = ["all", ...LISTS];
/** The list's anchor: paging and the tabs come back to it without JavaScript. */
const LIST_ID = "investor-list";
/** A change of tab, sort or search starts again at page 1, with no confirm step open. */
const VIEW_RESETS = { page: null, confirm: null, user: null } as const;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: adminPageTitle("investors"), description: investorsCopy.search.label, path: PAGE, noindex: true });

/** Which list each confirm step belongs to: a user no longer in it has nothing to confirm. */
const confirmLists: Record<ConfirmKind, UserStatus> = { reject: "pending", revoke: "approved", approve: "rejected" };

function isConfirmKind(value: string | null): value is ConfirmKind {
  return value === "reject" || value === "revoke" || value === "approve";
}

function isList(value: string | null): value is ListKind {
  return value === "pending" || value === "approved" || value === "rejected";
}

/**
 * The view in the query: `status` (a tab; all by default), `sort` (date,
 * newest first, by default; or name, A–Z), `dir`, `page` and `q`.
 */
function parseView(params: URLSearchParams): InvestorView & { page: number } {
  const status = params.get("status");
  const sort: InvestorSort = params.get("sort") === "name" ? "name" : "date";
  const dirParam = params.get("dir");
  const dir: SortDirection = dirParam === "asc" || dirParam === "desc" ? dirParam : sort === "name" ? "asc" : "desc";
  return { status: isList(status) ? status : "all", sort, dir, page: parsePage(params.get("page")), query: cleanInvestorQuery(params.get("q")) };
}

/** A link into the former three lists (`?approved.page=3`) goes to that tab and page, other parameters kept. */
function legacyView(url: URL): string | null {
  const list = LISTS.find((name) => url.searchParams.has(userListPageParam(name)));
  if (!list) return null;
  const page = parsePage(url.searchParams.get(userListPageParam(list)));
  const dropped = Object.fromEntries(LISTS.map((name) => [userListPageParam(name), null]));
  return hrefWith(PAGE, url.search, { ...dropped, status: list, page: page > 1 ? page : null });
}

/**
 * /admin/investors, 'Existing Investor/LP Management' (issue 23 §3): one
 * table of investors with status tabs and their counts (All, the default;
 * Pending; Approved; Rejected), sortable by name and request date, paged 50
 * at a time, narrowed by a search over name, e-mail, company and reference
 * code (`q`, case and accents ignored). `?confirm=reject|revoke|approve&user=<id>`
 * is the confirm step without JavaScript. Each investor's reference code is
 * set in the row's menu (intent `set-reference-code`).
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const moved = legacyView(url);
  if (moved) throw redirect(moved);
  const params = url.searchParams;
  const { page, ...view } = parseView(params);
  const table = readInvestorTable(view, page);
  const kind = params.get("confirm");
  const userId = params.get("user");
  const confirm = isConfirmKind(kind) && userId ? { kind, user: readConfirmUser(userId, confirmLists[kind]) } : null;
  return { view, table, confirm };
}

/** Where a status change without JavaScript comes back to: the list's view it was made in (`query`, from the confirm step). */
function viewOf(formData: FormData): string {
  const query = String(formData.get("query") ?? "");
  return formData.get("intent") === STATUS_INTENT && /^\?[^#\s]{1,500}$/.test(query) ? safeRedirectPath(`${PAGE}${query}`, PAGE) : PAGE;
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const formData = await readFormData(request);
  return answerAdminIntent(admin, formData, viewOf(formData), [STATUS_INTENT, SET_REFERENCE_CODE_INTENT]);
}

export default function Investors({ loaderData }: Route.ComponentProps) {
  const { view, table, confirm } = loaderData;
  const { search } = useLocation();
  const c = investorsCopy.search;
  const t = investorsCopy.table;
  const query = view.query ?? "";
  // The view without an open confirm step: where the step's Cancel and its post come back to.
  const viewSearch = hrefWith("", search, { confirm: null, user: null });

  const columnSort = (key: InvestorSort): ColumnSort => {
    const active = view.sort === key ? view.dir : null;
    const first: SortDirection = key === "name" ? "asc" : "desc";
    const next: SortDirection = active ? (active === "asc" ? "desc" : "asc") : first;
    // Back to the default order (newest first) drops the parameters.
    const isDefault = key === "date" && next === "desc";
    return { active, next, href: hrefWith(PAGE, search, { ...VIEW_RESETS, sort: isDefault ? null : key, dir: isDefault || next === first ? null : next }, LIST_ID) };
  };

  const tabs = TABS.map((key) => {
    const counts = table.counts;
    const count = counts ? (key === "all" ? counts.pending + counts.approved + counts.rejected : counts[key]) : null;
    return { key, label: c.statuses[key], count, href: hrefWith(PAGE, search, { ...VIEW_RESETS, status: key === "all" ? null : key }, LIST_ID) };
  });

  const emptyText = query ? t.noMatch(query) : view.status === "all" ? t.emptyAll : adminCopy[view.status].empty;
  const errorText = view.status === "all" ? t.errorAll : adminCopy[view.status].error;

  return (
    <div>
      <AdminPageHeader page="investors" specName={adminCopy.lpSection} />
      <Form method="get" action={PAGE} role="search" aria-label={c.label} className="mt-6 flex flex-wrap items-center gap-2">
        {keptParams(search, ["q", "page", "confirm", "user"]).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <label htmlFor="investor-search" className="sr-only">
          {c.label}
        </label>
        <div className="relative min-w-0 flex-1 sm:max-w-md">
          <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500 dark:text-slate-400" />
          <input
            id="investor-search"
            type="search"
            name="q"
            defaultValue={query}
            maxLength={INVESTOR_QUERY_MAX}
            placeholder={c.placeholder}
            className={`${inputClass} pl-9`}
          />
        </div>
        <Button type="submit" variant="secondary">
          {c.submit}
        </Button>
        {query ? (
          <Link to={hrefWith(PAGE, search, { ...VIEW_RESETS, q: null })} className={buttonClass("secondary", "border-transparent! bg-transparent! shadow-none!")}>
            {c.clear}
          </Link>
        ) : null}
      </Form>
      {confirm ? <StatusConfirmPanel kind={confirm.kind} user={confirm.user} action={PAGE} search={viewSearch} /> : null}
      <div id={LIST_ID} data-testid={LIST_ID} className="scroll-mt-28">
        <FilterTabs label={t.tabs} tabs={tabs} current={view.status} />
        {query ? (
          <p className="mt-3 text-sm text-slate-700 dark:text-slate-200" role="status">
            {c.results(query)}
          </p>
        ) : null}
        {table.failed ? (
          <p
            role="alert"
            className="mt-4 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
          >
            {errorText}
          </p>
        ) : table.rows.length === 0 ? (
          <EmptyState testId="investors-empty">{emptyText}</EmptyState>
        ) : (
          <>
            <InvestorTable
              rows={table.rows}
              action={PAGE}
              sorts={{ name: columnSort("name"), date: columnSort("date") }}
            />
            <Pager
              label={t.label}
              page={table.page}
              total={table.total}
              shown={table.rows.length}
              hrefFor={(target) => hrefWith(PAGE, search, { page: target > 1 ? target : null, confirm: null, user: null }, LIST_ID)}
            />
          </>
        )}
      </div>
    </div>
  );
}
