import type { Route } from "./+types/statements-job";
import { publishingMessages } from "~/content/statements-rules";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { AppError } from "~/modules/http/app-error";
import { handleJson } from "~/modules/http/json.server";
import { jobProgress } from "~/modules/pdf-jobs/jobs.server";

/**
 * GET /api/statements/jobs/{jobId} (admin) → `{ done, total, failed, status }`:
 * a PDF job's documents made, items in all, items that failed, and whether
 * it still runs (`running`, `finished`). 404 for an unknown id.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  return handleJson(async () => {
    await requireApiAdmin(request);
    const progress = jobProgress(params.jobId);
    if (!progress) throw new AppError("not_found", publishingMessages.jobNotFound);
    return Response.json(progress);
  });
}
