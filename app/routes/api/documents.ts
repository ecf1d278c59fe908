import type { Route } from "./+types/documents";
import { requireApiAdmin, requireApiUser } from "~/modules/auth/guards.server";
import { lpDocumentReads, lpDocuments } from "~/modules/documents/documents.server";
import { handleJson, methodNotAllowed } from "~/modules/http/json.server";

/**
 * GET /api/documents (approved investors and admins), newest first: an
 * investor gets the documents for all approved investors and those addressed
 * to them (as a chosen investor, or as a member of a chosen entity); an admin
 * gets every document with its recipientIds and recipientEntityIds.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return handleJson(async () => {
    const user = await requireApiUser(request);
    return Response.json(lpDocumentReads(lpDocuments.list(undefined, user), user));
  });
}

/**
 * POST /api/documents (admin), multipart: title, description?, category,
 * audience? (all | selected), recipientIds and recipientEntityIds (repeated,
 * for selected: at least one investor or entity), watermark? (on), file → 201
 * with the document; errors → { error, fields? } (400, 413, 415).
 */
export async function action({ request }: Route.ActionArgs) {
  return handleJson(async () => {
    const admin = await requireApiAdmin(request);
    if (request.method !== "POST") throw methodNotAllowed("POST");
    const row = await lpDocuments.upload(admin, request);
    return Response.json(lpDocumentReads([row], admin)[0], { status: 201 });
  });
}
