import { Files, Info } from "lucide-react";
import { AdminPageHeader, adminPageTitle } from "~/components/admin/page-header";
import { Link, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/documents";
import {
  DELETE_DOCUMENT_FETCHER,
  DELETE_DOCUMENT_INTENT,
  DeleteConfirmPanel,
  type DeleteSettings,
} from "~/components/documents/delete-document";
import { PublishedDocuments } from "~/components/documents/published-documents";
import { AudienceFields } from "~/components/documents/audience-fields";
import { UploadForm } from "~/components/documents/upload-form";
import { buttonClass } from "~/components/ui/form";
import { documentsPageCopy } from "~/content/admin-workspace";
import { bulkUploadCopy } from "~/content/bulk-upload";
import { documentToasts, publishedDocumentsCopy, uploadFormCopy } from "~/content/documents";
import { adminCopy } from "~/content/portal";
import { ADMIN_PATHS } from "~/modules/admin/paths";
import { requireAdmin } from "~/modules/auth/guards.server";
import { BULK_UPLOAD_PATH } from "~/modules/bulk-upload/constants";
import { LP_CATEGORIES, LP_UPLOAD_FORM_ID } from "~/modules/documents/constants";
import { lpDocuments } from "~/modules/documents/documents.server";
import { readFormData } from "~/modules/http/form-data.server";
import { pageMeta } from "~/modules/seo/meta";
import { answerAdminIntent } from "./actions.server";
import { audienceState, typedUploadFields } from "./audience.server";
import { readPublished } from "./lists.server";
import { isMultipart, uploadLpDocument } from "./uploads.server";

const PAGE = ADMIN_PATHS.documents;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: adminPageTitle("documents"), description: adminCopy.footerNote, path: PAGE, noindex: true });

/** The LP documents' delete, with JavaScript and through the confirm step. */
const deleteSettings: DeleteSettings = {
  intent: DELETE_DOCUMENT_INTENT,
  confirmParam: DELETE_DOCUMENT_INTENT,
  fetcherKey: DELETE_DOCUMENT_FETCHER,
  question: publishedDocumentsCopy.confirmDelete,
  pageAction: PAGE,
  cancelHref: `${PAGE}#published-documents`,
  label: publishedDocumentsCopy.delete,
  pendingLabel: publishedDocumentsCopy.deleting,
  confirmButton: publishedDocumentsCopy.confirmButton,
  cancel: publishedDocumentsCopy.cancel,
  gone: publishedDocumentsCopy.documentGone,
};

/**
 * /admin/documents: the LP upload form and the published LP documents by
 * category, with how often each was opened. `?confirm=delete-document&document=<id>`
 * is the delete's confirm step without JavaScript.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const documents = readPublished(lpDocuments, () => lpDocuments.list());
  const documentId = params.get("document");
  let confirm: { document: { id: string; title: string; fileName: string } | null } | null = null;
  if (params.get("confirm") === DELETE_DOCUMENT_INTENT && documentId) {
    const found = documents.documents.find((d) => d.id === documentId);
    confirm = { document: found ? { id: found.id, title: found.title, fileName: found.fileName } : null };
  }
  const audience = audienceState(params, { audience: "all", watermark: false, recipientIds: [] });
  return { documents, confirm, audience, typed: typedUploadFields(params) };
}

/** A multipart post is the upload form without JavaScript; a plain form post is a delete. */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  if (isMultipart(request)) return uploadLpDocument(admin, request);
  return answerAdminIntent(admin, await readFormData(request), PAGE, [DELETE_DOCUMENT_INTENT]);
}

/** After a delete the list reloads even when it failed (someone else may have deleted it first). */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formData?.get("intent") === DELETE_DOCUMENT_INTENT) return true;
  return defaultShouldRevalidate;
}

export default function AdminDocuments({ loaderData }: Route.ComponentProps) {
  const { documents, confirm, audience, typed } = loaderData;
  return (
    <div>
      <AdminPageHeader page="documents" specName={documentsPageCopy.title} />
      <p className="mt-4 flex items-start gap-2 text-sm text-slate-600 dark:text-slate-300">
        <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        {adminCopy.footerNote}
      </p>
      <p className="mt-4">
        <Link to={BULK_UPLOAD_PATH} className={buttonClass("secondary")}>
          <Files aria-hidden="true" className="size-4" />
          {bulkUploadCopy.linkFromDocuments}
        </Link>
      </p>
      <UploadForm
        formId={LP_UPLOAD_FORM_ID}
        anchorId="upload-document"
        categories={LP_CATEGORIES}
        apiPath="/api/documents"
        pageAction={PAGE}
        copy={uploadFormCopy}
        toasts={{ uploaded: documentToasts.uploaded, failedTitle: documentToasts.uploadFailed.title }}
        initialValues={typed}
        extraFields={(errorsFor, refused) => (
          <AudienceFields
            formId={LP_UPLOAD_FORM_ID}
            state={refused ? { ...audience, audience: refused.audience === "selected" ? "selected" : "all", watermark: refused.watermark === "on" } : audience}
            searchAction={`${PAGE}#upload-document`}
            errorsFor={errorsFor}
          />
        )}
      />
      {confirm ? <DeleteConfirmPanel document={confirm.document} settings={deleteSettings} /> : null}
      <PublishedDocuments
        documents={documents.documents}
        failed={documents.failed}
        categories={LP_CATEGORIES}
        deleteSettings={deleteSettings}
        viewPath={(id) => `/api/documents/${id}/view`}
        historyPath={(id) => `/admin/documents/${id}/access`}
      />
    </div>
  );
}
