import { TriangleAlert } from "lucide-react";
import { useState, type ChangeEvent, type FormEvent, type ReactNode } from "react";
import type { FetcherWithComponents } from "react-router";
import { EnhancedForm } from "~/components/ui/enhanced-form";
import { ErrorList, StatusButton } from "./fields";
import { useIntentForm, type IntentAnswer } from "./intent-form";

/**
 * The pieces the CSV import pages share (the valuations, P&L and history
 * imports): the upload form, the preview's confirm form or its refusal, and
 * the page's layout of form, file format and preview. Each page's forms post
 * an `intent` and a `step` (`preview`, then `confirm`); both forms answer
 * through the page's one fetcher, and work as plain posts without JavaScript.
 */

/** What the upload form's children get: whether the chosen files are over the limit, and the file inputs' onChange that tells. */
export type FileSizeCheck = { tooLarge: boolean; pick: (event: ChangeEvent<HTMLInputElement>) => void };

/**
 * The chosen files' sizes by input name, against one limit for them all:
 * with JavaScript, files over it are refused before they are sent.
 */
function useFileSizeCheck(limitBytes: number) {
  const [sizes, setSizes] = useState<Record<string, number>>({});
  const tooLarge = Object.values(sizes).reduce((sum, size) => sum + size, 0) > limitBytes;
  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const { name, files } = event.currentTarget;
    const size = files?.[0]?.size ?? 0;
    setSizes((now) => ({ ...now, [name]: size }));
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    if (tooLarge) event.preventDefault();
  };
  return { tooLarge, pick, submit };
}

/** The page's upload and confirm forms' one fetcher: the latest answer (a preview or a refusal), and which of the two is being sent. */
export function useImportForms<Answer extends IntentAnswer>(intent: string) {
  const { fetcher, answer, busy } = useIntentForm<Answer>(intent);
  const step = busy ? fetcher.formData?.get("step") : null;
  return { fetcher, answer, previewing: step === "preview", confirming: step === "confirm" };
}

/**
 * The upload form (multipart, step `preview`) under its heading (`copy.title`,
 * which names it; `copy.intro` under it). `children` are its file fields:
 * each gets `pick` as its onChange and shows the page's "too large" message
 * while `tooLarge`. `footer` follows the button.
 */
export function CsvUploadForm<T>({
  fetcher,
  action,
  intent,
  titleId,
  copy,
  limitBytes,
  busy,
  submitClassName = "mt-4",
  footer,
  children,
}: {
  fetcher: FetcherWithComponents<T>;
  action: string;
  intent: string;
  titleId: string;
  copy: { title: string; intro?: string; submit: string; submitting: string };
  /** The most bytes the chosen files may have together. */
  limitBytes: number;
  busy: boolean;
  submitClassName?: string;
  footer?: ReactNode;
  children: (check: FileSizeCheck) => ReactNode;
}) {
  const { tooLarge, pick, submit } = useFileSizeCheck(limitBytes);
  return (
    <EnhancedForm
      fetcher={fetcher}
      action={action}
      encType="multipart/form-data"
      onSubmit={submit}
      aria-labelledby={titleId}
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id={titleId} className="text-lg font-semibold">
        {copy.title}
      </h2>
      {copy.intro ? <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{copy.intro}</p> : null}
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="step" value="preview" />
      {children({ tooLarge, pick })}
      <StatusButton className={submitClassName} pending={busy} pendingLabel={copy.submitting}>
        {copy.submit}
      </StatusButton>
      {footer}
    </EnhancedForm>
  );
}

/**
 * The end of a preview: its confirm form (step `confirm`), named by its
 * button's words (`label`), carrying `fields` back (hidden) and saying
 * `children` beside the button; or, without `fields`, why nothing can be
 * imported (`copy.fixAndRetry`, flagged in words and with an icon). Then the
 * confirm's refusal (`errors`). Multipart where it carries the file's text back.
 */
export function ImportConfirm<T>({
  fetcher,
  action,
  intent,
  copy,
  label,
  busy,
  fields,
  multipart = false,
  refusedTestId,
  errors,
  children,
}: {
  fetcher: FetcherWithComponents<T>;
  action: string;
  intent: string;
  copy: { confirming: string; fixAndRetry: string };
  label: string;
  busy: boolean;
  fields: Readonly<Record<string, string | number>> | null;
  multipart?: boolean;
  refusedTestId?: string;
  errors: readonly string[] | undefined;
  children: ReactNode;
}) {
  return (
    <>
      {fields ? (
        <EnhancedForm
          fetcher={fetcher}
          action={action}
          encType={multipart ? "multipart/form-data" : undefined}
          aria-label={label}
          className="mt-6 flex flex-col gap-3 rounded-lg border border-slate-200 bg-slate-50 p-4 sm:flex-row sm:items-center sm:justify-between dark:border-slate-800 dark:bg-slate-900"
        >
          <input type="hidden" name="intent" value={intent} />
          <input type="hidden" name="step" value="confirm" />
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          {children}
          <StatusButton className="shrink-0" pending={busy} pendingLabel={copy.confirming}>
            {label}
          </StatusButton>
        </EnhancedForm>
      ) : (
        <p
          className="mt-6 flex items-start gap-2 rounded-lg border border-red-300 bg-red-50 p-4 text-sm font-medium text-red-900 dark:border-red-800 dark:bg-red-950/40 dark:text-red-100"
          data-testid={refusedTestId}
        >
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {copy.fixAndRetry}
        </p>
      )}
      <ErrorList id="preview-error" errors={errors} />
    </>
  );
}

/**
 * An import page's body: the upload form and the file's format side by side
 * on a wide screen; once there is a preview, it follows, and on a narrow
 * screen the format moves under it (the form comes first, then what it
 * answered). `className` spaces it from what is above (a margin).
 */
export function ImportLayout({ form, format, preview, className = "mt-6" }: { form: ReactNode; format: ReactNode; preview: ReactNode; className?: string }) {
  return (
    <>
      {/* One column of minmax(0, 1fr) on a narrow screen: the example's wide lines scroll in their box, not the page. */}
      <div className={`${className} grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:items-start`}>
        {form}
        {/* Beside the form on a wide screen; on a narrow one under the preview, once there is one. */}
        <div className={preview ? "max-lg:hidden" : undefined}>{format}</div>
      </div>
      {preview ? (
        <>
          {preview}
          <div className="mt-8 lg:hidden">{format}</div>
        </>
      ) : null}
    </>
  );
}
