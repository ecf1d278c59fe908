import type { SubmissionResult } from "@conform-to/react";
import type { ToastInput } from "~/modules/toast/toast";

/**
 * What a portal form's action answers to an enhanced (JavaScript) submission,
 * and what it renders with when JavaScript is off: the toast to show, the
 * Conform result (field and form errors; never the password), and where to go
 * next on success.
 */
export type FormOutcome = {
  status: "success" | "error";
  toast: ToastInput | null;
  result: SubmissionResult<string[]>;
  redirectTo?: string | undefined;
  /** Sign-in: the password was right but the registration's address is not confirmed yet (offer the link again). */
  confirmationRequired?: boolean | undefined;
};
