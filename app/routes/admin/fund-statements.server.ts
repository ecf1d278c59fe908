import type { IntentAnswer } from "~/components/kit/intent-form";
import type { ImportPreviewRow } from "~/components/kit/import-preview";
import type { Figure } from "~/components/capital/figures";
import { fundStatementsCopy as c } from "~/content/statements";
import { requestMessages } from "~/content/validation";
import type { LpUser } from "~/modules/auth/session.server";
import { formatDecimal } from "~/modules/capital/money";
import { setStatementsWatermark } from "~/modules/firm-settings/settings.server";
import type { Fund } from "~/modules/funds/funds.server";
import { answerForm, formFailure } from "~/modules/http/form-answer.server";
import { readFormData } from "~/modules/http/form-data.server";
import { formText } from "~/modules/http/form-input.server";
import { isQuarter } from "~/modules/statements/quarter";
import { publishQuarter, reopenQuarter } from "~/modules/statements/publish.server";
import { importPnlCsv, previewPnlCsv, RefusedPnlImport, type PnlPreview } from "~/modules/statements/pnl-import.server";
import { decodeValuationsFile } from "~/modules/valuations/valuations-csv.server";
import { FUND_STATEMENTS_INTENTS, QUARTER_INTENTS, STATEMENTS_FILE_BYTES, STATEMENTS_IMPORT_INTENT, statementsPagePath, WATERMARK_INTENT } from "~/components/statements/intents";

/**
 * The forms of /admin/funds/{slug}/statements (issue 25 §1–2), each one
 * domain call shared with the JSON routes:
 * - `statements-import`: `step=preview` (a CSV file: every entity's row with
 *   its errors and its tie-out; nothing written) or `step=confirm` (the
 *   previewed text from a hidden field, read and checked again from scratch,
 *   then written all or nothing: modules/statements/pnl-import.server.ts);
 * - `publish-quarter` / `restate-quarter` (`quarter`): publishQuarter and
 *   reopenQuarter (modules/statements/publish.server.ts);
 * - `statements-watermark` (`watermark`: a checkbox): the firm's setting.
 * Success: data with a toast (enhanced), 303 back with a flash without
 * JavaScript. Refused: the page again with the message where it belongs (a
 * quarter's row menu opens on its message), as data either way.
 */

type Intent = (typeof FUND_STATEMENTS_INTENTS)[number];

/** A preview row as the page shows it: the entity (or the cell as typed), its tie-out formatted. */
export type PnlPreviewRowView = ImportPreviewRow & { entity: string; resolved: boolean; expected: string; actual: string; difference: string; ties: boolean };

export type FundStatementsAnswer = IntentAnswer & {
  intent?: Intent;
  step?: "preview" | "confirm";
  preview?: { quarter: string | null; rows: PnlPreviewRowView[]; ready: number; withErrors: number; figures: Figure[]; moreErrors: number; replaces: boolean };
  /** The file's text for the confirm form's hidden field: only with a preview that can be imported. */
  csv?: string;
  fileName?: string;
};

/** Preview rows shown at most (the errors first): a file of 2,000 entities stays a page a browser can hold. */
const SHOWN_ROWS = 500;

function previewView(preview: PnlPreview, replaces: boolean): NonNullable<FundStatementsAnswer["preview"]> {
  const { currency } = preview.fund;
  const money = (amount: string | null) => (amount === null ? "—" : formatDecimal(amount, currency, { parentheses: true }));
  const all = preview.rows.map((row, i): PnlPreviewRowView => ({
    // A committed entity the file leaves out has no line: it is named by its entity.
    key: row.line === null ? `missing-${row.entity?.id ?? i}` : String(row.line),
    line: row.line,
    errors: row.errors,
    entity: row.entity?.name ?? row.entityText,
    resolved: row.entity !== null,
    expected: row.tieOut ? money(row.tieOut.endingNavExpected) : "—",
    actual: row.tieOut ? money(row.tieOut.endingNavActual) : "—",
    difference: row.tieOut ? money(row.tieOut.difference) : "—",
    ties: row.tieOut?.ok ?? false,
  }));
  const withErrors = all.filter((row) => row.errors.length > 0).length;
  // With thousands of rows: every row with an error first, then the ready ones, up to SHOWN_ROWS; the rest counted.
  const shown = all.length > SHOWN_ROWS ? [...all.filter((r) => r.errors.length), ...all.filter((r) => !r.errors.length)].slice(0, SHOWN_ROWS) : all;
  const ready = preview.ready;
  return {
    quarter: preview.quarter,
    rows: shown,
    ready,
    withErrors,
    moreErrors: Math.max(0, withErrors - shown.filter((r) => r.errors.length).length),
    replaces,
    figures: preview.quarter
      ? [
          { label: c.preview.figures.quarter, value: preview.quarter },
          { label: c.preview.figures.entities, value: all.length.toLocaleString("en-US") },
          { label: c.preview.figures.ties, value: c.preview.ties(all.filter((r) => r.ties).length, all.length), testId: "preview-ties" },
        ]
      : [],
  };
}

/** An uploaded file's name as the page shows it (its last path segment, one line, 120 characters). */
function shownFileName(value: FormDataEntryValue | null): string {
  const name = typeof value === "string" ? value : (value?.name ?? "");
  return (name.split(/[\\/]/).pop() ?? "").replace(/[\p{Cc}\p{Cf}]/gu, "").slice(0, 120);
}

type Extra = Omit<FundStatementsAnswer, "status" | "toast">;

async function answerImport(admin: LpUser, fund: Fund, formData: FormData, pnlQuarters: ReadonlySet<string>) {
  const step = formText(formData, "step") === "confirm" ? "confirm" : "preview";
  const base = { intent: STATEMENTS_IMPORT_INTENT, step } as const;
  const page = statementsPagePath(fund);
  const fileName = shownFileName(step === "confirm" ? formData.get("fileName") : formData.get("file"));
  const replaces = (quarter: string | null) => quarter !== null && pnlQuarters.has(quarter);
  try {
    if (step === "confirm") {
      const text = formText(formData, "csv");
      const expected = /^\d{1,6}$/.test(formText(formData, "expected")) ? Number(formText(formData, "expected")) : null;
      const done = importPnlCsv(admin, fund, text, expected);
      return answerForm<Extra>(formData, { httpStatus: 200, toast: c.toasts.imported(done.quarter, done.count), redirectTo: `${page}#quarters`, extra: base });
    }
    const file = formData.get("file");
    if (!(file instanceof File) || (file.size === 0 && !file.name)) {
      return answerForm<Extra>(formData, { httpStatus: 400, toast: null, extra: { ...base, fields: { file: [c.import.fileRequired] } } });
    }
    if (file.size > STATEMENTS_FILE_BYTES) {
      return answerForm<Extra>(formData, { httpStatus: 413, toast: null, extra: { ...base, fields: { file: [c.import.tooLarge(STATEMENTS_FILE_BYTES / 1024 / 1024)] } } });
    }
    const text = decodeValuationsFile(new Uint8Array(await file.arrayBuffer()));
    const preview = previewPnlCsv(fund, text);
    return answerForm<Extra>(formData, { httpStatus: preview.ok ? 200 : 400, toast: null, extra: { ...base, preview: previewView(preview, replaces(preview.quarter)), fileName, ...(preview.ok ? { csv: text } : {}) } });
  } catch (error) {
    const refused = refusedPreview(error);
    if (refused) {
      const failure = formFailure(error);
      return answerForm<Extra>(formData, {
        httpStatus: failure.httpStatus,
        toast: { title: c.toasts.importFailed, description: failure.message, variant: "destructive" },
        extra: { ...base, preview: previewView(refused, replaces(refused.quarter)), fileName, fields: { form: [failure.message] }, ...(refused.ok ? { csv: formText(formData, "csv") } : {}) },
      });
    }
    const failure = formFailure(error);
    return answerForm<Extra>(formData, {
      httpStatus: failure.httpStatus,
      toast: step === "confirm" ? { title: c.toasts.importFailed, description: failure.message, variant: "destructive" } : null,
      extra: { ...base, fields: step === "confirm" ? { form: [failure.message] } : failure.fields?.file ? { file: failure.fields.file } : { file: [failure.message] } },
    });
  }
}

/** The preview a refused import carries (a row that does not parse or tie, found again at the confirm step). */
function refusedPreview(error: unknown): PnlPreview | null {
  return error instanceof RefusedPnlImport ? error.preview : null;
}

function runQuarter(admin: LpUser, fund: Fund, intent: (typeof QUARTER_INTENTS)[number], quarter: string) {
  if (intent === "publish-quarter") {
    const done = publishQuarter(admin, fund, quarter);
    return c.toasts.published(quarter, done.version, done.total);
  }
  reopenQuarter(admin, fund, quarter);
  return c.toasts.reopened(quarter);
}

/** Answer one of the statements page's forms. */
export async function answerFundStatementsIntent(admin: LpUser, fund: Fund, request: Request, pnlQuarters: ReadonlySet<string>) {
  const formData = await readFormData(request);
  const intent = FUND_STATEMENTS_INTENTS.find((name) => name === formData.get("intent"));
  const page = statementsPagePath(fund);
  if (!intent) {
    return answerForm<Extra>(formData, { httpStatus: 400, toast: { title: c.toasts.failed, description: requestMessages.unknownAction, variant: "destructive" } });
  }
  if (intent === STATEMENTS_IMPORT_INTENT) return answerImport(admin, fund, formData, pnlQuarters);
  if (intent === WATERMARK_INTENT) {
    try {
      const on = setStatementsWatermark(admin, formData.get("watermark") === "on");
      return answerForm<Extra>(formData, { httpStatus: 200, toast: c.toasts.watermark(on), redirectTo: `${page}#watermark`, extra: { intent } });
    } catch (error) {
      const failure = formFailure(error);
      return answerForm<Extra>(formData, {
        httpStatus: failure.httpStatus,
        toast: { title: c.toasts.failed, description: failure.message, variant: "destructive" },
        extra: { intent, fields: { form: [failure.message] } },
      });
    }
  }
  // A quarter's row menu: its form is told apart by the quarter.
  const quarter = formText(formData, "quarter").slice(0, 16);
  const formKey = isQuarter(quarter) ? quarter : undefined;
  try {
    const toast = runQuarter(admin, fund, intent, quarter);
    return answerForm<Extra>(formData, { httpStatus: 200, toast, redirectTo: `${page}#quarters`, extra: { intent, formKey } });
  } catch (error) {
    const failure = formFailure(error);
    return answerForm<Extra>(formData, {
      httpStatus: failure.httpStatus,
      toast: { title: c.toasts.failed, description: failure.message, variant: "destructive" },
      extra: { intent, formKey, fields: { form: [failure.message] } },
    });
  }
}
