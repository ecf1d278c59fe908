import { firm } from "./firm";

/**
 * Page copy of the investor and admin portals (SPEC.md §2, §8). The texts of
 * the account flows themselves (errors, toasts) are in ./accounts.ts.
 */

export const signInCopy = {
  investor: {
    title: "Investor Portal",
    intro: "Sign in to view and download fund documents.",
    description: `Sign in to the ${firm.name} investor portal.`,
  },
  admin: {
    title: "Admin Portal",
    intro: "Sign in with your administrator account.",
    description: `Sign in to the ${firm.name} admin portal.`,
  },
  email: "Email",
  password: "Password",
  submit: "Sign In",
  submitting: "Signing in...",
  forgotPassword: "Forgot password?",
  requestText: "Don't have access yet?",
  requestAccess: "Request access",
  fundText: "Interested in investing?",
  fundLink: "Learn about our funds",
  investorLoginText: "Investor or limited partner?",
  investorLoginLink: "Go to the Investor Portal sign-in",
  adminFallback: "Invalid credentials",
} as const;

export const registerCopy = {
  title: "Request Investor Access",
  intro: "Limited partners and approved investors can request access to the investor portal. An administrator reviews every request.",
  description: `Request access to the ${firm.name} investor portal.`,
  email: "Email",
  password: "Password",
  passwordHint: "At least 8 characters.",
  name: "Full name",
  company: "Company (optional)",
  submit: "Request Access",
  submitting: "Submitting...",
  haveAccount: "Already have access?",
  signIn: "Sign in",
} as const;

/** The link from the registration's e-mail, /lp/register/confirm?token=… (decision 028). */
export const registerConfirmCopy = {
  title: "Confirm your e-mail address",
  description: `Confirm the e-mail address of your ${firm.name} investor portal request.`,
  intro: "Enter the password you chose when you requested access, then confirm. Your request then goes to the admins for approval.",
  email: "Email",
  password: "Password",
  submit: "Confirm and send my request",
  submitting: "Confirming...",
  /** SPEC §8's registration text, shown once the request reaches the admins. */
  doneTitle: "Address confirmed",
  done: "Your request has been sent to the admins for approval. You'll be notified once approved.",
  signIn: "Go to sign-in",
  wrongPassword: "This is not the password of this request. Enter the one you chose when you last requested access, or request access again.",
  invalidTitle: "This link is no longer valid",
  invalid:
    "Confirmation links work once and for 7 days, and only the newest one works. The link may also be incomplete: copy the whole link from the e-mail. To get a new link, request access again or sign in with your password.",
  requestAgain: "Request access again",
} as const;

export const forgotPasswordCopy = {
  title: "Forgot your password?",
  intro: "Enter the e-mail address of your investor account and we will send you a link to choose a new password.",
  description: `Reset the password of your ${firm.name} investor portal account.`,
  email: "Email",
  submit: "Send reset link",
  submitting: "Sending...",
  failedTitle: "Request failed",
  failedFallback: "Something went wrong. Please try again.",
  backToLogin: "Back to sign-in",
} as const;

export const resetPasswordCopy = {
  title: "Choose a new password",
  intro: "Enter a new password for your investor account. You will be signed out everywhere and can then sign in with it.",
  description: `Choose a new password for your ${firm.name} investor portal account.`,
  invalidTitle: "Link invalid or expired",
  requestNew: "Request a new link",
  password: "New password",
  passwordHint: "At least 8 characters.",
  submit: "Set new password",
  submitting: "Saving...",
  failedTitle: "Password not changed",
  backToLogin: "Back to sign-in",
} as const;

export const portalCopy = {
  logout: "Logout",
  loadUserError: "Failed to load user information. Please try refreshing the page or logging in again.",
  signInAgain: "Sign in again",
} as const;

/** The investor portal's navigation (the workspace frame). */
export const lpNavCopy = {
  label: "Investor portal",
  pages: { home: "Home", capital: "Capital account", statements: "Statements", account: "Account" },
} as const;

export const lpDashboardCopy = {
  title: "Investor Dashboard",
  portal: "Investor Portal",
  welcome: (name: string) => `Welcome back, ${name}`,
  intro: "Fund documents, reports and updates for our limited partners.",
  documentsTitle: "Documents",
  documentsIntro: "Everything shared with you, by category.",
} as const;

/** The investor home's "New for you" (issue 23 §3): the newest documents addressed to the investor or to all. */
export const newForYouCopy = {
  title: "New for you",
  intro: "The latest documents shared with you. A dot marks those you have not opened yet.",
  unreadCount: (n: number) => `${n} unread`,
  allRead: "You're all caught up: you have opened each of these.",
  unread: "Unread",
  tableLabel: "New for you",
  sortedBy: "Newest first.",
  columns: { title: "Document", category: "Category", date: "Published", actions: "Actions" },
} as const;

export type ConfirmKind = "reject" | "revoke" | "approve";

export const adminCopy = {
  portal: "Admin Portal",
  badge: "Administrator",
  signedInAs: "Signed in as",
  lpSection: "Existing Investor/LP Management",
  pending: {
    title: "Pending Requests",
    empty: "No pending Investor/LP requests",
    error: "Failed to load pending Investor/LP requests. Please try refreshing the page.",
  },
  approved: {
    title: "Approved Investors",
    empty: "No approved investors yet",
    error: "Failed to load approved investors. Please try refreshing the page.",
    badge: "Approved",
  },
  rejected: {
    title: "Rejected Requests",
    empty: "No rejected requests",
    error: "Failed to load rejected requests. Please try refreshing the page.",
    badge: "Rejected",
  },
  total: (count: number) => `${count} total`,
  requested: "Requested",
  approve: "Approve",
  reject: "Reject",
  revoke: "Revoke access",
  cancel: "Cancel",
  confirmTitle: "Please confirm",
  confirm: {
    reject: (name: string) => `Reject ${name}'s access request?`,
    revoke: (name: string) => `Revoke ${name}'s access?`,
    approve: (name: string) => `Approve ${name}?`,
  } satisfies Record<ConfirmKind, (name: string) => string>,
  confirmGone: "This user is no longer in that list; nothing was changed.",
  footerNote: "Uploaded documents are immediately available to all authenticated Investor portal users.",
} as const;
