import type { Route } from "./+types/pitches-export";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { now } from "~/modules/config/clock.server";
import { handleJson, parseJsonInput } from "~/modules/http/json.server";
import { pitchCsvHead, pitchCsvRecorder, pitchExportFileName } from "~/modules/pitch-inbox/export.server";
import { exportPitches, listPitchAdmins } from "~/modules/pitch-inbox/inbox.server";
import { PITCH_FILTER_PARAMS, PitchFilters } from "~/modules/pitch-inbox/schema";

/**
 * GET /admin/pitches.csv?status=&stage=&owner=&overdue=&q=: every pitch the list's
 * filters match, newest first, as a formula-safe CSV download, streamed in batches.
 * A resource route: 401/403 JSON, not the login redirect; bad filters are a 400 with
 * field messages. The export itself is recorded in the audit trail.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return handleJson(async () => {
    const admin = await requireApiAdmin(request);
    const params = new URL(request.url).searchParams;
    const filters = parseJsonInput(PitchFilters, Object.fromEntries(PITCH_FILTER_PARAMS.map((name) => [name, params.get(name) ?? ""])));
    const at = now();
    const batches = exportPitches(admin, filters, undefined, undefined, at);
    const record = pitchCsvRecorder(listPitchAdmins(), at);
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(pitchCsvHead()));
      },
      pull(controller) {
        const next = batches.next();
        if (next.done) return controller.close();
        controller.enqueue(encoder.encode(next.value.map(record).join("")));
      },
      cancel() {
        batches.return(undefined);
      },
    });
    return new Response(body, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${pitchExportFileName(at)}"`,
        "Cache-Control": "private, no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  });
}
