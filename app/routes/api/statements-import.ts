import type { Route } from "./+types/statements-import";
import { statementsImportMessages } from "~/content/statements-rules";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { findFundBySlug } from "~/modules/funds/funds.server";
import { AppError } from "~/modules/http/app-error";
import { handleJson, methodNotAllowed } from "~/modules/http/json.server";
import { readCsvBody } from "~/modules/statements/pnl-csv.server";
import { importAnswer, importPnlCsv, previewPnlCsv, RefusedPnlImport } from "~/modules/statements/pnl-import.server";

/**
 * POST /api/statements/import?fund=<slug> (admin): a quarter's P&L CSV, as a
 * `text/csv` body or a multipart form's `file` field (up to 8 MB; server/app.ts).
 * → 200 the preview `{ quarter, fund, rows: [{ entity: { id, name },
 * endingNavExpected, endingNavActual, difference, ok }], ok, errors, moreErrors }`
 * (amounts as decimal strings; the first 50 row errors and the count of the
 * rest). With `?commit=1`: 201 with the same body once written, 422 with the
 * preview (and `error`) when a row has an error or does not tie, 409 when the
 * quarter is published. No fund or an unknown one: 400 on `fund`.
 */
export async function action({ request }: Route.ActionArgs) {
  return handleJson(async () => {
    const admin = await requireApiAdmin(request);
    if (request.method !== "POST") throw methodNotAllowed("POST");
    const url = new URL(request.url);
    const slug = url.searchParams.get("fund") ?? "";
    const fund = /^[\w-]{1,64}$/.test(slug) ? findFundBySlug(slug) : undefined;
    if (!fund) throw new AppError("bad_request", statementsImportMessages.fund, { fields: { fund: [statementsImportMessages.fund] } });
    const text = await readCsvBody(request);
    if (url.searchParams.get("commit") !== "1") return Response.json(importAnswer(previewPnlCsv(fund, text)));
    try {
      return Response.json(importAnswer(importPnlCsv(admin, fund, text, null).preview), { status: 201 });
    } catch (error) {
      if (error instanceof RefusedPnlImport) return Response.json({ error: error.message, ...importAnswer(error.preview) }, { status: 422 });
      throw error;
    }
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  return handleJson(async () => {
    await requireApiAdmin(request);
    return methodNotAllowed("POST");
  });
}
