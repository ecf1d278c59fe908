import { firm } from "./firm";

/** Two-factor sign-in: the code step, enrolment, recovery codes, and their messages. */
export const twoFactorCopy = {
  issuer: firm.name,
  code: {
    title: "Two-factor authentication",
    intro: "Enter the 6-digit code from your authenticator app, or one of your recovery codes.",
    label: "Code",
    hint: "6 digits, or a recovery code such as abcde-fghjk",
    submit: "Verify",
    submitting: "Verifying...",
    expired: "Your sign-in has expired. Please sign in again.",
    startAgain: "Sign in again",
  },
  enrol: {
    title: "Set up two-factor authentication",
    intro: "Scan the QR code with an authenticator app (1Password, Google Authenticator, Authy…), then enter the 6-digit code it shows.",
    qrLabel: "QR code to add this account to an authenticator app",
    required: "The admin portal requires two-factor authentication. Set it up to continue.",
    continue: "Continue to the admin dashboard",
    manual: "Can't scan it? Enter this key in the app instead:",
    codeLabel: "6-digit code from the app",
    submit: "Turn on two-factor",
    submitting: "Turning on...",
    already: "Two-factor authentication is already on for this account.",
  },
  recovery: {
    title: "Your recovery codes",
    intro:
      "Each code signs you in once if you lose your authenticator. They are shown only now: download or copy them and keep them somewhere safe.",
    download: "Download as .txt",
    fileName: "lumen-ridge-recovery-codes.txt",
    fileHeader: (email: string) => `${firm.name} recovery codes for ${email}`,
    done: "I have saved my codes",
  },
  toasts: {
    enabled: { title: "Two-factor is on", description: "You will be asked for a code at every sign-in." },
  },
  account: {
    on: "Two-factor authentication is on.",
    off: "Two-factor authentication is off. Turn it on to protect your account with a code from your phone.",
    codesLeft: (n: number) => (n === 1 ? "1 recovery code left." : `${n} recovery codes left.`),
    regenerateTitle: "New recovery codes",
    regenerateIntro: "Making new codes replaces all of your current ones.",
    regenerateCode: "Current 6-digit code from the app",
    regenerate: "Make new recovery codes",
    disableTitle: "Turn off two-factor",
    disableIntro: "You will sign in with your password alone.",
    disableCode: "Current code from the app, or a recovery code",
    disable: "Turn off two-factor",
    adminsKeepIt: "Admins keep two-factor authentication on: it protects the admin portal.",
    enabled: "Two-factor authentication is on. Save your recovery codes now.",
    regenerated: "New recovery codes are ready. Your old codes no longer work.",
    disabled: "Two-factor authentication is off.",
  },
} as const;

export const twoFactorMessages = {
  codeRequired: "Two-factor code required",
  invalidCode: "Invalid two-factor code",
  enterCode: "Enter the 6-digit code or a recovery code.",
  notEnrolling: "Start the setup again: open this page to get a new QR code.",
  alreadyOn: "Two-factor authentication is already on for this account.",
  notOn: "Two-factor authentication is not on for this account.",
  adminsKeepIt: "Admins cannot turn two-factor authentication off.",
  enrolmentRequired: "Two-factor authentication must be set up before using the admin portal.",
  totpSecretInvalid: "must be a base32 secret (A–Z and 2–7) of at least 16 characters",
} as const;
