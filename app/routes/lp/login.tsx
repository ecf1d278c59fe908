import { Link, redirect } from "react-router";
import type { Route } from "./+types/login";
import { textLinkClass } from "~/components/portal/account-field";
import { RequestAccessFooter, shouldRevalidateAfterSignIn, SignInPage, signInMeta } from "~/components/portal/sign-in-page";
import { signInCopy } from "~/content/portal";
import { canUseInvestorPortal } from "~/modules/auth/guards.server";
import { getSessionUser } from "~/modules/auth/session.server";
import { portalHome, signInFormAction } from "~/routes/auth/sign-in-action.server";
import { pageMeta } from "~/modules/seo/meta";
import { keepRetryAfter } from "~/modules/http/keep-retry-after";

/** A rate-limited answer keeps its Retry-After (DESIGN.md §4). */
export const headers = keepRetryAfter;

export const meta: Route.MetaFunction = (args) => pageMeta(args, signInMeta("investor"));

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
export const shouldRevalidate = shouldRevalidateAfterSignIn;

export default function InvestorLogin({ actionData }: Route.ComponentProps) {
  const c = signInCopy;
  return (
    <SignInPage portal="investor" outcome={actionData ?? undefined} toastId="login-result">
      <p className="mt-4 text-center text-sm">
        <Link to="/lp/forgot-password" className={textLinkClass}>
          {c.forgotPassword}
        </Link>
      </p>
      <RequestAccessFooter copy={{ requestText: c.requestText, requestAccess: c.requestAccess, text: c.fundText, link: c.fundLink }} to="/deeptech-fund" />
    </SignInPage>
  );
}
