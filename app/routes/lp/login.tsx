import { parseWithZod } from "@conform-to/zod/v4";
import { KeyRound } from "lucide-react";
import { type ShouldRevalidateFunctionArgs, data, Link, redirect } from "react-router";
import type { Route } from "./+types/login";
import { AccountCardHeader, textLinkClass } from "~/components/portal/account-field";
import { LoginForm, loginFailedToast } from "~/components/portal/login-form";
import type { FormOutcome } from "~/components/portal/outcome";
import { buttonClass, Card } from "~/components/ui/form";
import { StaticToast } from "~/components/ui/toaster";
import { accountToasts } from "~/content/accounts";
import { signInCopy } from "~/content/portal";
import { canUseInvestorPortal, getOptionalUser } from "~/modules/auth/guards.server";
import { signIn } from "~/modules/auth/sign-in.server";
import { isAppError } from "~/modules/http/app-error";
import { LoginInput } from "~/modules/lp-users/schema";
import { pageMeta } from "~/modules/seo/meta";
import { isEnhanced } from "~/modules/toast/enhanced";
import { redirectWithFlash } from "~/modules/toast/flash.server";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: signInCopy.investor.title,
    description: signInCopy.investor.description,
    path: "/lp/login",
    noindex: true,
  });

function portalHome(user: { isAdmin: boolean }) {
  return user.isAdmin ? "/admin/dashboard" : "/lp/dashboard";
}

/** Someone already signed in (approved investor or admin) goes straight to their dashboard. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getOptionalUser(request);
  if (canUseInvestorPortal(user)) throw redirect(portalHome(user));
  return null;
}

/**
 * Sign in (SPEC.md §2, §4, §8). Success: investors go to /lp/dashboard, admins
 * to /admin/dashboard, with 'Login successful' / 'Welcome back!'. Failure:
 * 'Login failed' with the server's message. The password is never sent back.
 */
export async function action({ request, context }: Route.ActionArgs) {
  // signIn reads the body itself (remix-auth's FormStrategy): read a copy.
  const formData = await request.clone().formData();
  const enhanced = isEnhanced(formData);
  const submission = parseWithZod(formData, { schema: LoginInput });
  if (submission.status !== "success") {
    const outcome: FormOutcome = { status: "error", toast: null, result: submission.reply({ hideFields: ["password"] }) };
    return data(outcome, { status: 400 });
  }
  try {
    const { user, setCookie } = await signIn(request, context.clientAddress);
    const to = portalHome(user);
    const headers = { "Set-Cookie": setCookie };
    if (!enhanced) return redirectWithFlash(to, { toast: { ...accountToasts.loginSuccess } }, { headers });
    const outcome: FormOutcome = {
      status: "success",
      toast: { ...accountToasts.loginSuccess },
      result: submission.reply({ resetForm: true }),
      redirectTo: to,
    };
    return data(outcome, { headers });
  } catch (error) {
    if (!isAppError(error)) console.error(error);
    const message = isAppError(error) ? error.message : undefined;
    const fields = isAppError(error) ? error.options.fields : undefined;
    const outcome: FormOutcome = {
      status: "error",
      toast: loginFailedToast(message),
      result: submission.reply({
        hideFields: ["password"],
        ...(fields ? { fieldErrors: fields } : { formErrors: [message ?? accountToasts.loginFailed.title] }),
      }),
    };
    const retryAfter = isAppError(error) ? error.options.retryAfterSeconds : undefined;
    return data(outcome, {
      status: isAppError(error) ? error.status : 500,
      headers: retryAfter !== undefined ? { "Retry-After": String(retryAfter) } : undefined,
    });
  }
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
      {actionData?.toast ? <StaticToast toast={{ id: "login-result", variant: "default", ...actionData.toast }} /> : null}
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
