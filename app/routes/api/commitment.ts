import type { Route } from "./+types/commitment";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { commitmentById, raiseCommitment, raiseCommitmentSchema } from "~/modules/commitments/commitments.server";
import { handleJson, methodNotAllowed, parseJsonInput, readJsonBody } from "~/modules/http/json.server";

/**
 * GET /api/commitments/{id} (admin) → the commitment with its history.
 * PATCH /api/commitments/{id} (admin) `{ amount, effectiveOn }` → the raised
 * commitment (a subsequent close; the earlier amounts stay in `history`);
 * unknown id → 404, an amount not above the one in force → 400.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  return handleJson(async () => {
    await requireApiAdmin(request);
    return Response.json(commitmentById(params.id));
  });
}

export async function action({ request, params }: Route.ActionArgs) {
  return handleJson(async () => {
    const admin = await requireApiAdmin(request);
    if (request.method !== "PATCH") throw methodNotAllowed("PATCH");
    const input = parseJsonInput(raiseCommitmentSchema, await readJsonBody(request));
    return Response.json(raiseCommitment(admin, params.id, input));
  });
}
