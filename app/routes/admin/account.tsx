import type { Route } from "./+types/account";
import { AccountPage } from "~/components/account/account-page";
import { accountPageCopy } from "~/content/account";
import { requireAdmin } from "~/modules/auth/guards.server";
import { keepRetryAfter } from "~/modules/http/keep-retry-after";
import { pageMeta } from "~/modules/seo/meta";
import { accountAction, accountLoader } from "~/routes/account/account.server";

/** A rate-limited answer keeps its Retry-After (DESIGN.md §4). */
export const headers = keepRetryAfter;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: accountPageCopy.title, description: accountPageCopy.description, path: "/admin/account", noindex: true });

export async function loader({ request }: Route.LoaderArgs) {
  return accountLoader(request, await requireAdmin(request));
}

export async function action({ request, context }: Route.ActionArgs) {
  return accountAction(request, await requireAdmin(request), context.clientAddress);
}

/** /admin/account: the admin's sign-in security (two-factor cannot be turned off here). */
export default function AdminAccount({ loaderData, actionData }: Route.ComponentProps) {
  return <AccountPage data={loaderData} answer={actionData} home="/admin/dashboard" />;
}
