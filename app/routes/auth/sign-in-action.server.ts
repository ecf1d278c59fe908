import { parseWithZod } from "@conform-to/zod/v4";
import { CONFIRMATION_REQUIRED_FLAG } from "~/components/portal/outcome";
import { accountToasts } from "~/content/accounts";
import { signInCopy } from "~/content/portal";
import { TWO_FACTOR_PATH } from "~/modules/auth/paths";
import { signIn } from "~/modules/auth/sign-in.server";
import { answerConform, formFailure } from "~/modules/http/form-answer.server";
import { isConfirmationRequired } from "~/modules/lp-users/lp-users.server";
import { LoginInput } from "~/modules/lp-users/schema";
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
 * code step with a 5-minute challenge instead of a session. Every answer goes
 * through answerForm: an enhanced post gets the data with its status (429 and
 * Retry-After when rate-limited); a plain post a 303, to the next page on
 * success, back to the sign-in page with the outcome in the flash otherwise.
 */
export async function signInFormAction(request: Request, clientAddress: string, portal: "investor" | "admin") {
  // signIn reads the body itself (remix-auth's FormStrategy): read a copy.
  const formData = await readFormData(request.clone());
  const investor = portal === "investor";
  // Without JavaScript a refusal goes back to the sign-in page with the message, the field errors and the e-mail (never the password).
  const back = { formId: `${portal}-login`, redirectTo: investor ? "/lp/login" : "/admin/login", keep: ["email"] } as const;
  const submission = parseWithZod(formData, { schema: LoginInput });
  if (submission.status !== "success") {
    return answerConform(formData, { ...back, httpStatus: 400, toast: null, result: submission.reply({ hideFields: ["password"] }) });
  }
  try {
    const { user, setCookie, next } = await signIn(request, clientAddress, { adminOnly: !investor, withoutCode: "challenge" });
    // With two-factor the password step only opens the code step.
    const twoFactor = next === "two_factor";
    const to = twoFactor ? TWO_FACTOR_PATH : portalHome(user);
    const toast = investor && !twoFactor ? { ...accountToasts.loginSuccess } : null;
    // Success goes on to the dashboard (or the code step) with the session cookie, with JavaScript too (the form navigates).
    return answerConform(formData, {
      ...back,
      httpStatus: 200,
      toast,
      result: submission.reply({ resetForm: true }),
      redirectTo: to,
      headers: { "Set-Cookie": setCookie },
      flashSuccess: false,
      extra: { redirectTo: to },
    });
  } catch (error) {
    const failure = formFailure(error, investor ? accountToasts.loginFailed.title : signInCopy.adminFallback);
    // The right password of a registration not confirmed yet: the pending answer plus the link, again on request.
    const confirmationRequired = investor && isConfirmationRequired(error);
    return answerConform(formData, {
      ...back,
      httpStatus: failure.httpStatus,
      toast: investor ? { title: accountToasts.loginFailed.title, description: failure.message, variant: "destructive" } : null,
      result: submission.reply({ hideFields: ["password"], ...(failure.fields ? { fieldErrors: failure.fields } : { formErrors: [failure.message] }) }),
      retryAfterSeconds: failure.retryAfterSeconds,
      flags: confirmationRequired ? [CONFIRMATION_REQUIRED_FLAG] : undefined,
      extra: confirmationRequired ? { confirmationRequired: true } : {},
    });
  }
}
