import { isAppError } from "~/modules/http/app-error";
import { redirectWithFlash } from "~/modules/toast/flash.server";
import type { ToastInput } from "~/modules/toast/toast";
import { logError } from "~/modules/logging/log.server";

/**
 * The answer of a no-JavaScript upload form (LP or fund documents): run the
 * upload, then go back to the dashboard (303) with a toast and the form's
 * outcome — on failure its message, field errors and the typed values (the
 * file has to be chosen again).
 */
export async function answerUpload<R>(
  upload: () => Promise<R>,
  options: { formId: string; successTo: (row: R) => string; failureTo: string; uploaded: ToastInput; failedTitle: string },
): Promise<Response> {
  try {
    const row = await upload();
    return await redirectWithFlash(
      options.successTo(row),
      { toast: options.uploaded, form: { formId: options.formId, status: "success" } },
      { status: 303 },
    );
  } catch (error) {
    if (!isAppError(error)) logError(error);
    const message = isAppError(error) ? error.message : "Something went wrong. Please try again.";
    return redirectWithFlash(
      options.failureTo,
      {
        toast: { title: options.failedTitle, description: message, variant: "destructive" },
        form: {
          formId: options.formId,
          status: "error",
          message,
          fieldErrors: isAppError(error) ? error.options.fields : undefined,
          values: isAppError(error) ? error.options.values : undefined,
        },
      },
      { status: 303 },
    );
  }
}
