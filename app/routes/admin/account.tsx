import type { Route } from "./+types/account";
import { AccountPage } from "~/components/account/account-page";
import { accountPageCopy } from "~/content/account";
import { requireAdminOrEnrolment } from "~/modules/auth/guards.server";
import { keepRetryAfter } from "~/modules/http/keep-retry-after";
import { pageMeta } from "~/modules/seo/meta";
import { accountAction, accountLoader } from "~/routes/account/account.server";

/** A rate-limited answer keeps its Retry-After (DESIGN.md §4). */
export const headers = keepRetryAfter;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: accountPageCopy.title, description: accountPageCopy.description, path: "/admin/account", noindex: true });

/** Also the set-up page of an admin without two-factor (the only page such a session opens). */
export async function loader({ request }: Route.LoaderArgs) {
  return accountLoader(request, (await requireAdminOrEnrolment(request)).user);
}

export async function action({ request, context }: Route.ActionArgs) {
  return accountAction(request, (await requireAdminOrEnrolment(request)).user, context.clientAddress);
}

/** /admin/account: the admin's sign-in security (two-factor, required for admins, cannot be turned off). */
export default function AdminAccount({ loaderData, actionData }: Route.ComponentProps) {
  return <AccountPage data={loaderData} answer={actionData} home="/admin/dashboard" />;
}
