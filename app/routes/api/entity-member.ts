import type { Route } from "./+types/entity-member";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { removeEntityMember } from "~/modules/entities/entities.server";
import { handleJson, methodNotAllowed } from "~/modules/http/json.server";

/**
 * DELETE /api/entities/{id}/members/{userId} (admin) → 200 with the entity;
 * unknown entity or not a member → 404; the last owner → 409.
 */
export async function action({ request, params }: Route.ActionArgs) {
  return handleJson(async () => {
    const admin = await requireApiAdmin(request);
    if (request.method !== "DELETE") throw methodNotAllowed("DELETE");
    return Response.json(removeEntityMember(admin, params.id, params.userId));
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  return handleJson(async () => {
    await requireApiAdmin(request);
    return methodNotAllowed("DELETE");
  });
}
