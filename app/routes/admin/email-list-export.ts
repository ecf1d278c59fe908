import { requestMessages } from "~/content/validation";
import type { Route } from "./+types/email-list-export";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { exportList } from "~/modules/email-lists/email-lists.server";
import { csvColumns, parseExportFile, toTsv } from "~/modules/email-lists/export";
import { parseNewsletterStatus, parseSort } from "~/modules/email-lists/lists";
import { csvResponse, downloadHeaders } from "~/modules/export/csv";
import { AppError } from "~/modules/http/app-error";
import { handleJson } from "~/modules/http/json.server";

/**
 * GET /admin/email-lists/{list}.csv and /admin/email-lists/{list}.tsv
 * (optional ?sort=&dir=, as lists.ts parseSort reads them): every row of one
 * admin e-mail list; the newsletter's in one status (?status=, confirmed by
 * default), its CSV with each confirmed subscriber's unsubscribe link. The CSV is the 'Download CSV' file (attachment); the TSV
 * is what Copy All puts on the clipboard (the page fetches it). A resource
 * route: it answers 401/403 JSON, not the admin login redirect, and an unknown
 * list or extension is a 404. The rows are read at once (about 100,000 rows
 * in well under a second, see email-lists.server.ts); the CSV is written
 * through the exports' one streamed writer, the TSV as one string.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  return handleJson(async () => {
    const admin = await requireApiAdmin(request);
    const target = parseExportFile(params.file);
    if (!target) throw new AppError("not_found", requestMessages.notFound);
    const url = new URL(request.url);
    const sort = parseSort(target.list, url.searchParams.get("sort"), url.searchParams.get("dir"));
    const filter = target.list === "newsletter" ? { status: parseNewsletterStatus(url.searchParams.get("status")) } : {};
    const { rows, fileName } = exportList(admin, target, sort, undefined, filter);
    if (target.format === "csv") return csvResponse({ fileName, ...csvColumns(target.list), batches: batchesOf(rows) });
    return new Response(toTsv(target.list, rows), { headers: downloadHeaders(fileName, "text/tab-separated-values; charset=utf-8", "inline") });
  });
}

/** The rows in batches of 5,000, each one chunk of the download. */
function* batchesOf<T>(rows: readonly T[], size = 5000): Generator<readonly T[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}
