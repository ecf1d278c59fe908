import type { Route } from "./+types/by-key";
import { fundAccessMessages } from "~/content/validation";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { isFundId } from "~/modules/fund-access/constants";
import { fundDocuments, fundViewers, mayRead } from "~/modules/documents/documents.server";
import { AppError } from "~/modules/http/app-error";
import { handleJson, methodNotAllowed } from "~/modules/http/json.server";

/**
 * /api/fund-documents/{fund-i|fund-ii} and /api/fund-documents/{id} share a
 * path shape (SPEC.md §7), so one module answers both:
 * - GET /api/fund-documents/fund-i and /fund-ii: that fund's documents, for its
 *   access holders (fileSize as text) and admins (fileSize in bytes);
 * - DELETE /api/fund-documents/{id} (admin) → { success: true, id }.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  return handleJson(async () => {
    const fundId = params.key;
    if (!isFundId(fundId)) {
      await requireApiAdmin(request);
      return methodNotAllowed("DELETE");
    }
    const viewer = (await fundViewers(request)).find((v) => mayRead(v, fundId));
    if (!viewer) throw new AppError("unauthorized", fundAccessMessages.tokenRequired);
    // SPEC.md §3: text for the fund pages' readers, bytes for the admin list.
    const size = viewer.kind === "holder" ? "text" : "bytes";
    return Response.json(fundDocuments.list(fundId).map((row) => fundDocuments.read(row, size)));
  });
}

export async function action({ request, params }: Route.ActionArgs) {
  return handleJson(async () => {
    const admin = await requireApiAdmin(request);
    if (request.method !== "DELETE") throw methodNotAllowed("DELETE");
    const row = await fundDocuments.delete(admin, params.key);
    return Response.json({ success: true, id: row.id });
  });
}
