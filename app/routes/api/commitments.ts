import type { Route } from "./+types/commitments";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { createCommitment, createCommitmentSchema } from "~/modules/commitments/commitments.server";
import { handleJson, methodNotAllowed, parseJsonInput, readJsonBody } from "~/modules/http/json.server";

/**
 * POST /api/commitments (admin) `{ entityId, fund, amount, acceptedOn }` →
 * 201 `{ id, entityId, fund, currency, amount, acceptedOn, history }`; `fund`
 * is the slug, `amount` a decimal string ("250000.00"); the entity's second
 * commitment to a fund → 409.
 */
export async function action({ request }: Route.ActionArgs) {
  return handleJson(async () => {
    const admin = await requireApiAdmin(request);
    if (request.method !== "POST") throw methodNotAllowed("POST");
    const input = parseJsonInput(createCommitmentSchema, await readJsonBody(request));
    return Response.json(createCommitment(admin, input), { status: 201 });
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  return handleJson(async () => {
    await requireApiAdmin(request);
    return methodNotAllowed("POST");
  });
}
