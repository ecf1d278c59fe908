import { Link, redirect } from "react-router";
import type { Route } from "./+types/login";
import { textLinkClass } from "~/components/portal/account-field";
import { shouldRevalidateAfterSignIn, SignInPage, signInMeta } from "~/components/portal/sign-in-page";
import { signInCopy } from "~/content/portal";
import { getSessionUser } from "~/modules/auth/session.server";
import { signInFormAction } from "~/routes/auth/sign-in-action.server";
import { pageMeta } from "~/modules/seo/meta";
import { keepRetryAfter } from "~/modules/http/keep-retry-after";

/** A rate-limited answer keeps its Retry-After (DESIGN.md §4). */
export const headers = keepRetryAfter;

export const meta: Route.MetaFunction = (args) => pageMeta(args, signInMeta("admin"));

/** An admin who is already signed in goes straight to the dashboard. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  if (user?.isAdmin) throw redirect("/admin/dashboard");
  return null;
}

/**
 * Admin sign-in (SPEC.md §2, §4, §8): only admins get a session. A non-admin
 * with the right password sees 'Admin access required. This login is for
 * administrators only.' and stays signed out; other failures show the
 * server's message or 'Invalid credentials'.
 */
export async function action({ request, context }: Route.ActionArgs) {
  return signInFormAction(request, context.clientAddress, "admin");
}

/** After a successful sign-in with JavaScript the form navigates itself (after 50 ms). */
export const shouldRevalidate = shouldRevalidateAfterSignIn;

export default function AdminLogin({ actionData }: Route.ComponentProps) {
  const c = signInCopy;
  return (
    <SignInPage portal="admin" outcome={actionData ?? undefined}>
      <p className="mt-6 border-t border-slate-200 pt-6 text-center text-sm text-slate-600 dark:border-slate-800 dark:text-slate-300">
        {`${c.investorLoginText} `}
        <Link to="/lp/login" className={textLinkClass}>
          {c.investorLoginLink}
        </Link>
      </p>
    </SignInPage>
  );
}
