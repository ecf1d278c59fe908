import { z } from "~/modules/validation/z";
import { documentMailCopy } from "~/content/document-mail";

/**
 * New-document e-mails: the investor's preference (lp_users.document_mail) and
 * the inputs of the account page's panel and the unsubscribe page. Zod only,
 * shared with the browser.
 */
export const DOCUMENT_MAIL_PREFERENCES = ["each", "weekly", "none"] as const;
export type DocumentMailPreference = (typeof DOCUMENT_MAIL_PREFERENCES)[number];

/** The account page's form field. */
export const DocumentMailInput = z.object({
  documentMail: z.enum(DOCUMENT_MAIL_PREFERENCES, { error: documentMailCopy.invalid }),
});
export type DocumentMailInput = z.infer<typeof DocumentMailInput>;

/** The body of an RFC 8058 one-click unsubscribe, sent by mail providers and by the page's button alike (the newsletter's link too). */
export const OneClickUnsubscribe = z.object({ "List-Unsubscribe": z.literal("One-Click") });
