import { redirect } from "react-router";
import type { Route } from "./+types/fund-documents-upload";
import { ADMIN_PATHS } from "~/modules/admin/paths";
import { requireAdmin } from "~/modules/auth/guards.server";
import { uploadFundDocument } from "./uploads.server";

/**
 * POST /admin/fund-documents: the fund document upload form without
 * JavaScript (title, description, category, fundId, file). With JavaScript the
 * form sends to POST /api/fund-documents. Both call fundDocuments.upload.
 * It answers through answerForm (uploadFundDocument: runFormAction), a 303
 * back to the fund access page with the toast as a flash.
 */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return uploadFundDocument(admin, request);
}

/** The form lives on the fund access page. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return redirect(ADMIN_PATHS["fund-access"]);
}
