import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { newsletterCopy } from "~/content/newsletter";
import { isAppError } from "../http/app-error";
import { enforceRateLimit } from "../http/rate-limit.server";
import type { ToastInput } from "../toast/toast";
import { subscribeToNewsletter } from "./newsletter.server";
import { NewsletterInput } from "./schema";
import { logError } from "../logging/log.server";

export type NewsletterOutcome = {
  status: "success" | "error";
  httpStatus: number;
  toast: ToastInput | null;
  result: SubmissionResult<string[]>;
  /** Seconds until a rate-limited visitor may try again (sent as Retry-After). */
  retryAfterSeconds?: number | undefined;
};

/** The newsletter form's action: validate, rate-limit, subscribe, and say what the user sees. */
export async function handleNewsletterForm(formData: FormData, clientAddress: string): Promise<NewsletterOutcome> {
  const submission = parseWithZod(formData, { schema: NewsletterInput });
  if (submission.status !== "success") {
    return { status: "error", httpStatus: 400, toast: null, result: submission.reply() };
  }
  try {
    await enforceRateLimit("newsletter", clientAddress);
    subscribeToNewsletter(submission.value);
    return {
      status: "success",
      httpStatus: 200,
      toast: { ...newsletterCopy.toastSuccess },
      result: submission.reply({ resetForm: true }),
    };
  } catch (error) {
    if (isAppError(error) && error.code === "conflict") {
      return {
        status: "error",
        httpStatus: 409,
        toast: { ...newsletterCopy.toastDuplicate, variant: "destructive" },
        result: submission.reply({ fieldErrors: { email: [newsletterCopy.toastDuplicate.description] } }),
      };
    }
    if (isAppError(error) && error.code === "rate_limited") {
      return {
        status: "error",
        httpStatus: 429,
        toast: { title: "Error", description: error.message, variant: "destructive" },
        result: submission.reply({ formErrors: [error.message] }),
        retryAfterSeconds: error.options.retryAfterSeconds,
      };
    }
    logError(error);
    return {
      status: "error",
      httpStatus: 500,
      toast: { ...newsletterCopy.toastFailure, variant: "destructive" },
      result: submission.reply({ formErrors: [newsletterCopy.toastFailure.description] }),
    };
  }
}
