import { getEnv } from "../config/env.server";
import { idFromSignedToken, signedId } from "../mail/signed-id.server";
import { UNSUBSCRIBE_PATH } from "./paths";

/**
 * The unsubscribe token in every new-document e-mail: per investor, no expiry
 * (a mail read months later must still work), nothing stored. A signed id
 * (mail/signed-id.server.ts) bound to this purpose; changing SESSION_SECRET
 * retires every link (the page then points to the account page). It can only
 * switch that investor's new-document e-mails off.
 */
const PURPOSE = "document-mail-unsubscribe";

export function unsubscribeToken(userId: string): string {
  return signedId(PURPOSE, userId);
}

/** The link of List-Unsubscribe and of the mail's text. */
export function unsubscribeUrl(userId: string): string {
  return `${getEnv().APP_URL}${UNSUBSCRIBE_PATH}?token=${unsubscribeToken(userId)}`;
}

/** The investor a token speaks for, or null for anything this server did not sign (compared in constant time). */
export function userIdFromUnsubscribeToken(token: unknown): string | null {
  return idFromSignedToken(PURPOSE, token);
}
