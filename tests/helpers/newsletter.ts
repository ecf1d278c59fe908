import { confirmSubscription, subscribeToNewsletter } from "~/modules/newsletter/newsletter.server";
import { NewsletterInput } from "~/modules/newsletter/schema";
import { mailsTo } from "./users";

/** The token of the newest confirmation link mailed to an address (from the outbox, as the recipient reads it). */
export function latestConfirmToken(email: string): string {
  const mail = mailsTo(email)
    .filter((m) => m.subject.startsWith("Confirm your"))
    .at(-1);
  const match = mail?.text.match(/\/newsletter\/confirm\?token=([A-Za-z0-9_-]+)/);
  if (!match) throw new Error(`no confirmation link to ${email}`);
  return match[1]!;
}

/** A confirmed subscriber: subscribed, then confirmed through the link of the mail it got. */
export function confirmedSubscriber(email: string): void {
  const address = NewsletterInput.parse({ email }).email;
  subscribeToNewsletter({ email: address }, "/newsletter");
  if (!confirmSubscription(latestConfirmToken(address), "203.0.113.7")) throw new Error(`could not confirm ${address}`);
}
