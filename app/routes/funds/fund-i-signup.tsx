import { FileLock } from "lucide-react";
import type { Route } from "./+types/fund-i-signup";
import { FundISignupForm } from "~/components/funds/fund-i-signup-form";
import { AccountCardHeader, CardFooterLink } from "~/components/portal/account-field";
import { Card } from "~/components/ui/form";
import { StaticToast } from "~/components/ui/toaster";
import { fundAccessCopy } from "~/content/fund-access";
import { keepRetryAfter } from "~/modules/http/keep-retry-after";
import { pageMeta } from "~/modules/seo/meta";
import { answerFundSignup } from "./signup-action.server";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: fundAccessCopy.fundISignup.metaTitle,
    description: fundAccessCopy.fundISignup.description,
    path: "/fund-i/signup",
    noindex: true,
  });

/** Keep Retry-After on a rate-limited answer. */
export const headers = keepRetryAfter;

/** Fund I sign-up: access at once (see answerFundSignup). */
export async function action({ request, context }: Route.ActionArgs) {
  return answerFundSignup(request, context.clientAddress, "fund-i");
}

export default function FundISignup({ actionData }: Route.ComponentProps) {
  const c = fundAccessCopy.fundISignup;
  return (
    <div className="mx-auto max-w-md px-4 py-16 sm:px-6">
      {actionData?.toast ? (
        <StaticToast announce={false} toast={{ id: "fund-i-signup-result", variant: "default", ...actionData.toast }} />
      ) : null}
      <Card>
        <AccountCardHeader icon={<FileLock aria-hidden="true" className="size-6" />} title={c.title} intro={c.intro} />
        <FundISignupForm serverOutcome={actionData ?? undefined} />
        <CardFooterLink to="/fund-i">{c.back}</CardFooterLink>
      </Card>
    </div>
  );
}
