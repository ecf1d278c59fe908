import type { Route } from "./+types/pitch";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { handleJson, methodNotAllowed, parseJsonInput, readJsonBody } from "~/modules/http/json.server";
import { toPitchRow, updatePitch } from "~/modules/pitch-inbox/inbox.server";
import { PitchPatch } from "~/modules/pitch-inbox/schema";

/**
 * PATCH /api/pitches/{id} (admin), JSON { status?, ownerId? } (ownerId null: nobody;
 * else an admin's id) → 200 with the pitch's row; an empty body or a non-admin owner
 * → 400 with field messages; unknown id → 404.
 */
export async function action({ request, params }: Route.ActionArgs) {
  return handleJson(async () => {
    const admin = await requireApiAdmin(request);
    if (request.method !== "PATCH") throw methodNotAllowed("PATCH");
    const patch = parseJsonInput(PitchPatch, await readJsonBody(request));
    return Response.json(toPitchRow(updatePitch(admin, params.id, patch)));
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  return handleJson(async () => {
    await requireApiAdmin(request);
    return methodNotAllowed("PATCH");
  });
}
