import { mailSafeName, oneLine } from "./mail-safe";
import { firm } from "./firm";

/**
 * Every e-mail the product sends: subject and body text. `{{link}}` in a body
 * is filled with a sealed secret at sending time (the outbox never holds it).
 *
 * A name or company someone typed reaches a mail to a person only through
 * `mailSafeName` (one line, nothing link-like, 80 characters): anyone can type
 * anyone's address into a form (issue 21, finding L2). Mails to the firm's
 * inbox and admins keep the text, each field on its own line (`oneLine`).
 */

type Mail = { subject: string; text: string };
const lines = (...parts: string[]) => parts.join("\n");

/** The first line of a mail to a person: "Dear Grace Hopper," — or "Hello," when nothing of the name is fit to send. */
export function greeting(name: string, salutation: "Dear" | "Hello" = "Dear"): string {
  const safe = mailSafeName(name);
  return safe ? `${salutation} ${safe},` : "Hello,";
}
const RESET_SUBJECT = `Reset your ${firm.name} password`;

const CONFIRM_REGISTRATION_SUBJECT = `Confirm your e-mail address for the ${firm.name} investor portal`;
const ALREADY_REGISTERED_SUBJECT = `Your ${firm.name} investor portal account`;
const NEW_REQUEST_SUBJECT_PREFIX = "New investor access request: ";

export const accountMails = {
  /** The subjects that also count the mails sent to an address (per-recipient caps, decision 028). */
  confirmRegistrationSubject: CONFIRM_REGISTRATION_SUBJECT,
  alreadyRegisteredSubject: ALREADY_REGISTERED_SUBJECT,
  newRequestSubjectPrefix: NEW_REQUEST_SUBJECT_PREFIX,

  /**
   * The link that proves a registration's address. Anyone can type an address, so
   * the mail holds nothing the registrant wrote (no name, no company).
   */
  confirmRegistration: (): Mail => ({
    subject: CONFIRM_REGISTRATION_SUBJECT,
    text: lines(
      "Hello,",
      "",
      `Someone (we hope you) asked for access to the ${firm.name} investor portal with this e-mail address.`,
      "To confirm the address, open this link and enter the password you chose. It works once and expires in 7 days:",
      "{{link}}",
      "",
      "Your request goes to our team for approval once you confirm it.",
      "If this was not you, ignore this e-mail: nothing happens without the confirmation.",
    ),
  }),

  /** Someone asked for access with an address that already has an account. */
  alreadyRegistered: (user: { name: string }, appUrl: string): Mail => ({
    subject: ALREADY_REGISTERED_SUBJECT,
    text: lines(
      greeting(user.name, "Hello"),
      "",
      "Someone (perhaps you) asked for investor portal access with this e-mail address, which already has an account.",
      `Sign in: ${appUrl}/lp/login`,
      `Forgot your password? ${appUrl}/lp/forgot-password`,
      "",
      "If this was not you, you can ignore this message; nothing has changed.",
    ),
  }),

  /** To every admin: a new request waits for review. */
  newRequest: (user: { name: string; email: string; company: string | null }, reviewUrl: string): Mail => ({
    subject: `${NEW_REQUEST_SUBJECT_PREFIX}${user.name}`,
    text: lines(
      "A new investor portal access request is waiting for your review.",
      "",
      `Name: ${oneLine(user.name)}`,
      `E-mail: ${oneLine(user.email)}`,
      `Company: ${user.company ? oneLine(user.company) : "(not given)"}`,
      "",
      `Review it in the admin portal: ${reviewUrl}`,
    ),
  }),

  approved: (user: { name: string }, appUrl: string): Mail => ({
    subject: `Your ${firm.name} investor portal access is approved`,
    text: lines(
      greeting(user.name),
      "",
      `Your request for access to the ${firm.name} investor portal has been approved.`,
      `Sign in here: ${appUrl}/lp/login`,
      "",
      "Kind regards,",
      `The ${firm.name} team`,
    ),
  }),

  /** The reset link mail; its subject also counts how many were sent in the last hour. */
  resetSubject: RESET_SUBJECT,
  passwordReset: (user: { name: string }): Mail => ({
    subject: RESET_SUBJECT,
    text: lines(
      greeting(user.name, "Hello"),
      "",
      "Use this link to choose a new password. It works once and expires in 1 hour:",
      "{{link}}",
      "",
      "If you did not ask for this, ignore this e-mail; your password stays as it is.",
    ),
  }),
} as const;

export const pitchMails = {
  /** The acknowledgement's subject holds no visitor text (anyone can type the address). */
  ackSubject: `We received your pitch - ${firm.name}`,
  toInbox: (pitch: {
    name: string;
    email: string;
    company: string;
    stage: string;
    deckUrl: string | null;
    message: string;
    receivedAt: string;
    /** An uploaded deck: its name and size, and the admin link that opens it (it is never attached). */
    uploadedDeck?: { name: string; size: string; link: string } | null;
  }): Mail => ({
    subject: `New pitch: ${pitch.company} (${pitch.stage})`,
    text: lines(
      `A new pitch was submitted on ${pitch.receivedAt}.`,
      "",
      `Founder: ${oneLine(pitch.name)} <${oneLine(pitch.email)}>`,
      `Company: ${oneLine(pitch.company)}`,
      `Stage: ${oneLine(pitch.stage)}`,
      `Deck: ${pitch.deckUrl ? oneLine(pitch.deckUrl) : "(none)"}`,
      ...(pitch.uploadedDeck
        ? [`Uploaded deck: ${pitch.uploadedDeck.name} (${pitch.uploadedDeck.size}), for admins at ${pitch.uploadedDeck.link}`]
        : []),
      "",
      pitch.message,
    ),
  }),
  /**
   * To the founder's address, which nobody proved: the name and company made
   * mail-safe, and nothing else of the pitch (not its message, not its deck link).
   */
  acknowledgement: (pitch: { name: string; company: string }): Mail => ({
    subject: pitchMails.ackSubject,
    text: lines(
      greeting(pitch.name),
      "",
      mailSafeName(pitch.company) ? `Thank you for pitching ${mailSafeName(pitch.company)} to ${firm.name}.` : `Thank you for your pitch to ${firm.name}.`,
      "Every pitch is read by our team. We respond to every pitch within 5 business days,",
      "and if we are interested, a partner will schedule a call with you within 2 weeks.",
      "",
      "Kind regards,",
      `The ${firm.name} team`,
    ),
  }),
};

export const fundAccessMails = {
  subject: (fundName: string) => `Your ${fundName} documents access link`,
  link: (request: { name: string }, fundName: string): Mail => ({
    subject: fundAccessMails.subject(fundName),
    text: lines(
      greeting(request.name),
      "",
      `Here is your permanent link to the ${fundName} documents of ${firm.name}:`,
      "",
      "{{link}}",
      "",
      "Keep it to yourself: anyone with this link can read the documents. It keeps working until we withdraw access; if you lose it, write to us and we will send you a new one.",
      "",
      "For informational purposes only; not an offer or solicitation.",
      "",
      firm.name,
    ),
  }),
  /**
   * Someone asked again with the address of an existing request (perhaps not
   * its holder): nothing changed, and no new link is sent (issue 21, finding L7;
   * decision 012). Names the holder as stored, never what the new form said.
   */
  askedAgain: (request: { name: string }, fundName: string): Mail => ({
    subject: fundAccessMails.subject(fundName),
    text: lines(
      greeting(request.name),
      "",
      `Someone (perhaps you) asked again for access to the ${fundName} documents of ${firm.name} with this e-mail address. Nothing else has changed.`,
      "",
      "Here is a fresh link, in case you cannot find the one we sent you before:",
      "{{link}}",
      "",
      "The link we sent you before keeps working too.",
      "If this was not you, you can ignore this message.",
      "",
      firm.name,
    ),
  }),
  withdrawn: (request: { name: string }, fundName: string): Mail => ({
    subject: fundAccessMails.subject(fundName),
    text: lines(
      greeting(request.name),
      "",
      `Your access to the ${fundName} documents of ${firm.name} has been withdrawn, so no new link was sent.`,
      `If you think this is a mistake, write to us at ${firm.email}.`,
      "",
      firm.name,
    ),
  }),
};

/** A notice to the account about a change to how it signs in: what happened, and what to do if it was not them. */
function securityNotice(user: { name: string }, what: string, appUrl: string): Mail {
  return {
    subject: `Security notice for your ${firm.name} account`,
    text: lines(
      greeting(user.name, "Hello"),
      "",
      what,
      "",
      `If this was you, there is nothing to do. If it was not, reset your password now (${appUrl}/lp/forgot-password) and contact us.`,
      "",
      `The ${firm.name} team`,
    ),
  };
}

/** Mails about the account's sign-in security (issue 14 §3). */
export const securityMails = {
  passwordChanged: (user: { name: string }, appUrl: string) =>
    securityNotice(user, "The password of your account was changed, and every other session was signed out.", appUrl),
  twoFactorEnabled: (user: { name: string }, appUrl: string) =>
    securityNotice(user, "Two-factor authentication was turned on for your account. Keep your recovery codes somewhere safe.", appUrl),
  twoFactorDisabled: (user: { name: string }, appUrl: string) =>
    securityNotice(user, "Two-factor authentication was turned off for your account.", appUrl),
  twoFactorReset: (user: { name: string }, appUrl: string) =>
    securityNotice(
      user,
      "An administrator cleared two-factor authentication for your account on the server, and every session was signed out. Please set it up again from your account page.",
      appUrl,
    ),
  recoveryCodesRegenerated: (user: { name: string }, appUrl: string) =>
    securityNotice(user, "New recovery codes were made for your account. The old ones no longer work.", appUrl),
  recoveryCodeUsed: (user: { name: string }, left: number, appUrl: string) =>
    securityNotice(
      user,
      `A recovery code of your account was used. ${left === 1 ? "1 code is" : `${left} codes are`} left; you can make new ones on your account page.`,
      appUrl,
    ),
};
