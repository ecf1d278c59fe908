/** The account page of every signed-in user (/lp/account, /admin/account). */
export const accountPageCopy = {
  title: "Account",
  description: "Sign-in security for your account.",
  intro: (email: string) => `Signed in as ${email}.`,
  link: "Account",
  backToDashboard: "Back to the dashboard",
  twoFactorTitle: "Two-factor authentication",
  password: {
    title: "Password",
    intro: "Changing your password signs out every other session.",
    current: "Current password",
    next: "New password",
    nextHint: "At least 8 characters.",
    submit: "Change password",
    done: "Your password has been changed. Every other session has been signed out.",
  },
  sessions: {
    title: "Active sessions",
    intro: "Where your account is signed in now. Signing a session out takes effect at its next request.",
    /** A session's times: 'MMM dd, yyyy HH:mm' in UTC. */
    at: (when: string) => `${when} UTC`,
    started: "Started",
    lastSeen: "Last seen",
    address: "IP address",
    device: "Browser and system",
    unknownDevice: "Unknown browser",
    unknownAddress: "Unknown",
    thisDevice: "This device",
    signOut: "Sign out",
    signOutLabel: (device: string, started: string) => `Sign out the session of ${device} started ${started}`,
    signOutOthers: "Sign out all other sessions",
    none: "No other session is signed in.",
    revoked: "The session has been signed out.",
    revokedOthers: (n: number) => (n === 1 ? "1 other session has been signed out." : `${n} other sessions have been signed out.`),
  },
} as const;

/** The account page's messages: sessions and the password change. */
export const accountPageMessages = {
  device: (browser: string, system: string) => `${browser} on ${system}`,
  useLogout: "To sign out of this device, use Logout.",
  sessionGone: "That session has already ended.",
  wrongPassword: "The current password is not correct.",
} as const;
