import { parseWithZod } from "@conform-to/zod/v4";
import { KeyRound, TriangleAlert } from "lucide-react";
import { useEffect } from "react";
import { type ShouldRevalidateFunctionArgs, Link, useFetcher, useNavigate } from "react-router";
import type { Route } from "./+types/reset-password";
import { AccountCardHeader, CardFooterLink, FormAlert, NewPasswordField } from "~/components/portal/account-field";
import type { FormOutcome } from "~/components/portal/outcome";
import { useAccountFieldErrors } from "~/components/portal/use-account-field-errors";
import { Button, buttonClass, Card } from "~/components/ui/form";
import { toast } from "~/components/ui/toast-store";
import { StaticToast } from "~/components/ui/toaster";
import { accountMessages, accountToasts } from "~/content/accounts";
import { resetPasswordCopy } from "~/content/portal";
import { accountFieldMessages } from "~/content/validation";
import { isResetTokenValid, resetPassword } from "~/modules/lp-users/lp-users.server";
import { ResetPasswordInput } from "~/modules/lp-users/schema";
import { pageMeta } from "~/modules/seo/meta";
import { EnhancedForm } from "~/components/ui/enhanced-form";
import { enforceRateLimit } from "~/modules/http/rate-limit.server";
import { keepRetryAfter } from "~/modules/http/keep-retry-after";
import { answerConform, formFailure } from "~/modules/http/form-answer.server";
import { readFormData } from "~/modules/http/form-data.server";

/** A rate-limited answer keeps its Retry-After (DESIGN.md §4). */
export const headers = keepRetryAfter;

const FORM_ID = "reset-password";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: resetPasswordCopy.title,
    description: resetPasswordCopy.description,
    path: "/lp/reset-password",
    noindex: true,
  });

function usableToken(token: string | null): token is string {
  return !!token && token.length >= 10 && token.length <= 200 && isResetTokenValid(token);
}

/** The e-mailed link: /lp/reset-password?token=…; the form shows only for a live token. */
export function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token");
  return { token: usableToken(token) ? token : null };
}

/**
 * Set the new password; the token is spent and every session of the user
 * ends. Answered through answerForm. Success without JavaScript: a 303 to
 * /lp/login with the toast. A refusal is not redirected, with or without
 * JavaScript: the page renders it with its status, because going back would
 * put the reset token in another URL (a Location, a logged GET), and the
 * form has no typed value to carry but the password, which never comes back.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readFormData(request);
  const submission = parseWithZod(formData, { schema: ResetPasswordInput });
  const hide = { hideFields: ["password", "token"] };
  const form = { formId: FORM_ID, keep: [] } as const;
  if (submission.status !== "success") {
    const tokenBad = !!submission.error?.token;
    const result = submission.reply({ ...hide, ...(tokenBad ? { formErrors: [accountMessages.resetInvalid] } : {}) });
    return answerConform(formData, { ...form, httpStatus: 400, toast: null, result });
  }
  try {
    await enforceRateLimit("resetSubmit", context.clientAddress);
    await resetPassword(submission.value);
  } catch (error) {
    const failure = formFailure(error, accountMessages.resetInvalid);
    return answerConform(formData, {
      ...form,
      httpStatus: failure.httpStatus,
      toast: { title: resetPasswordCopy.failedTitle, description: failure.message, variant: "destructive" },
      result: submission.reply({ ...hide, formErrors: [failure.message] }),
      retryAfterSeconds: failure.retryAfterSeconds,
    });
  }
  return answerConform(formData, {
    ...form,
    httpStatus: 200,
    toast: { ...accountToasts.passwordChanged },
    result: submission.reply({ resetForm: true }),
    redirectTo: "/lp/login",
    extra: { redirectTo: "/lp/login" },
  });
}

/** The spent token would turn the page into 'link invalid' just before it navigates away: skip that reload. */
export function shouldRevalidate({ actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if ((actionResult as FormOutcome | undefined)?.status === "success") return false;
  return defaultShouldRevalidate;
}

const messages = { password: { valueMissing: accountFieldMessages.passwordTooShort } };
const passwordRule = {
  field: "password",
  tooShort: accountFieldMessages.passwordTooShort,
  tooLong: accountFieldMessages.passwordTooLong,
};

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const c = resetPasswordCopy;
  const fetcher = useFetcher<FormOutcome>({ key: FORM_ID });
  const navigate = useNavigate();
  const outcome = fetcher.data ?? actionData ?? undefined;
  const result = outcome?.result;
  const { onSubmit, onInput, errorsFor } = useAccountFieldErrors(messages, result?.error ?? undefined, passwordRule);

  useEffect(() => {
    if (fetcher.data?.toast) toast(fetcher.data.toast);
  }, [fetcher.data]);

  // Navigate once the fetcher is idle: a navigation started while React Router
  // still revalidates after the action can be lost.
  const to = fetcher.state === "idle" && fetcher.data?.status === "success" ? (fetcher.data.redirectTo ?? "/lp/login") : undefined;
  useEffect(() => {
    if (to) void navigate(to);
  }, [to, navigate]);

  if (!loaderData.token) {
    return (
      <div className="mx-auto max-w-md px-4 py-16 sm:px-6">
        <Card>
          <AccountCardHeader
            icon={<TriangleAlert aria-hidden="true" className="size-6" />}
            title={c.invalidTitle}
            intro={accountMessages.resetInvalid}
          />
          <div className="mt-6 flex flex-col gap-3">
            <Link to="/lp/forgot-password" className={buttonClass("primary", "w-full")}>
              {c.requestNew}
            </Link>
            <Link to="/lp/login" className={buttonClass("secondary", "w-full")}>
              {c.backToLogin}
            </Link>
          </div>
        </Card>
      </div>
    );
  }

  const busy = fetcher.state !== "idle" || outcome?.status === "success";
  return (
    <div className="mx-auto max-w-md px-4 py-16 sm:px-6">
      {actionData?.toast ? <StaticToast announce={false} toast={{ id: "reset-result", variant: "default", ...actionData.toast }} /> : null}
      <Card>
        <AccountCardHeader icon={<KeyRound aria-hidden="true" className="size-6" />} title={c.title} intro={c.intro} />
        <EnhancedForm
          fetcher={fetcher}
          id={FORM_ID}
          action={`/lp/reset-password?token=${encodeURIComponent(loaderData.token)}`}
          onSubmit={onSubmit}
          onInput={onInput}
          className="mt-6 space-y-4"
        >
          <input type="hidden" name="token" value={loaderData.token} />
          <NewPasswordField
            formId={FORM_ID}
            label={c.password}
            hint={c.passwordHint}
            errors={errorsFor("password")}
          />
          <FormAlert id={`${FORM_ID}-error`} message={result?.error?.[""]?.[0]} />
          <Button type="submit" className="w-full" disabled={busy}>
            {busy ? c.submitting : c.submit}
          </Button>
        </EnhancedForm>
        <CardFooterLink to="/lp/login">{c.backToLogin}</CardFooterLink>
      </Card>
    </div>
  );
}
