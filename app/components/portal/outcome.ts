import type { SubmissionResult } from "@conform-to/react";
import type { EnhancedAnswer } from "~/modules/http/enhanced-answer";

/**
 * What a portal form's action answers to an enhanced (JavaScript) submission
 * (the one form answer, EnhancedAnswer, with the page's own fields), and what
 * the form renders with when JavaScript is off (from the flash): the toast to
 * show, the Conform result (field and form errors; never the password), and
 * where to go next on success.
 */
export type FormOutcome = EnhancedAnswer<{
  result: SubmissionResult<string[]>;
  redirectTo?: string | undefined;
  /** Sign-in: the password was right but the registration's address is not confirmed yet (offer the link again). */
  confirmationRequired?: boolean | undefined;
}>;

/** The flash flag that says `confirmationRequired` after a post without JavaScript. */
export const CONFIRMATION_REQUIRED_FLAG = "confirmationRequired";
