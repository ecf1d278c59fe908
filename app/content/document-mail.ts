import { firm } from "./firm";
import { greeting } from "./mail";

/**
 * New-document e-mails (issue 15): the notice of each new document, the
 * weekly digest, the reminder an admin sends, the account page's preference
 * and the one-click unsubscribe page. `{{unsubscribe}}` in a body is the
 * recipient's unsubscribe link, filled in at sending time (the outbox never
 * holds it). Mails name the document, never attach it or link to its file.
 */

type Mail = { subject: string; text: string };
const lines = (...parts: string[]) => parts.join("\n");

/** A document as a mail names it: its title, its category's label and its date ('Mar 5, 2026'). */
export type MailedDocument = { title: string; category: string; date: string };

/** The close of every mail sent to many: why it came, where to change that, and the one-click way out. */
function footer(why: string, appUrl: string): string[] {
  return [
    "",
    "Kind regards,",
    `The ${firm.name} team`,
    "",
    "--",
    why,
    `Choose between each new document, a weekly digest or none on your account page: ${appUrl}/lp/account`,
    "Stop new-document e-mails with one click: {{unsubscribe}}",
  ];
}

const facts = (doc: MailedDocument) => [`Title: ${doc.title}`, `Category: ${doc.category}`, `Date: ${doc.date}`];
const portal = (appUrl: string) => `Read it in the investor portal (sign-in required): ${appUrl}/lp/dashboard`;

export const documentMails = {
  /** To each investor who asked for each new document they may read. */
  newDocument: (user: { name: string }, doc: MailedDocument, appUrl: string): Mail => ({
    subject: `New document in the ${firm.name} investor portal: ${doc.title}`,
    text: lines(
      greeting(user.name),
      "",
      `A new document has been published for you in the ${firm.name} investor portal.`,
      "",
      ...facts(doc),
      "",
      portal(appUrl),
      ...footer("You receive this e-mail because you asked to hear about each new document.", appUrl),
    ),
  }),

  /** Monday 08:00 Zurich time: the documents of the past week, to investors who chose the digest. */
  digest: (user: { name: string }, docs: MailedDocument[], appUrl: string): Mail => ({
    subject:
      docs.length === 1
        ? `1 new document this week in the ${firm.name} investor portal`
        : `${docs.length} new documents this week in the ${firm.name} investor portal`,
    text: lines(
      greeting(user.name),
      "",
      docs.length === 1
        ? `This document was published for you in the ${firm.name} investor portal in the past week:`
        : `These documents were published for you in the ${firm.name} investor portal in the past week:`,
      "",
      ...docs.map((doc) => `- ${doc.title} (${doc.category}, ${doc.date})`),
      "",
      `Read them in the investor portal (sign-in required): ${appUrl}/lp/dashboard`,
      ...footer("You receive this e-mail because you chose a weekly digest of new documents.", appUrl),
    ),
  }),

  /** An admin's nudge about a document the investor has not opened yet. */
  reminder: (user: { name: string }, doc: MailedDocument, appUrl: string): Mail => ({
    subject: `A document is waiting for you: ${doc.title}`,
    text: lines(
      greeting(user.name),
      "",
      `A document in the ${firm.name} investor portal is waiting for you.`,
      "",
      ...facts(doc),
      "",
      portal(appUrl),
      ...footer("You receive this reminder because this document was published for you and has not been opened yet.", appUrl),
    ),
  }),
} as const;

/** The account page's panel (investors only). */
export const documentMailCopy = {
  title: "New-document e-mails",
  intro: "How we tell you about documents published for you. The e-mails name the document; you read it here, signed in.",
  legend: "Send me",
  options: {
    each: { label: "Each new document", hint: "One e-mail when a document is published for you." },
    weekly: { label: "Weekly digest (Mondays, 08:00 Zurich time)", hint: "One e-mail listing the past week's documents; none when there is nothing new." },
    none: { label: "None", hint: "No e-mails about new documents." },
  },
  submit: "Save e-mail preference",
  saved: {
    each: "You will get an e-mail for each new document.",
    weekly: "You will get a weekly digest on Mondays at 08:00 Zurich time.",
    none: "You will no longer get new-document e-mails.",
  },
  unchanged: "Your e-mail preference was already set to that.",
  invalid: "Choose one of the listed options.",
  adminsGetNone: "Admins do not receive new-document e-mails.",
} as const;

/** The page a List-Unsubscribe link opens (/unsubscribe/documents?token=…): no sign-in needed. */
export const unsubscribeCopy = {
  title: "Stop new-document e-mails",
  description: "Stop e-mails about new documents in the investor portal.",
  intro: `You will no longer get e-mails about new documents in the ${firm.name} investor portal, neither each one nor the weekly digest. Your documents stay in the portal.`,
  submit: "Stop new-document e-mails",
  submitting: "Stopping…",
  doneTitle: "Unsubscribed",
  done: "You will no longer get new-document e-mails.",
  changeLater: "Changed your mind? Choose each new document or a weekly digest on your account page.",
  accountLink: "Go to your account page",
  invalidTitle: "This unsubscribe link is not valid",
  invalid:
    "The link may be incomplete (copy the whole link from the e-mail) or out of date. You can always change new-document e-mails on your account page after signing in.",
} as const;
