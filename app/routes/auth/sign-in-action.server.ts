import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { FormOutcome } from "~/components/portal/outcome";
import { accountToasts } from "~/content/accounts";
import { signInCopy } from "~/content/portal";
import { TWO_FACTOR_PATH } from "~/modules/auth/paths";
import { signIn } from "~/modules/auth/sign-in.server";
import { formFailure, retryAfterHeaders } from "~/modules/http/form-answer.server";
import { isConfirmationRequired } from "~/modules/lp-users/lp-users.server";
import { LoginInput } from "~/modules/lp-users/schema";
import { isEnhanced } from "~/modules/toast/enhanced";
import { redirectWithFlash } from "~/modules/toast/flash.server";
import { readFormData } from "~/modules/http/form-data.server";

/** Where a signed-in user belongs. */
export function portalHome(user: { isAdmin: boolean }) {
  return user.isAdmin ? "/admin/dashboard" : "/lp/dashboard";
}

/**
 * The action of both sign-in pages. Investor (/lp/login): 'Login successful' /
 * 'Welcome back!' and the user's dashboard; failures toast 'Login failed' with
 * the server's message. Admin (/admin/login): only admins get a session;
 * failures show the message (or 'Invalid credentials') in the form, no toast.
 * The password is never sent back. An account with two-factor goes on to the
 * code step with a 5-minute challenge instead of a session.
 */
export async function signInFormAction(
  request: Request,
  clientAddress: string,
  portal: "investor" | "admin",
): Promise<Response | ReturnType<typeof data<FormOutcome>>> {
  // signIn reads the body itself (remix-auth's FormStrategy): read a copy.
  const formData = await readFormData(request.clone());
  const submission = parseWithZod(formData, { schema: LoginInput });
  if (submission.status !== "success") {
    const outcome: FormOutcome = { status: "error", toast: null, result: submission.reply({ hideFields: ["password"] }) };
    return data(outcome, { status: 400 });
  }
  const investor = portal === "investor";
  try {
    const { user, setCookie, next } = await signIn(request, clientAddress, { adminOnly: !investor, withoutCode: "challenge" });
    // With two-factor the password step only opens the code step.
    const twoFactor = next === "two_factor";
    const to = twoFactor ? TWO_FACTOR_PATH : portalHome(user);
    const headers = { "Set-Cookie": setCookie };
    const toast = investor && !twoFactor ? { ...accountToasts.loginSuccess } : null;
    if (!isEnhanced(formData)) {
      return toast ? redirectWithFlash(to, { toast }, { headers }) : redirect(to, { headers });
    }
    const outcome: FormOutcome = { status: "success", toast, result: submission.reply({ resetForm: true }), redirectTo: to };
    return data(outcome, { headers });
  } catch (error) {
    const failure = formFailure(error, investor ? accountToasts.loginFailed.title : signInCopy.adminFallback);
    const outcome: FormOutcome = {
      status: "error",
      toast: investor ? { title: accountToasts.loginFailed.title, description: failure.message, variant: "destructive" } : null,
      result: submission.reply({ hideFields: ["password"], ...(failure.fields ? { fieldErrors: failure.fields } : { formErrors: [failure.message] }) }),
      // The right password of a registration not confirmed yet: the pending answer plus the link, again on request.
      ...(investor && isConfirmationRequired(error) ? { confirmationRequired: true } : {}),
    };
    const headers = retryAfterHeaders(failure.retryAfterSeconds);
    return data(outcome, { status: failure.httpStatus, ...(headers ? { headers } : {}) });
  }
}
