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
} as const;

export const accountToasts = {
  registered: {
    title: "Registration Submitted",
    description: "Your request has been sent to the admins for approval. You'll be notified once approved.",
    duration: 8000,
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
