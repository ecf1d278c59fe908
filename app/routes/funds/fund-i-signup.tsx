import type { Route } from "./+types/fund-i-signup";
import { FundISignupForm } from "~/components/funds/fund-i-signup-form";
import { FundSignupPage, fundSignupMeta } from "~/components/funds/fund-signup-page";
import { keepRetryAfter } from "~/modules/http/keep-retry-after";
import { pageMeta } from "~/modules/seo/meta";
import { answerFundSignup } from "./signup-action.server";

export const meta: Route.MetaFunction = (args) => pageMeta(args, fundSignupMeta("fund-i"));

/** Keep Retry-After on a rate-limited answer. */
export const headers = keepRetryAfter;

/** Fund I sign-up: access at once (see answerFundSignup). */
export async function action({ request, context }: Route.ActionArgs) {
  return answerFundSignup(request, context.clientAddress, "fund-i");
}

export default function FundISignup({ actionData }: Route.ComponentProps) {
  return <FundSignupPage fund="fund-i" outcome={actionData ?? undefined} Form={FundISignupForm} />;
}
