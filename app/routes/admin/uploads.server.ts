import { publishedFundSectionId, FUND_UPLOAD_ANCHOR } from "~/components/fund-admin/fund-documents";
import { documentToasts } from "~/content/documents";
import { fundDocumentToasts } from "~/content/fund-admin";
import { ADMIN_PATHS } from "~/modules/admin/paths";
import { FUND_UPLOAD_FORM_ID, LP_UPLOAD_FORM_ID, LP_UPLOAD_PATH } from "~/modules/documents/constants";
import { fundDocuments, lpDocuments } from "~/modules/documents/documents.server";
import { runFormAction } from "~/modules/http/form-answer.server";
import type { LpUser } from "~/modules/lp-users/lp-users.server";

/**
 * A multipart upload posted without JavaScript (with JavaScript the form sends
 * to the JSON API, to show progress). It is always answered with a redirect
 * and a flash: its body is the file, so there is no `_enhanced` field to read.
 */
const PLAIN_POST = new FormData();

/** POST of the LP upload form (its page is /admin/documents/upload): published → the published list; refused → the form's page, with its message and typed values. */
export function uploadLpDocument(admin: LpUser, request: Request) {
  return runFormAction(PLAIN_POST, () => lpDocuments.upload(admin, request), {
    success: () => ({ toast: documentToasts.uploaded, redirectTo: `${ADMIN_PATHS.documents}#published-documents` }),
    failureTitle: documentToasts.uploadFailed.title,
    redirectTo: `${LP_UPLOAD_PATH}#upload-document`,
    formId: LP_UPLOAD_FORM_ID,
  });
}

/** POST of the fund upload form: published → its fund's panel; refused → the form. */
export function uploadFundDocument(admin: LpUser, request: Request) {
  return runFormAction(PLAIN_POST, () => fundDocuments.upload(admin, request), {
    success: (row) => ({
      toast: fundDocumentToasts.uploaded,
      redirectTo: `${ADMIN_PATHS["fund-access"]}#${publishedFundSectionId(row.fundId)}`,
    }),
    failureTitle: fundDocumentToasts.uploadFailed.title,
    redirectTo: `${ADMIN_PATHS["fund-access"]}#${FUND_UPLOAD_ANCHOR}`,
    formId: FUND_UPLOAD_FORM_ID,
  });
}

/** A request whose body is a multipart form (an upload), as opposed to a plain form post. */
export function isMultipart(request: Request): boolean {
  return (request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data");
}
