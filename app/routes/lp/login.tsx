import { KeyRound } from "lucide-react";
import { type ShouldRevalidateFunctionArgs, Link, redirect } from "react-router";
import type { Route } from "./+types/login";
import { AccountCardHeader, textLinkClass } from "~/components/portal/account-field";
import { LoginForm } from "~/components/portal/login-form";
import type { FormOutcome } from "~/components/portal/outcome";
import { buttonClass, Card } from "~/components/ui/form";
import { StaticToast } from "~/components/ui/toaster";
import { signInCopy } from "~/content/portal";
import { canUseInvestorPortal } from "~/modules/auth/guards.server";
import { getSessionUser } from "~/modules/auth/session.server";
import { portalHome, signInFormAction } from "~/routes/auth/sign-in-action.server";
import { pageMeta } from "~/modules/seo/meta";
import { keepRetryAfter } from "~/modules/http/keep-retry-after";

/** A rate-limited answer keeps its Retry-After (DESIGN.md §4). */
export const headers = keepRetryAfter;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: signInCopy.investor.title,
    description: signInCopy.investor.description,
    path: "/lp/login",
    noindex: true,
  });

/** Someone already signed in (approved investor or admin) goes straight to their dashboard. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  if (canUseInvestorPortal(user)) throw redirect(portalHome(user));
  return null;
}

/**
 * Sign in (SPEC.md §2, §4, §8). Success: investors go to /lp/dashboard, admins
 * to /admin/dashboard, with 'Login successful' / 'Welcome back!'. Failure:
 * 'Login failed' with the server's message. The password is never sent back.
 */
export async function action({ request, context }: Route.ActionArgs) {
  return signInFormAction(request, context.clientAddress, "investor");
}

/** After a successful sign-in with JavaScript the form navigates itself; no need to run this loader again. */
export function shouldRevalidate({ actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if ((actionResult as FormOutcome | undefined)?.status === "success") return false;
  return defaultShouldRevalidate;
}

export default function InvestorLogin({ actionData }: Route.ComponentProps) {
  const c = signInCopy;
  return (
    <div className="mx-auto max-w-md px-4 py-16 sm:px-6">
      {actionData?.toast ? <StaticToast announce={false} toast={{ id: "login-result", variant: "default", ...actionData.toast }} /> : null}
      <Card>
        <AccountCardHeader icon={<KeyRound aria-hidden="true" className="size-6" />} title={c.investor.title} intro={c.investor.intro} />
        <LoginForm portal="investor" serverOutcome={actionData ?? undefined} />
        <p className="mt-4 text-center text-sm">
          <Link to="/lp/forgot-password" className={textLinkClass}>
            {c.forgotPassword}
          </Link>
        </p>
        <div className="mt-6 border-t border-slate-200 pt-6 text-center dark:border-slate-800">
          <p className="text-sm text-slate-600 dark:text-slate-300">{c.requestText}</p>
          <Link to="/lp/register" className={buttonClass("secondary", "mt-3 w-full")}>
            {c.requestAccess}
          </Link>
          <p className="mt-4 text-sm text-slate-600 dark:text-slate-300">
            {`${c.fundText} `}
            <Link to="/deeptech-fund" className={textLinkClass}>
              {c.fundLink}
            </Link>
          </p>
        </div>
      </Card>
    </div>
  );
}
