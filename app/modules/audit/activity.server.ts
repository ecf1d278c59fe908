import { and, eq, gte, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { getDb, type Db } from "~/modules/db/connection.server";
import { auditEvents } from "../../../db/schema";
import type { LpUser } from "../auth/session.server";
import { audit } from "./audit.server";
import type { ActivityCursor, ActivityFilters } from "./schema";

/**
 * Reading the audit trail: the activity page's pages and its CSV export.
 * Newest first, ordered by (at, id); pages are keyset windows ('older than
 * this row', 'newer than this row'), so a page costs the same at a million
 * rows as at a hundred and no count is ever taken.
 */

export const ACTIVITY_PAGE_SIZE = 50;

export type AuditRow = typeof auditEvents.$inferSelect;

const DAY_MS = 86_400_000;

function whereOf(filters: ActivityFilters): SQL[] {
  const where: SQL[] = [];
  if (filters.event) where.push(eq(auditEvents.event, filters.event));
  if (filters.actor) {
    where.push(filters.actor === "visitor" ? isNull(auditEvents.actorEmail) : eq(auditEvents.actorEmail, filters.actor));
  }
  if (filters.target) {
    const byLabel = sql`${auditEvents.targetLabel} = ${filters.target} collate nocase`;
    where.push(or(eq(auditEvents.targetId, filters.target), byLabel) as SQL);
  }
  if (filters.from) where.push(gte(auditEvents.at, new Date(`${filters.from}T00:00:00Z`)));
  if (filters.to) where.push(lt(auditEvents.at, new Date(Date.parse(`${filters.to}T00:00:00Z`) + DAY_MS)));
  return where;
}

const olderThan = (c: ActivityCursor) => sql`(${auditEvents.at}, ${auditEvents.id}) < (${c.at}, ${c.id})`;
const newerThan = (c: ActivityCursor) => sql`(${auditEvents.at}, ${auditEvents.id}) > (${c.at}, ${c.id})`;

function cursorOf(row: AuditRow): ActivityCursor {
  return { at: row.at.getTime(), id: row.id };
}

function newestFirst(filters: ActivityFilters, limit: number, before: ActivityCursor | null, db: Db): AuditRow[] {
  return db
    .select()
    .from(auditEvents)
    .where(and(...whereOf(filters), before ? olderThan(before) : undefined))
    .orderBy(sql`${auditEvents.at} desc, ${auditEvents.id} desc`)
    .limit(limit)
    .all();
}

export type ActivityPage = {
  rows: AuditRow[];
  /** The link to the next newer page ('after' this), or null on the newest page. */
  newer: ActivityCursor | null;
  /** The link to the next older page ('before' this), or null on the oldest. */
  older: ActivityCursor | null;
};

/**
 * One page of the filtered trail: the newest, the one older than `before`, or
 * the one newer than `after` (a short newer page becomes the newest page).
 */
export function listActivity(
  filters: ActivityFilters,
  position: { before?: ActivityCursor | null; after?: ActivityCursor | null } = {},
  limit = ACTIVITY_PAGE_SIZE,
  db: Db = getDb(),
): ActivityPage {
  if (position.after) {
    const newer = db
      .select()
      .from(auditEvents)
      .where(and(...whereOf(filters), newerThan(position.after)))
      .orderBy(sql`${auditEvents.at} asc, ${auditEvents.id} asc`)
      .limit(limit + 1)
      .all();
    if (newer.length > limit) {
      const rows = newer.slice(0, limit).reverse();
      return { rows, newer: cursorOf(rows[0] as AuditRow), older: cursorOf(rows[rows.length - 1] as AuditRow) };
    }
    return listActivity(filters, {}, limit, db);
  }
  const before = position.before ?? null;
  const found = newestFirst(filters, limit + 1, before, db);
  const rows = found.slice(0, limit);
  return {
    rows,
    newer: before && rows[0] ? cursorOf(rows[0]) : null,
    older: found.length > limit ? cursorOf(rows[rows.length - 1] as AuditRow) : null,
  };
}

/**
 * Every row that matches, newest first, in batches read one synchronous query
 * at a time (nothing held open between them), for a streamed export. The
 * export is recorded in the trail first, with its filters.
 */
export function exportActivity(
  admin: Pick<LpUser, "id" | "email">,
  filters: ActivityFilters,
  batchSize = 2000,
  db: Db = getDb(),
): Generator<AuditRow[]> {
  audit(db, "audit.exported", {
    actor: { id: admin.id, email: admin.email },
    target: { type: "audit_trail", label: "activity" },
    details: { filters },
  });
  return batches(filters, batchSize, db);
}

function* batches(filters: ActivityFilters, batchSize: number, db: Db): Generator<AuditRow[]> {
  let before: ActivityCursor | null = null;
  for (;;) {
    const batch = newestFirst(filters, batchSize, before, db);
    if (batch.length > 0) yield batch;
    if (batch.length < batchSize) return;
    before = cursorOf(batch[batch.length - 1] as AuditRow);
  }
}
