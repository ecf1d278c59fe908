import type { Route } from "./+types/fund-ii-signup";
import { FundIISignupForm } from "~/components/funds/fund-ii-signup-form";
import { FundSignupPage, fundSignupMeta } from "~/components/funds/fund-signup-page";
import { keepRetryAfter } from "~/modules/http/keep-retry-after";
import { pageMeta } from "~/modules/seo/meta";
import { answerFundSignup } from "./signup-action.server";

export const meta: Route.MetaFunction = (args) => pageMeta(args, fundSignupMeta("fund-ii"));

/** Keep Retry-After on a rate-limited answer. */
export const headers = keepRetryAfter;

/** Fund II access request: the link goes out by e-mail, the answer is the same for a repeat (see answerFundSignup). */
export async function action({ request, context }: Route.ActionArgs) {
  return answerFundSignup(request, context.clientAddress, "fund-ii");
}

export default function FundIISignup({ actionData }: Route.ComponentProps) {
  return <FundSignupPage fund="fund-ii" outcome={actionData ?? undefined} Form={FundIISignupForm} />;
}
