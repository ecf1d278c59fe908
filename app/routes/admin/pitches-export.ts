import type { Route } from "./+types/pitches-export";
import { pitchCsvHeaders } from "~/content/pitch-inbox";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { now } from "~/modules/config/clock.server";
import { csvResponse } from "~/modules/export/csv";
import { handleJson, parseJsonInput } from "~/modules/http/json.server";
import { pitchCsvCells, pitchExportFileName } from "~/modules/pitch-inbox/export.server";
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
    return csvResponse({
      fileName: pitchExportFileName(at),
      header: pitchCsvHeaders,
      batches: exportPitches(admin, filters, undefined, undefined, at),
      cells: pitchCsvCells(listPitchAdmins(), at),
    });
  });
}
