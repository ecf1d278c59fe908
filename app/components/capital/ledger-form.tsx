import { TriangleAlert } from "lucide-react";
import { useEffect } from "react";
import { Link, useActionData, useFetcher } from "react-router";
import { DateField } from "~/components/kit/date-field";
import { CheckboxField, Field, SelectField, StatusButton } from "~/components/kit/fields";
import type { IntentAnswer } from "~/components/kit/intent-form";
import { MoneyField } from "~/components/kit/money-field";
import { FormDefaultSubmit, RepeatableLines } from "~/components/kit/repeatable-lines";
import { EnhancedForm } from "~/components/ui/enhanced-form";
import { buttonClass } from "~/components/ui/form";
import { toast } from "~/components/ui/toast-store";
import { ledgerPagesCopy } from "~/content/ledger-pages";

const c = ledgerPagesCopy.form;

/** The most lines one entry may have (modules/ledger refuses more). */
export const MAX_LEDGER_LINES = 20;

export type LedgerKind = "call" | "distribution";

/** A line as typed (text, so a refused amount comes back as it was). */
export type LedgerLineValues = { type: string; amount: string; description: string; recallable: boolean };

/** The whole form as typed: a call's dates or a distribution's, the lines, and the entry it corrects. */
export type LedgerFormValues = { noticeDate: string; dueDate: string; paymentDate: string; correctionOf: string; lines: LedgerLineValues[] };

/**
 * What the form gets back (enhanced), or the page renders after a plain post
 * that stays on it: the form as typed (a line more or less after Add / Remove),
 * a fresh `nonce` so the lines' fields are drawn again from it, the line to
 * focus, and on a refusal the messages per field (`lines.2.amount`).
 */
export type LedgerFormAnswer = IntentAnswer & { form: LedgerFormValues; nonce: string; focus?: number | undefined };

export const PREVIEW_INTENT = "preview";

/** An empty line of the kind's first type. */
export function emptyLine(type: string): LedgerLineValues {
  return { type, amount: "", description: "", recallable: false };
}

/**
 * A new entry's form, and a draft's (issue 24 §4–5): the dates, and lines
 * added and removed by submit buttons, so it works without JavaScript
 * (RepeatableLines); "Preview the allocation" drafts it. The same post goes
 * through a fetcher once React runs.
 */
export function LedgerForm({
  kind,
  action,
  currency,
  types,
  initial,
  submitLabel,
  cancel,
}: {
  kind: LedgerKind;
  action: string;
  currency: string;
  types: readonly { value: string; label: string }[];
  initial: LedgerFormValues;
  submitLabel: string;
  cancel: { to: string; label: string };
}) {
  const fetcher = useFetcher<LedgerFormAnswer>({ key: "ledger-form" });
  const actionData = useActionData<LedgerFormAnswer>();
  const answer = fetcher.data ?? (actionData?.form ? actionData : undefined);
  useEffect(() => {
    if (fetcher.data?.toast) toast(fetcher.data.toast);
  }, [fetcher.data]);
  const values = answer?.form ?? initial;
  const errors = answer?.status === "error" ? (answer.fields ?? {}) : {};
  const nonce = answer?.nonce ?? "initial";
  const busy = fetcher.state !== "idle";
  const previewing = busy && fetcher.formData?.get("intent") === PREVIEW_INTENT;
  const formMessage = errors.form?.[0] ?? errors.fund?.[0] ?? errors.correctionOf?.[0];
  const fieldCount = Object.keys(errors).filter((key) => !["form", "fund", "correctionOf", "lines"].includes(key)).length;
  const call = kind === "call";
  const fieldError = (name: string) => errors[name];
  return (
    <EnhancedForm fetcher={fetcher} action={action} aria-labelledby="ledger-form-title" className="mt-6 max-w-4xl space-y-8">
      <FormDefaultSubmit value={PREVIEW_INTENT} label={submitLabel} />
      {values.correctionOf ? <input type="hidden" name="correctionOf" value={values.correctionOf} /> : null}
      {formMessage || fieldCount ? (
        <div
          role="alert"
          id="ledger-form-error"
          className="flex items-start gap-3 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
        >
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <p className="font-medium">{formMessage ?? c.fixFields(fieldCount)}</p>
        </div>
      ) : null}
      <fieldset className="min-w-0">
        <legend className="text-base font-semibold">{c.dates}</legend>
        <div className="mt-3 grid gap-4 sm:grid-cols-2">
          {call ? (
            <>
              <DateField id="ledger-notice-date" name="noticeDate" label={c.noticeDate} hint={c.noticeDateHint} errors={fieldError("noticeDate")} required defaultValue={values.noticeDate} />
              <DateField id="ledger-due-date" name="dueDate" label={c.dueDate} hint={c.dueDateHint} errors={fieldError("dueDate")} required defaultValue={values.dueDate} />
            </>
          ) : (
            <DateField id="ledger-payment-date" name="paymentDate" label={c.paymentDate} hint={c.paymentDateHint} errors={fieldError("paymentDate")} required defaultValue={values.paymentDate} />
          )}
        </div>
      </fieldset>
      <RepeatableLines
        id="ledger-lines"
        legend={c.lines}
        hint={c.linesHint[kind]}
        lines={values.lines}
        max={MAX_LEDGER_LINES}
        lineKey={(_, index) => `${nonce}-${index}`}
        lineLabel={(index) => c.line(index + 1)}
        addLabel={c.addLine}
        removeLabel={c.remove}
        removeLineLabel={(index) => c.removeLine(index + 1)}
        maxNote={c.maxLines}
        errors={errors.lines}
        pending={busy}
        renderLine={(line, index) => {
          const name = (field: string) => `lines.${index}.${field}`;
          const id = (field: string) => `ledger-line-${index}-${field}`;
          const recallableErrors = fieldError(name("recallable"));
          return (
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-[minmax(0,13rem)_minmax(0,13rem)_minmax(0,1fr)]">
              <SelectField id={id("type")} name={name("type")} label={c.type} errors={fieldError(name("type"))} defaultValue={line.type} autoFocus={answer?.focus === index}>
                {types.map((type) => (
                  <option key={type.value} value={type.value}>
                    {type.label}
                  </option>
                ))}
              </SelectField>
              <MoneyField id={id("amount")} name={name("amount")} currency={currency} label={c.amount} hint={c.amountHint(currency)} errors={fieldError(name("amount"))} required placeholder="0.00" defaultValue={line.amount} />
              <Field
                id={id("description")}
                name={name("description")}
                label={c.description}
                hint={c.descriptionOptional}
                errors={fieldError(name("description"))}
                maxLength={200}
                defaultValue={line.description}
                className="sm:col-span-2 lg:col-span-1"
              />
              {call ? null : (
                // Shown for a return of capital only (CSS: the line's selected option, `return_of_capital` the one type starting so; no script), or when ticked or refused.
                <div className={recallableErrors || line.recallable ? "sm:col-span-2 lg:col-span-3" : "hidden group-has-[option[value^=return]:checked]/line:block has-[:checked]:block sm:col-span-2 lg:col-span-3"}>
                  <CheckboxField id={id("recallable")} name={name("recallable")} label={c.recallable} hint={c.recallableHint} errors={recallableErrors} defaultChecked={line.recallable} />
                </div>
              )}
            </div>
          );
        }}
      />
      <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-6 dark:border-slate-800">
        <StatusButton name="intent" value={PREVIEW_INTENT} pending={previewing} pendingLabel={c.previewPending}>
          {submitLabel}
        </StatusButton>
        <Link to={cancel.to} className={buttonClass("secondary")}>
          {cancel.label}
        </Link>
      </div>
    </EnhancedForm>
  );
}
