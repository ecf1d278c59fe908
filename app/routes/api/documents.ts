import type { Route } from "./+types/documents";
import { requireApiAdmin, requireApiUser } from "~/modules/auth/guards.server";
import { lpDocuments } from "~/modules/documents/documents.server";
import { handleJson, methodNotAllowed } from "~/modules/http/json.server";

/** GET /api/documents (approved investors and admins): the LP documents, newest first. */
export async function loader({ request }: Route.LoaderArgs) {
  return handleJson(async () => {
    await requireApiUser(request);
    return Response.json(lpDocuments.list().map((row) => lpDocuments.read(row, "bytes")));
  });
}

/**
 * POST /api/documents (admin), multipart: title, description?, category, file
 * → 201 with the document; errors → { error, fields? } (400, 413, 415).
 */
export async function action({ request }: Route.ActionArgs) {
  return handleJson(async () => {
    const admin = await requireApiAdmin(request);
    if (request.method !== "POST") throw methodNotAllowed("POST");
    const row = await lpDocuments.upload(admin, request);
    return Response.json(lpDocuments.read(row, "bytes"), { status: 201 });
  });
}
