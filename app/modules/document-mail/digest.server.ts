import { and, asc, desc, eq, gte, like, lt } from "drizzle-orm";
import { getDb, type Db } from "~/modules/db/connection.server";
import { documents, lpUsers, scheduledRuns } from "../../../db/schema";
import { documentMails } from "../../content/document-mail";
import { now as clockNow } from "../config/clock.server";
import { getEnv } from "../config/env.server";
import { repeatEvery } from "../jobs/repeat.server";
import { log } from "../logging/log.server";
import { addressees } from "../documents/addressees.server";
import { kickMailer, queueMails, type OutgoingMail } from "../mail/mail.server";
import { digestRunKey, latestDigestSlot, previousDigestSlot } from "./digest-schedule";
import { isInvestor, mailedDocument, mailToInvestor, recipientColumns } from "./document-mail.server";

/**
 * The weekly document digest: on Monday 08:00 Zurich time, each approved
 * investor who chose 'weekly' gets one mail listing the documents published
 * since the previous Monday 08:00 that they may read (audience 'all', or
 * 'selected' with them among its addressees: chosen, or a current member of a
 * chosen entity); nobody gets a mail about nothing.
 *
 * Exactly once a week however many processes run and restart: a run first
 * claims its week by inserting the week's key into scheduled_runs, in the same
 * transaction that queues the mails. Whoever's insert fails has lost the
 * claim; a crash before the commit leaves the week unclaimed, for the next check.
 */

/** Document ids per IN (…) list: far below SQLite's bound-parameter limit however many were published. */
const IN_CHUNK = 500;

export type DigestRun = { key: string; slot: Date; claimed: boolean; queued: number };

/** Run the digest of the latest slot at or before `at` (or of `slot`), unless some process already has. */
export function runDocumentDigest(db: Db = getDb(), at: Date = clockNow(), slot: Date = latestDigestSlot(at)): DigestRun {
  const key = digestRunKey(slot);
  const skipped = { key, slot, claimed: false, queued: 0 };
  // Most checks find the week done: answer those without a write transaction.
  if (db.select({ key: scheduledRuns.key }).from(scheduledRuns).where(eq(scheduledRuns.key, key)).get()) return skipped;
  return db.transaction(
    (tx) => {
      const claim = tx.insert(scheduledRuns).values({ key, startedAt: at }).onConflictDoNothing().run();
      if (claim.changes !== 1) return skipped;
      const queued = queueDigest(tx, previousDigestSlot(slot), slot);
      tx.update(scheduledRuns).set({ finishedAt: clockNow() }).where(eq(scheduledRuns.key, key)).run();
      return { key, slot, claimed: true, queued };
    },
    { behavior: "immediate" },
  );
}

/** Queue the digest of the documents published in [since, until) to the investors who chose it; returns how many mails. */
function queueDigest(tx: Pick<Db, "select" | "insert" | "all">, since: Date, until: Date): number {
  const published = tx
    .select({ id: documents.id, title: documents.title, category: documents.category, createdAt: documents.createdAt, audience: documents.audience })
    .from(documents)
    .where(and(gte(documents.createdAt, since), lt(documents.createdAt, until)))
    .orderBy(asc(documents.createdAt))
    .all();
  if (published.length === 0) return 0;
  // Who each 'selected' document is addressed to: the one rule (`addressees`), chosen investors
  // and the current members of chosen entities, each pair once.
  const selected = published.filter((doc) => doc.audience === "selected").map((doc) => doc.id);
  const addressed = new Set<string>();
  for (let i = 0; i < selected.length; i += IN_CHUNK) {
    const pairs = tx.all<{ document_id: string; user_id: string }>(addressees("pair", { documentIds: selected.slice(i, i + IN_CHUNK) }));
    for (const pair of pairs) addressed.add(`${pair.document_id}/${pair.user_id}`);
  }
  const readers = tx.select(recipientColumns).from(lpUsers).where(and(isInvestor, eq(lpUsers.documentMail, "weekly"))).all();
  const appUrl = getEnv().APP_URL;
  const mails: OutgoingMail[] = [];
  for (const reader of readers) {
    const theirs = published.filter((doc) => doc.audience === "all" || addressed.has(`${doc.id}/${reader.id}`));
    if (theirs.length) mails.push(mailToInvestor(reader, documentMails.digest(reader, theirs.map(mailedDocument), appUrl)));
  }
  queueMails(tx, mails);
  return mails.length;
}

/** At most this many missed weeks are caught up after downtime; older ones are logged and skipped. */
export const MAX_CATCH_UP_WEEKS = 8;

/**
 * Every digest due at `at`, oldest first: the weeks missed since the last claimed one (the
 * server was down over a whole Monday morning), each sent once and late, then the latest
 * slot's. A database that never sent a digest starts with the latest slot only. Each week is
 * claimed on its own, so two processes catching up at once still send each week once.
 */
export function runDueDigests(db: Db = getDb(), at: Date = clockNow()): DigestRun[] {
  const latest = latestDigestSlot(at);
  const slots = [latest];
  const claimed = db
    .select({ key: scheduledRuns.key })
    .from(scheduledRuns)
    .where(like(scheduledRuns.key, "document-digest:%"))
    .orderBy(desc(scheduledRuns.key))
    .limit(1)
    .get();
  if (claimed) {
    for (let slot = previousDigestSlot(latest); digestRunKey(slot) > claimed.key; slot = previousDigestSlot(slot)) {
      if (slots.length > MAX_CATCH_UP_WEEKS) {
        log("warn", `Weekly document digest: weeks before ${digestRunKey(slot)} were missed and are not sent`, { lastSent: claimed.key });
        break;
      }
      slots.unshift(slot);
    }
  }
  return slots.map((slot) => runDocumentDigest(db, at, slot));
}

const CHECK_EVERY_MS = 5 * 60 * 1000;

/**
 * Check at start and every few minutes whether a digest is due and unclaimed,
 * and if so send it (a process that was down on Monday morning sends it when it
 * comes back, and every whole week it missed, each once). Returns the stop function.
 */
export function startDocumentDigest(intervalMs = CHECK_EVERY_MS): () => void {
  return repeatEvery(intervalMs, "weekly document digest failed", () => {
    let queued = 0;
    for (const run of runDueDigests()) {
      if (!run.claimed) continue;
      log("info", `Weekly document digest ${run.key}: ${run.queued} mail(s) queued`, { key: run.key, queued: run.queued });
      queued += run.queued;
    }
    if (queued > 0) kickMailer();
  });
}
