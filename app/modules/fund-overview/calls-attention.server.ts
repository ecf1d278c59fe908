import { and, asc, eq, gt, inArray, lte, sql } from "drizzle-orm";
import { callPayments, entities, funds, ledgerAllocations, ledgerEntries, ledgerLines } from "../../../db/schema";
import { getDb, type Db } from "../db/connection.server";
import { addCalendarDays } from "../pitch-clock/clock.server";

type Reader = Pick<Db, "select">;

/** A published call with money still owed: its fund, number, due date and what is outstanding (minor units). */
export type OpenCall = { id: string; fundName: string; currency: string; number: number | null; dueDate: string; outstanding: bigint; entitiesOwing: number };

/** One entity's unpaid part of a call whose due date has passed. */
export type OverduePayment = { callId: string; fundName: string; currency: string; number: number | null; dueDate: string; entityId: string; entityName: string; outstanding: bigint };

/** How many days ahead "due this week" looks, today included. */
export const DUE_SOON_DAYS = 7;

/**
 * What the admin overview shows of the capital calls (issue 24 §9): the
 * published calls due in the next 7 days (today, on the firm's calendar in
 * Zurich, and the 6 days after) that are not paid in full, and every entity's
 * overdue payment (a call past its due date, not paid in full).
 *
 * A call's total due is the sum of its lines (the allocation splits each line
 * to the cent), so the calls still owed money are found from the lines and
 * the payments alone; only those calls' allocations are read, however long
 * the fund's history.
 */
export function callsNeedingAttention(today: string, db: Reader = getDb()): { dueSoon: OpenCall[]; overdue: OverduePayment[] } {
  const lastDay = addCalendarDays(today, DUE_SOON_DAYS - 1);
  const due = sql<number>`(SELECT coalesce(sum(${ledgerLines.amountMinor}), 0) FROM ${ledgerLines} WHERE ${ledgerLines.entryId} = ${ledgerEntries.id})`;
  const paid = sql<number>`(SELECT coalesce(sum(${callPayments.amountMinor}), 0) FROM ${callPayments} WHERE ${callPayments.entryId} = ${ledgerEntries.id})`;
  const open = db
    .select({ id: ledgerEntries.id, fundName: funds.name, currency: funds.currency, number: ledgerEntries.number, dueDate: ledgerEntries.dueDate, due, paid })
    .from(ledgerEntries)
    .innerJoin(funds, eq(funds.id, ledgerEntries.fundId))
    .where(and(eq(ledgerEntries.kind, "call"), eq(ledgerEntries.status, "published"), lte(ledgerEntries.dueDate, lastDay), gt(due, paid)))
    .orderBy(asc(ledgerEntries.dueDate), asc(ledgerEntries.number))
    .all();
  if (open.length === 0) return { dueSoon: [], overdue: [] };

  // Each open call's entities that still owe: allocation per entity less its payments.
  const owed = sql<number>`sum(${ledgerAllocations.amountMinor}) - coalesce((SELECT sum(${callPayments.amountMinor}) FROM ${callPayments} WHERE ${callPayments.entryId} = ${ledgerAllocations.entryId} AND ${callPayments.entityId} = ${ledgerAllocations.entityId}), 0)`;
  const owing = db
    .select({ entryId: ledgerAllocations.entryId, entityId: ledgerAllocations.entityId, entityName: entities.name, owed })
    .from(ledgerAllocations)
    .innerJoin(entities, eq(entities.id, ledgerAllocations.entityId))
    .where(inArray(ledgerAllocations.entryId, open.map((c) => c.id)))
    .groupBy(ledgerAllocations.entryId, ledgerAllocations.entityId)
    .having(gt(owed, 0))
    .orderBy(asc(entities.name))
    .all();

  const dueSoon: OpenCall[] = open
    .filter((c) => c.dueDate! >= today)
    .map((c) => ({
      id: c.id,
      fundName: c.fundName,
      currency: c.currency,
      number: c.number,
      dueDate: c.dueDate!,
      outstanding: BigInt(c.due) - BigInt(c.paid),
      entitiesOwing: owing.filter((o) => o.entryId === c.id).length,
    }));
  const byId = new Map(open.map((c) => [c.id, c]));
  const overdue: OverduePayment[] = owing
    .filter((o) => byId.get(o.entryId)!.dueDate! < today)
    .map((o) => {
      const c = byId.get(o.entryId)!;
      return { callId: c.id, fundName: c.fundName, currency: c.currency, number: c.number, dueDate: c.dueDate!, entityId: o.entityId, entityName: o.entityName, outstanding: BigInt(o.owed) };
    })
    .sort((a, b) => a.dueDate.localeCompare(b.dueDate) || a.entityName.localeCompare(b.entityName));
  return { dueSoon, overdue };
}
