import { and, asc, count, desc, eq, gte, sql } from "drizzle-orm";
import { getDb, type Db } from "~/modules/db/connection.server";
import { documents, fundAccessUsers, lpUsers } from "../../../db/schema";
import { countList } from "../email-lists/email-lists.server";
import { now } from "../config/clock.server";
import type { FundAccessRequest } from "../fund-access/fund-access.server";
import type { LpUser } from "../lp-users/lp-users.server";
import { pitchClockCounts } from "../pitch-inbox/inbox.server";

/** How far back the overview and the navigation look for new Fund II requests. */
export const RECENT_REQUEST_DAYS = 7;
/** The overview lists at most this many of the recent Fund II requests (the total is shown too). */
export const RECENT_REQUEST_LIMIT = 20;

const DAY_MS = 24 * 60 * 60 * 1000;

const pendingInvestors = and(eq(lpUsers.status, "pending"), eq(lpUsers.isAdmin, false));

function recentFundIiRequests(at: Date) {
  const since = new Date(at.getTime() - RECENT_REQUEST_DAYS * DAY_MS);
  return and(eq(fundAccessUsers.fundId, "fund-ii"), gte(fundAccessUsers.createdAt, since));
}

/** What waits for an admin, counted for the navigation's badges (each an index range). */
export function waitingCounts(
  db: Db = getDb(),
  at: Date = now(),
): { pendingInvestors: number; recentFundIiRequests: number; pitchesDueSoon: number } {
  return {
    pendingInvestors: db.select({ n: count() }).from(lpUsers).where(pendingInvestors).get()?.n ?? 0,
    recentFundIiRequests: db.select({ n: count() }).from(fundAccessUsers).where(recentFundIiRequests(at)).get()?.n ?? 0,
    // Pitches due within 1 business day or overdue (modules/pitch-clock).
    pitchesDueSoon: pitchClockCounts(db, at).dueSoon,
  };
}

/** The pending investor requests that have waited longest, oldest first. */
export function oldestPendingInvestors(limit: number, db: Db = getDb()): LpUser[] {
  return db
    .select()
    .from(lpUsers)
    .where(pendingInvestors)
    .orderBy(asc(lpUsers.createdAt), asc(sql`rowid`))
    .limit(limit)
    .all();
}

/** Fund II access requests of the last RECENT_REQUEST_DAYS days, newest first, and how many there are. */
export function recentFundIiAccessRequests(
  limit = RECENT_REQUEST_LIMIT,
  db: Db = getDb(),
  at: Date = now(),
): { requests: FundAccessRequest[]; total: number } {
  const where = recentFundIiRequests(at);
  const requests = db
    .select()
    .from(fundAccessUsers)
    .where(where)
    .orderBy(desc(fundAccessUsers.createdAt), desc(sql`rowid`))
    .limit(limit)
    .all();
  const total = db.select({ n: count() }).from(fundAccessUsers).where(where).get()?.n ?? 0;
  return { requests, total };
}

/**
 * The overview's figures: approved investors, published LP documents, and confirmed newsletter
 * subscribers, counted as the e-mail lists count them (pending and unsubscribed rows are not
 * subscribers; decision 010).
 */
export function portalCounts(db: Db = getDb()): { approvedInvestors: number; documents: number; subscribers: number } {
  return {
    approvedInvestors:
      db
        .select({ n: count() })
        .from(lpUsers)
        .where(and(eq(lpUsers.status, "approved"), eq(lpUsers.isAdmin, false)))
        .get()?.n ?? 0,
    documents: db.select({ n: count() }).from(documents).get()?.n ?? 0,
    subscribers: countList("newsletter", db),
  };
}
