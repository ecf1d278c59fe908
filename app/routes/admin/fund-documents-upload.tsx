import { redirect } from "react-router";
import type { Route } from "./+types/fund-documents-upload";
import { FUND_UPLOAD_ANCHOR, publishedFundSectionId } from "~/components/fund-admin/fund-documents";
import { fundDocumentToasts } from "~/content/fund-admin";
import { requireAdmin } from "~/modules/auth/guards.server";
import { FUND_UPLOAD_FORM_ID } from "~/modules/fund-documents/constants";
import { uploadFundDocument } from "~/modules/fund-documents/fund-documents.server";
import { isAppError } from "~/modules/http/app-error";
import { redirectWithFlash } from "~/modules/toast/flash.server";

/**
 * POST /admin/fund-documents: the admin's fund document upload without
 * JavaScript (a plain multipart form: title, description, category, fundId,
 * file). With JavaScript the form sends to POST /api/fund-documents instead,
 * to show progress. Both call uploadFundDocument.
 */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  try {
    const row = await uploadFundDocument(admin, request);
    return redirectWithFlash(
      `/admin/dashboard#${publishedFundSectionId(row.fundId)}`,
      { toast: { ...fundDocumentToasts.uploaded }, form: { formId: FUND_UPLOAD_FORM_ID, status: "success" } },
      { status: 303 },
    );
  } catch (error) {
    if (!isAppError(error)) console.error(error);
    const message = isAppError(error) ? error.message : "Something went wrong. Please try again.";
    return redirectWithFlash(
      `/admin/dashboard#${FUND_UPLOAD_ANCHOR}`,
      {
        toast: { title: fundDocumentToasts.uploadFailed.title, description: message, variant: "destructive" },
        form: {
          formId: FUND_UPLOAD_FORM_ID,
          status: "error",
          message,
          fieldErrors: isAppError(error) ? error.options.fields : undefined,
          // What the admin typed comes back into the form (the file has to be chosen again).
          values: isAppError(error) ? error.options.values : undefined,
        },
      },
      { status: 303 },
    );
  }
}

/** Nothing to show here: the form lives on the dashboard. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return redirect("/admin/dashboard");
}
