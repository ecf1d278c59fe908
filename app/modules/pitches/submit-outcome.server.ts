import type { SubmissionResult } from "@conform-to/react";
import { pitchToasts } from "~/content/process";
import { parseWithZod } from "@conform-to/zod/v4";
import { formFailure } from "../http/form-answer.server";
import { enforceRateLimit } from "../http/rate-limit.server";
import type { ToastInput } from "../toast/toast";
import { submitPitch } from "./pitches.server";
import { PitchInput } from "./schema";

export type PitchOutcome = {
  status: "success" | "error";
  httpStatus: number;
  toast: ToastInput | null;
  result: SubmissionResult<string[]>;
  /** Seconds until a rate-limited visitor may try again (sent as Retry-After). */
  retryAfterSeconds?: number | undefined;
};

/** The pitch form's action: validate, rate-limit, store and mail, and say what the founder sees. */
export async function handlePitchForm(formData: FormData, clientAddress: string): Promise<PitchOutcome> {
  const submission = parseWithZod(formData, { schema: PitchInput });
  if (submission.status !== "success") {
    return { status: "error", httpStatus: 400, toast: null, result: submission.reply() };
  }
  try {
    await enforceRateLimit("pitch", clientAddress);
    submitPitch(submission.value);
    return {
      status: "success",
      httpStatus: 200,
      toast: { ...pitchToasts.success },
      result: submission.reply({ resetForm: true }),
    };
  } catch (error) {
    const failure = formFailure(error, pitchToasts.failure.description);
    return {
      status: "error",
      httpStatus: failure.httpStatus,
      toast: { title: pitchToasts.failure.title, description: failure.message, variant: "destructive" },
      result: submission.reply({ formErrors: [failure.message] }),
      retryAfterSeconds: failure.retryAfterSeconds,
    };
  }
}
