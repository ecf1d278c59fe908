import { and, asc, count, eq, gt, isNull, lte } from "drizzle-orm";
import { getDb, type Db } from "~/modules/db/connection.server";
import { lpUsers, pitchSubmissions, scheduledRuns } from "../../../db/schema";
import { pitchSummaryMail, type SummaryPitch, type SummarySection } from "../../content/pitch-summary";
import { now as clockNow } from "../config/clock.server";
import { getEnv } from "../config/env.server";
import { adminDate, FIRM_TIME_ZONE } from "../dates/format";
import { repeatEvery } from "../jobs/repeat.server";
import { log } from "../logging/log.server";
import { kickMailer, queueMail } from "../mail/mail.server";
import { clockState, endOfFirmDay, type Day } from "../pitch-clock/clock.server";
import { summaryDueAt, summaryRunKey } from "./schedule.server";

/**
 * The daily pitch summary (issue 16): at 08:00 Zurich time, one mail to
 * FIRM_INBOX listing the unanswered pitches due today and those overdue, each
 * with its company, founder, due day, how late it is and its admin page.
 *
 * Exactly once a day however many processes run and restart, as the weekly
 * document digest does (document-mail/digest.server.ts): a run first claims
 * its day by inserting the day's key into scheduled_runs, in the same
 * transaction that queues the mail. Whoever's insert fails has lost the claim;
 * a crash before the commit leaves the day unclaimed, for the next check.
 *
 * A day with nothing due or overdue is claimed too (with no mail): the list
 * cannot grow later that day (a pitch becomes overdue only at a Zurich
 * midnight, and a new pitch is due days later), so the claim saves every later
 * check of the day a query, and the scheduled_runs row records that the check
 * ran. Downtime: see schedule.server.ts (late the same day, never a missed day).
 */

export type SummaryRun = {
  /** The day's key, or null before the day's hour. */
  key: string | null;
  day: Day;
  claimed: boolean;
  dueToday: number;
  overdue: number;
  /** True when a mail was queued (claimed and something to list). */
  queued: boolean;
};

/** Each section lists at most this many pitches (the most overdue first) and links to the rest. */
export const LISTED_AT_MOST = 100;

/** Run today's summary at `at` if its hour has come and no process has run it yet. */
export function runPitchSummary(db: Db = getDb(), at: Date = clockNow(), hour: number = getEnv().PITCH_SUMMARY_HOUR): SummaryRun {
  const due = summaryDueAt(at, hour);
  const day = due?.day ?? "";
  const skipped: SummaryRun = { key: due ? summaryRunKey(due.day) : null, day, claimed: false, dueToday: 0, overdue: 0, queued: false };
  if (!due) return skipped;
  const key = summaryRunKey(due.day);
  // Most checks find the day done: answer those without a write transaction.
  if (db.select({ key: scheduledRuns.key }).from(scheduledRuns).where(eq(scheduledRuns.key, key)).get()) return skipped;
  return db.transaction(
    (tx) => {
      const claim = tx.insert(scheduledRuns).values({ key, startedAt: at }).onConflictDoNothing().run();
      if (claim.changes !== 1) return skipped;
      const dueToday = openPitches(tx, { after: at, upTo: endOfFirmDay(due.day) }, at);
      const overdue = openPitches(tx, { upTo: at }, at);
      const queued = dueToday.total + overdue.total > 0;
      if (queued) queueMail(tx, { to: getEnv().FIRM_INBOX, ...pitchSummaryMail(dueToday, overdue, getEnv().APP_URL) });
      tx.update(scheduledRuns).set({ finishedAt: clockNow() }).where(eq(scheduledRuns.key, key)).run();
      return { key, day: due.day, claimed: true, dueToday: dueToday.total, overdue: overdue.total, queued };
    },
    { behavior: "immediate" },
  );
}

/**
 * Unanswered pitches whose due instant is in (after, upTo], the most overdue first
 * (the partial index on due_at where answered_at is null serves both queries).
 * Pitches still waiting for their due time at start (due_at 0) are left out.
 */
function openPitches(tx: Pick<Db, "select">, range: { after?: Date; upTo: Date }, at: Date): SummarySection {
  const where = and(isNull(pitchSubmissions.answeredAt), gt(pitchSubmissions.dueAt, range.after ?? new Date(0)), lte(pitchSubmissions.dueAt, range.upTo));
  const total = tx.select({ n: count() }).from(pitchSubmissions).where(where).get()?.n ?? 0;
  if (total === 0) return { pitches: [], total };
  const rows = tx
    .select({
      id: pitchSubmissions.id,
      company: pitchSubmissions.company,
      founder: pitchSubmissions.name,
      email: pitchSubmissions.email,
      dueAt: pitchSubmissions.dueAt,
      owner: lpUsers.name,
    })
    .from(pitchSubmissions)
    .leftJoin(lpUsers, eq(lpUsers.id, pitchSubmissions.ownerId))
    .where(where)
    .orderBy(asc(pitchSubmissions.dueAt), asc(pitchSubmissions.createdAt))
    .limit(LISTED_AT_MOST)
    .all();
  const appUrl = getEnv().APP_URL;
  const pitches = rows.map((row): SummaryPitch => {
    const state = clockState({ dueAt: row.dueAt, answeredAt: null }, at);
    return {
      company: row.company,
      founder: row.founder,
      email: row.email,
      owner: row.owner,
      // The due day is the Zurich day that ends at dueAt.
      dueDay: adminDate(row.dueAt.getTime() - 1, FIRM_TIME_ZONE),
      overdueBy: state.kind === "overdue" ? state.byBusinessDays : undefined,
      url: `${appUrl}/admin/pitches/${row.id}`,
    };
  });
  return { pitches, total };
}

const CHECK_EVERY_MS = 5 * 60 * 1000;

/**
 * Check at start and every few minutes whether today's summary is due and
 * unclaimed, and if so send it. Returns the stop function.
 */
export function startPitchSummary(intervalMs = CHECK_EVERY_MS): () => void {
  return repeatEvery(intervalMs, "daily pitch summary failed", () => {
    const run = runPitchSummary();
    if (!run.claimed) return;
    log("info", `Daily pitch summary ${run.key}: ${run.queued ? `mail queued (${run.dueToday} due today, ${run.overdue} overdue)` : "nothing due or overdue, no mail"}`, {
      key: run.key,
      dueToday: run.dueToday,
      overdue: run.overdue,
    });
    if (run.queued) kickMailer();
  });
}
