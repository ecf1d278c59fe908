import { firm } from "./firm";

/** Newsletter form copy (SPEC.md §4, §8; double opt-in: issue 16, decision 010). */
export const newsletterCopy = {
  footerTitle: "Newsletter",
  footerText: "Quarterly notes on deeptech, our portfolio and the fund.",
  heroTitle: "Stay Updated",
  heroText: "Get our quarterly deeptech briefing in your inbox.",
  label: "Email address",
  placeholder: "you@example.com",
  submit: "Subscribe",
  submitting: "Subscribing...",
  /** Shown in the form's place after a sign-up: the address still has to be confirmed. */
  subscribed: "Thank you! Please check your inbox and confirm your subscription.",
  toastSuccess: { title: "Success", description: "Almost done: we've sent you an e-mail with a link to confirm your subscription." },
  toastDuplicate: { title: "Error", description: "This email is already subscribed." },
  toastFailure: { title: "Error", description: "Failed to subscribe. Please try again." },
} as const;

/**
 * The sign-up text shown next to every newsletter form: what the visitor
 * agrees to. A confirmed subscription records this text and its version
 * (newsletter_subscribers.consent_text, consent_version). Change the version
 * whenever the text changes.
 */
const consentLead = `We'll e-mail you a link to confirm. ${firm.name} sends its newsletter about once a quarter; you can unsubscribe at any time. Read `;
const consentLink = "how we handle your data";
export const newsletterConsent = {
  version: "2026-11-25",
  /** As shown: the lead, then the link to the privacy policy, then a full stop. */
  lead: consentLead,
  link: consentLink,
  text: `${consentLead}${consentLink}.`,
} as const;

/** The confirmation link's page, /newsletter/confirm?token=… (GET shows one button; the POST confirms). */
export const newsletterConfirmCopy = {
  title: "Confirm your subscription",
  description: `Confirm your subscription to the ${firm.name} newsletter.`,
  intro: `Confirm that you want to receive the ${firm.name} newsletter at this address.`,
  submit: "Confirm subscription",
  submitting: "Confirming…",
  doneTitle: "You're subscribed",
  done: `Thank you for confirming. The next ${firm.name} newsletter will reach your inbox; every issue has a link to unsubscribe.`,
  invalidTitle: "This link has already been used or has expired",
  invalid:
    "Confirmation links work once and for 7 days. The link may also be incomplete: copy the whole link from the e-mail. To get a new link, subscribe again with the form below any page.",
  homeLink: "Go to the home page",
} as const;

/** The newsletter's unsubscribe page, /unsubscribe/newsletter?token=… (no sign-in). */
export const newsletterUnsubscribeCopy = {
  title: "Unsubscribe from the newsletter",
  description: `Stop receiving the ${firm.name} newsletter.`,
  intro: `You will no longer receive the ${firm.name} newsletter at this address. We keep the address only to honour your choice.`,
  submit: "Unsubscribe",
  submitting: "Unsubscribing…",
  doneTitle: "Unsubscribed",
  done: "You will no longer receive our newsletter.",
  changeLater: "Changed your mind? Subscribe again with the form below any page and confirm the e-mail we send you.",
  invalidTitle: "This unsubscribe link is not valid",
  invalid: `The link may be incomplete (copy the whole link from the e-mail) or out of date. Write to us at ${firm.email} and we will take you off the list.`,
  homeLink: "Go to the home page",
} as const;

const lines = (...parts: string[]) => parts.join("\n");

/** The confirmation mail; its subject also counts how many went to an address in the last day. */
export const newsletterMails = {
  confirmSubject: `Confirm your ${firm.name} newsletter subscription`,
  confirm: (): { subject: string; text: string } => ({
    subject: newsletterMails.confirmSubject,
    text: lines(
      "Hello,",
      "",
      `Someone (perhaps you) asked to receive the ${firm.name} newsletter at this address.`,
      "To confirm your subscription, open this link and press the button. It expires in 7 days:",
      "{{link}}",
      "",
      "If this was not you, ignore this e-mail: without your confirmation you will not be subscribed, and the address is deleted after 30 days.",
      "",
      "Kind regards,",
      `The ${firm.name} team`,
    ),
  }),
};
