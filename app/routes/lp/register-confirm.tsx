import { MailCheck, MailQuestionMark } from "lucide-react";
import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/register-confirm";
import { MailLinkCard } from "~/components/layout/mail-link-card";
import { AccountField, textLinkClass } from "~/components/portal/account-field";
import { accountToasts } from "~/content/accounts";
import { registerConfirmCopy } from "~/content/portal";
import { formFailure, retryAfterHeaders, runFormAction } from "~/modules/http/form-answer.server";
import { readFormData } from "~/modules/http/form-data.server";
import { keepRetryAfter } from "~/modules/http/keep-retry-after";
import { enforceRateLimit } from "~/modules/http/rate-limit.server";
import { tokenParam } from "~/modules/http/token-param";
import { confirmRegistration, registrationLinkEmail, resendRegistrationLink } from "~/modules/lp-users/registration.server";
import { REGISTER_CONFIRM_PATH } from "~/modules/lp-users/paths";
import { ConfirmRegistrationInput, ResendConfirmationInput } from "~/modules/lp-users/schema";
import { pageMeta } from "~/modules/seo/meta";

/** A rate-limited answer keeps its Retry-After (DESIGN.md §4). */
export const headers = keepRetryAfter;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: registerConfirmCopy.title, description: registerConfirmCopy.description, path: REGISTER_CONFIRM_PATH, noindex: true });

/** Where a confirmation lands (Post/Redirect/Get): SPEC's registration text, with no token in the address. */
const CONFIRMED_PATH = `${REGISTER_CONFIRM_PATH}?confirmed=1`;

type PageState =
  | { state: "ask"; token: string; email: string; passwordError?: string | undefined }
  | { state: "done" }
  | { state: "invalid" };

/**
 * A registration's confirmation link, /lp/register/confirm?token=… (decision
 * 028): the address and a password field with one button. The GET never
 * confirms (mail scanners open links); 400 for a token that is unknown,
 * tampered with, expired, replaced or already used. `?confirmed=1` (no token)
 * is what the button's POST leads to.
 */
export function loader({ request }: Route.LoaderArgs) {
  const token = tokenParam(request);
  if (token === null && new URL(request.url).searchParams.get("confirmed") === "1") return { state: "done" } as PageState;
  const email = registrationLinkEmail(token);
  return email && token ? ({ state: "ask", token, email } as PageState) : data({ state: "invalid" } as PageState, { status: 400 });
}

/**
 * The button's POST (token in the address, the registration's password in the
 * body): the request goes to the admins and the page shows SPEC's text; a
 * wrong password asks again (400); a bad or spent link is the 400 page.
 * `intent=resend` (with `email`) is the sign-in page's 'Send the link again':
 * back to /lp/login with the same answer whether or not a link went out.
 *
 * Not through answerForm (issue 23 §2): the button's answers render this page
 * in place on purpose. The link's token is in the address, so a redirect back
 * would repeat it in a Location and another logged GET; its one typed value is
 * the password, which never comes back; a bad link is SPEC's 400 page, and a
 * success is already a 303 (Post/Redirect/Get). The form is a plain post, not
 * an enhanced one, so there is no JavaScript answer to shape either.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readFormData(request);
  if (formData.get("intent") === "resend") return resend(formData, context.clientAddress);

  const token = tokenParam(request);
  const parsed = ConfirmRegistrationInput.safeParse({ password: formData.get("password") ?? undefined });
  const email = registrationLinkEmail(token);
  if (!email || !token) return data({ state: "invalid" } as PageState, { status: 400 });
  if (!parsed.success) {
    return data({ state: "ask", token, email, passwordError: parsed.error.issues[0]?.message } as PageState, { status: 400 });
  }
  try {
    await enforceRateLimit("registerConfirm", context.clientAddress);
  } catch (error) {
    const failure = formFailure(error);
    const headers = retryAfterHeaders(failure.retryAfterSeconds);
    return data({ state: "ask", token, email, passwordError: failure.message } as PageState, { status: failure.httpStatus, ...(headers ? { headers } : {}) });
  }
  const outcome = await confirmRegistration(token, parsed.data);
  if (outcome.ok) return redirect(CONFIRMED_PATH, 303);
  if (outcome.reason === "wrong_password") {
    return data({ state: "ask", token, email, passwordError: registerConfirmCopy.wrongPassword } as PageState, { status: 400 });
  }
  return data({ state: "invalid" } as PageState, { status: 400 });
}

async function resend(formData: FormData, clientAddress: string) {
  const parsed = ResendConfirmationInput.safeParse({ email: formData.get("email") ?? undefined });
  if (!parsed.success) return data({ state: "invalid" } as PageState, { status: 400 });
  // A plain post from the sign-in page: back there (303) with the answer as a flash (answerForm; decision 010 for the rate limit).
  return runFormAction(
    formData,
    async () => {
      await enforceRateLimit("register", clientAddress);
      resendRegistrationLink(parsed.data);
    },
    {
      success: () => ({ toast: { ...accountToasts.confirmationResent } }),
      failureTitle: accountToasts.registrationFailed.title,
      redirectTo: "/lp/login",
    },
  );
}

export default function RegisterConfirm({ loaderData, actionData }: Route.ComponentProps) {
  const c = registerConfirmCopy;
  const page: PageState = actionData && "state" in actionData ? actionData : loaderData;
  const token = page.state === "ask" ? page.token : "";
  return (
    <MailLinkCard
      state={page.state}
      copy={c}
      action={`${REGISTER_CONFIRM_PATH}?token=${encodeURIComponent(token)}`}
      icons={{ ask: <MailQuestionMark aria-hidden="true" className="size-6" />, done: <MailCheck aria-hidden="true" className="size-6" /> }}
      afterDone={
        <p className="mt-6 text-center text-sm">
          <Link to="/lp/login" className={textLinkClass}>
            {c.signIn}
          </Link>
        </p>
      }
      invalidLink={{ to: "/lp/register", label: c.requestAgain }}
    >
      {page.state === "ask" ? (
        <>
          {/* The address, for password managers and for the person to see whose request this is. */}
          <AccountField formId="register-confirm" name="email" label={c.email} type="email" value={page.email} readOnly autoComplete="username" />
          <AccountField
            formId="register-confirm"
            name="password"
            label={c.password}
            type="password"
            required
            autoComplete="current-password"
            errors={page.passwordError ? [page.passwordError] : undefined}
          />
        </>
      ) : null}
    </MailLinkCard>
  );
}
