import { firm } from "./firm";
import { mailSafeName } from "./mail-safe";
import { greeting } from "./mail";

/** The pitch inbox (issue 16): /admin/pitches, a pitch's page, its replies and its JSON errors. */

/** The statuses as JSON names them (db/schema.ts PITCH_STATUSES). */
export type PitchStatusKey = "new" | "in_review" | "partner_call" | "passed" | "invested";

/** Status labels, in the order of the pipeline (New → In review → Partner call → Passed | Invested). */
export const pitchStatusLabels: Record<PitchStatusKey, string> = {
  new: "New",
  in_review: "In review",
  partner_call: "Partner call",
  passed: "Passed",
  invested: "Invested",
};

/** The clock as the list and the pitch page read it; dates come formatted (modules/dates/format.ts). */
export const pitchClockCopy = {
  answered: (on: string) => `answered on ${on}`,
  due: (days: number) => `due in ${days} business ${days === 1 ? "day" : "days"}`,
  dueToday: "due today",
  overdue: (days: number) => `overdue by ${days} business ${days === 1 ? "day" : "days"}`,
} as const;

export const pitchListCopy = {
  title: "Pitches",
  intro: `Every pitch gets an answer within 5 business days. Times follow the firm's calendar (Zurich).`,
  filters: {
    label: "Filter pitches",
    status: "Status",
    anyStatus: "All statuses",
    stage: "Stage",
    anyStage: "All stages",
    owner: "Owner",
    anyOwner: "Anyone",
    nobody: "Nobody",
    overdue: "Overdue only",
    q: "Search",
    qHint: "Company, founder name or e-mail.",
    submit: "Filter",
    clear: "Clear filters",
  },
  export: "Download CSV",
  exportHint: "Every pitch that matches the filters, as a spreadsheet.",
  caption: "Pitches, newest first",
  columns: {
    company: "Company",
    founder: "Founder",
    stage: "Stage",
    status: "Status",
    owner: "Owner",
    due: "Due",
    clock: "Clock",
  },
  nobody: "Nobody",
  formerAdmin: "A former admin",
  empty: "No pitches yet.",
  noMatch: "No pitches match these filters.",
  invalid: "Some filters could not be used. Correct them and filter again.",
} as const;

/** The filters' field messages (page and JSON alike). */
export const pitchFilterMessages = {
  status: "Choose a status: new, in_review, partner_call, passed or invested.",
  stage: "Choose a stage from the list.",
  owner: "Choose an admin, or 'none' for pitches nobody owns.",
  overdue: "Use 1 or true for overdue pitches only (0 or false for all).",
  q: "Search for at most 100 characters.",
  page: "The page must be a whole number from 1.",
} as const;

/** What the PATCH and reply operations answer when refused. */
export const pitchMessages = {
  notFound: "Pitch not found",
  status: "Choose a status: new, in_review, partner_call, passed or invested.",
  owner: "Choose an admin as the owner, or nobody.",
  nothingToChange: "Send a status, an ownerId or both.",
  subject: "Enter a subject of 1 to 200 characters on one line.",
  body: "Enter a message of 1 to 10,000 characters.",
  note: "Enter a note of 1 to 5,000 characters.",
} as const;

export const pitchPageCopy = {
  back: "All pitches",
  /** A pitch that is not there (an unknown or mistyped address). */
  gone: "No pitch has this address. It may have been mistyped; the list has every pitch.",
  title: (company: string) => `Pitch: ${company}`,
  submission: {
    title: "Submission",
    founder: "Founder",
    email: "E-mail",
    company: "Company",
    stage: "Stage",
    deckUrl: "Deck link",
    noDeckUrl: "No link given",
    deckFile: "Uploaded deck",
    openDeck: "Open the deck",
    message: "Message",
    submitted: "Submitted",
    due: "Answer due",
    clock: "Clock",
    timesInUtc: "Times are in UTC; due days follow the firm's calendar (Zurich).",
  },
  status: { title: "Status", label: "Status", save: "Save status", saving: "Saving..." },
  owner: { title: "Owner", label: "Owner", nobody: "Nobody", save: "Save owner", saving: "Saving..." },
  note: {
    title: "Internal note",
    label: "Note",
    hint: "Only admins see notes.",
    add: "Add note",
    adding: "Adding...",
  },
  reply: {
    title: "Reply to the founder",
    intro: (email: string, inbox: string) => `Sent to ${email} from the firm's address; answers go to ${inbox}.`,
    template: "Template",
    noTemplate: "Choose a template",
    useTemplate: "Use template",
    subject: "Subject",
    body: "Message",
    send: "Send reply",
    sending: "Sending...",
  },
  timeline: {
    title: "Timeline",
    caption: "Oldest first. Times are in UTC.",
    received: (founder: string) => `Pitch received from ${founder}`,
    status: (from: string, to: string) => `Status changed from ${from} to ${to}`,
    owner: (from: string, to: string) => `Owner changed from ${from} to ${to}`,
    note: "Added a note",
    reply: (subject: string) => `Replied to the founder: ${subject}`,
    deckOpened: "Opened the deck",
    by: (who: string) => `by ${who}`,
    unknownActor: "a former admin",
  },
} as const;

export const pitchToasts = {
  statusSaved: (company: string, status: string) => ({ title: "Status saved", description: `${company} is now ${status}.` }),
  ownerSaved: (company: string, owner: string) => ({ title: "Owner saved", description: `${owner} now owns ${company}.` }),
  ownerCleared: (company: string) => ({ title: "Owner saved", description: `Nobody owns ${company} now.` }),
  noteAdded: { title: "Note added" },
  replySent: (email: string) => ({ title: "Reply sent", description: `Your reply to ${email} is on its way.` }),
  failed: "Not saved",
  replyFailed: "Reply not sent",
} as const;

/** The reply templates' keys, in the order they are offered. */
export const PITCH_TEMPLATE_KEYS = ["pass", "partner-call", "tell-us-more"] as const;
export type PitchTemplateKey = (typeof PITCH_TEMPLATE_KEYS)[number];

/**
 * Reply templates. {{founderName}} and {{company}} are filled in from the pitch before the
 * admin sees the text; the admin can change every word before sending.
 */
export const pitchTemplates: Record<PitchTemplateKey, { label: string; subject: string; body: string }> = {
  pass: {
    label: "Thank you — not for us",
    subject: `Your pitch for {{company}} - ${firm.name}`,
    body: [
      "Dear {{founderName}},",
      "",
      `Thank you for telling us about {{company}}. We read your pitch with care and discussed it as a team.`,
      "",
      "We have decided not to take it further. This is about our focus and the fund's stage, not a verdict on what you are building, and we know how much work goes into a pitch.",
      "",
      "We wish you every success, and if the company moves into our focus later, we would be glad to hear from you again.",
      "",
      "Kind regards,",
      `The ${firm.name} team`,
    ].join("\n"),
  },
  "partner-call": {
    label: "Let's talk: partner call",
    subject: `{{company}}: a call with ${firm.name}`,
    body: [
      "Dear {{founderName}},",
      "",
      "Thank you for your pitch. We would like to learn more about {{company}}, and one of our partners would like to meet you for a call.",
      "",
      "Please reply with a few times that suit you over the next two weeks, and tell us who from your team will join. Forty-five minutes is usually enough for a first conversation.",
      "",
      "We look forward to speaking with you.",
      "",
      "Kind regards,",
      `The ${firm.name} team`,
    ].join("\n"),
  },
  "tell-us-more": {
    label: "Tell us more",
    subject: `A few questions about {{company}} - ${firm.name}`,
    body: [
      "Dear {{founderName}},",
      "",
      "Thank you for pitching {{company}}. Before we decide on next steps, we would like to understand a few things better:",
      "",
      "- Where does the technology stand today, and what are the next milestones?",
      "- Who are your first customers or partners, and what have they committed to?",
      "- How much are you raising, and what will it take you to?",
      "",
      "Please reply to this e-mail; a short answer or an updated deck is fine.",
      "",
      "Kind regards,",
      `The ${firm.name} team`,
    ].join("\n"),
  },
};

/**
 * A template with the pitch's founder and company filled in. The reply goes to
 * the address the founder typed, so their name and company go in mail-safe (one
 * line, nothing link-like; issue 21, finding L2), as in every mail to a person.
 */
export function fillPitchTemplate(key: PitchTemplateKey, pitch: { name: string; company: string }): { subject: string; body: string } {
  const company = mailSafeName(pitch.company) || "your company";
  const fill = (text: string) =>
    text.replaceAll("Dear {{founderName}},", greeting(pitch.name)).replaceAll("{{founderName}}", mailSafeName(pitch.name)).replaceAll("{{company}}", company);
  const template = pitchTemplates[key];
  return { subject: fill(template.subject), body: fill(template.body) };
}

/** The pitch export's header row. */
export const pitchCsvHeaders = [
  "Submitted (UTC)",
  "Company",
  "Founder",
  "E-mail",
  "Stage",
  "Status",
  "Owner",
  "Due day (Zurich)",
  "Answered (UTC)",
  "Clock",
  "Deck link",
  "Message",
  "ID",
] as const;
