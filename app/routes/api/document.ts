import type { Route } from "./+types/document";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { lpDocuments } from "~/modules/documents/documents.server";
import { AppError } from "~/modules/http/app-error";
import { handleJson } from "~/modules/http/json.server";

/** DELETE /api/documents/{id} (admin) → { success: true, id }; unknown id → 404. */
export async function action({ request, params }: Route.ActionArgs) {
  return handleJson(async () => {
    const admin = await requireApiAdmin(request);
    if (request.method !== "DELETE") throw new AppError("method_not_allowed", "Method not allowed");
    const row = await lpDocuments.delete(admin, params.id);
    return Response.json({ success: true, id: row.id });
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  return handleJson(async () => {
    await requireApiAdmin(request);
    return Response.json({ error: "Method not allowed" }, { status: 405, headers: { Allow: "DELETE" } });
  });
}
