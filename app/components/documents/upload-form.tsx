import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { useRevalidator } from "react-router";
import { uploadMessages } from "~/content/validation";
import { DEFAULT_CATEGORY, DESCRIPTION_MAX, formatMegabytes, MAX_UPLOAD_BYTES, TITLE_MAX, UPLOAD_ACCEPT } from "~/modules/documents/constants";
import type { ToastInput } from "~/modules/toast/toast";
import { useFormFlash } from "../ui/use-form-flash";
import { ErrorList, Field, fieldAria, FileField, Hint, SelectField, StatusButton, TextareaField } from "../kit/fields";
import { Label } from "../ui/form";
import { toast } from "../ui/toast-store";
import { useHydrated } from "../ui/use-hydrated";

/** The form's texts (content/documents.ts `uploadFormCopy` for LP documents). */
export type UploadFormCopy = {
  title: string;
  intro: string;
  titleLabel: string;
  descriptionLabel: string;
  categoryLabel: string;
  fileLabel: string;
  fileHint: string;
  submit: string;
  submitting: string;
  progressLabel: string;
  progressText: (sentMb: string, totalMb: string) => string;
};

export type UploadFormToasts = { uploaded: ToastInput; failedTitle: string };

type FieldErrors = Record<string, string[] | undefined>;
type Shown = { errors: FieldErrors; message: string | null };

const ALLOWED_EXTENSIONS = UPLOAD_ACCEPT.split(",");

/**
 * The checks the browser can make before sending (SPEC.md §5); the server
 * checks everything again, the file's type by its content too. No validation
 * library: this runs in the page's JavaScript.
 */
function checkUpload(form: HTMLFormElement): FieldErrors {
  const errors: FieldErrors = {};
  const data = new FormData(form);
  const title = String(data.get("title") ?? "").trim();
  if (!title) errors.title = [uploadMessages.titleRequired];
  else if (title.length > TITLE_MAX) errors.title = [uploadMessages.titleTooLong(TITLE_MAX)];
  if (String(data.get("description") ?? "").trim().length > DESCRIPTION_MAX) errors.description = [uploadMessages.descriptionTooLong(DESCRIPTION_MAX)];
  const file = data.get("file");
  if (!(file instanceof File) || (file.size === 0 && file.name === "")) errors.file = [uploadMessages.fileRequired];
  else if (file.size > MAX_UPLOAD_BYTES) errors.file = [uploadMessages.fileTooLarge];
  else if (!ALLOWED_EXTENSIONS.some((ext) => file.name.toLowerCase().endsWith(ext))) errors.file = [uploadMessages.fileType];
  else if (file.size === 0) errors.file = [uploadMessages.fileEmpty];
  return errors;
}

function firstErrorControl(form: HTMLFormElement, errors: FieldErrors): HTMLElement | null {
  for (const el of Array.from(form.elements)) {
    if (el instanceof HTMLElement && "name" in el && typeof el.name === "string" && errors[el.name]?.length) return el;
  }
  return null;
}

type Answer = { ok: true } | { ok: false; aborted?: true; message: string; fields: FieldErrors | undefined };

/** POST the form's data with progress (fetch cannot report upload progress). */
function send(
  url: string,
  body: FormData,
  onProgress: (sent: number, total: number) => void,
  fallback: string,
): { promise: Promise<Answer>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<Answer>((resolve) => {
    xhr.open("POST", url);
    xhr.withCredentials = true;
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    };
    xhr.onload = () => {
      if (xhr.status === 201) return resolve({ ok: true });
      let message = fallback;
      let fields: FieldErrors | undefined;
      try {
        const body = JSON.parse(xhr.responseText) as { error?: unknown; fields?: unknown };
        if (typeof body.error === "string" && body.error) message = body.error;
        if (body.fields && typeof body.fields === "object") fields = body.fields as FieldErrors;
      } catch {
        // Not JSON (a proxy's error page): the fallback text.
      }
      resolve({ ok: false, message, fields });
    };
    xhr.onerror = () => resolve({ ok: false, message: fallback, fields: undefined });
    xhr.onabort = () => resolve({ ok: false, aborted: true, message: fallback, fields: undefined });
    xhr.send(body);
  });
  return { promise, abort: () => xhr.abort() };
}

/**
 * A labelled control of an upload form (given its props to spread), with its hint and
 * error, wired by the kit (`fieldAria`); the upload form's own fields are the kit's.
 */
export function UploadField({
  formId,
  name,
  label,
  hint,
  errors,
  children,
}: {
  formId: string;
  name: string;
  label: string;
  hint?: string;
  errors: string[] | undefined;
  children: (props: { id: string; name: string; "aria-invalid": true | undefined; "aria-describedby": string | undefined }) => ReactNode;
}) {
  const id = `${formId}-${name}`;
  const { hintId, errorId, control } = fieldAria({ id, hint, errors });
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      {children({ ...control, name })}
      {hint ? <Hint id={hintId}>{hint}</Hint> : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

/**
 * An admin upload form (SPEC.md §2, §4, §5), reusable for LP and fund
 * documents. Without JavaScript it is a plain multipart POST to `pageAction`,
 * whose redirect carries the outcome back as a form flash (`formId`). With
 * JavaScript it checks first, then sends the same fields to `apiPath` with a
 * progress bar; on success it toasts, clears every field (the file too) and
 * reloads the page's lists.
 */
export function UploadForm({
  formId,
  anchorId,
  categories,
  defaultCategory = DEFAULT_CATEGORY,
  apiPath,
  pageAction,
  copy,
  toasts,
  extraFields,
  initialValues,
  labelledBy,
  onUploaded,
}: {
  formId: string;
  /** The section's id: the no-JavaScript error redirect comes back to this anchor. */
  anchorId: string;
  categories: readonly { value: string; label: string }[];
  defaultCategory?: string;
  apiPath: string;
  pageAction: string;
  copy: UploadFormCopy;
  toasts: UploadFormToasts;
  /** More fields before the file (e.g. the fund select), given the errors to show and what a refused no-JavaScript post had typed. */
  extraFields?: (errorsFor: (name: string) => string[] | undefined, refusedValues: Record<string, string> | undefined) => ReactNode;
  /** Values to start from (what was typed before a search inside the form reloaded the page). */
  initialValues?: Record<string, string>;
  /** The id of the page's own heading for the form: then the form shows no heading and intro of its own. */
  labelledBy?: string;
  /** After a successful upload with JavaScript, instead of clearing the form and reloading the page's lists (e.g. go back to the list). */
  onUploaded?: () => void;
}) {
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const flash = useFormFlash(formId, "error");
  const fromFlash: Shown = { errors: flash?.fieldErrors ?? {}, message: flash?.message ?? null };
  // What the admin typed before a refused no-JavaScript post.
  const typed = flash?.values ?? initialValues ?? {};
  // null: nothing sent from this page yet, show the no-JavaScript post's outcome (if any).
  const [local, setLocal] = useState<Shown | null>(null);
  const shown = local ?? fromFlash;
  const [progress, setProgress] = useState<{ sent: number; total: number } | null>(null);
  const abortRef = useRef<(() => void) | null>(null);
  const titleId = `${formId}-heading`;
  const busy = progress !== null;

  useEffect(() => () => abortRef.current?.(), []);

  const errorsFor = (name: string) => shown.errors[name];
  const field = (name: string) => ({ id: `${formId}-${name}`, name, errors: errorsFor(name) });
  const hasFieldErrors = Object.values(shown.errors).some((e) => e?.length);

  const onInput = (event: FormEvent<HTMLFormElement>) => {
    const target = event.target as { name?: unknown };
    if (typeof target.name !== "string" || !shown.errors[target.name]) return;
    const name = target.name;
    setLocal((prev) => {
      const base = prev ?? fromFlash;
      return { errors: { ...base.errors, [name]: undefined }, message: base.message };
    });
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    if (!hydrated) return;
    // A search inside the form (formmethod=get) reloads the page with what was typed.
    if ((event.nativeEvent as SubmitEvent).submitter?.getAttribute("formmethod") === "get") return;
    event.preventDefault();
    if (busy) return;
    const form = event.currentTarget;
    const errors = checkUpload(form);
    if (Object.keys(errors).length > 0) {
      setLocal({ errors, message: null });
      firstErrorControl(form, errors)?.focus();
      return;
    }
    setLocal({ errors: {}, message: null });
    const body = new FormData(form);
    const file = body.get("file");
    setProgress({ sent: 0, total: file instanceof File ? file.size : 0 });
    const request = send(apiPath, body, (sent, total) => setProgress({ sent, total }), toasts.failedTitle);
    abortRef.current = request.abort;
    const answer = await request.promise;
    abortRef.current = null;
    // Aborted: the page was left mid-upload; nothing to show.
    if (!answer.ok && answer.aborted) return;
    setProgress(null);
    if (answer.ok) {
      toast(toasts.uploaded);
      if (onUploaded) return onUploaded();
      form.reset();
      void revalidator.revalidate();
      return;
    }
    toast({ title: toasts.failedTitle, description: answer.message, variant: "destructive" });
    const fields = answer.fields ?? {};
    setLocal({ errors: fields, message: answer.message });
    firstErrorControl(form, fields)?.focus();
  };

  return (
    <section id={anchorId} className={labelledBy ? "scroll-mt-40" : "mt-10 scroll-mt-40"}>
      {labelledBy ? null : (
        <>
          <h2 id={titleId} className="text-lg font-semibold">
            {copy.title}
          </h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{copy.intro}</p>
        </>
      )}
      <form
        id={formId}
        method="post"
        action={pageAction}
        encType="multipart/form-data"
        aria-labelledby={labelledBy ?? titleId}
        noValidate={hydrated}
        onSubmit={onSubmit}
        onInput={onInput}
        className="mt-4 grid gap-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:grid-cols-2 dark:border-slate-800 dark:bg-slate-900"
      >
        {shown.message && !hasFieldErrors ? (
          <p
            role="alert"
            className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-800 sm:col-span-2 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
          >
            {shown.message}
          </p>
        ) : null}
        <Field
          {...field("title")}
          className="sm:col-span-2"
          label={copy.titleLabel}
          type="text"
          required
          maxLength={TITLE_MAX}
          autoComplete="off"
          defaultValue={typed.title}
        />
        <TextareaField
          {...field("description")}
          className="sm:col-span-2"
          label={copy.descriptionLabel}
          rows={3}
          maxLength={DESCRIPTION_MAX}
          defaultValue={typed.description}
        />
        <SelectField {...field("category")} label={copy.categoryLabel} defaultValue={typed.category ?? defaultCategory}>
          {categories.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </SelectField>
        {extraFields?.(errorsFor, flash?.values)}
        <FileField {...field("file")} className="sm:col-span-2" label={copy.fileLabel} hint={copy.fileHint} required accept={UPLOAD_ACCEPT} />
        {progress ? <UploadProgress formId={formId} copy={copy} sent={progress.sent} total={progress.total} /> : null}
        <div className="sm:col-span-2">
          <StatusButton pending={busy} pendingLabel={copy.submitting}>
            {copy.submit}
          </StatusButton>
        </div>
      </form>
    </section>
  );
}

function UploadProgress({ formId, copy, sent, total }: { formId: string; copy: UploadFormCopy; sent: number; total: number }) {
  const id = `${formId}-progress`;
  return (
    <div className="sm:col-span-2">
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {copy.progressLabel}
      </label>
      <progress
        id={id}
        max={Math.max(total, 1)}
        value={Math.min(sent, Math.max(total, 1))}
        aria-describedby={`${id}-text`}
        className="h-2 w-full overflow-hidden rounded-full bg-slate-200 accent-brand-600 [&::-moz-progress-bar]:bg-brand-600 [&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:bg-brand-600 dark:bg-slate-700 dark:[&::-moz-progress-bar]:bg-brand-300 dark:[&::-webkit-progress-bar]:bg-slate-700 dark:[&::-webkit-progress-value]:bg-brand-300"
      />
      <p id={`${id}-text`} className="mt-1 text-xs text-slate-700 tabular-nums dark:text-slate-300">
        {copy.progressText(formatMegabytes(sent), formatMegabytes(total))}
      </p>
    </div>
  );
}
