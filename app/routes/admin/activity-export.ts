import type { Route } from "./+types/activity-export";
import { exportActivity } from "~/modules/audit/activity.server";
import { activityCsvHead, activityCsvRecord, activityExportFileName } from "~/modules/audit/export";
import { ActivityFilters, FILTER_PARAMS } from "~/modules/audit/schema";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { now } from "~/modules/config/clock.server";
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
    const batches = exportActivity(admin, filters);
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(activityCsvHead()));
      },
      pull(controller) {
        const next = batches.next();
        if (next.done) return controller.close();
        controller.enqueue(encoder.encode(next.value.map(activityCsvRecord).join("")));
      },
      cancel() {
        batches.return(undefined);
      },
    });
    return new Response(body, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${activityExportFileName(now())}"`,
        "Cache-Control": "private, no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  });
}
