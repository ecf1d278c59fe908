import { ArrowLeft } from "lucide-react";
import { data, Link } from "react-router";
import { bulkUploadMessages } from "~/modules/bulk-upload/messages";
import type { Route } from "./+types/documents-bulk-batch";
import { BulkPreview, CANCEL_BATCH_INTENT, PUBLISH_BATCH_INTENT, type BulkPreviewData } from "~/components/documents/bulk-preview";
import { bulkPreviewCopy, bulkUploadCopy, bulkUploadToasts } from "~/content/bulk-upload";
import { requestMessages } from "~/content/validation";
import { ADMIN_PATHS } from "~/modules/admin/paths";
import { requireAdmin } from "~/modules/auth/guards.server";
import { cancelBatch, publishBatch, readBatch, removeStaleBulkBatches, type Batch } from "~/modules/bulk-upload/batch.server";
import { BULK_UPLOAD_PATH, bulkBatchPath } from "~/modules/bulk-upload/constants";
import { BatchId } from "~/modules/bulk-upload/schema";
import { adminDateTime } from "~/modules/dates/format";
import { categoryLabel, formatMegabytes } from "~/modules/documents/constants";
import { AppError, isAppError } from "~/modules/http/app-error";
import { readFormData } from "~/modules/http/form-data.server";
import { notFound } from "~/modules/http/not-found";
import { answerForm, failureAnswer, runFormAction } from "~/modules/http/form-answer.server";
import { logError } from "~/modules/logging/log.server";
import { pageMeta } from "~/modules/seo/meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: bulkPreviewCopy.title, description: bulkUploadCopy.title, path: bulkBatchPath(args.params.batchId), noindex: true });

function toPreview(batch: Batch): BulkPreviewData {
  return {
    uploadedAt: adminDateTime(batch.createdAt),
    uploadedAtIso: batch.createdAt.toISOString(),
    fields: { ...batch.fields, category: categoryLabel(batch.fields.category) },
    rows: batch.entries.map((entry, index) => ({
      key: `${index}-${entry.fileName}`,
      fileName: entry.fileName,
      size: formatMegabytes(entry.size),
      investor: entry.investor ? { name: entry.investor.name, email: entry.investor.email, referenceCode: entry.investor.referenceCode } : null,
      problem: entry.problem,
      candidates: entry.candidates.map((candidate) => candidate.email),
    })),
    publishable: batch.publishable,
  };
}

/**
 * /admin/documents/bulk/{batchId}: a staged batch, each file with the investor
 * it goes to or why it will not be published. An unknown, finished or expired
 * batch throws a 404 that the admin layout shows inside the frame (not found, back to the upload).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  await removeStaleBulkBatches().catch((error: unknown) => logError(error, "bulk upload clean-up failed"));
  try {
    return { preview: toPreview(await readBatch(params.batchId)) };
  } catch (error) {
    if (isAppError(error) && error.status === 404) {
      throw notFound({ title: bulkPreviewCopy.notFoundTitle, message: bulkUploadMessages.batchGone, back: { to: BULK_UPLOAD_PATH, label: bulkPreviewCopy.backToUpload } });
    }
    throw error;
  }
}

/**
 * intent=publish (with the number confirmed): publish the matched files, then
 * the LP documents page with a toast. intent=cancel: delete the batch, then the
 * bulk upload page. A refusal comes back here with its message as a toast.
 */
export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  // The batch's own address is where the answer goes back to: only a batch id can make one.
  if (!BatchId.safeParse(params.batchId).success) throw data(null, { status: 404 });
  const formData = await readFormData(request);
  const here = bulkBatchPath(params.batchId);
  const intent = formData.get("intent");
  if (intent === PUBLISH_BATCH_INTENT) {
    return runFormAction(
      formData,
      () => {
        const expected = Number(formData.get("expected"));
        if (!Number.isSafeInteger(expected) || expected < 1) throw new AppError("bad_request", bulkUploadMessages.batchChanged);
        return publishBatch(admin, params.batchId, expected);
      },
      {
        success: ({ count }) => ({ toast: bulkUploadToasts.published(count), redirectTo: `${ADMIN_PATHS.documents}#published-documents` }),
        failureTitle: bulkUploadToasts.publishFailed.title,
        redirectTo: here,
      },
    );
  }
  if (intent === CANCEL_BATCH_INTENT) {
    return runFormAction(formData, () => cancelBatch(params.batchId), {
      success: () => ({ toast: bulkUploadToasts.cancelled, redirectTo: BULK_UPLOAD_PATH }),
      failureTitle: bulkUploadToasts.publishFailed.title,
      redirectTo: here,
    });
  }
  return answerForm(
    formData,
    failureAnswer({ httpStatus: 400, message: requestMessages.unknownAction }, { title: bulkUploadToasts.publishFailed.title, redirectTo: here }),
  );
}

export default function BulkBatch({ loaderData, params }: Route.ComponentProps) {
  return (
    <div>
      <Link
        to={BULK_UPLOAD_PATH}
        className="inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        {bulkPreviewCopy.backToUpload}
      </Link>
      <h1 className="mt-6 text-3xl font-bold tracking-tight">{bulkPreviewCopy.title}</h1>
      <BulkPreview data={loaderData.preview} action={bulkBatchPath(params.batchId)} />
    </div>
  );
}
