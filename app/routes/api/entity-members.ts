import type { Route } from "./+types/entity-members";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { addEntityMember, addMemberSchema } from "~/modules/entities/entities.server";
import { handleJson, methodNotAllowed, parseJsonInput, readJsonBody } from "~/modules/http/json.server";

/**
 * POST /api/entities/{id}/members (admin) `{ userId, role }` → 201 with the
 * entity; unknown entity → 404, an account that is not an approved investor →
 * 400, already a member → 409.
 */
export async function action({ request, params }: Route.ActionArgs) {
  return handleJson(async () => {
    const admin = await requireApiAdmin(request);
    if (request.method !== "POST") throw methodNotAllowed("POST");
    const input = parseJsonInput(addMemberSchema, await readJsonBody(request));
    return Response.json(addEntityMember(admin, params.id, input), { status: 201 });
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  return handleJson(async () => {
    await requireApiAdmin(request);
    return methodNotAllowed("POST");
  });
}
