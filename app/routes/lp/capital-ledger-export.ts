import type { Route } from "./+types/capital-ledger-export";
import { ledgerCsvFileName, ledgerCsvHeader, ledgerPageCopy } from "~/content/capital-lp";
import { requireApiUser } from "~/modules/auth/guards.server";
import { ledgerCsvCells } from "~/modules/capital-account/ledger-export";
import { ledgerBatches, ledgerQuerySchema, resolveLedgerFilters } from "~/modules/capital-account/ledger.server";
import { now } from "~/modules/config/clock.server";
import { csvResponse } from "~/modules/export/csv";
import { AppError } from "~/modules/http/app-error";
import { handleJson } from "~/modules/http/json.server";
import { firmDay } from "~/modules/pitch-clock/clock.server";

/**
 * GET /lp/capital-account/ledger.csv?entity=&fund= (approved investors and
 * admins, for the entities they are a member of): every transaction the
 * ledger page's filters match, newest first, as a formula-safe CSV download
 * streamed in batches (modules/export/csv.ts: BOM, CRLF, text/csv, nosniff,
 * attachment, never cached). A resource route: 401/403 JSON, not the login
 * redirect; a filter naming anything not the investor's is the unknown id's
 * 404, as on the page. Named after the firm's day (Europe/Zurich).
 */
export async function loader({ request }: Route.LoaderArgs) {
  return handleJson(async () => {
    const user = await requireApiUser(request);
    const params = new URL(request.url).searchParams;
    const query = ledgerQuerySchema.safeParse({ entity: params.get("entity") ?? undefined, fund: params.get("fund") ?? undefined });
    if (!query.success) throw new AppError("not_found", ledgerPageCopy.notFound.title);
    const { filters } = resolveLedgerFilters(user, query.data);
    return csvResponse({ fileName: ledgerCsvFileName(firmDay(now())), header: ledgerCsvHeader, batches: ledgerBatches(user, filters), cells: ledgerCsvCells });
  });
}
