import { bulkUploadCopy } from "~/content/bulk-upload";
import { BULK_ACCEPT, BULK_UPLOAD_FORM_ID } from "~/modules/bulk-upload/constants";
import { bulkFilesHint } from "~/modules/bulk-upload/messages";
import { DEFAULT_CATEGORY, DESCRIPTION_MAX, TITLE_MAX } from "~/modules/documents/constants";
import { ErrorList, fieldAria, Hint } from "../kit/fields";
import { Button, inputClass } from "../ui/form";
import { UploadField } from "./upload-form";

/** A refused upload, as the page shows it again: the message, each field's, and what was typed. */
export type BulkUploadFailure = { message: string; fields: Record<string, string[]>; values: Record<string, string> };

const fileInputClass = `${inputClass} file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-1.5 file:text-sm file:font-semibold file:text-slate-900 dark:file:bg-slate-800 dark:file:text-slate-100`;

/**
 * The bulk per-investor upload form: the fields every document of the batch
 * gets and the PDFs. A plain multipart post (with or without JavaScript) to
 * `action`, which answers with the batch's preview, or this page again with
 * `failure`. `watermarkUnavailable` (the server cannot stamp: qpdf missing)
 * shows the watermark switch disabled and off, with that line, what to
 * install, under it; a disabled box is not sent.
 */
export function BulkUploadForm({
  action,
  categories,
  failure,
  watermarkUnavailable,
}: {
  action: string;
  categories: readonly { value: string; label: string }[];
  failure: BulkUploadFailure | null;
  watermarkUnavailable?: string | undefined;
}) {
  const c = bulkUploadCopy;
  const formId = BULK_UPLOAD_FORM_ID;
  const errorsFor = (name: string) => failure?.fields[name];
  const typed = failure?.values ?? {};
  const hasFieldErrors = Object.values(failure?.fields ?? {}).some((errors) => errors.length > 0);
  const watermark = fieldAria({ id: `${formId}-watermark`, hint: watermarkUnavailable, errors: errorsFor("watermark") });
  return (
    <form
      id={formId}
      method="post"
      action={action}
      encType="multipart/form-data"
      aria-label={c.title}
      className="mt-6 grid gap-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:grid-cols-2 dark:border-slate-800 dark:bg-slate-900"
    >
      {failure ? (
        <div
          role="alert"
          className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800 sm:col-span-2 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
        >
          <p className="font-semibold">{c.failedTitle}</p>
          {hasFieldErrors ? null : <p>{failure.message}</p>}
        </div>
      ) : null}
      <div className="sm:col-span-2">
        <UploadField formId={formId} name="title" label={c.titleLabel} hint={c.titleHint} errors={errorsFor("title")}>
          {(p) => <input {...p} type="text" required maxLength={TITLE_MAX} autoComplete="off" defaultValue={typed.title} className={inputClass} />}
        </UploadField>
      </div>
      <div className="sm:col-span-2">
        <UploadField formId={formId} name="description" label={c.descriptionLabel} errors={errorsFor("description")}>
          {(p) => <textarea {...p} rows={2} maxLength={DESCRIPTION_MAX} defaultValue={typed.description} className={inputClass} />}
        </UploadField>
      </div>
      <UploadField formId={formId} name="category" label={c.categoryLabel} errors={errorsFor("category")}>
        {(p) => (
          <select {...p} defaultValue={typed.category ?? DEFAULT_CATEGORY} className={inputClass}>
            {categories.map((category) => (
              <option key={category.value} value={category.value}>
                {category.label}
              </option>
            ))}
          </select>
        )}
      </UploadField>
      <div className="self-end pb-2">
        <div className="flex items-center gap-2">
          <input
            {...watermark.control}
            type="checkbox"
            name="watermark"
            value="on"
            defaultChecked={!watermarkUnavailable && typed.watermark === "on"}
            disabled={watermarkUnavailable ? true : undefined}
            className="size-4 rounded border-slate-300 accent-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
          />
          <label htmlFor={`${formId}-watermark`} className="text-sm font-medium">
            {c.watermarkLabel}
          </label>
        </div>
        {watermarkUnavailable ? <Hint id={watermark.hintId}>{watermarkUnavailable}</Hint> : null}
        <ErrorList id={watermark.errorId} errors={errorsFor("watermark")} />
      </div>
      <div className="sm:col-span-2">
        <UploadField formId={formId} name="files" label={c.filesLabel} hint={bulkFilesHint} errors={errorsFor("files")}>
          {(p) => <input {...p} type="file" multiple required accept={BULK_ACCEPT} className={fileInputClass} />}
        </UploadField>
      </div>
      <div className="sm:col-span-2">
        <Button type="submit">{c.submit}</Button>
      </div>
    </form>
  );
}
