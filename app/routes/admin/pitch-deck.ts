import type { Route } from "./+types/pitch-deck";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { handleJson } from "~/modules/http/json.server";
import { openPitchDeck } from "~/modules/pitches/deck-access.server";

/**
 * GET (and HEAD) /admin/pitches/{id}/deck: a pitch's uploaded deck, inline, for
 * admins only (a resource route: 401/403 JSON, not the login redirect). 404 for
 * an unknown pitch or one without a deck. Each opening is recorded.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  return handleJson(async () => {
    const admin = await requireApiAdmin(request);
    return openPitchDeck({ id: admin.id, email: admin.email }, params.id, request);
  });
}
