import type { Route } from "./+types/valuations";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { handleJson, methodNotAllowed, parseJsonInput, readJsonBody } from "~/modules/http/json.server";
import { VALUATIONS_BODY_BYTES } from "~/modules/valuations/constants";
import { importValuations, valuationsSchema } from "~/modules/valuations/valuations.server";

/**
 * POST /api/valuations (admin) `{ fund, date, values: [{ entityId, nav }] }` → 201 `{ fund, date, count }`;
 * a row that cannot be used → 400 with a message per row (`values.N.nav`, `values.N.entityId`), nothing written.
 */
export async function action({ request }: Route.ActionArgs) {
  return handleJson(async () => {
    const admin = await requireApiAdmin(request);
    if (request.method !== "POST") throw methodNotAllowed("POST");
    const input = parseJsonInput(valuationsSchema, await readJsonBody(request, VALUATIONS_BODY_BYTES));
    return Response.json(importValuations(admin, input), { status: 201 });
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  return handleJson(async () => {
    await requireApiAdmin(request);
    return methodNotAllowed("POST");
  });
}
