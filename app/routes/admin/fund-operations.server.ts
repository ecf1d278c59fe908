import type { Figure } from "~/components/capital/figures";
import type { IntentAnswer } from "~/components/kit/intent-form";
import type { ImportPreviewRow } from "~/components/kit/import-preview";
import { paymentInstructionsCopy as pc, valuationsCsvMessages, valuationsImportCopy as vc } from "~/content/fund-operations";
import { fundsCopy } from "~/content/capital";
import { requestMessages } from "~/content/validation";
import { ADMIN_PATHS } from "~/modules/admin/paths";
import type { LpUser } from "~/modules/auth/session.server";
import { formatDecimal } from "~/modules/capital/money";
import { adminDate } from "~/modules/dates/format";
import { findFundBySlug, type Fund } from "~/modules/funds/funds.server";
import { PAYMENT_FIELDS, PAYMENT_INSTRUCTIONS_INTENT } from "~/modules/funds/payment-instructions";
import { setPaymentInstructions } from "~/modules/funds/payment-instructions.server";
import { answerForm, formFailure } from "~/modules/http/form-answer.server";
import { readFormData } from "~/modules/http/form-data.server";
import { formText } from "~/modules/http/form-input.server";
import { notFound } from "~/modules/http/not-found";
import { redirectWithFlash } from "~/modules/toast/flash.server";
import { VALUATIONS_BODY_BYTES, VALUATIONS_INTENT } from "~/modules/valuations/constants";
import { decodeValuationsFile, importValuationsCsv, previewValuationsCsv, RefusedImport, type ValuationsPreview } from "~/modules/valuations/valuations-csv.server";

/**
 * The forms of a fund's two operation pages beside /admin/funds/{slug}: the
 * valuations import (fund-valuations.tsx) and the payment instructions
 * (fund-payment-instructions.tsx), each one domain call.
 */

const fundPath = (fund: Pick<Fund, "slug">) => `${ADMIN_PATHS.funds}/${fund.slug}`;
const day = (date: string) => adminDate(new Date(`${date}T12:00:00Z`));

/** The fund of `/admin/funds/{slug}/…`, or the unknown fund's 404. */
export function fundOfPage(slug: string): Fund {
  const fund = /^[\w-]{1,64}$/.test(slug) ? findFundBySlug(slug) : undefined;
  if (!fund) throw notFound({ title: vc.notFound.title, message: vc.notFound.message, back: { to: ADMIN_PATHS.funds, label: fundsCopy.detail.back } });
  return fund;
}

// ---------------------------------------------------------------------------
// Valuations import

/** A preview row as the page shows it: the entity's name, the date and the NAV formatted, or the cells as typed. */
export type ValuationsPreviewRowView = ImportPreviewRow & { entity: string; resolved: boolean; date: string; nav: string };

export type ValuationsAnswer = IntentAnswer & {
  intent?: typeof VALUATIONS_INTENT;
  step?: "preview" | "confirm";
  preview?: { rows: ValuationsPreviewRowView[]; ready: number; withErrors: number; date: string | null; figures: Figure[] };
  /** The file's text, for the confirm form's hidden field: only with a preview that can be imported. */
  csv?: string;
  fileName?: string;
};

function previewView(preview: ValuationsPreview): NonNullable<ValuationsAnswer["preview"]> {
  const { currency } = preview.fund;
  return {
    rows: preview.rows.map((row) => ({
      key: String(row.line),
      line: row.line,
      errors: row.errors,
      entity: row.entity?.name ?? row.entityText,
      resolved: row.entity !== null,
      date: row.date ? day(row.date) : row.dateText,
      nav: row.nav !== null ? formatDecimal(row.nav, currency) : row.navText,
    })),
    ready: preview.ready,
    withErrors: preview.withErrors,
    date: preview.date ? day(preview.date) : null,
    // What the import would save: its date, the entities and their total NAV (the rows without errors).
    figures:
      preview.date && preview.ready > 0
        ? [
            { label: vc.preview.figures.date, value: day(preview.date) },
            { label: vc.preview.figures.entities, value: preview.ready.toLocaleString("en-US") },
            { label: vc.preview.figures.total, value: formatDecimal(preview.total, currency), testId: "preview-total" },
          ]
        : [],
  };
}

/** An uploaded file's name as the page shows it (its last path segment, one line, 120 characters). */
function shownFileName(value: FormDataEntryValue | null): string {
  const name = typeof value === "string" ? value : (value?.name ?? "");
  return (name.split(/[\\/]/).pop() ?? "").replace(/[\p{Cc}\p{Cf}]/gu, "").slice(0, 120);
}

/**
 * The import page's two steps: `preview` (a file: its preview, written
 * nowhere; 400 when a row has an error, 413 over the size limit) and
 * `confirm` (the previewed text: read and checked again, then imported and
 * 303 to the fund's page with a toast; refused, the new preview with its
 * message). Answers as data otherwise, with or without JavaScript.
 */
export async function answerValuationsIntent(admin: LpUser, fund: Fund, request: Request) {
  const formData = await readFormData(request);
  type Extra = Omit<ValuationsAnswer, "status" | "toast">;
  const step = formText(formData, "step") === "confirm" ? "confirm" : "preview";
  const base = { intent: VALUATIONS_INTENT, step } as const;
  if (formText(formData, "intent") !== VALUATIONS_INTENT) {
    return answerForm<Extra>(formData, { httpStatus: 400, toast: { title: vc.toasts.failed, description: requestMessages.unknownAction, variant: "destructive" } });
  }
  const fileName = shownFileName(step === "confirm" ? formData.get("fileName") : formData.get("file"));
  try {
    if (step === "confirm") {
      const text = formText(formData, "csv");
      const expected = /^\d{1,6}$/.test(formText(formData, "expected")) ? Number(formText(formData, "expected")) : null;
      const done = importValuationsCsv(admin, fund, text, expected);
      return redirectWithFlash(`${fundPath(fund)}#valuations`, { toast: vc.toasts.imported(done.count, fund.name, day(done.date)) }, { status: 303 });
    }
    const file = formData.get("file");
    if (!(file instanceof File) || (file.size === 0 && !file.name)) {
      return answerForm<Extra>(formData, { httpStatus: 400, toast: null, extra: { ...base, fields: { file: [valuationsCsvMessages.fileRequired] } } });
    }
    if (file.size > VALUATIONS_BODY_BYTES) {
      return answerForm<Extra>(formData, { httpStatus: 413, toast: null, extra: { ...base, fields: { file: [valuationsCsvMessages.tooLarge(VALUATIONS_BODY_BYTES / 1024 / 1024)] } } });
    }
    const text = decodeValuationsFile(new Uint8Array(await file.arrayBuffer()));
    const preview = previewValuationsCsv(fund, text);
    return answerForm<Extra>(formData, {
      httpStatus: preview.withErrors ? 400 : 200,
      toast: null,
      extra: { ...base, preview: previewView(preview), fileName, ...(preview.withErrors ? {} : { csv: text }) },
    });
  } catch (error) {
    if (error instanceof RefusedImport) {
      const confirmable = error.preview.withErrors === 0;
      return answerForm<Extra>(formData, {
        httpStatus: 400,
        toast: { title: vc.toasts.failed, description: error.message, variant: "destructive" },
        extra: { ...base, preview: previewView(error.preview), fileName, fields: { form: [error.message] }, ...(confirmable ? { csv: formText(formData, "csv") } : {}) },
      });
    }
    const failure = formFailure(error);
    return answerForm<Extra>(formData, {
      httpStatus: failure.httpStatus,
      toast: step === "confirm" ? { title: vc.toasts.failed, description: failure.message, variant: "destructive" } : null,
      extra: { ...base, fields: failure.fields?.file ? { file: failure.fields.file } : { file: [failure.message] } },
    });
  }
}

// ---------------------------------------------------------------------------
// Payment instructions

export type PaymentInstructionsAnswer = IntentAnswer & { intent?: typeof PAYMENT_INSTRUCTIONS_INTENT };

/**
 * The payment instructions form: the fields and a fresh two-factor code,
 * one call of setPaymentInstructions. Saved: data with a toast (enhanced),
 * 303 back with a flash without JavaScript. Refused: the page again with
 * each field's message and what was typed (never the code), as data.
 */
export async function answerPaymentInstructionsIntent(admin: LpUser, fund: Fund, request: Request, clientAddress: string) {
  const formData = await readFormData(request);
  type Extra = Omit<PaymentInstructionsAnswer, "status" | "toast">;
  const page = `${fundPath(fund)}/payment-instructions`;
  if (formText(formData, "intent") !== PAYMENT_INSTRUCTIONS_INTENT) {
    return answerForm<Extra>(formData, { httpStatus: 400, toast: { title: pc.toasts.failed, description: requestMessages.unknownAction, variant: "destructive" } });
  }
  const input = Object.fromEntries([...PAYMENT_FIELDS, "code"].map((name) => [name, formText(formData, name)]));
  try {
    const { changed } = await setPaymentInstructions(admin, fund, input, clientAddress);
    return answerForm<Extra>(formData, {
      httpStatus: 200,
      toast: changed.length ? pc.toasts.saved(fund.name) : pc.toasts.unchanged,
      redirectTo: page,
      extra: { intent: PAYMENT_INSTRUCTIONS_INTENT },
    });
  } catch (error) {
    const failure = formFailure(error);
    // The typed details come back (cut to the fields' limits); the code never does.
    const values = Object.fromEntries(PAYMENT_FIELDS.map((name) => [name, formText(formData, name).slice(0, 200)]));
    return answerForm<Extra>(formData, {
      httpStatus: failure.httpStatus,
      retryAfterSeconds: failure.retryAfterSeconds,
      toast: { title: pc.toasts.failed, description: failure.message, variant: "destructive" },
      extra: { intent: PAYMENT_INSTRUCTIONS_INTENT, fields: failure.fields ?? { form: [failure.message] }, values },
    });
  }
}
