import { redirect } from "react-router";
import type { Route } from "./+types/documents-upload";
import { documentToasts } from "~/content/documents";
import { requireAdmin } from "~/modules/auth/guards.server";
import { uploadDocument } from "~/modules/documents/documents.server";
import { isAppError } from "~/modules/http/app-error";
import { redirectWithFlash } from "~/modules/toast/flash.server";

/** The form id the dashboard's upload form reads its no-JavaScript outcome from. */
export const LP_UPLOAD_FORM_ID = "lp-upload";

/**
 * POST /admin/documents: the admin upload form without JavaScript (a plain
 * multipart form). With JavaScript the form sends to POST /api/documents
 * instead, to show progress. Both call uploadDocument.
 */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  try {
    await uploadDocument(admin, request);
    return redirectWithFlash("/admin/dashboard#published-documents", {
      toast: { ...documentToasts.uploaded },
      form: { formId: LP_UPLOAD_FORM_ID, status: "success" },
    });
  } catch (error) {
    if (!isAppError(error)) console.error(error);
    const message = isAppError(error) ? error.message : "Something went wrong. Please try again.";
    return redirectWithFlash(
      "/admin/dashboard#upload-document",
      {
        toast: { title: documentToasts.uploadFailed.title, description: message, variant: "destructive" },
        form: {
          formId: LP_UPLOAD_FORM_ID,
          status: "error",
          message,
          fieldErrors: isAppError(error) ? error.options.fields : undefined,
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
