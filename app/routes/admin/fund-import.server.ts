import type { IntentAnswer } from "~/components/kit/intent-form";
import { historyImportCopy as c } from "~/content/history-import";
import { requestMessages } from "~/content/validation";
import { ADMIN_PATHS } from "~/modules/admin/paths";
import type { LpUser } from "~/modules/auth/session.server";
import { formatDecimal } from "~/modules/capital/money";
import { adminDate } from "~/modules/dates/format";
import type { Fund } from "~/modules/funds/funds.server";
import { HISTORY_INTENT } from "~/modules/history-import/constants";
import { decodeHistoryFiles, importHistory, previewHistory, RefusedHistory, type HistoryPreview } from "~/modules/history-import/history.server";
import { forgetUpload, readHistoryUpload, receiveHistoryUpload } from "~/modules/history-import/uploads.server";
import { answerForm, formFailure } from "~/modules/http/form-answer.server";
import { readFormData } from "~/modules/http/form-data.server";
import { formText } from "~/modules/http/form-input.server";
import { redirectWithFlash } from "~/modules/toast/flash.server";

/**
 * The forms of /admin/funds/{slug}/import (issue 25 §5), each one domain
 * call: the upload (multipart: the history file and optionally the P&L file,
 * streamed to storage; answered with the preview, nothing written) and the
 * confirm (the stored pair's name and hash: read and checked again, imported
 * all or nothing, then 303 to the fund's page with a toast).
 */

const day = (date: string) => adminDate(new Date(`${date}T12:00:00Z`));

/** An uploaded file's name as the page shows it (its last path segment, one line, 120 characters). */
function shownFileName(name: string): string {
  return (name.split(/[\\/]/).pop() ?? "").replace(/[\p{Cc}\p{Cf}]/gu, "").slice(0, 120);
}

/** The preview as the page shows it: counts per event, the errors, what is replaced and published, formatted. */
export type HistoryPreviewView = {
  summary: string;
  withErrors: number;
  kinds: { key: string; event: string; rows: string; saves: string; total: string }[];
  period: string | null;
  errors: { key: string; line: string; file: string; column: string; message: string }[];
  errorsNote: string;
  replacements: { key: string; entity: string; date: string; current: string; imported: string }[];
  replacementsNote: string;
  entries: { key: string; reference: string; becomes: string; date: string; due: string; entities: string; total: string }[];
  entriesNote: string;
  ok: boolean;
};

export type HistoryAnswer = IntentAnswer & {
  intent?: typeof HISTORY_INTENT;
  step?: "preview" | "confirm";
  preview?: HistoryPreviewView;
  /** What the confirm form carries back: only with a preview that can be imported. */
  confirm?: { upload: string; hash: string; signature: string };
  /** The files' names, for the preview's title. */
  names?: string;
};

function previewView(preview: HistoryPreview): HistoryPreviewView {
  const { currency } = preview.fund;
  const money = (amount: string) => formatDecimal(amount, currency);
  const count = (n: number) => n.toLocaleString("en-US");
  const { counts } = preview;
  const p = c.preview;
  // The events the files have (a file of valuations only shows valuations).
  const kinds = [
    { key: "call", event: p.kinds.call, rows: count(counts.calls.rows), saves: p.saves.calls(counts.calls.entries, counts.calls.first, counts.calls.last), total: counts.calls.rows ? money(counts.calls.total) : "—" },
    { key: "payment", event: p.kinds.payment, rows: count(counts.payments.rows), saves: p.saves.payments(counts.payments.rows), total: counts.payments.rows ? money(counts.payments.total) : "—" },
    {
      key: "distribution",
      event: p.kinds.distribution,
      rows: count(counts.distributions.rows),
      saves: p.saves.distributions(counts.distributions.entries, counts.distributions.first, counts.distributions.last),
      total: counts.distributions.rows ? money(counts.distributions.total) : "—",
    },
    { key: "valuation", event: p.kinds.valuation, rows: count(counts.valuations.rows), saves: p.saves.valuations(counts.valuations.rows, counts.valuations.replacing), total: "—" },
    { key: "pnl", event: p.kinds.pnl, rows: count(counts.pnl.rows), saves: p.saves.pnl(counts.pnl.quarters, counts.pnl.replacing), total: "—" },
  ].filter((kind) => counts.read[kind.key as keyof typeof counts.read] > 0);
  const entryTotal = counts.calls.entries + counts.distributions.entries;
  return {
    summary: p.summary(preview.rows.history + preview.rows.pnl, preview.withErrors),
    withErrors: preview.withErrors,
    kinds,
    period: preview.period ? p.period(day(preview.period.from), day(preview.period.to)) : null,
    errors: preview.errors.map((e, i) => ({ key: `${e.file}-${e.line}-${i}`, line: count(e.line), file: p.files[e.file], column: e.column ?? "—", message: e.message })),
    errorsNote: p.errorsShown(preview.errors.length, preview.errorCount),
    replacements: preview.replacements.map((r) => ({ key: `${r.entity.id}-${r.date}`, entity: r.entity.name, date: day(r.date), current: money(r.current), imported: money(r.imported) })),
    replacementsNote: p.replacementsShown(preview.replacements.length, counts.valuations.replacing),
    entries: preview.entries.map((e) => ({
      key: `${e.kind}-${e.number}`,
      reference: e.reference,
      becomes: `${e.kind === "call" ? "Call" : "Distribution"} ${count(e.number)}`,
      date: day(e.date),
      due: e.dueDate ? day(e.dueDate) : "—",
      entities: count(e.entities),
      total: money(e.total),
    })),
    entriesNote: p.entriesShown(preview.entries.length, entryTotal),
    ok: preview.ok,
  };
}

type Extra = Omit<HistoryAnswer, "status" | "toast">;

/**
 * The page's two steps. `preview` (a multipart post): the files stored and
 * read, their preview (200; 400 when a row has an error, and the files are
 * dropped; 413 over the size limit). `confirm` (a plain form post): the
 * stored pair read and imported, 303 to the fund's page with a toast; refused,
 * the new preview with its message (400), or the message alone (an expired
 * preview). Answered as data otherwise, with or without JavaScript.
 */
export async function answerHistoryIntent(admin: LpUser, fund: Fund, request: Request) {
  const multipart = (request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data");
  return multipart ? answerUpload(fund, request) : answerConfirm(admin, fund, request);
}

async function answerUpload(fund: Fund, request: Request) {
  const base = { intent: HISTORY_INTENT, step: "preview" } as const;
  let upload: Awaited<ReturnType<typeof receiveHistoryUpload>>;
  try {
    upload = await receiveHistoryUpload(request, fund.id);
  } catch (error) {
    const failure = formFailure(error);
    // The body could not be read: whether a script sent it is unknown, and either way the page shows the answer.
    return answerForm<Extra>({ enhanced: false }, { httpStatus: failure.httpStatus, toast: null, extra: { ...base, fields: failure.fields ?? { history: [failure.message] } } });
  }
  const enhanced = { enhanced: upload.fields._enhanced === "1" };
  if (upload.fields.intent !== HISTORY_INTENT) {
    await forgetUpload(upload.token);
    return answerForm<Extra>(enhanced, { httpStatus: 400, toast: { title: c.toasts.failed, description: requestMessages.unknownAction, variant: "destructive" } });
  }
  const names = [upload.names.history, upload.names.pnl].filter((n): n is string => !!n).map(shownFileName).join(" + ");
  try {
    const preview = await previewHistory(fund, decodeHistoryFiles(upload.bytes));
    if (!preview.ok) await forgetUpload(upload.token);
    return answerForm<Extra>(enhanced, {
      httpStatus: preview.ok ? 200 : 400,
      toast: null,
      extra: { ...base, preview: previewView(preview), names, ...(preview.ok ? { confirm: { upload: upload.token, hash: upload.hash, signature: preview.signature } } : {}) },
    });
  } catch (error) {
    await forgetUpload(upload.token);
    const failure = formFailure(error);
    return answerForm<Extra>(enhanced, { httpStatus: failure.httpStatus, toast: null, extra: { ...base, fields: failure.fields ?? { history: [failure.message] } } });
  }
}

async function answerConfirm(admin: LpUser, fund: Fund, request: Request) {
  const formData = await readFormData(request);
  const base = { intent: HISTORY_INTENT, step: "confirm" } as const;
  if (formText(formData, "intent") !== HISTORY_INTENT) {
    return answerForm<Extra>(formData, { httpStatus: 400, toast: { title: c.toasts.failed, description: requestMessages.unknownAction, variant: "destructive" } });
  }
  const token = formText(formData, "upload");
  const hash = formText(formData, "hash");
  const names = formText(formData, "names").slice(0, 250);
  try {
    const texts = decodeHistoryFiles(await readHistoryUpload(token, hash, fund.id));
    const done = await importHistory(admin, fund, texts, formText(formData, "signature").slice(0, 200));
    await forgetUpload(token);
    return redirectWithFlash(`${ADMIN_PATHS.funds}/${fund.slug}`, { toast: c.toasts.imported(fund.name, done) }, { status: 303 });
  } catch (error) {
    const toast = { title: c.toasts.failed, description: error instanceof Error ? error.message : "", variant: "destructive" as const };
    if (error instanceof RefusedHistory) {
      const { preview } = error;
      if (!preview.ok) await forgetUpload(token);
      return answerForm<Extra>(formData, {
        httpStatus: 400,
        toast,
        extra: { ...base, preview: previewView(preview), names, fields: { form: [error.message] }, ...(preview.ok ? { confirm: { upload: token, hash, signature: preview.signature } } : {}) },
      });
    }
    const failure = formFailure(error);
    return answerForm<Extra>(formData, {
      httpStatus: failure.httpStatus,
      toast: { ...toast, description: failure.message },
      extra: { ...base, fields: { form: [failure.message] } },
    });
  }
}
