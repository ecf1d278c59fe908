import { ShieldCheck } from "lucide-react";
import type { Route } from "./+types/fund-ii-signup";
import { FundIISignupForm } from "~/components/funds/fund-ii-signup-form";
import { AccountCardHeader, CardFooterLink } from "~/components/portal/account-field";
import { Card } from "~/components/ui/form";
import { StaticToast } from "~/components/ui/toaster";
import { fundAccessCopy } from "~/content/fund-access";
import { keepRetryAfter } from "~/modules/http/keep-retry-after";
import { pageMeta } from "~/modules/seo/meta";
import { answerFundSignup } from "./signup-action.server";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: fundAccessCopy.fundIISignup.metaTitle,
    description: fundAccessCopy.fundIISignup.description,
    path: "/fund-ii/signup",
    noindex: true,
  });

/** Keep Retry-After on a rate-limited answer. */
export const headers = keepRetryAfter;

/** Fund II access request: the link goes out by e-mail, the answer is the same for a repeat (see answerFundSignup). */
export async function action({ request, context }: Route.ActionArgs) {
  return answerFundSignup(request, context.clientAddress, "fund-ii");
}

export default function FundIISignup({ actionData }: Route.ComponentProps) {
  const c = fundAccessCopy.fundIISignup;
  return (
    <div className="mx-auto max-w-md px-4 py-16 sm:px-6">
      {actionData?.toast ? (
        <StaticToast announce={false} toast={{ id: "fund-ii-signup-result", variant: "default", ...actionData.toast }} />
      ) : null}
      <Card>
        <AccountCardHeader icon={<ShieldCheck aria-hidden="true" className="size-6" />} title={c.title} intro={c.intro} />
        <FundIISignupForm serverOutcome={actionData ?? undefined} />
        <CardFooterLink to="/fund-ii">{c.back}</CardFooterLink>
      </Card>
    </div>
  );
}
