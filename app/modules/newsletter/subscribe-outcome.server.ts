import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { newsletterCopy } from "~/content/newsletter";
import { isAppError } from "../http/app-error";
import { formFailure } from "../http/form-answer.server";
import { enforceRateLimit } from "../http/rate-limit.server";
import type { ToastInput } from "../toast/toast";
import { consentPageOf, subscribeToNewsletter } from "./newsletter.server";
import { NewsletterInput } from "./schema";

export type NewsletterOutcome = {
  status: "success" | "error";
  httpStatus: number;
  toast: ToastInput | null;
  result: SubmissionResult<string[]>;
  /** Seconds until a rate-limited visitor may try again (sent as Retry-After). */
  retryAfterSeconds?: number | undefined;
};

/**
 * The newsletter form's action: validate, rate-limit, subscribe, and say what
 * the user sees. A new, pending or unsubscribed address gets the same answer
 * (check your inbox); only a confirmed one is SPEC's duplicate. The form's
 * `redirectTo` (the page it sits on) is kept as the sign-up page.
 */
export async function handleNewsletterForm(formData: FormData, clientAddress: string): Promise<NewsletterOutcome> {
  const submission = parseWithZod(formData, { schema: NewsletterInput });
  if (submission.status !== "success") {
    return { status: "error", httpStatus: 400, toast: null, result: submission.reply() };
  }
  try {
    await enforceRateLimit("newsletter", clientAddress);
    subscribeToNewsletter(submission.value, consentPageOf(formData.get("redirectTo")));
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
    const failure = formFailure(error, newsletterCopy.toastFailure.description);
    return {
      status: "error",
      httpStatus: failure.httpStatus,
      toast: { title: newsletterCopy.toastFailure.title, description: failure.message, variant: "destructive" },
      result: submission.reply({ formErrors: [failure.message] }),
      retryAfterSeconds: failure.retryAfterSeconds,
    };
  }
}
