import type { Route } from "./+types/call-payments";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { handleJson, methodNotAllowed, parseJsonInput, readJsonBody } from "~/modules/http/json.server";
import { paymentSchema, recordPayment } from "~/modules/ledger/ledger.server";

/**
 * POST /api/capital-calls/{id}/payments (admin) `{ entityId, amount, receivedOn }` → 201 the payment
 * with what the entity still owes; a draft → 409; more than is due, or an entity not called → 400.
 */
export async function action({ request, params }: Route.ActionArgs) {
  return handleJson(async () => {
    const admin = await requireApiAdmin(request);
    if (request.method !== "POST") throw methodNotAllowed("POST");
    const input = parseJsonInput(paymentSchema, await readJsonBody(request));
    return Response.json(recordPayment(admin, params.id, input), { status: 201 });
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  return handleJson(async () => {
    await requireApiAdmin(request);
    return methodNotAllowed("POST");
  });
}
