import { redirect } from "react-router";
import type { Route } from "./+types/fund-documents-upload";
import { answerUpload } from "./upload-answer.server";
import { FUND_UPLOAD_ANCHOR, publishedFundSectionId } from "~/components/fund-admin/fund-documents";
import { fundDocumentToasts } from "~/content/fund-admin";
import { requireAdmin } from "~/modules/auth/guards.server";
import { FUND_UPLOAD_FORM_ID } from "~/modules/fund-documents/constants";
import { uploadFundDocument } from "~/modules/fund-documents/fund-documents.server";

/**
 * POST /admin/fund-documents: the admin's fund document upload without
 * JavaScript (a plain multipart form: title, description, category, fundId,
 * file). With JavaScript the form sends to POST /api/fund-documents instead,
 * to show progress. Both call uploadFundDocument.
 */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return answerUpload(() => uploadFundDocument(admin, request), {
    formId: FUND_UPLOAD_FORM_ID,
    successTo: (row) => `/admin/dashboard#${publishedFundSectionId(row.fundId)}`,
    failureTo: `/admin/dashboard#${FUND_UPLOAD_ANCHOR}`,
    uploaded: { ...fundDocumentToasts.uploaded },
    failedTitle: fundDocumentToasts.uploadFailed.title,
  });
}

/** Nothing to show here: the form lives on the dashboard. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return redirect("/admin/dashboard");
}
