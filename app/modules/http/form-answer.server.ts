import { randomUUID } from "node:crypto";
import type { SubmissionResult } from "@conform-to/react";
import { data, redirect } from "react-router";
import { requestMessages } from "~/content/validation";
import { logError } from "../logging/log.server";
import { isEnhanced } from "../toast/enhanced";
import { redirectWithFlash } from "../toast/flash.server";
import type { FormFlash, ToastInput } from "../toast/toast";
import { isAppError, type FieldErrors } from "./app-error";
import type { EnhancedAnswer } from "./enhanced-answer";

/** A refused or failed operation, as a form shows it. */
export type FormFailure = {
  httpStatus: number;
  message: string;
  fields?: FieldErrors | undefined;
  /** The submitted text values to show again (never secrets). */
  values?: Record<string, string> | undefined;
  retryAfterSeconds?: number | undefined;
};

/**
 * An error as a form shows it: an AppError keeps its status, message, field
 * errors and Retry-After; anything else is logged and reads as `fallback` with 500.
 */
export function formFailure(error: unknown, fallback: string = requestMessages.formFailed): FormFailure {
  if (isAppError(error)) {
    return {
      httpStatus: error.status,
      message: error.message,
      fields: error.options.fields,
      values: error.options.values,
      retryAfterSeconds: error.options.retryAfterSeconds,
    };
  }
  logError(error);
  return { httpStatus: 500, message: fallback };
}

/** Response headers of an answer: Retry-After when the visitor must wait. */
export function retryAfterHeaders(retryAfterSeconds: number | undefined): HeadersInit | undefined {
  return retryAfterSeconds === undefined ? undefined : { "Retry-After": String(retryAfterSeconds) };
}

/** What an enhanced (JavaScript) form receives: success or error, the toast to show, and the page's own fields. */
export type { EnhancedAnswer } from "./enhanced-answer";

export type FormAnswer<Extra extends object = object> = {
  /** 200 for success; a failure's own status otherwise. */
  httpStatus: number;
  toast: ToastInput | null;
  /**
   * Where a post without JavaScript goes next (Post/Redirect/Get, 303) with the
   * toast and `form` as a flash. Without it the page renders the answer itself
   * (as Conform forms do with their field errors).
   */
  redirectTo?: string | undefined;
  /** The form's outcome carried to the next page without JavaScript. */
  form?: FormFlash | undefined;
  retryAfterSeconds?: number | undefined;
  /** Fields of the page's own for the enhanced answer (a Conform result, a redirect target). */
  extra?: Extra | undefined;
  /** Further response headers of either answer (a sign-in's session cookie). */
  headers?: HeadersInit | undefined;
};

/**
 * The one way a page action answers a form. Enhanced (`_enhanced=1`): the data
 * with its status, a toast with a fresh id (so a remounted form never shows it
 * twice) and Retry-After. Without JavaScript: a redirect with a flash, or,
 * without `redirectTo`, the same data for the page to render.
 */
export async function answerForm<Extra extends object = object>(formData: FormData | { enhanced: boolean }, answer: FormAnswer<Extra>) {
  const headers = mergeHeaders(retryAfterHeaders(answer.retryAfterSeconds), answer.headers);
  const enhanced = formData instanceof FormData ? isEnhanced(formData) : formData.enhanced;
  if (!enhanced && answer.redirectTo !== undefined) {
    const flash = { ...(answer.toast ? { toast: answer.toast } : {}), ...(answer.form ? { form: answer.form } : {}) };
    // Nothing to carry (an admin's sign-in): no flash cookie either.
    if (!answer.toast && !answer.form) return redirect(answer.redirectTo, headers ? { status: 303, headers } : 303);
    return redirectWithFlash(answer.redirectTo, flash, headers ? { status: 303, headers } : { status: 303 });
  }
  const body = {
    ...(answer.extra ?? ({} as Extra)),
    status: answer.httpStatus < 400 ? "success" : "error",
    toast: answer.toast ? { ...answer.toast, id: randomUUID() } : null,
  } as EnhancedAnswer<Extra>;
  return data(body, { status: answer.httpStatus, ...(headers ? { headers } : {}) });
}

function mergeHeaders(...all: (HeadersInit | undefined)[]): Headers | undefined {
  const given = all.filter((h): h is HeadersInit => h !== undefined);
  if (given.length === 0) return undefined;
  const headers = new Headers();
  for (const init of given) new Headers(init).forEach((value, name) => headers.append(name, value));
  return headers;
}

/** At most this many bytes of typed values ride in the flash cookie (browsers drop a cookie over 4 KB); longer ones are left out. */
export const FLASH_VALUES_BUDGET = 1800;

/**
 * A Conform result as the flash carries it to the page without JavaScript:
 * the form's message (its form-level error), the field errors, and the typed
 * text values of the fields named in `keep` only (never a secret: name no
 * password there), within FLASH_VALUES_BUDGET.
 */
export function conformFlash(
  formId: string,
  result: SubmissionResult<string[]>,
  options: { status: FormFlash["status"]; keep: readonly string[]; flags?: string[] | undefined },
): FormFlash {
  const { "": formErrors, ...fieldErrors } = result.error ?? {};
  const fields = Object.fromEntries(Object.entries(fieldErrors).filter((entry): entry is [string, string[]] => Array.isArray(entry[1])));
  const values: Record<string, string> = {};
  let room = FLASH_VALUES_BUDGET;
  for (const name of options.keep) {
    const value = result.initialValue?.[name];
    if (typeof value !== "string" || value === "") continue;
    const size = Buffer.byteLength(value) + name.length + 6;
    if (size > room) continue;
    values[name] = value;
    room -= size;
  }
  return {
    formId,
    status: options.status,
    ...(formErrors?.[0] ? { message: formErrors[0] } : {}),
    ...(Object.keys(fields).length ? { fieldErrors: fields } : {}),
    ...(Object.keys(values).length ? { values } : {}),
    ...(options.flags?.length ? { flags: options.flags } : {}),
  };
}

/**
 * A Conform form's answer through answerForm: enhanced, the `result` (and
 * `extra`) with its status; without JavaScript a 303 to `redirectTo` whose
 * flash carries the toast and the form's outcome (conformFlash), which the
 * page renders in place. No `redirectTo`: the page renders the data itself.
 */
export function answerConform<Extra extends object = object>(
  formData: FormData | { enhanced: boolean },
  answer: {
    formId: string;
    httpStatus: number;
    toast: ToastInput | null;
    result: SubmissionResult<string[]>;
    redirectTo?: string | undefined;
    /** The fields whose typed values come back after the redirect (never a secret). */
    keep: readonly string[];
    retryAfterSeconds?: number | undefined;
    headers?: HeadersInit | undefined;
    flags?: string[] | undefined;
    /** Whether a success leaves its outcome in the flash (the form shows a thank-you); a sign-in, which moves on, does not. */
    flashSuccess?: boolean | undefined;
    extra?: Extra | undefined;
  },
) {
  const status = answer.httpStatus < 400 ? "success" : "error";
  const form =
    status === "success" && answer.flashSuccess === false
      ? undefined
      : conformFlash(answer.formId, answer.result, { status, keep: status === "error" ? answer.keep : [], flags: answer.flags });
  return answerForm(formData, {
    httpStatus: answer.httpStatus,
    toast: answer.toast,
    redirectTo: answer.redirectTo,
    retryAfterSeconds: answer.retryAfterSeconds,
    headers: answer.headers,
    form,
    extra: { ...(answer.extra ?? ({} as Extra)), result: answer.result },
  });
}

/** A failure's answer: a destructive toast titled `title` with the failure's message. */
export function failureAnswer(
  failure: FormFailure,
  options: { title: string; redirectTo?: string | undefined; formId?: string | undefined },
): FormAnswer {
  return {
    httpStatus: failure.httpStatus,
    toast: { title: options.title, description: failure.message, variant: "destructive" },
    redirectTo: options.redirectTo,
    retryAfterSeconds: failure.retryAfterSeconds,
    form: options.formId
      ? { formId: options.formId, status: "error", message: failure.message, fieldErrors: failure.fields, values: failure.values }
      : undefined,
  };
}

/**
 * Run one domain operation for a form and answer it: `success` says what the
 * user sees when it worked; any error becomes `failureTitle`'s toast with the
 * error's message (see formFailure). Both go back to `redirectTo` without
 * JavaScript unless `success` names another place.
 */
export async function runFormAction<T>(
  formData: FormData,
  run: () => T | Promise<T>,
  options: {
    success: (value: T) => { toast: ToastInput; redirectTo?: string };
    failureTitle: string;
    redirectTo: string;
    /** Set when a plain form shows its outcome (message, field errors) after the redirect. */
    formId?: string;
  },
) {
  let answer: FormAnswer;
  try {
    const value = await run();
    const success = options.success(value);
    answer = {
      httpStatus: 200,
      toast: success.toast,
      redirectTo: success.redirectTo ?? options.redirectTo,
      form: options.formId ? { formId: options.formId, status: "success" } : undefined,
    };
  } catch (error) {
    answer = failureAnswer(formFailure(error), { title: options.failureTitle, redirectTo: options.redirectTo, formId: options.formId });
  }
  return answerForm(formData, answer);
}

/**
 * A Conform form's refusal, answered the same with and without JavaScript:
 * the page renders the message under the form (`reply` builds the Conform
 * result, leaving out secret fields) and as a toast titled `title`, with the
 * failure's status and Retry-After.
 */
export function conformFailure<Result>(
  formData: FormData,
  error: unknown,
  options: { title: string; fallback?: string; reply: (formErrors: string[]) => Result },
) {
  const failure = formFailure(error, options.fallback);
  return answerForm(formData, {
    httpStatus: failure.httpStatus,
    toast: { title: options.title, description: failure.message, variant: "destructive" },
    retryAfterSeconds: failure.retryAfterSeconds,
    extra: { result: options.reply([failure.message]) },
  });
}
