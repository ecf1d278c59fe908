import { and, asc, count, desc, eq, inArray, max, sql, type SQL } from "drizzle-orm";
import { getDb, type Db } from "~/modules/db/connection.server";
import { auditEvents, lpUsers } from "../../../db/schema";
import { investorSearchMatches } from "./admin-search.server";
import { cleanInvestorQuery } from "./investor-search";
import type { LpUser } from "./lp-users.server";
import { USER_STATUSES, type UserStatus } from "./schema";

/** The investors page's views (issue 23): a status tab, a sort and a search. */
export type InvestorFilter = "all" | UserStatus;
export type InvestorSort = "name" | "date";
export type InvestorView = { status: InvestorFilter; sort: InvestorSort; dir: "asc" | "desc"; query?: string };

/** The largest window listInvestorTable answers. */
const MAX_LIMIT = 200;

/** Investors (never admins), of one status or of all. */
function investorsIn(status: InvestorFilter, query: string): SQL | undefined {
  const own = status === "all" ? eq(lpUsers.isAdmin, false) : and(eq(lpUsers.status, status), eq(lpUsers.isAdmin, false));
  return query ? and(own, investorSearchMatches(query)) : own;
}

/** One status's count (of those matching `query`); exported for the query-plan test. */
export function investorCountQuery(status: UserStatus, query: string, db: Db = getDb()) {
  return db.select({ n: count() }).from(lpUsers).where(investorsIn(status, cleanInvestorQuery(query)));
}

/**
 * How many investors each status has (those matching `query`, when given):
 * one count per status, each a range of lp_users_status_created_at_idx
 * (status, is_admin, …), or with a search of lp_users_status_search_idx, whose
 * entries hold the folded text; the table is not read.
 */
export function countInvestors(query = "", db: Db = getDb()): Record<UserStatus, number> {
  const counts = {} as Record<UserStatus, number>;
  for (const status of USER_STATUSES) counts[status] = investorCountQuery(status, query, db).get()?.n ?? 0;
  return counts;
}

/** The window's query of listInvestorTable; exported for the query-plan test. */
export function investorTableQuery(view: InvestorView, window: { offset: number; limit: number }, db: Db = getDb()) {
  const order = view.dir === "asc" ? asc : desc;
  const key = view.sort === "name" ? sql`fold_case(${lpUsers.name})` : lpUsers.createdAt;
  return db
    .select()
    .from(lpUsers)
    .where(investorsIn(view.status, cleanInvestorQuery(view.query)))
    .orderBy(order(key), order(sql`rowid`))
    .limit(Math.min(Math.max(Math.floor(window.limit), 0), MAX_LIMIT))
    .offset(Math.max(Math.floor(window.offset), 0));
}

/**
 * One window of the investors table, in the view's order. Newest first
 * (the default) walks lp_users_status_created_at_idx, or for all statuses
 * lp_users_admin_created_at_idx, with the rowid breaking ties, so every page
 * is deterministic. By name: fold_case(name) (decision 015), which reads the
 * status's rows and keeps the window's worth.
 */
export function listInvestorTable(view: InvestorView, window: { offset: number; limit: number }, db: Db = getDb()): LpUser[] {
  return window.limit < 1 ? [] : investorTableQuery(view, window, db).all();
}

/**
 * When each of these investors was last approved, from the audit trail
 * (`user.status_changed` to approved; audit_events_target_id_at_idx): the
 * investors table shows it beside the request date. An approval older than
 * the trail's retention, or an account made approved (admin:create), has none.
 */
export function approvalDates(userIds: readonly string[], db: Db = getDb()): Map<string, Date> {
  if (userIds.length === 0) return new Map();
  const rows = db
    .select({ id: auditEvents.targetId, at: max(auditEvents.at) })
    .from(auditEvents)
    .where(
      and(
        inArray(auditEvents.targetId, [...userIds]),
        eq(auditEvents.event, "user.status_changed"),
        sql`json_extract(${auditEvents.details}, '$.to') = 'approved'`,
      ),
    )
    .groupBy(auditEvents.targetId)
    .all();
  return new Map(rows.flatMap((row) => (row.id && row.at ? [[row.id, row.at] as const] : [])));
}
