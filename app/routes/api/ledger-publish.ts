import type { Route } from "./+types/ledger-publish";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { handleJson, methodNotAllowed } from "~/modules/http/json.server";
import { publishEntry } from "~/modules/ledger/ledger.server";
import { ledgerKindOf } from "~/modules/ledger/kind";

/**
 * POST /api/capital-calls/{id}/publish, POST /api/distributions/{id}/publish
 * (admin) → 200 `{ status: "published" }`: the entry is fixed, numbered and
 * its notices mailed; publishing again changes and sends nothing.
 */
export async function action({ request, params }: Route.ActionArgs) {
  return handleJson(async () => {
    const admin = await requireApiAdmin(request);
    if (request.method !== "POST") throw methodNotAllowed("POST");
    const { status } = publishEntry(admin, params.id, ledgerKindOf(request));
    return Response.json({ status });
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  return handleJson(async () => {
    await requireApiAdmin(request);
    return methodNotAllowed("POST");
  });
}
