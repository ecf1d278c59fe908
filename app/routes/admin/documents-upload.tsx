import { redirect } from "react-router";
import type { Route } from "./+types/documents-upload";
import { answerUpload } from "./upload-answer.server";
import { documentToasts } from "~/content/documents";
import { requireAdmin } from "~/modules/auth/guards.server";
import { LP_UPLOAD_FORM_ID } from "~/modules/documents/constants";
import { uploadDocument } from "~/modules/documents/documents.server";

/**
 * POST /admin/documents: the admin upload form without JavaScript (a plain
 * multipart form). With JavaScript the form sends to POST /api/documents
 * instead, to show progress. Both call uploadDocument.
 */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return answerUpload(() => uploadDocument(admin, request), {
    formId: LP_UPLOAD_FORM_ID,
    successTo: () => "/admin/dashboard#published-documents",
    failureTo: "/admin/dashboard#upload-document",
    uploaded: { ...documentToasts.uploaded },
    failedTitle: documentToasts.uploadFailed.title,
  });
}

/** Nothing to show here: the form lives on the dashboard. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return redirect("/admin/dashboard");
}
