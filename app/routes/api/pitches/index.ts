import type { Route } from "./+types/index";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { handleJson, methodNotAllowed, parseJsonInput } from "~/modules/http/json.server";
import { listPitches, toPitchRow } from "~/modules/pitch-inbox/inbox.server";
import { PITCH_FILTER_PARAMS, PitchFilters } from "~/modules/pitch-inbox/schema";

/**
 * GET /api/pitches?status=&stage=&owner=&overdue=1&q=&page= (admin) →
 * { pitches, page, pageSize, total }, newest first, 25 a page; bad parameters → 400
 * with field messages.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return handleJson(async () => {
    await requireApiAdmin(request);
    const params = new URL(request.url).searchParams;
    const query = Object.fromEntries([...PITCH_FILTER_PARAMS, "page"].map((name) => [name, params.get(name) ?? ""]));
    const page = listPitches(parseJsonInput(PitchFilters, query));
    return Response.json({ pitches: page.pitches.map(toPitchRow), page: page.page, pageSize: page.pageSize, total: page.total });
  });
}

export async function action({ request }: Route.ActionArgs) {
  return handleJson(async () => {
    await requireApiAdmin(request);
    return methodNotAllowed("GET");
  });
}
