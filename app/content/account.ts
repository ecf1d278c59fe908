/** The account page of every signed-in user (/lp/account, /admin/account). */
export const accountPageCopy = {
  title: "Your account",
  description: "Sign-in security for your account.",
  intro: (email: string) => `Signed in as ${email}.`,
  link: "Account",
  backToDashboard: "Back to the dashboard",
  twoFactorTitle: "Two-factor authentication",
} as const;
