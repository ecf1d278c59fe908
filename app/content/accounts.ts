import { firm } from "./firm";

/** Texts of the investor and admin account flows (SPEC.md §2, §4, §8). */
export const accountMessages = {
  invalidCredentials: "Invalid email or password",
  pending:
    "Your access request is still waiting for approval. We will e-mail you as soon as an administrator approves it.",
  rejected: `Your access request was not approved. If you think this is a mistake, please contact us at ${firm.email}.`,
  adminOnly: "Admin access required. This login is for administrators only.",
  ownStatus: "You cannot change your own status.",
  adminStatus: "An administrator's access cannot be changed here.",
  userNotFound: "User not found",
  resetInvalid: "This reset link is invalid or has expired. Please request a new one.",
  tooManyLogins: "Too many sign-in attempts. Please wait a few minutes and try again.",
  tooManyRegistrations: "Too many registration attempts. Please try again later.",
  tooManyResets: "Too many password reset requests. Please try again later.",
  /**
   * Shown under the pending answer when the right password belongs to a registration whose
   * address is not confirmed yet (decision 028), with a button that mails the link again.
   */
  confirmAddress: "Confirm your address: we sent you a link.",
  resendConfirmation: "Send the link again",
  resendingConfirmation: "Sending...",
  tooManyConfirmations: "Too many attempts. Please try again later.",
} as const;

export const accountToasts = {
  /** SPEC §8's title; the text says a link was mailed first (the address must be confirmed; decision 010). */
  registered: {
    title: "Registration Submitted",
    description:
      "Almost done: we've sent you an e-mail with a link to confirm your address. Your request goes to the admins once you confirm it.",
    duration: 8000,
  },
  /** The answer to 'Send the link again', whether or not anything was sent. */
  confirmationResent: {
    title: "Check Your Email",
    description: "If a request for this address is waiting for its confirmation, we've sent it a new link. It expires in 7 days.",
  },
  registrationFailed: { title: "Registration Failed", fallback: "An error occurred during registration" },
  loginSuccess: { title: "Login successful", description: "Welcome back!" },
  loginFailed: { title: "Login failed" },
  approved: (name: string) => ({ title: "User Approved", description: `${name} has been approved. Confirmation email sent.` }),
  rejected: (name: string) => ({ title: "User Rejected", description: `${name}'s access request has been rejected.` }),
  updateFailed: { title: "Update failed" },
  resetRequested: {
    title: "Check Your Email",
    description: "If an account exists for that address, we've sent a link to reset your password. It expires in 1 hour.",
  },
  passwordChanged: { title: "Password updated", description: "Your password has been changed. Please sign in." },
  loggedOut: { title: "Signed out", description: "You have been signed out." },
} as const;
