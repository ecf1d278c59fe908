import { eq } from "drizzle-orm";
import { getDb, type Db } from "~/modules/db/connection.server";
import { pitchSubmissions } from "../../../db/schema";
import { pitchMails } from "../../content/mail";
import { getEnv } from "../config/env.server";
import { adminDateTime } from "../dates/format";
import { kickMailer, queueMail, recentMailCount } from "../mail/mail.server";
import { dueAtFor } from "../pitch-clock/clock.server";
import { formatMegabytes } from "../documents/constants";
import type { ReceivedFile } from "../storage/upload.server";
import { removeStoredFile } from "../storage/storage.server";
import { pitchDeckPath } from "./constants";
import { commitDeck, discardDeck, type StoredDeck } from "./deck.server";
import type { PitchInput } from "./schema";

export type PitchSubmission = typeof pitchSubmissions.$inferSelect;

/**
 * Store a pitch, tell the firm's inbox and acknowledge it to the founder.
 * The mails are queued in the same transaction, so a mail outage never loses a pitch.
 * `deck`: an uploaded deck already moved into storage (see storePitch).
 */
export function submitPitch(input: PitchInput, db: Db = getDb(), deck: StoredDeck | null = null): PitchSubmission {
  const { FIRM_INBOX: inbox, APP_URL } = getEnv();
  const now = new Date();
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
        createdAt: now,
        dueAt: dueAtFor(now),
        deckPath: deck?.path ?? null,
        deckName: deck?.name ?? null,
        deckSize: deck?.size ?? null,
      })
      .returning()
      .get();
    const uploadedDeck = deck ? { name: deck.name, size: formatMegabytes(deck.size), link: `${APP_URL}${pitchDeckPath(row.id)}` } : null;
    queueMail(tx, { to: inbox, ...pitchMails.toInbox({ ...row, receivedAt: `${adminDateTime(row.createdAt)} UTC`, uploadedDeck }) });
    // The acknowledgement goes to an address anyone can type: no visitor text in its
    // subject, and at most 3 a day per address (the pitch itself is always kept).
    const since = new Date(Date.now() - 24 * 60 * 60 * 1000);
    if (recentMailCount(tx, row.email, pitchMails.ackSubject, since) >= 3) return row;
    queueMail(tx, { to: row.email, ...pitchMails.acknowledgement(row) });
    return row;
  });
  kickMailer();
  return pitch;
}

/**
 * The one way a pitch is stored, from the page and from POST /api/pitch: an
 * uploaded deck (already checked) is moved into pitch-decks/ and named by the
 * row. If storing fails, the deck goes too: nothing is kept from a failed post.
 */
export async function storePitch(input: PitchInput, deck: ReceivedFile | null, db: Db = getDb()): Promise<PitchSubmission> {
  let stored: StoredDeck | null = null;
  try {
    stored = deck ? await commitDeck(deck) : null;
    return submitPitch(input, db, stored);
  } catch (error) {
    await discardDeck(deck);
    if (stored) await removeStoredFile(stored.path);
    throw error;
  }
}

/**
 * Pitches stored before the inbox existed have no due time (0, migration 0013):
 * give them the one the clock would have given. Runs at start; a no-op afterwards.
 */
export function backfillPitchDueTimes(db: Db = getDb()): number {
  const rows = db
    .select({ id: pitchSubmissions.id, createdAt: pitchSubmissions.createdAt })
    .from(pitchSubmissions)
    .where(eq(pitchSubmissions.dueAt, new Date(0)))
    .all();
  db.transaction((tx) => {
    for (const row of rows) {
      tx.update(pitchSubmissions).set({ dueAt: dueAtFor(row.createdAt) }).where(eq(pitchSubmissions.id, row.id)).run();
    }
  });
  return rows.length;
}
