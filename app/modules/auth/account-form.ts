/** The forms of the account page, and what each gets back (with and without JavaScript alike). */
export const ACCOUNT_INTENTS = ["enable-2fa", "disable-2fa", "regenerate-codes", "change-password", "revoke-session", "revoke-others", "document-mail"] as const;
export type AccountIntent = (typeof ACCOUNT_INTENTS)[number];

export type AccountAnswer = {
  intent: AccountIntent;
  status: "success" | "error";
  message: string;
  fieldErrors?: Record<string, string[]> | undefined;
  /** New recovery codes: shown this once, never stored in clear. */
  codes?: string[] | undefined;
};
