import type { Route } from "./+types/activity-export";
import { exportActivity } from "~/modules/audit/activity.server";
import { ACTIVITY_CSV_HEADER, activityCsvCells, activityExportFileName } from "~/modules/audit/export";
import { ActivityFilters, FILTER_PARAMS } from "~/modules/audit/schema";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { now } from "~/modules/config/clock.server";
import { csvResponse } from "~/modules/export/csv";
import { handleJson, parseJsonInput } from "~/modules/http/json.server";

/**
 * GET /admin/activity.csv?event=&actor=&target=&from=&to=: every audit row the
 * activity page's filters match, newest first, as a formula-safe CSV download,
 * streamed in batches (a million rows never sit in memory at once). A
 * resource route: 401/403 JSON, not the login redirect; bad filters are a 400
 * with field messages. The export itself is recorded in the trail.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return handleJson(async () => {
    const admin = await requireApiAdmin(request);
    const params = new URL(request.url).searchParams;
    const filters = parseJsonInput(ActivityFilters, Object.fromEntries(FILTER_PARAMS.map((name) => [name, params.get(name) ?? ""])));
    return csvResponse({
      fileName: activityExportFileName(now()),
      header: ACTIVITY_CSV_HEADER,
      batches: exportActivity(admin, filters),
      cells: activityCsvCells,
    });
  });
}
