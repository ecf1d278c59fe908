import { and, asc, eq, lte, sql } from "drizzle-orm";
import { getDb, type Db } from "~/modules/db/connection.server";
import { callPayments, commitmentChanges, commitments, entities, ledgerAllocations, ledgerEntries, ledgerLines, pnlRows, valuations } from "../../../db/schema";
import { quarterOf } from "./quarter";
import type { EntityFundHistory } from "./rollforward";
import type { PnlAmounts } from "./types";

/**
 * The roll-forward's inputs for a whole fund (issue 25, decision 041): for
 * every entity with a commitment in the fund, its EntityFundHistory up to
 * `throughDate` (a quarter's end): the commitment's amounts, its shares of
 * the **published** calls (by notice date up to it, each with its due date)
 * and distributions (with the recallable part), its payments, valuations and
 * P&L rows (the quarters up to the date's).
 *
 * Seven queries whatever the number of entities (one per table, grouped and
 * summed in SQL where the statement needs only an entry's total), then
 * grouped by entity here: 2,000 entities with ten years of quarters read in a
 * few hundred milliseconds.
 */

export type FundHistory = { entity: { id: string; name: string }; history: EntityFundHistory };

type Reader = Pick<Db, "select">;

type MutableHistory = {
  commitmentChanges: { effectiveOn: string; amount: bigint }[];
  calls: { noticeDate: string; dueDate: string; amount: bigint }[];
  distributions: { date: string; amount: bigint; recallable: bigint }[];
  valuations: { date: string; nav: bigint }[];
  pnl: Map<string, PnlAmounts>;
  payments: { date: string; amount: bigint }[];
};

/** Every entity with a commitment in `fundId` (by name, then id), with its history through `throughDate`. */
export function readFundHistories(fundId: string, throughDate: string, db: Reader = getDb()): Map<string, FundHistory> {
  const held = db
    .select({ commitmentId: commitments.id, entityId: commitments.entityId, name: entities.name })
    .from(commitments)
    .innerJoin(entities, eq(entities.id, commitments.entityId))
    .where(eq(commitments.fundId, fundId))
    .orderBy(sql`${entities.name} collate nocase`, asc(entities.id))
    .all();

  const result = new Map<string, FundHistory>();
  const histories = new Map<string, MutableHistory>();
  const entityOfCommitment = new Map<string, string>();
  for (const row of held) {
    const history: MutableHistory = { commitmentChanges: [], calls: [], distributions: [], valuations: [], pnl: new Map(), payments: [] };
    histories.set(row.entityId, history);
    entityOfCommitment.set(row.commitmentId, row.entityId);
    result.set(row.entityId, { entity: { id: row.entityId, name: row.name }, history });
  }
  if (!held.length) return result;

  for (const change of db
    .select({ commitmentId: commitmentChanges.commitmentId, amountMinor: commitmentChanges.amountMinor, effectiveOn: commitmentChanges.effectiveOn })
    .from(commitmentChanges)
    .innerJoin(commitments, eq(commitments.id, commitmentChanges.commitmentId))
    .where(and(eq(commitments.fundId, fundId), lte(commitmentChanges.effectiveOn, throughDate)))
    .orderBy(asc(commitmentChanges.effectiveOn), asc(commitmentChanges.createdAt), asc(sql`${commitmentChanges}.rowid`))
    .all()) {
    histories.get(entityOfCommitment.get(change.commitmentId)!)?.commitmentChanges.push({ effectiveOn: change.effectiveOn, amount: BigInt(change.amountMinor) });
  }

  // Rows are read as arrays (`values()`), unordered: 2,000 entities × 40 quarters are some 300,000 of them,
  // and neither the roll-forward nor the chart needs them in order.
  const published = (kind: "call" | "distribution") => and(eq(ledgerEntries.fundId, fundId), eq(ledgerEntries.kind, kind), eq(ledgerEntries.status, "published"), lte(ledgerEntries.date, throughDate));
  // Each published call's share per entity, summed over its lines (noticed by the date).
  const calls = db
    .select({ entityId: ledgerAllocations.entityId, date: ledgerEntries.date, dueDate: ledgerEntries.dueDate, amount: sql<number>`sum(${ledgerAllocations.amountMinor})` })
    .from(ledgerEntries)
    .innerJoin(ledgerAllocations, eq(ledgerAllocations.entryId, ledgerEntries.id))
    .where(published("call"))
    .groupBy(ledgerAllocations.entryId, ledgerAllocations.entityId)
    .values() as [string, string, string | null, number][];
  for (const [entityId, date, dueDate, amount] of calls) histories.get(entityId)?.calls.push({ noticeDate: date, dueDate: dueDate ?? date, amount: BigInt(amount) });

  // Each published distribution's share per entity (paid by the date), with its recallable part.
  const distributions = db
    .select({
      entityId: ledgerAllocations.entityId,
      date: ledgerEntries.date,
      amount: sql<number>`sum(${ledgerAllocations.amountMinor})`,
      recallable: sql<number>`sum(case when ${ledgerLines.recallable} then ${ledgerAllocations.amountMinor} else 0 end)`,
    })
    .from(ledgerEntries)
    .innerJoin(ledgerAllocations, eq(ledgerAllocations.entryId, ledgerEntries.id))
    .innerJoin(ledgerLines, and(eq(ledgerLines.entryId, ledgerAllocations.entryId), eq(ledgerLines.position, ledgerAllocations.position)))
    .where(published("distribution"))
    .groupBy(ledgerAllocations.entryId, ledgerAllocations.entityId)
    .values() as [string, string, number, number][];
  for (const [entityId, date, amount, recallable] of distributions) histories.get(entityId)?.distributions.push({ date, amount: BigInt(amount), recallable: BigInt(recallable) });

  const payments = db
    .select({ entityId: callPayments.entityId, date: callPayments.receivedOn, amountMinor: callPayments.amountMinor })
    .from(callPayments)
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, callPayments.entryId))
    .where(and(eq(ledgerEntries.fundId, fundId), lte(callPayments.receivedOn, throughDate)))
    .values() as [string, string, number][];
  for (const [entityId, date, amount] of payments) histories.get(entityId)?.payments.push({ date, amount: BigInt(amount) });

  const navs = db
    .select({ entityId: valuations.entityId, date: valuations.date, navMinor: valuations.navMinor })
    .from(valuations)
    .where(and(eq(valuations.fundId, fundId), lte(valuations.date, throughDate)))
    .values() as [string, string, number][];
  for (const [entityId, date, nav] of navs) histories.get(entityId)?.valuations.push({ date, nav: BigInt(nav) });

  const pnl = db
    .select({
      entityId: pnlRows.entityId,
      quarter: pnlRows.quarter,
      managementFees: pnlRows.managementFeesMinor,
      partnershipExpenses: pnlRows.partnershipExpensesMinor,
      otherIncome: pnlRows.otherIncomeMinor,
      realizedGain: pnlRows.realizedGainMinor,
      unrealizedGainChange: pnlRows.unrealizedGainChangeMinor,
      carriedInterestChange: pnlRows.carriedInterestChangeMinor,
    })
    .from(pnlRows)
    .where(and(eq(pnlRows.fundId, fundId), lte(pnlRows.quarter, quarterOf(throughDate))))
    .values() as [string, string, number, number, number, number, number, number][];
  for (const [entityId, quarter, managementFees, partnershipExpenses, otherIncome, realizedGain, unrealizedGainChange, carriedInterestChange] of pnl) {
    histories.get(entityId)?.pnl.set(quarter, {
      managementFees: BigInt(managementFees),
      partnershipExpenses: BigInt(partnershipExpenses),
      otherIncome: BigInt(otherIncome),
      realizedGain: BigInt(realizedGain),
      unrealizedGainChange: BigInt(unrealizedGainChange),
      carriedInterestChange: BigInt(carriedInterestChange),
    });
  }
  return result;
}

/** A pnl_rows row's six amounts as bigint. */
export function pnlAmountsOf(row: typeof pnlRows.$inferSelect): PnlAmounts {
  return {
    managementFees: BigInt(row.managementFeesMinor),
    partnershipExpenses: BigInt(row.partnershipExpensesMinor),
    otherIncome: BigInt(row.otherIncomeMinor),
    realizedGain: BigInt(row.realizedGainMinor),
    unrealizedGainChange: BigInt(row.unrealizedGainChangeMinor),
    carriedInterestChange: BigInt(row.carriedInterestChangeMinor),
  };
}
