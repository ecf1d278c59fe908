import type { Route } from "./+types/account";
import { AccountPage } from "~/components/account/account-page";
import { accountPageCopy } from "~/content/account";
import { requireInvestor } from "~/modules/auth/guards.server";
import { keepRetryAfter } from "~/modules/http/keep-retry-after";
import { pageMeta } from "~/modules/seo/meta";
import { accountAction, accountLoader } from "~/routes/account/account.server";

/** A rate-limited answer keeps its Retry-After (DESIGN.md §4). */
export const headers = keepRetryAfter;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: accountPageCopy.title, description: accountPageCopy.description, path: "/lp/account", noindex: true });

export async function loader({ request }: Route.LoaderArgs) {
  return accountLoader(request, await requireInvestor(request));
}

export async function action({ request, context }: Route.ActionArgs) {
  return accountAction(request, await requireInvestor(request), context.clientAddress);
}

/** /lp/account: the investor's sign-in security (two-factor, optional for investors). */
export default function InvestorAccount({ loaderData, actionData }: Route.ComponentProps) {
  return <AccountPage data={loaderData} answer={actionData} home="/lp/dashboard" />;
}
