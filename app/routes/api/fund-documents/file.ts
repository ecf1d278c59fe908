import type { Route } from "./+types/file";
import { fundAccessMessages } from "~/content/validation";
import { requestMeta } from "~/modules/access-log/access-log.server";
import { fundDocuments, fundViewers } from "~/modules/documents/documents.server";
import { AppError } from "~/modules/http/app-error";
import { handleJson } from "~/modules/http/json.server";

/**
 * GET /api/fund-documents/view/{id} (inline) and /download/{id} (attachment),
 * for admins and holders of the document's fund. Without any fund access: 401
 * before any lookup; another fund's document: 404, like an unknown id.
 */
export async function loader({ request, params, pattern, context }: Route.LoaderArgs) {
  return handleJson(async () => {
    const viewers = await fundViewers(request);
    if (viewers.length === 0) throw new AppError("unauthorized", fundAccessMessages.tokenRequired);
    const action = pattern.includes("/view/") ? "view" : "download";
    return fundDocuments.serve(viewers, params.id, action, request, requestMeta(request, context.clientAddress));
  });
}
