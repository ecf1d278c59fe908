import { Form, Link } from "react-router";
import { AdminPageHeader, adminPageTitle } from "~/components/admin/page-header";
import type { Route } from "./+types/investors";
import { ReferenceCodeForm, ReferenceCodeHint, SET_REFERENCE_CODE_INTENT } from "~/components/admin/reference-code-form";
import { StatusConfirmPanel, STATUS_INTENT, type ListKind } from "~/components/portal/status-actions";
import { UserList, userListPageParam } from "~/components/portal/user-list";
import { parsePage } from "~/components/email-lists/params";
import { Button, buttonClass, inputClass, Label } from "~/components/ui/form";
import { investorsCopy } from "~/content/admin-workspace";
import { adminCopy, type ConfirmKind } from "~/content/portal";
import { ADMIN_PATHS } from "~/modules/admin/paths";
import { requireAdmin } from "~/modules/auth/guards.server";
import { readFormData } from "~/modules/http/form-data.server";
import { cleanInvestorQuery, INVESTOR_QUERY_MAX } from "~/modules/lp-users/investor-search";
import type { UserStatus } from "~/modules/lp-users/schema";
import { pageMeta } from "~/modules/seo/meta";
import { answerAdminIntent } from "./actions.server";
import { readConfirmUser, readUserList } from "./lists.server";

const PAGE = ADMIN_PATHS.investors;
const LISTS: readonly ListKind[] = ["pending", "approved", "rejected"];
type StatusFilter = "all" | UserStatus;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: adminPageTitle("investors"), description: investorsCopy.search.label, path: PAGE, noindex: true });

/** Which list each confirm step belongs to: a user no longer in it has nothing to confirm. */
const confirmLists: Record<ConfirmKind, UserStatus> = { reject: "pending", revoke: "approved", approve: "rejected" };

function isConfirmKind(value: string | null): value is ConfirmKind {
  return value === "reject" || value === "revoke" || value === "approve";
}

function parseStatus(value: string | null): StatusFilter {
  return value === "pending" || value === "approved" || value === "rejected" ? value : "all";
}

/**
 * /admin/investors, 'Existing Investor/LP Management': the pending, approved
 * and rejected lists, each paged on its own (`?pending.page=N`…), narrowed by
 * a search over name, e-mail, company and reference code (`q`, case and accents ignored) and
 * a status filter (`status`). `?confirm=reject|revoke|approve&user=<id>` is
 * the confirm step without JavaScript. Each investor's reference code is
 * shown and set here (intent `set-reference-code`).
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const query = cleanInvestorQuery(params.get("q"));
  const status = parseStatus(params.get("status"));
  const shown = status === "all" ? LISTS : LISTS.filter((list) => list === status);
  const lists = shown.map((list) => ({ list, data: readUserList(list, parsePage(params.get(userListPageParam(list))), query) }));
  const kind = params.get("confirm");
  const userId = params.get("user");
  const confirm = isConfirmKind(kind) && userId ? { kind, user: readConfirmUser(userId, confirmLists[kind]) } : null;
  return { lists, query, status, confirm };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return answerAdminIntent(admin, await readFormData(request), PAGE, [STATUS_INTENT, SET_REFERENCE_CODE_INTENT]);
}

export default function Investors({ loaderData }: Route.ComponentProps) {
  const { lists, query, status, confirm } = loaderData;
  const c = investorsCopy.search;
  return (
    <div>
      <AdminPageHeader page="investors" specName={adminCopy.lpSection} />
      <Form method="get" action={PAGE} role="search" aria-label={c.label} className="mt-6 flex flex-wrap items-end gap-3">
        <div className="min-w-60 flex-1">
          <Label htmlFor="investor-search">{c.label}</Label>
          <input
            id="investor-search"
            type="search"
            name="q"
            defaultValue={query}
            maxLength={INVESTOR_QUERY_MAX}
            placeholder={c.placeholder}
            className={inputClass}
          />
        </div>
        <div>
          <Label htmlFor="investor-status">{c.status}</Label>
          <select id="investor-status" name="status" defaultValue={status} className={inputClass}>
            {(["all", "pending", "approved", "rejected"] as const).map((value) => (
              <option key={value} value={value}>
                {c.statuses[value]}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit">{c.submit}</Button>
        {query || status !== "all" ? (
          <Link to={PAGE} className={buttonClass("secondary")}>
            {c.clear}
          </Link>
        ) : null}
      </Form>
      {query ? (
        <p className="mt-4 text-sm text-slate-700 dark:text-slate-200" role="status">
          {c.results(query)}
        </p>
      ) : null}
      {confirm ? <StatusConfirmPanel kind={confirm.kind} user={confirm.user} action={PAGE} /> : null}
      <ReferenceCodeHint />
      {lists.map(({ list, data }) => (
        <UserList
          key={list}
          list={list}
          data={data}
          action={PAGE}
          extra={(user, nameId) => <ReferenceCodeForm user={user} describedBy={nameId} action={PAGE} />}
        />
      ))}
    </div>
  );
}
