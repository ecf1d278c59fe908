import { randomUUID } from "node:crypto";
import { ledgerMessages } from "~/content/capital";
import { ledgerPagesCopy as c } from "~/content/ledger-pages";
import { requestMessages } from "~/content/validation";
import { emptyLine, MAX_LEDGER_LINES, PREVIEW_INTENT, type LedgerFormAnswer, type LedgerFormValues, type LedgerKind, type LedgerLineValues } from "~/components/capital/ledger-form";
import type { IntentAnswer } from "~/components/kit/intent-form";
import { ADD_LINE_INTENT, removedLine } from "~/components/kit/repeatable-lines";
import { ledgerEntryPath } from "~/modules/admin/paths";
import { formatDecimal } from "~/modules/capital/money";
import type { Fund } from "~/modules/funds/funds.server";
import { AppError, isAppError, type FieldErrors } from "~/modules/http/app-error";
import { answerForm, formFailure } from "~/modules/http/form-answer.server";
import { formText, parseFormInput } from "~/modules/http/form-input.server";
import {
  createCallSchema,
  createDistributionSchema,
  deleteDraft,
  draftCall,
  draftDistribution,
  paymentSchema,
  publishEntry,
  readEntry,
  recordPayment,
  redraftEntry,
  type LedgerEntryRead,
} from "~/modules/ledger/ledger.server";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { redirectWithFlash } from "~/modules/toast/flash.server";
import { CALL_LINE_TYPES, DISTRIBUTION_LINE_TYPES } from "../../../db/schema";

/**
 * The ledger pages' forms (issue 24 §4–5), each one domain call shared with
 * the JSON routes (modules/ledger):
 * - a new entry's form and a draft's change: "Add a line" and a line's
 *   "Remove" answer the form again, as typed, with a line more or less (with
 *   or without JavaScript: no redirect); "Preview the allocation" drafts it
 *   (draftCall / draftDistribution / redraftEntry) and goes to the entry's
 *   page, or answers the form with a message under each refused field;
 * - an entry's page: publish, delete a draft, record a payment.
 */

/** More lines than this in a post are not read (the form never has more than MAX_LEDGER_LINES). */
const READ_LINES = 100;
const LINE_FIELD = /^lines\.(\d{1,3})\.(type|amount|description|recallable)$/;

export function lineTypesOf(kind: LedgerKind): readonly string[] {
  return kind === "call" ? CALL_LINE_TYPES : DISTRIBUTION_LINE_TYPES;
}

/** The form as posted: the dates, the entry it corrects, and the lines in the order of their indexes (as text, cut to sane lengths). */
export function readLedgerForm(formData: FormData): LedgerFormValues {
  const byIndex = new Map<number, LedgerLineValues>();
  for (const key of new Set(formData.keys())) {
    const match = LINE_FIELD.exec(key);
    if (!match) continue;
    const index = Number(match[1]);
    if (index >= READ_LINES) continue;
    const field = match[2] as keyof LedgerLineValues;
    const line = byIndex.get(index) ?? { type: "", amount: "", description: "", recallable: false };
    const value = formText(formData, key);
    if (field === "recallable") line.recallable = value !== "";
    else line[field] = value.slice(0, field === "description" ? 400 : 64);
    byIndex.set(index, line);
  }
  const text = (name: string, max: number) => formText(formData, name).trim().slice(0, max);
  return {
    noticeDate: text("noticeDate", 32),
    dueDate: text("dueDate", 32),
    paymentDate: text("paymentDate", 32),
    correctionOf: text("correctionOf", 64),
    lines: [...byIndex].sort(([a], [b]) => a - b).map(([, line]) => line),
  };
}

/** A line nothing was typed into (left out when the entry is drafted, unless every line is). */
const isBlank = (line: LedgerLineValues) => line.amount.trim() === "" && line.description.trim() === "" && !line.recallable;

/** The form's answer that stays on the page: the form as it now is, drawn again (a fresh nonce). */
function stay(formData: FormData, values: LedgerFormValues, answer: { httpStatus?: number; fields?: FieldErrors; focus?: number; toast?: IntentAnswer["toast"]; intent: string }) {
  return answerForm<Omit<LedgerFormAnswer, "status" | "toast">>(formData, {
    httpStatus: answer.httpStatus ?? 200,
    toast: answer.toast ?? null,
    extra: { intent: answer.intent, form: values, nonce: randomUUID(), ...(answer.fields ? { fields: answer.fields } : {}), ...(answer.focus === undefined ? {} : { focus: answer.focus }) },
  });
}

/** Draft (or change the draft) from the lines that have something in them; a refusal's messages under the lines as shown. */
function draft(admin: LpUser, target: { kind: LedgerKind; fund: Fund; entryId?: string | undefined }, values: LedgerFormValues): LedgerEntryRead {
  const numbered = values.lines.map((line, index) => ({ line, index }));
  const kept = numbered.filter(({ line }) => !isBlank(line));
  const used = kept.length ? kept : numbered;
  const correctionOf = values.correctionOf || undefined;
  try {
    if (target.kind === "call") {
      const input = parseFormInput(createCallSchema, {
        fund: target.fund.slug,
        noticeDate: values.noticeDate,
        dueDate: values.dueDate,
        lines: used.map(({ line }) => ({ type: line.type, amount: line.amount.trim(), ...(line.description.trim() ? { description: line.description } : {}) })),
        correctionOf,
      });
      return target.entryId ? redraftEntry(admin, target.entryId, { kind: "call", input }) : draftCall(admin, input);
    }
    const input = parseFormInput(createDistributionSchema, {
      fund: target.fund.slug,
      paymentDate: values.paymentDate,
      lines: used.map(({ line }) => ({ type: line.type, amount: line.amount.trim(), recallable: line.recallable, ...(line.description.trim() ? { description: line.description } : {}) })),
      correctionOf,
    });
    return target.entryId ? redraftEntry(admin, target.entryId, { kind: "distribution", input }) : draftDistribution(admin, input);
  } catch (error) {
    // `lines.1.amount` of the lines drafted is the shown form's `lines.{its index}.amount`.
    if (!isAppError(error) || !error.options.fields) throw error;
    const shown: FieldErrors = {};
    for (const [key, messages] of Object.entries(error.options.fields)) {
      const match = /^lines\.(\d+)\.(.+)$/.exec(key);
      const index = match ? used[Number(match[1])]?.index : undefined;
      shown[match && index !== undefined ? `lines.${index}.${match[2]}` : key] = messages;
    }
    throw new AppError(error.code, error.message, { ...error.options, fields: shown });
  }
}

/**
 * Answer a new entry's form (`entryId` absent) or a draft's change. `intent`:
 * add-line, remove-line-{index}, or preview (also when none is given: Enter).
 */
export async function answerLedgerForm(admin: LpUser, target: { kind: LedgerKind; fund: Fund; entryId?: string | undefined }, formData: FormData) {
  const intent = formText(formData, "intent") || PREVIEW_INTENT;
  const values = readLedgerForm(formData);
  if (intent === ADD_LINE_INTENT) {
    if (values.lines.length >= MAX_LEDGER_LINES) return stay(formData, values, { intent, httpStatus: 400, fields: { lines: [ledgerMessages.tooManyLines] } });
    values.lines.push(emptyLine(lineTypesOf(target.kind)[0]!));
    return stay(formData, values, { intent, focus: values.lines.length - 1 });
  }
  const removed = removedLine(intent);
  if (removed !== null) {
    if (removed < values.lines.length && values.lines.length > 1) values.lines.splice(removed, 1);
    return stay(formData, values, { intent: "remove-line", focus: Math.min(removed, values.lines.length - 1) });
  }
  if (intent !== PREVIEW_INTENT) {
    return stay(formData, values, { intent, httpStatus: 400, fields: { form: [requestMessages.unknownAction] } });
  }
  try {
    const entry = draft(admin, target, values);
    return redirectWithFlash(ledgerEntryPath(entry.id), { toast: target.entryId ? c.toasts.redrafted : c.toasts.drafted }, { status: 303 });
  } catch (error) {
    const failure = formFailure(error);
    return stay(formData, values, {
      intent,
      httpStatus: failure.httpStatus,
      fields: failure.fields ?? { form: [failure.message] },
      toast: { title: c.toasts.failed, description: failure.message, variant: "destructive" },
    });
  }
}

export const LEDGER_ENTRY_INTENTS = ["publish", "delete-draft", "record-payment"] as const;
export type LedgerEntryIntent = (typeof LEDGER_ENTRY_INTENTS)[number];

/** What an entry page's form gets back (enhanced), or the page renders after a refused plain post. */
export type LedgerEntryAnswer = IntentAnswer & { intent?: LedgerEntryIntent };

/** Answer one of an entry page's forms: publish, delete the draft (then the fund's page), record a payment (a row's: its entity). */
export async function answerLedgerEntryIntent(admin: LpUser, entry: Pick<LedgerEntryRead, "id" | "kind" | "fund" | "currency">, formData: FormData) {
  const page = ledgerEntryPath(entry.id);
  const intent = LEDGER_ENTRY_INTENTS.find((name) => name === formData.get("intent"));
  type Extra = Omit<LedgerEntryAnswer, "status" | "toast">;
  if (!intent) {
    return answerForm<Extra>(formData, { httpStatus: 400, toast: { title: c.toasts.failed, description: requestMessages.unknownAction, variant: "destructive" } });
  }
  const formKey = formText(formData, "entityId").slice(0, 100) || undefined;
  try {
    switch (intent) {
      case "publish": {
        const { changed } = publishEntry(admin, entry.id, entry.kind);
        const read = readEntry(entry.id, undefined, entry.kind);
        const toast = changed ? c.toasts.published(read.reference!, read.allocations.length) : c.toasts.alreadyPublished(read.reference!);
        return answerForm<Extra>(formData, { httpStatus: 200, toast, redirectTo: page, extra: { intent } });
      }
      case "delete-draft": {
        deleteDraft(admin, entry.id, entry.kind);
        return redirectWithFlash(`/admin/funds/${entry.fund}`, { toast: c.toasts.deleted }, { status: 303 });
      }
      case "record-payment": {
        const input = parseFormInput(paymentSchema, { entityId: formText(formData, "entityId"), amount: formText(formData, "amount").trim(), receivedOn: formText(formData, "receivedOn").trim() });
        const payment = recordPayment(admin, entry.id, input);
        const name = readEntry(entry.id, undefined, "call").allocations.find((a) => a.entityId === payment.entityId)?.entityName ?? "";
        const money = (amount: string) => formatDecimal(amount, entry.currency);
        return answerForm<Extra>(formData, {
          httpStatus: 200,
          toast: c.toasts.paymentRecorded(money(payment.amount), name, money(payment.outstanding)),
          redirectTo: page,
          extra: { intent, formKey },
        });
      }
    }
  } catch (error) {
    const failure = formFailure(error);
    const values = Object.fromEntries(["amount", "receivedOn"].map((name) => [name, formText(formData, name).slice(0, 64)]).filter(([, value]) => value !== ""));
    return answerForm<Extra>(formData, {
      httpStatus: failure.httpStatus,
      toast: { title: c.toasts.failed, description: failure.message, variant: "destructive" },
      extra: { intent, formKey, fields: failure.fields ?? { form: [failure.message] }, values },
    });
  }
}
