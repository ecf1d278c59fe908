import type { EnhancedAnswer } from "../http/enhanced-answer";

/** The forms of the account page, and what each gets back (as data, or after a redirect from the flash: the same fields). */
export const ACCOUNT_INTENTS = ["enable-2fa", "disable-2fa", "regenerate-codes", "change-password", "revoke-session", "revoke-others", "document-mail"] as const;
export type AccountIntent = (typeof ACCOUNT_INTENTS)[number];

/** The page's answer (answerForm's one form answer, EnhancedAnswer, with the account page's fields). */
export type AccountAnswer = EnhancedAnswer<{
  intent: AccountIntent;
  message: string;
  fieldErrors?: Record<string, string[]> | undefined;
  /** New recovery codes: shown this once, never stored in clear. */
  codes?: string[] | undefined;
}>;
