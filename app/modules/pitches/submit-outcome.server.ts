import type { SubmissionResult } from "@conform-to/react";
import { pitchToasts } from "~/content/process";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { requestMessages } from "~/content/validation";
import { isAppError } from "../http/app-error";
import { formFailure } from "../http/form-answer.server";
import { readFormData } from "../http/form-data.server";
import { enforceRateLimit } from "../http/rate-limit.server";
import { log } from "../logging/log.server";
import { ENHANCED_FIELD } from "../toast/enhanced";
import type { ToastInput } from "../toast/toast";
import { PITCH_DECK_FIELD, PITCH_HONEYPOT_FIELD, PITCH_STAMP_FIELD } from "./constants";
import { deckProblem, discardDeck, isMultipart, receivePitchPost, type PitchPost } from "./deck.server";
import { formStampProblem, type StampProblem } from "./form-stamp.server";
import { storePitch } from "./pitches.server";
import { PitchInput } from "./schema";

export type PitchOutcome = {
  status: "success" | "error";
  httpStatus: number;
  toast: ToastInput | null;
  result: SubmissionResult<string[]>;
  /** Seconds until a rate-limited visitor may try again (sent as Retry-After). */
  retryAfterSeconds?: number | undefined;
};

/** `read`: false when the body was refused before it was read (so whether it came from JavaScript is unknown). */
export type PitchFormAnswer = { outcome: PitchOutcome; enhanced: boolean; read: boolean };

/** Why a post is taken for a bot's (decision 026): the honeypot was filled, or the stamp does not hold. */
export type TrapReason = "honeypot" | StampProblem;

/** The spam traps of the form: any value at all in the honeypot (whitespace too), then the signed fill time. */
export function trapReason(fields: Record<string, string>): TrapReason | null {
  if ((fields[PITCH_HONEYPOT_FIELD] ?? "") !== "") return "honeypot";
  return formStampProblem(fields[PITCH_STAMP_FIELD]);
}

function failureOutcome(error: unknown, reply: (options: { formErrors: string[]; fieldErrors?: Record<string, string[]> }) => SubmissionResult<string[]>): PitchOutcome {
  const failure = formFailure(error, pitchToasts.failure.description);
  return {
    status: "error",
    httpStatus: failure.httpStatus,
    toast: { title: pitchToasts.failure.title, description: failure.message, variant: "destructive" },
    result: reply({ formErrors: [failure.message], ...(failure.fields ? { fieldErrors: failure.fields } : {}) }),
    retryAfterSeconds: failure.retryAfterSeconds,
  };
}

/** Refusals of a multipart post the form shows in place; any other failure to read it is an unreadable form. */
const KEPT_REFUSALS = new Set(["payload_too_large", "insufficient_storage", "rate_limited"]);

function unreadable(error: unknown): unknown {
  return isAppError(error) ? data({ error: requestMessages.formUnreadable }, { status: 400 }) : error;
}

/** The form's fields: urlencoded (no deck) or multipart (with an optional deck). */
async function readPitchForm(request: Request, clientAddress: string): Promise<PitchPost> {
  if (isMultipart(request)) return receivePitchPost(request, clientAddress);
  const form = await readFormData(request);
  const fields: Record<string, string> = {};
  for (const [name, value] of form) if (typeof value === "string" && !(name in fields)) fields[name] = value;
  return { fields, deck: null };
}

/**
 * The pitch form's action: read (a deck streams to disk), validate, rate-limit,
 * then the spam traps, then store and mail, and say what the founder sees. A
 * trapped post gets the very answer an accepted one gets, and nothing is kept
 * or sent; the log counts it with its reason (never the visitor's text).
 */
export async function handlePitchForm(request: Request, clientAddress: string): Promise<PitchFormAnswer> {
  let post: PitchPost;
  try {
    post = await readPitchForm(request, clientAddress);
  } catch (error) {
    // A body that is not a readable form answers as every page form's does (400, thrown).
    if (!isAppError(error) || !KEPT_REFUSALS.has(error.code)) throw unreadable(error);
    // A deck over 25 MB, a full disk, no deck's place left today (429): nothing was kept that could be shown again.
    const outcome = failureOutcome(error, ({ formErrors, fieldErrors }) => ({
      status: "error",
      initialValue: null,
      error: { "": formErrors, ...fieldErrors },
    }));
    return { outcome, enhanced: false, read: false };
  }
  const { fields, deck } = post;
  const enhanced = fields[ENHANCED_FIELD] === "1";
  const submission = parseWithZod(new URLSearchParams(Object.entries(fields)), { schema: PitchInput });
  const deckError = deck ? await deckProblem(deck) : null;
  if (submission.status !== "success" || deckError) {
    await discardDeck(deck);
    const fieldErrors: Record<string, string[]> = deckError ? { [PITCH_DECK_FIELD]: [deckError] } : {};
    const reply = submission.status === "success" ? submission.reply({ fieldErrors }) : submission.reply();
    const result: SubmissionResult<string[]> = { ...reply, error: { ...reply.error, ...fieldErrors } };
    return { enhanced, read: true, outcome: { status: "error", httpStatus: 400, toast: null, result } };
  }
  try {
    await enforceRateLimit("pitch", clientAddress);
    const trapped = trapReason(fields);
    if (trapped) {
      await discardDeck(deck);
      log("warn", "pitch: spam trap", { reason: trapped, withDeck: deck !== null });
    } else {
      await storePitch(submission.value, deck);
    }
    return {
      enhanced,
      read: true,
      outcome: {
        status: "success",
        httpStatus: 200,
        toast: { ...pitchToasts.success },
        result: submission.reply({ resetForm: true }),
      },
    };
  } catch (error) {
    await discardDeck(deck);
    return { enhanced, read: true, outcome: failureOutcome(error, (options) => submission.reply(options)) };
  }
}
