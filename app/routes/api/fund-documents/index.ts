import type { Route } from "./+types/index";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { fundDocuments } from "~/modules/documents/documents.server";
import { handleJson, methodNotAllowed } from "~/modules/http/json.server";

/**
 * POST /api/fund-documents (admin), multipart: title, description?, category, fundId, file
 * → 201 with the fund document (fileSize in bytes); errors → { error, fields? }.
 */
export async function action({ request }: Route.ActionArgs) {
  return handleJson(async () => {
    const admin = await requireApiAdmin(request);
    if (request.method !== "POST") throw methodNotAllowed("POST");
    const row = await fundDocuments.upload(admin, request);
    return Response.json(fundDocuments.read(row, "bytes"), { status: 201 });
  });
}

export function loader() {
  return methodNotAllowed("POST");
}
