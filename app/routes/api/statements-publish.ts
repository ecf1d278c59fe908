import type { Route } from "./+types/statements-publish";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { handleJson, methodNotAllowed, parseJsonInput, readJsonBody } from "~/modules/http/json.server";
import { fundNamed, publishQuarter, publishQuarterSchema } from "~/modules/statements/publish.server";

/**
 * POST /api/statements/publish (admin) `{ fund, quarter }` → 202 `{ jobId }`:
 * the quarter's statements are frozen and their PDFs made in the background
 * (GET /api/statements/jobs/{jobId} for the progress). 400 with field errors
 * (an unknown fund, a malformed quarter); 409 when the quarter is already
 * published (restate it first); 422 when it is not over, has no P&L, or does
 * not tie out.
 */
export async function action({ request }: Route.ActionArgs) {
  return handleJson(async () => {
    const admin = await requireApiAdmin(request);
    if (request.method !== "POST") throw methodNotAllowed("POST");
    const input = parseJsonInput(publishQuarterSchema, await readJsonBody(request));
    const { jobId } = publishQuarter(admin, fundNamed(input.fund), input.quarter);
    return Response.json({ jobId }, { status: 202 });
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  return handleJson(async () => {
    await requireApiAdmin(request);
    return methodNotAllowed("POST");
  });
}
