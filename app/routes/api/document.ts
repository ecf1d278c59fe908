import type { Route } from "./+types/document";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { lpDocumentReads, lpDocuments, recipientEntityIdsOf, recipientIdsOf, setLpDocumentAudience } from "~/modules/documents/documents.server";
import { AUDIENCE_BODY_BYTES } from "~/modules/documents/constants";
import { AudienceFields, AudiencePatch } from "~/modules/documents/schema";
import { handleJson, methodNotAllowed, parseJsonInput, readJsonBody } from "~/modules/http/json.server";

/**
 * DELETE /api/documents/{id} (admin) → { success: true, id }; unknown id → 404.
 * PATCH /api/documents/{id} (admin), JSON { audience?, recipientIds?,
 * recipientEntityIds?, watermark? } (what is left out stays) → the document
 * with its recipientIds and recipientEntityIds; unknown id → 404, unknown or
 * unapproved investors, unknown entities, or 'selected' with nobody → 400.
 */
export async function action({ request, params }: Route.ActionArgs) {
  return handleJson(async () => {
    const admin = await requireApiAdmin(request);
    if (request.method === "DELETE") {
      const row = await lpDocuments.delete(admin, params.id);
      return Response.json({ success: true, id: row.id });
    }
    if (request.method !== "PATCH") throw methodNotAllowed("DELETE, PATCH");
    const row = lpDocuments.find(params.id);
    const change = parseJsonInput(AudiencePatch, await readJsonBody(request, AUDIENCE_BODY_BYTES));
    // A partial change: what the body leaves out stays as it is.
    const current = {
      audience: row.audience,
      recipientIds: recipientIdsOf([row]).get(row.id) ?? [],
      recipientEntityIds: recipientEntityIdsOf([row]).get(row.id) ?? [],
      watermark: row.watermark,
    };
    const values = parseJsonInput(AudienceFields, { ...current, ...Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)) });
    const updated = await setLpDocumentAudience(admin, row.id, values);
    return Response.json(lpDocumentReads([updated], admin)[0]);
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  return handleJson(async () => {
    await requireApiAdmin(request);
    return methodNotAllowed("DELETE, PATCH");
  });
}
