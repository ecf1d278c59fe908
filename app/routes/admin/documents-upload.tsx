import { redirect } from "react-router";
import type { Route } from "./+types/documents-upload";
import { documentToasts } from "~/content/documents";
import { requireAdmin } from "~/modules/auth/guards.server";
import { LP_UPLOAD_FORM_ID } from "~/modules/documents/constants";
import { uploadDocument } from "~/modules/documents/documents.server";
import { isAppError } from "~/modules/http/app-error";
import { redirectWithFlash } from "~/modules/toast/flash.server";

/**
 * POST /admin/documents: the admin upload form without JavaScript (a plain
 * multipart form). With JavaScript the form sends to POST /api/documents
 * instead, to show progress. Both call uploadDocument.
 */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  try {
    await uploadDocument(admin, request);
    return redirectWithFlash(
      "/admin/dashboard#published-documents",
      { toast: { ...documentToasts.uploaded }, form: { formId: LP_UPLOAD_FORM_ID, status: "success" } },
      { status: 303 },
    );
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
