import type { Route } from "./+types/ledger-entries";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { handleJson, methodNotAllowed, parseJsonInput, readJsonBody } from "~/modules/http/json.server";
import { createCallSchema, createDistributionSchema, draftCall, draftDistribution } from "~/modules/ledger/ledger.server";
import { ledgerKindOf } from "~/modules/ledger/kind";

/**
 * POST /api/capital-calls (admin) `{ fund, noticeDate, dueDate, lines: [{ type, amount, description? }], correctionOf? }`
 * POST /api/distributions (admin) `{ fund, paymentDate, lines: [{ type, amount, recallable?, description? }], correctionOf? }`
 * → 201 the draft `{ id, status: "draft", total, allocations: [{ entityId, amount, lines: [{ type, amount }] }], … }`:
 * each line split over the commitments in force on the date; a fund with none → 400.
 */
export async function action({ request }: Route.ActionArgs) {
  return handleJson(async () => {
    const admin = await requireApiAdmin(request);
    if (request.method !== "POST") throw methodNotAllowed("POST");
    const body = await readJsonBody(request);
    const draft = ledgerKindOf(request) === "call" ? draftCall(admin, parseJsonInput(createCallSchema, body)) : draftDistribution(admin, parseJsonInput(createDistributionSchema, body));
    return Response.json(draft, { status: 201 });
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  return handleJson(async () => {
    await requireApiAdmin(request);
    return methodNotAllowed("POST");
  });
}
