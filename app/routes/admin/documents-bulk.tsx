import { ArrowLeft } from "lucide-react";
import { Link, redirect } from "react-router";
import type { Route } from "./+types/documents-bulk";
import { BulkUploadForm, type BulkUploadFailure } from "~/components/documents/bulk-upload-form";
import { bulkUploadCopy } from "~/content/bulk-upload";
import { watermarkCopy } from "~/content/watermark";
import { ADMIN_PATHS } from "~/modules/admin/paths";
import { requireAdmin } from "~/modules/auth/guards.server";
import { removeStaleBulkBatches, stageBatch } from "~/modules/bulk-upload/batch.server";
import { BULK_UPLOAD_PATH, bulkBatchPath } from "~/modules/bulk-upload/constants";
import { LP_CATEGORIES } from "~/modules/documents/constants";
import { answerForm, formFailure } from "~/modules/http/form-answer.server";
import { logError } from "~/modules/logging/log.server";
import { pageMeta } from "~/modules/seo/meta";
import { watermarkAvailable } from "~/modules/watermark/availability.server";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: bulkUploadCopy.title, description: bulkUploadCopy.intro, path: BULK_UPLOAD_PATH, noindex: true });

/**
 * /admin/documents/bulk: the bulk per-investor upload form. Batches older than
 * 24 hours are removed first. Without qpdf the watermark switch is shown
 * disabled, saying what to install.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  await removeStaleBulkBatches().catch((error: unknown) => logError(error, "bulk upload clean-up failed"));
  return { watermarkAvailable: await watermarkAvailable() };
}

/**
 * The form's multipart post (with or without JavaScript): the files are staged
 * and matched, then 303 to the batch's preview. A refusal renders this page
 * again with its status (413 over a limit, 400 for a field) and message; the
 * refused batch has left nothing on disk. It answers through answerForm but is
 * not redirected (issue 23 §2): a refusal can come while the body (up to 1 GiB)
 * is still streaming, before its fields say anything, and the files chosen
 * cannot be carried back anyway; the page's 413 and 400 are what the tests pin.
 */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  try {
    const { batchId } = await stageBatch(admin, request);
    return redirect(bulkBatchPath(batchId), 303);
  } catch (error) {
    const failure = formFailure(error);
    const answer: BulkUploadFailure = { message: failure.message, fields: failure.fields ?? {}, values: failure.values ?? {} };
    // Through answerForm, rendered in place: no redirect (see above).
    return answerForm({ enhanced: false }, { httpStatus: failure.httpStatus, toast: null, extra: { failure: answer } });
  }
}

export default function BulkUpload({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div>
      <Link
        to={`${ADMIN_PATHS.documents}#published-documents`}
        className="inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        {bulkUploadCopy.back}
      </Link>
      <h1 className="mt-6 text-3xl font-bold tracking-tight">{bulkUploadCopy.title}</h1>
      <p className="mt-4 max-w-3xl text-sm text-slate-700 dark:text-slate-200">{bulkUploadCopy.intro}</p>
      <BulkUploadForm
        action={BULK_UPLOAD_PATH}
        categories={LP_CATEGORIES}
        failure={actionData?.failure ?? null}
        watermarkUnavailable={loaderData.watermarkAvailable ? undefined : watermarkCopy.unavailable.install}
      />
    </div>
  );
}
