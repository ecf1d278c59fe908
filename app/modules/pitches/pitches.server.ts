import { getDb, type Db } from "../../../db/client";
import { pitchSubmissions } from "../../../db/schema";
import { firm } from "../../content/firm";
import { getEnv } from "../config/env.server";
import { kickMailer, queueMail, recentMailCount } from "../mail/mail.server";
import type { PitchInput } from "./schema";

const ACK_SUBJECT = `We received your pitch - ${firm.name}`;

export type PitchSubmission = typeof pitchSubmissions.$inferSelect;

/**
 * Store a pitch, tell the firm's inbox and acknowledge it to the founder.
 * The mails are queued in the same transaction, so a mail outage never loses a pitch.
 */
export function submitPitch(input: PitchInput, db: Db = getDb()): PitchSubmission {
  const inbox = getEnv().FIRM_INBOX;
  const pitch = db.transaction((tx) => {
    const row = tx
      .insert(pitchSubmissions)
      .values({
        name: input.name,
        email: input.email,
        company: input.company,
        stage: input.stage,
        deckUrl: input.deckUrl ?? null,
        message: input.message,
      })
      .returning()
      .get();
    queueMail(tx, {
      to: inbox,
      subject: `New pitch: ${row.company} (${row.stage})`,
      text: [
        `A new pitch was submitted on ${row.createdAt.toISOString()}.`,
        "",
        `Founder: ${row.name} <${row.email}>`,
        `Company: ${row.company}`,
        `Stage: ${row.stage}`,
        `Deck: ${row.deckUrl ?? "(none)"}`,
        "",
        row.message,
      ].join("\n"),
    });
    // The acknowledgement goes to an address anyone can type: no visitor text in its
    // subject, and at most 3 a day per address (the pitch itself is always kept).
    const since = new Date(Date.now() - 24 * 60 * 60 * 1000);
    if (recentMailCount(tx, row.email, ACK_SUBJECT, since) >= 3) return row;
    queueMail(tx, {
      to: row.email,
      subject: ACK_SUBJECT,
      text: [
        `Dear ${row.name},`,
        "",
        `Thank you for pitching ${row.company} to ${firm.name}.`,
        "Every pitch is read by our team. We respond to every pitch within 5 business days,",
        "and if we are interested, a partner will schedule a call with you within 2 weeks.",
        "",
        "Kind regards,",
        `The ${firm.name} team`,
      ].join("\n"),
    });
    return row;
  });
  kickMailer();
  return pitch;
}
