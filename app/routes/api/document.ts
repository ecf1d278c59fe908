import type { Route } from "./+types/document";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { lpDocuments } from "~/modules/documents/documents.server";
import { handleJson, methodNotAllowed } from "~/modules/http/json.server";

/** DELETE /api/documents/{id} (admin) → { success: true, id }; unknown id → 404. */
export async function action({ request, params }: Route.ActionArgs) {
  return handleJson(async () => {
    const admin = await requireApiAdmin(request);
    if (request.method !== "DELETE") throw methodNotAllowed("DELETE");
    const row = await lpDocuments.delete(admin, params.id);
    return Response.json({ success: true, id: row.id });
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  return handleJson(async () => {
    await requireApiAdmin(request);
    return methodNotAllowed("DELETE");
  });
}
