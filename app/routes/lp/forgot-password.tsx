import { parseWithZod } from "@conform-to/zod/v4";
import { MailCheck, Mail } from "lucide-react";
import type { Route } from "./+types/forgot-password";
import { AccountCardHeader, CardFooterLink, EmailField, FormAlert } from "~/components/portal/account-field";
import { AccountForm, typedValue } from "~/components/portal/account-form";
import { AccountCardPage } from "~/components/portal/sign-in-page";
import { useAccountFieldErrors } from "~/components/portal/use-account-field-errors";
import { useFormOutcome } from "~/components/portal/use-form-outcome";
import { Button } from "~/components/ui/form";
import { accountToasts } from "~/content/accounts";
import { forgotPasswordCopy } from "~/content/portal";
import { enforceRateLimit } from "~/modules/http/rate-limit.server";
import { requestPasswordReset } from "~/modules/lp-users/lp-users.server";
import { ForgotPasswordInput } from "~/modules/lp-users/schema";
import { INVALID_EMAIL } from "~/content/validation";
import { pageMeta } from "~/modules/seo/meta";
import { useFormFlash } from "~/components/ui/use-form-flash";
import { keepRetryAfter } from "~/modules/http/keep-retry-after";
import { answerConform, formFailure } from "~/modules/http/form-answer.server";
import { readFormData } from "~/modules/http/form-data.server";

/** A rate-limited answer keeps its Retry-After (DESIGN.md §4). */
export const headers = keepRetryAfter;

const FORM_ID = "forgot-password";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: forgotPasswordCopy.title,
    description: forgotPasswordCopy.description,
    path: "/lp/forgot-password",
    noindex: true,
  });

/**
 * Ask for a reset link. The answer is the same whether or not the e-mail has
 * an account (no enumeration); only the rate limit can refuse.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readFormData(request);
  // Without JavaScript every answer is a 303 back to the form, its outcome in the flash (answerForm).
  const back = { formId: FORM_ID, redirectTo: `/lp/forgot-password#${FORM_ID}`, keep: ["email"] } as const;
  const submission = parseWithZod(formData, { schema: ForgotPasswordInput });
  if (submission.status !== "success") {
    return answerConform(formData, { ...back, httpStatus: 400, toast: null, result: submission.reply() });
  }
  try {
    await enforceRateLimit("reset", context.clientAddress);
    requestPasswordReset(submission.value);
  } catch (error) {
    const failure = formFailure(error, forgotPasswordCopy.failedFallback);
    return answerConform(formData, {
      ...back,
      httpStatus: failure.httpStatus,
      toast: { title: forgotPasswordCopy.failedTitle, description: failure.message, variant: "destructive" },
      result: submission.reply({ formErrors: [failure.message] }),
      retryAfterSeconds: failure.retryAfterSeconds,
    });
  }
  return answerConform(formData, {
    ...back,
    httpStatus: 200,
    toast: { ...accountToasts.resetRequested },
    result: submission.reply({ resetForm: true }),
  });
}

const messages = { email: { valueMissing: INVALID_EMAIL, typeMismatch: INVALID_EMAIL, tooLong: INVALID_EMAIL } };

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const c = forgotPasswordCopy;
  const { fetcher, outcome } = useFormOutcome(FORM_ID, actionData ?? undefined);
  const formFlash = useFormFlash(FORM_ID, "success");
  const flashSuccess = !fetcher.data && formFlash !== null;
  const sent = outcome?.status === "success" || flashSuccess;
  const result = outcome?.result;
  const checks = useAccountFieldErrors(messages, result?.error ?? undefined);

  return (
    <AccountCardPage toastId="forgot-result" toast={actionData?.toast}>
      <AccountCardHeader icon={<Mail aria-hidden="true" className="size-6" />} title={c.title} intro={c.intro} />
      {sent ? (
        <div id={FORM_ID} role="status" className="mt-6 flex flex-col items-center gap-2 text-center">
          <MailCheck aria-hidden="true" className="size-10 text-brand-600 dark:text-brand-300" />
          <h2 className="text-lg font-semibold">{accountToasts.resetRequested.title}</h2>
          <p className="text-sm text-slate-600 dark:text-slate-300">{accountToasts.resetRequested.description}</p>
        </div>
      ) : (
        <AccountForm fetcher={fetcher} id={FORM_ID} action="/lp/forgot-password" checks={checks}>
          <EmailField formId={FORM_ID} label={c.email} defaultValue={typedValue(result, "email")} errors={checks.errorsFor("email")} />
          <FormAlert id={`${FORM_ID}-error`} message={result?.error?.[""]?.[0]} />
          <Button type="submit" className="w-full" disabled={fetcher.state !== "idle"}>
            {fetcher.state !== "idle" ? c.submitting : c.submit}
          </Button>
        </AccountForm>
      )}
      <CardFooterLink to="/lp/login">{c.backToLogin}</CardFooterLink>
    </AccountCardPage>
  );
}
