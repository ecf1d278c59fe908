import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { CheckCircle2 } from "lucide-react";
import { useEffect } from "react";
import { useFetcher, useLocation, useRouteLoaderData } from "react-router";
import { newsletterCopy } from "~/content/newsletter";
import { NewsletterInput } from "~/modules/newsletter/schema";
import { ENHANCED_FIELD } from "~/modules/toast/enhanced";
import type { FormFlash } from "~/modules/toast/toast";
import type { loader as rootLoader } from "~/root";
import { Button, FieldError, inputClass } from "../ui/form";
import { toast } from "../ui/toast-store";
import { useHydrated } from "../ui/use-hydrated";

type Outcome = { status: "success" | "error"; toast: Parameters<typeof toast>[0] | null; result: SubmissionResult<string[]> };

/** The outcome of a no-JavaScript post, carried back by the flash cookie. */
function flashResult(flash: FormFlash | null | undefined, formId: string): SubmissionResult<string[]> | undefined {
  if (!flash || flash.formId !== formId || flash.status !== "error") return undefined;
  return { status: "error", initialValue: flash.values ?? {}, error: flash.fieldErrors ?? {} };
}

/**
 * The newsletter form (footer, home hero, /newsletter). Posts to /newsletter:
 * with JavaScript through a fetcher (toasts, 'Subscribing...'), without it as
 * a plain form that comes back to this page.
 */
export function NewsletterForm({ formId, compact = false }: { formId: string; compact?: boolean }) {
  const fetcher = useFetcher<Outcome>({ key: formId });
  const hydrated = useHydrated();
  const location = useLocation();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const flash = root?.formFlash?.formId === formId ? root.formFlash : null;
  const outcome = fetcher.data;
  const subscribed = outcome ? outcome.status === "success" : flash?.status === "success";

  const [form, fields] = useForm({
    id: formId,
    lastResult: outcome?.result ?? flashResult(flash, formId),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: NewsletterInput }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });

  useEffect(() => {
    if (outcome?.toast) toast(outcome.toast);
  }, [outcome]);

  if (subscribed) {
    return (
      <p
        id={formId}
        className="flex items-center gap-2 font-medium text-brand-800 dark:text-brand-200"
        role="status"
      >
        <CheckCircle2 aria-hidden="true" className="size-5" />
        {newsletterCopy.subscribed}
      </p>
    );
  }

  const submitting = fetcher.state !== "idle";
  const errorId = `${fields.email.id}-error`;
  return (
    <fetcher.Form method="post" action="/newsletter" {...getFormProps(form)} noValidate={hydrated}>
      <input type="hidden" name="formId" value={formId} />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      {hydrated ? <input type="hidden" name={ENHANCED_FIELD} value="1" /> : null}
      <label htmlFor={fields.email.id} className={compact ? "sr-only" : "mb-1 block text-sm font-medium"}>
        {newsletterCopy.label}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          {...getInputProps(fields.email, { type: "email" })}
          key={fields.email.key}
          aria-describedby={fields.email.errors ? errorId : undefined}
          required
          autoComplete="email"
          placeholder={newsletterCopy.placeholder}
          className={inputClass}
        />
        <Button type="submit" disabled={submitting} className="shrink-0">
          {submitting ? newsletterCopy.submitting : newsletterCopy.submit}
        </Button>
      </div>
      <FieldError id={errorId} errors={fields.email.errors} />
      {form.errors?.length ? (
        <p className="mt-1 text-sm font-medium text-red-700 dark:text-red-400" role="alert">
          {form.errors[0]}
        </p>
      ) : null}
    </fetcher.Form>
  );
}
