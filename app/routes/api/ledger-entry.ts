import type { Route } from "./+types/ledger-entry";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { handleJson, methodNotAllowed } from "~/modules/http/json.server";
import { deleteDraft, readCall, readEntry } from "~/modules/ledger/ledger.server";
import { ledgerKindOf } from "~/modules/ledger/kind";

/**
 * GET /api/capital-calls/{id} (admin): the call with each entity's due,
 * received, outstanding and state; GET /api/distributions/{id}: the
 * distribution with its allocations. DELETE either: a draft goes (200); a
 * published entry stays (409). Unknown id → 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  return handleJson(async () => {
    await requireApiAdmin(request);
    const kind = ledgerKindOf(request);
    return Response.json(kind === "call" ? readCall(params.id) : readEntry(params.id, undefined, kind));
  });
}

export async function action({ request, params }: Route.ActionArgs) {
  return handleJson(async () => {
    const admin = await requireApiAdmin(request);
    if (request.method !== "DELETE") throw methodNotAllowed("GET, DELETE");
    deleteDraft(admin, params.id, ledgerKindOf(request));
    return Response.json({ success: true, id: params.id });
  });
}
