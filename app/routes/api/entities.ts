import type { Route } from "./+types/entities";
import { requireApiAdmin, requireApiUser } from "~/modules/auth/guards.server";
import { createEntity, createEntitySchema, listEntitiesFor } from "~/modules/entities/entities.server";
import { handleJson, methodNotAllowed, parseJsonInput, readJsonBody } from "~/modules/http/json.server";

/**
 * GET /api/entities: every entity with its members for an admin; for an
 * approved investor, the entities they are a member of, with their role and
 * the other members by name and role (never an e-mail address).
 */
export async function loader({ request }: Route.LoaderArgs) {
  return handleJson(async () => {
    const user = await requireApiUser(request);
    return Response.json(listEntitiesFor(user));
  });
}

/** POST /api/entities (admin) `{ name, kind, members: [{ userId, role }] }` → 201 `{ id, name, kind, members }`. */
export async function action({ request }: Route.ActionArgs) {
  return handleJson(async () => {
    const admin = await requireApiAdmin(request);
    if (request.method !== "POST") throw methodNotAllowed("POST");
    const input = parseJsonInput(createEntitySchema, await readJsonBody(request));
    return Response.json(createEntity(admin, input), { status: 201 });
  });
}
