import type { SubmissionResult } from "@conform-to/react";
import { CheckCircle2 } from "lucide-react";
import { useEffect, useState } from "react";
import { Link, useFetcher } from "react-router";
import { processContent } from "~/content/process";
import { pitchMessages } from "~/content/validation";
import {
  PITCH_DECK_FIELD,
  PITCH_HONEYPOT_FIELD,
  PITCH_LIMITS,
  PITCH_STAGES,
  PITCH_STAMP_FIELD,
} from "~/modules/pitches/constants";
import { Field, FileField, SelectField, TextareaField } from "../kit/fields";
import { EnhancedForm } from "../ui/enhanced-form";
import type { EnhancedAnswer } from "~/modules/http/enhanced-answer";
import { useFlashResult, useFormFlash } from "../ui/use-form-flash";
import { Button } from "../ui/form";
import { toast } from "../ui/toast-store";
import { useFieldErrors } from "../ui/use-field-errors";
import { useHydrated } from "../ui/use-hydrated";

type Outcome = EnhancedAnswer<{ result: SubmissionResult<string[]> }>;

export const PITCH_FORM_ID = "pitch-form";

const messages = {
  name: { valueMissing: pitchMessages.name },
  email: { valueMissing: pitchMessages.email, typeMismatch: pitchMessages.email },
  company: { valueMissing: pitchMessages.company },
  stage: { valueMissing: pitchMessages.stage },
  deckUrl: { typeMismatch: pitchMessages.deckUrl, tooLong: pitchMessages.deckUrl },
  message: { valueMissing: pitchMessages.message },
  [PITCH_DECK_FIELD]: {},
};

/** Off-screen, not display:none (some bots skip hidden fields), and out of the tab order and the accessibility tree. */
const honeypotClass = "absolute -left-[10000px] top-auto h-px w-px overflow-hidden";

/**
 * 'Submit Your Pitch' (SPEC.md §4): idle → 'Submitting...' → 'Thank You for
 * Submitting!' → 'Submit Another Pitch'. Without JavaScript it posts to
 * /process, which redirects back with the outcome in the flash (errors in
 * place, the typed values kept; `serverResult` for a body refused unread). It posts
 * multipart (an optional PDF deck) and carries the spam traps of decision 026:
 * a honeypot field and the page's signed render time (`formStamp`).
 */
export function PitchForm({
  serverResult,
  formStamp,
}: {
  serverResult?: SubmissionResult<string[]> | undefined;
  formStamp: string;
}) {
  const copy = processContent.pitch;
  const fetcher = useFetcher<Outcome>({ key: PITCH_FORM_ID });
  const hydrated = useHydrated();
  const flashSuccess = useFormFlash(PITCH_FORM_ID, "success") !== null;
  // Without JavaScript a refused post comes back through a redirect: its field errors and typed values are in the flash.
  const flashed = useFlashResult(PITCH_FORM_ID);
  // What the founder has moved past with 'Submit Another Pitch': a fetcher answer, or the flash.
  const [dismissed, setDismissed] = useState<Outcome | "flash" | null>(null);
  const [formKey, setFormKey] = useState(0);
  const successData = fetcher.data?.status === "success" ? fetcher.data : null;
  const submitted = successData ? successData !== dismissed : !fetcher.data && flashSuccess && dismissed !== "flash";
  const result = fetcher.data && fetcher.data !== dismissed ? fetcher.data.result : (serverResult ?? flashed);
  const { onSubmit, onInput, errorsFor } = useFieldErrors(messages, result?.error ?? undefined);

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
              setFormKey((k) => k + 1);
            }}
          >
            {copy.again}
          </Button>
        ) : (
          <Link to="/process?another=1#pitch" reloadDocument className="mt-2 font-medium text-brand-700 underline dark:text-brand-300">
            {copy.again}
          </Link>
        )}
      </div>
    );
  }

  const values = (result?.status === "error" ? result.initialValue : null) ?? {};
  const initial = (name: string) => {
    const v = values[name];
    return typeof v === "string" ? v : "";
  };
  const formErrors = result?.error?.[""];
  // After a refused post the form keeps the stamp it was first shown with: the fill time counts from then.
  const stamp = initial(PITCH_STAMP_FIELD) || formStamp;
  const submitting = fetcher.state !== "idle";
  /** A field's id, name, message and typed value: the kit's fields wire the label, aria-invalid and aria-describedby. */
  const field = (name: keyof typeof messages) => ({ id: `${PITCH_FORM_ID}-${name}`, name, errors: errorsFor(name), defaultValue: initial(name) });

  return (
    <EnhancedForm
      fetcher={fetcher}
      key={formKey}
      id={PITCH_FORM_ID}
      action="/process"
      encType="multipart/form-data"
      onSubmit={onSubmit}
      onInput={onInput}
      className="grid gap-4 sm:grid-cols-2"
    >
      <Field {...field("name")} label="Name *" autoComplete="name" required maxLength={PITCH_LIMITS.name} />
      <Field {...field("email")} label="Email *" type="email" autoComplete="email" required maxLength={254} />
      <Field {...field("company")} label="Company *" autoComplete="organization" required maxLength={PITCH_LIMITS.company} />
      <SelectField {...field("stage")} label="Stage *" required>
        <option value="">Select a stage</option>
        {PITCH_STAGES.map((stage) => (
          <option key={stage} value={stage}>
            {stage}
          </option>
        ))}
      </SelectField>
      <Field
        {...field("deckUrl")}
        label="Pitch deck URL (optional)"
        type="url"
        placeholder="https://"
        maxLength={PITCH_LIMITS.deckUrl}
        className="sm:col-span-2"
      />
      <FileField
        id={`${PITCH_FORM_ID}-${PITCH_DECK_FIELD}`}
        name={PITCH_DECK_FIELD}
        label={copy.deckLabel}
        accept="application/pdf,.pdf"
        errors={errorsFor(PITCH_DECK_FIELD)}
        className="sm:col-span-2"
      />
      <TextareaField
        {...field("message")}
        label="Tell us about your company *"
        required
        rows={6}
        maxLength={PITCH_LIMITS.message}
        className="sm:col-span-2"
      />
      <input type="hidden" name={PITCH_STAMP_FIELD} value={stamp} />
      <div className={honeypotClass} aria-hidden="true">
        <label htmlFor={`${PITCH_FORM_ID}-${PITCH_HONEYPOT_FIELD}`}>{copy.honeypotLabel}</label>
        <input
          id={`${PITCH_FORM_ID}-${PITCH_HONEYPOT_FIELD}`}
          name={PITCH_HONEYPOT_FIELD}
          type="text"
          tabIndex={-1}
          autoComplete="off"
          defaultValue=""
        />
      </div>
      {formErrors?.length ? (
        <p className="text-sm font-medium text-red-700 sm:col-span-2 dark:text-red-400" role="alert">
          {formErrors[0]}
        </p>
      ) : null}
      <div className="sm:col-span-2">
        <Button type="submit" disabled={submitting}>
          {submitting ? copy.submitting : copy.submit}
        </Button>
      </div>
    </EnhancedForm>
  );
}
