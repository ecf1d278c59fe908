import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { CheckCircle2 } from "lucide-react";
import { useEffect, useState } from "react";
import { Link, useFetcher, useRouteLoaderData } from "react-router";
import { processContent } from "~/content/process";
import { PitchInput } from "~/modules/pitches/schema";
import { ENHANCED_FIELD } from "~/modules/toast/enhanced";
import type { loader as rootLoader } from "~/root";
import { Button, FieldError, inputClass, Label } from "../ui/form";
import { toast } from "../ui/toast-store";
import { useHydrated } from "../ui/use-hydrated";

type Outcome = { status: "success" | "error"; toast: Parameters<typeof toast>[0] | null; result: SubmissionResult<string[]> };

export const PITCH_FORM_ID = "pitch";

/**
 * 'Submit Your Pitch' (SPEC.md §4): idle → 'Submitting...' → 'Thank You for
 * Submitting!' → 'Submit Another Pitch'. Without JavaScript it posts to
 * /process and the result comes back on the page.
 */
export function PitchForm({ serverResult }: { serverResult?: SubmissionResult<string[]> | undefined }) {
  const copy = processContent.pitch;
  const fetcher = useFetcher<Outcome>({ key: PITCH_FORM_ID });
  const hydrated = useHydrated();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const flashSuccess = root?.formFlash?.formId === PITCH_FORM_ID && root.formFlash.status === "success";
  // What the founder has moved past with 'Submit Another Pitch': a fetcher answer, or the flash.
  const [dismissed, setDismissed] = useState<Outcome | "flash" | null>(null);
  const successData = fetcher.data?.status === "success" ? fetcher.data : null;
  const submitted = successData ? successData !== dismissed : !fetcher.data && flashSuccess && dismissed !== "flash";
  const outcome = fetcher.data && fetcher.data !== dismissed ? fetcher.data : undefined;

  const [form, fields] = useForm({
    id: PITCH_FORM_ID,
    lastResult: outcome?.result ?? serverResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PitchInput }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });

  useEffect(() => {
    if (fetcher.data?.toast) toast(fetcher.data.toast);
  }, [fetcher.data]);

  if (submitted) {
    return (
      <div className="flex flex-col items-center gap-3 py-8 text-center" role="status">
        <CheckCircle2 aria-hidden="true" className="size-12 text-brand-600 dark:text-brand-300" />
        <h3 className="text-xl font-semibold">{copy.successTitle}</h3>
        <p className="text-slate-600 dark:text-slate-300">{copy.successText}</p>
        {hydrated ? (
          <Button
            type="button"
            variant="secondary"
            className="mt-2"
            onClick={() => {
              setDismissed(successData ?? "flash");
              form.reset();
            }}
          >
            {copy.again}
          </Button>
        ) : (
          <Link to="/process#pitch" reloadDocument className="mt-2 font-medium text-brand-700 underline dark:text-brand-300">
            {copy.again}
          </Link>
        )}
      </div>
    );
  }

  const submitting = fetcher.state !== "idle";
  const err = (name: string) => `${PITCH_FORM_ID}-${name}-error`;
  const described = (name: string, errors: string[] | undefined) => (errors ? err(name) : undefined);
  return (
    <fetcher.Form method="post" action="/process" {...getFormProps(form)} className="grid gap-4 sm:grid-cols-2">
      {hydrated ? <input type="hidden" name={ENHANCED_FIELD} value="1" /> : null}
      <div>
        <Label htmlFor={fields.name.id}>Name *</Label>
        <input
          {...getInputProps(fields.name, { type: "text" })}
          key={fields.name.key}
          aria-describedby={described("name", fields.name.errors)}
          autoComplete="name"
          required
          maxLength={200}
          className={inputClass}
        />
        <FieldError id={err("name")} errors={fields.name.errors} />
      </div>
      <div>
        <Label htmlFor={fields.email.id}>Email *</Label>
        <input
          {...getInputProps(fields.email, { type: "email" })}
          key={fields.email.key}
          aria-describedby={described("email", fields.email.errors)}
          autoComplete="email"
          required
          className={inputClass}
        />
        <FieldError id={err("email")} errors={fields.email.errors} />
      </div>
      <div>
        <Label htmlFor={fields.company.id}>Company *</Label>
        <input
          {...getInputProps(fields.company, { type: "text" })}
          key={fields.company.key}
          aria-describedby={described("company", fields.company.errors)}
          autoComplete="organization"
          required
          maxLength={200}
          className={inputClass}
        />
        <FieldError id={err("company")} errors={fields.company.errors} />
      </div>
      <div>
        <Label htmlFor={fields.stage.id}>Stage *</Label>
        <select
          {...getSelectProps(fields.stage)}
          key={fields.stage.key}
          aria-describedby={described("stage", fields.stage.errors)}
          required
          className={inputClass}
        >
          <option value="">Select a stage</option>
          {copy.stages.map((stage) => (
            <option key={stage} value={stage}>
              {stage}
            </option>
          ))}
        </select>
        <FieldError id={err("stage")} errors={fields.stage.errors} />
      </div>
      <div className="sm:col-span-2">
        <Label htmlFor={fields.deckUrl.id}>Pitch deck URL (optional)</Label>
        <input
          {...getInputProps(fields.deckUrl, { type: "url" })}
          key={fields.deckUrl.key}
          aria-describedby={described("deckUrl", fields.deckUrl.errors)}
          placeholder="https://"
          className={inputClass}
        />
        <FieldError id={err("deckUrl")} errors={fields.deckUrl.errors} />
      </div>
      <div className="sm:col-span-2">
        <Label htmlFor={fields.message.id}>Tell us about your company *</Label>
        <textarea
          {...getTextareaProps(fields.message)}
          key={fields.message.key}
          aria-describedby={described("message", fields.message.errors)}
          required
          rows={6}
          maxLength={5000}
          className={inputClass}
        />
        <FieldError id={err("message")} errors={fields.message.errors} />
      </div>
      {form.errors?.length ? (
        <p className="text-sm font-medium text-red-700 sm:col-span-2 dark:text-red-400" role="alert">
          {form.errors[0]}
        </p>
      ) : null}
      <div className="sm:col-span-2">
        <Button type="submit" disabled={submitting}>
          {submitting ? copy.submitting : copy.submit}
        </Button>
      </div>
    </fetcher.Form>
  );
}
