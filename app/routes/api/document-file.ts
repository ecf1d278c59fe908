import type { Route } from "./+types/document-file";
import { requestMeta } from "~/modules/access-log/access-log.server";
import { requireApiUser } from "~/modules/auth/guards.server";
import { lpDocuments } from "~/modules/documents/documents.server";
import { handleJson } from "~/modules/http/json.server";

/**
 * GET /api/documents/{id}/view (inline) and /download (attachment), for
 * approved investors and admins. The guard runs before any lookup, so
 * anonymous, pending and rejected users learn nothing about which ids exist.
 */
export async function loader({ request, params, pattern, context }: Route.LoaderArgs) {
  return handleJson(async () => {
    const user = await requireApiUser(request);
    const action = pattern.endsWith("/view") ? "view" : "download";
    return lpDocuments.serve([{ kind: "user", user }], params.id, action, request, requestMeta(request, context.clientAddress));
  });
}
