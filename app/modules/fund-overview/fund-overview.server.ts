import { and, asc, desc, eq, sql } from "drizzle-orm";
import { getDb, type Db } from "~/modules/db/connection.server";
import { callPayments, commitments, entities, ledgerEntries, ledgerLines, valuations } from "../../../db/schema";
import { toDecimalString } from "../capital/money";
import { listFunds, type Fund } from "../funds/funds.server";

/**
 * The admin's view of a fund (issue 24 §9): its totals (commitments, called
 * and the share of commitments called, paid in, distributed, the latest NAV,
 * the number of entities) and, on its page, its commitments, calls,
 * distributions and valuation dates. Published entries count in the totals;
 * drafts are listed, marked. Every figure is a sum in SQL over the fund's
 * rows: the page reads a few aggregates, not the ledger, at 2,000 entities.
 */

type Reader = Pick<Db, "select">;

export type FundTotals = {
  slug: string;
  name: string;
  currency: string;
  vintageYear: number;
  status: "closed" | "open";
  entities: number;
  commitments: string;
  called: string;
  /** called ÷ commitments, as a fraction (0.4 = 40 %); null without commitments. */
  calledShare: number | null;
  paidIn: string;
  distributed: string;
  nav: string | null;
  navDate: string | null;
};

function totalsOf(db: Reader, fund: Fund): FundTotals {
  const money = (minor: number | bigint | null) => toDecimalString(BigInt(minor ?? 0), fund.currency);
  const committed = db
    .select({ n: sql<number>`count(*)`, total: sql<number>`coalesce(sum(${commitments.amountMinor}), 0)` })
    .from(commitments)
    .where(eq(commitments.fundId, fund.id))
    .get() ?? { n: 0, total: 0 };
  const published = (kind: "call" | "distribution") =>
    db
      .select({ total: sql<number>`coalesce(sum(${ledgerLines.amountMinor}), 0)` })
      .from(ledgerLines)
      .innerJoin(ledgerEntries, eq(ledgerEntries.id, ledgerLines.entryId))
      .where(and(eq(ledgerEntries.fundId, fund.id), eq(ledgerEntries.kind, kind), eq(ledgerEntries.status, "published")))
      .get()?.total ?? 0;
  const paid =
    db
      .select({ total: sql<number>`coalesce(sum(${callPayments.amountMinor}), 0)` })
      .from(callPayments)
      .innerJoin(ledgerEntries, eq(ledgerEntries.id, callPayments.entryId))
      .where(eq(ledgerEntries.fundId, fund.id))
      .get()?.total ?? 0;
  const latest = db.select({ date: sql<string | null>`max(${valuations.date})` }).from(valuations).where(eq(valuations.fundId, fund.id)).get()?.date ?? null;
  const nav = latest
    ? (db
        .select({ total: sql<number>`coalesce(sum(${valuations.navMinor}), 0)` })
        .from(valuations)
        .where(and(eq(valuations.fundId, fund.id), eq(valuations.date, latest)))
        .get()?.total ?? 0)
    : null;
  const called = published("call");
  return {
    slug: fund.slug,
    name: fund.name,
    currency: fund.currency,
    vintageYear: fund.vintageYear,
    status: fund.status,
    entities: committed.n,
    commitments: money(committed.total),
    called: money(called),
    calledShare: committed.total > 0 ? Math.round((called / committed.total) * 10_000) / 10_000 : null,
    paidIn: money(paid),
    distributed: money(published("distribution")),
    nav: nav === null ? null : money(nav),
    navDate: latest,
  };
}

/** Every fund's totals, oldest vintage first (/admin/funds). */
export function fundTotals(db: Reader = getDb()): FundTotals[] {
  return listFunds(db).map((fund) => totalsOf(db, fund));
}

/**
 * One fund's page: its totals, one page of its commitments (by entity name;
 * `range`, 50 by default), ledger entries (newest first) and valuation dates.
 */
export function fundDetail(slug: string, range: { offset: number; limit: number } = { offset: 0, limit: 50 }, db: Reader = getDb()) {
  const fund = listFunds(db).find((f) => f.slug === slug);
  if (!fund) return null;
  const money = (minor: number | bigint) => toDecimalString(BigInt(minor), fund.currency);
  const held = db
    .select({ id: commitments.id, entityId: commitments.entityId, name: entities.name, amountMinor: commitments.amountMinor, acceptedOn: commitments.acceptedOn })
    .from(commitments)
    .innerJoin(entities, eq(entities.id, commitments.entityId))
    .where(eq(commitments.fundId, fund.id))
    .orderBy(sql`${entities.name} collate nocase`, asc(entities.id))
    .limit(range.limit)
    .offset(range.offset)
    .all();
  const entries = db
    .select({
      id: ledgerEntries.id,
      kind: ledgerEntries.kind,
      status: ledgerEntries.status,
      number: ledgerEntries.number,
      date: ledgerEntries.date,
      dueDate: ledgerEntries.dueDate,
      correctionOf: ledgerEntries.correctionOf,
      // Correlated subqueries name the outer row in full: in a one-table select drizzle writes a
      // column unqualified ("id"), which inside the subquery would be the inner table's own.
      total: sql<number>`(select coalesce(sum(l.amount_minor), 0) from ledger_lines l where l.entry_id = "ledger_entries"."id")`,
      // From call_payments_entry_idx alone (entry, entity, amount): the rows are never read.
      paid: sql<number>`(select coalesce(sum(p.amount_minor), 0) from call_payments p where p.entry_id = "ledger_entries"."id")`,
    })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.fundId, fund.id))
    .orderBy(desc(ledgerEntries.date), desc(ledgerEntries.createdAt))
    .all();
  const valuationDates = db
    .select({ date: valuations.date, n: sql<number>`count(*)`, total: sql<number>`sum(${valuations.navMinor})` })
    .from(valuations)
    .where(eq(valuations.fundId, fund.id))
    .groupBy(valuations.date)
    .orderBy(desc(valuations.date))
    .all();
  return {
    totals: totalsOf(db, fund),
    commitments: held.map((c) => ({ id: c.id, entityId: c.entityId, name: c.name, amount: money(c.amountMinor), acceptedOn: c.acceptedOn })),
    entries: entries.map((e) => ({ ...e, total: money(e.total), paid: money(e.paid) })),
    valuations: valuationDates.map((v) => ({ date: v.date, entities: v.n, total: money(v.total) })),
  };
}
