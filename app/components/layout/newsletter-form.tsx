import type { SubmissionResult } from "@conform-to/react";
import { CheckCircle2 } from "lucide-react";
import { useEffect } from "react";
import { Link, useFetcher, useLocation } from "react-router";
import { newsletterConsent, newsletterCopy } from "~/content/newsletter";
import { INVALID_EMAIL } from "~/content/validation";
import { Field } from "../kit/fields";
import { EnhancedForm } from "../ui/enhanced-form";
import type { EnhancedAnswer } from "~/modules/http/enhanced-answer";
import { useFormFlash } from "../ui/use-form-flash";
import { Button } from "../ui/form";
import { toast } from "../ui/toast-store";
import { useFieldErrors } from "../ui/use-field-errors";

type Outcome = EnhancedAnswer<{ result: SubmissionResult<string[]> }>;

const messages = { email: { valueMissing: INVALID_EMAIL, typeMismatch: INVALID_EMAIL, tooLong: INVALID_EMAIL } };

/**
 * The newsletter form (footer, home hero, /newsletter). Posts to /newsletter:
 * with JavaScript through a fetcher ('Subscribing...', toasts, errors in
 * place); without it as a plain form that comes back to this page.
 */
export function NewsletterForm({ formId, compact = false }: { formId: string; compact?: boolean }) {
  const fetcher = useFetcher<Outcome>({ key: formId });
  const location = useLocation();
  const flash = useFormFlash(formId);
  const outcome = fetcher.data;
  const subscribed = outcome ? outcome.status === "success" : flash?.status === "success";
  const serverErrors = outcome ? outcome.result.error ?? undefined : flash?.fieldErrors;
  const formErrors = outcome ? outcome.result.error?.[""] : flash?.message ? [flash.message] : undefined;
  const { onSubmit, onInput, errorsFor } = useFieldErrors(messages, serverErrors ?? undefined);

  useEffect(() => {
    if (outcome?.toast) toast(outcome.toast);
  }, [outcome]);

  if (subscribed) {
    return (
      <p id={formId} className="flex items-center gap-2 font-medium text-brand-800 dark:text-brand-200" role="status">
        <CheckCircle2 aria-hidden="true" className="size-5" />
        {newsletterCopy.subscribed}
      </p>
    );
  }

  const submitting = fetcher.state !== "idle";
  return (
    <EnhancedForm fetcher={fetcher} id={formId} action="/newsletter" onSubmit={onSubmit} onInput={onInput}>
      <input type="hidden" name="formId" value={formId} />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <Field
        id={`${formId}-email`}
        name="email"
        type="email"
        label={newsletterCopy.label}
        labelClassName={compact ? "sr-only" : undefined}
        errors={errorsFor("email")}
        required
        maxLength={254}
        defaultValue={flash?.values?.email ?? ""}
        autoComplete="email"
        placeholder={newsletterCopy.placeholder}
        endClassName="flex flex-col gap-2 sm:flex-row"
        end={
          <Button type="submit" disabled={submitting} className="shrink-0">
            {submitting ? newsletterCopy.submitting : newsletterCopy.submit}
          </Button>
        }
      />
      {/* The sign-up text a confirmation records (content/newsletter.ts: newsletterConsent, versioned). */}
      <p className="mt-2 text-xs text-slate-600 dark:text-slate-300">
        {newsletterConsent.lead}
        <Link to="/privacy-policy" className="underline underline-offset-2 hover:text-brand-800 dark:hover:text-brand-200">
          {newsletterConsent.link}
        </Link>
        .
      </p>
      {formErrors?.length ? (
        <p className="mt-1 text-sm font-medium text-red-700 dark:text-red-400" role="alert">
          {formErrors[0]}
        </p>
      ) : null}
    </EnhancedForm>
  );
}
