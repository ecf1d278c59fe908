import { and, asc, eq, inArray } from "drizzle-orm";
import { ledgerReference } from "~/content/capital";
import { getDb, type Db } from "~/modules/db/connection.server";
import { callPayments, commitments, entities, entityMembers, ledgerAllocations, ledgerEntries, ledgerLines, valuations } from "../../../db/schema";
import type { LpUser } from "../auth/session.server";
import { capitalMetrics, type IrrNote } from "../capital/metrics";
import { toDecimalString } from "../capital/money";
import { listFunds, type Fund } from "../funds/funds.server";
import { callBalances, readEntry, type LedgerEntryRead } from "../ledger/ledger.server";

/**
 * The investor's capital account (issue 24 §8, DESIGN.md §10): for each
 * entity they are a member of, and each fund where it has a commitment, the
 * figures (commitment, called, paid in, outstanding, unfunded, distributed,
 * NAV), the multiples and IRR as of the latest valuation (capital/metrics.ts),
 * and the flows: published calls (by notice date) and distributions (by
 * payment date) line by line, payments received, and valuations. Only
 * published entries count; a draft is the firm's, not the investor's. The
 * one membership rule decides what is read: another entity is never touched.
 */

export type FlowKind = "call" | "payment" | "distribution" | "valuation";

export type CapitalFlow = { date: string; kind: FlowKind; type: string | null; amount: string; reference: string | null; entryId: string | null };

export type FundAccount = {
  fund: { slug: string; name: string; currency: string };
  commitment: string;
  called: string;
  paidIn: string;
  outstanding: string;
  unfunded: string;
  distributed: string;
  nav: string | null;
  navDate: string | null;
  asOf: string | null;
  dpi: number | null;
  rvpi: number | null;
  tvpi: number | null;
  irr: number | null;
  irrNote: IrrNote | null;
  flows: CapitalFlow[];
};

export type EntityAccount = { id: string; name: string; role: "owner" | "viewer"; funds: FundAccount[] };

type Reader = Pick<Db, "select">;

/** The order flows are listed in on a day: what was asked, what came in, what went out, what it is worth. */
const KIND_ORDER: Record<FlowKind, number> = { call: 0, payment: 1, distribution: 2, valuation: 3 };

function fundAccount(db: Reader, fund: Fund, entityId: string, commitmentMinor: bigint): FundAccount {
  const money = (minor: bigint) => toDecimalString(minor, fund.currency);
  const shares = db
    .select({
      entryId: ledgerEntries.id,
      kind: ledgerEntries.kind,
      number: ledgerEntries.number,
      date: ledgerEntries.date,
      type: ledgerLines.type,
      recallable: ledgerLines.recallable,
      amountMinor: ledgerAllocations.amountMinor,
    })
    .from(ledgerAllocations)
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, ledgerAllocations.entryId))
    .innerJoin(ledgerLines, and(eq(ledgerLines.entryId, ledgerAllocations.entryId), eq(ledgerLines.position, ledgerAllocations.position)))
    .where(and(eq(ledgerAllocations.entityId, entityId), eq(ledgerEntries.fundId, fund.id), eq(ledgerEntries.status, "published")))
    .orderBy(asc(ledgerEntries.date), asc(ledgerEntries.number), asc(ledgerAllocations.position))
    .all();
  const payments = db
    .select({ entryId: callPayments.entryId, receivedOn: callPayments.receivedOn, amountMinor: callPayments.amountMinor, number: ledgerEntries.number })
    .from(callPayments)
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, callPayments.entryId))
    .where(and(eq(callPayments.entityId, entityId), eq(ledgerEntries.fundId, fund.id)))
    .all();
  const navs = db
    .select({ date: valuations.date, navMinor: valuations.navMinor })
    .from(valuations)
    .where(and(eq(valuations.entityId, entityId), eq(valuations.fundId, fund.id)))
    .orderBy(asc(valuations.date))
    .all();

  // A call counts from its notice date, a distribution from its payment date (the entry's date), per entry.
  const byEntry = new Map<string, { kind: "call" | "distribution"; date: string; amount: bigint; recallable: bigint }>();
  for (const share of shares) {
    const entry = byEntry.get(share.entryId) ?? { kind: share.kind, date: share.date, amount: 0n, recallable: 0n };
    entry.amount += BigInt(share.amountMinor);
    if (share.recallable) entry.recallable += BigInt(share.amountMinor);
    byEntry.set(share.entryId, entry);
  }
  const entries = [...byEntry.values()];
  const metrics = capitalMetrics({
    commitment: commitmentMinor,
    calls: entries.filter((e) => e.kind === "call").map((e) => ({ date: e.date, amount: e.amount })),
    payments: payments.map((p) => ({ date: p.receivedOn, amount: BigInt(p.amountMinor) })),
    distributions: entries.filter((e) => e.kind === "distribution").map((e) => ({ date: e.date, amount: e.amount, recallable: e.recallable })),
    valuations: navs.map((v) => ({ date: v.date, nav: BigInt(v.navMinor) })),
  });

  const flows: CapitalFlow[] = [
    ...shares.map((s) => ({
      date: s.date,
      kind: s.kind as FlowKind,
      type: s.type,
      amount: money(BigInt(s.amountMinor)),
      reference: s.number === null ? null : ledgerReference(s.kind, s.number),
      entryId: s.entryId,
    })),
    ...payments.map((p) => ({
      date: p.receivedOn,
      kind: "payment" as const,
      type: null,
      amount: money(BigInt(p.amountMinor)),
      reference: p.number === null ? null : ledgerReference("call", p.number),
      entryId: p.entryId,
    })),
    ...navs.map((v) => ({ date: v.date, kind: "valuation" as const, type: null, amount: money(BigInt(v.navMinor)), reference: null, entryId: null })),
  ].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : KIND_ORDER[a.kind] - KIND_ORDER[b.kind]));

  return {
    fund: { slug: fund.slug, name: fund.name, currency: fund.currency },
    commitment: money(metrics.commitment),
    called: money(metrics.called),
    paidIn: money(metrics.paidIn),
    outstanding: money(metrics.outstanding),
    unfunded: money(metrics.unfunded),
    distributed: money(metrics.distributed),
    nav: metrics.nav === null ? null : money(metrics.nav),
    navDate: metrics.navDate,
    asOf: metrics.asOf,
    dpi: metrics.dpi,
    rvpi: metrics.rvpi,
    tvpi: metrics.tvpi,
    irr: metrics.irr,
    irrNote: metrics.irrNote,
    flows,
  };
}

/** The capital account of every entity `user` is a member of, by entity name, each fund by vintage. */
export function capitalAccountFor(user: Pick<LpUser, "id">, db: Reader = getDb()): EntityAccount[] {
  const memberships = db
    .select({ id: entities.id, name: entities.name, role: entityMembers.role })
    .from(entityMembers)
    .innerJoin(entities, eq(entities.id, entityMembers.entityId))
    .where(eq(entityMembers.userId, user.id))
    .all()
    .sort((a, b) => a.name.localeCompare(b.name, "en") || (a.id < b.id ? -1 : 1));
  if (!memberships.length) return [];
  const funds = listFunds(db);
  const held = db
    .select()
    .from(commitments)
    .where(
      inArray(
        commitments.entityId,
        memberships.map((m) => m.id),
      ),
    )
    .all();
  return memberships.map((entity) => ({
    id: entity.id,
    name: entity.name,
    role: entity.role,
    funds: funds.flatMap((fund) => {
      const commitment = held.find((c) => c.entityId === entity.id && c.fundId === fund.id);
      return commitment ? [fundAccount(db, fund, entity.id, BigInt(commitment.amountMinor))] : [];
    }),
  }));
}

/** A published call's or distribution's notice as a member reads it: the entry, and their entities' shares with what each still owes. */
export type Notice = {
  entry: LedgerEntryRead;
  fund: { slug: string; name: string; currency: string; paymentInstructions: string | null };
  shares: { entityId: string; entityName: string; amount: string; lines: { type: string; amount: string }[]; received: string; outstanding: string }[];
};

/**
 * The notice of entry `id` for `user`: only a published entry, and only the
 * shares of the entities they are a member of; anything else (a draft, an
 * entry that asks nothing of their entities, an unknown id) is the unknown
 * id's 404, the same answer for all.
 */
export function noticeFor(user: Pick<LpUser, "id">, id: string, db: Reader = getDb()): Notice | null {
  const entry = db.select().from(ledgerEntries).where(eq(ledgerEntries.id, id)).get();
  if (!entry || entry.status !== "published") return null;
  const mine = new Set(
    db
      .select({ id: entityMembers.entityId })
      .from(entityMembers)
      .where(eq(entityMembers.userId, user.id))
      .all()
      .map((r) => r.id),
  );
  const read = readEntry(id, db);
  const shares = read.allocations.filter((a) => mine.has(a.entityId));
  if (!shares.length) return null;
  const fund = listFunds(db).find((f) => f.id === entry.fundId)!;
  const balances = entry.kind === "call" ? new Map(callBalances(id, db).map((b) => [b.entityId, b])) : new Map<string, never>();
  const money = (minor: bigint) => toDecimalString(minor, fund.currency);
  return {
    entry: read,
    fund: { slug: fund.slug, name: fund.name, currency: fund.currency, paymentInstructions: fund.paymentInstructions },
    shares: shares.map((share) => {
      const balance = balances.get(share.entityId);
      return {
        entityId: share.entityId,
        entityName: share.entityName,
        amount: share.amount,
        lines: share.lines,
        received: money(balance?.received ?? 0n),
        outstanding: money(balance?.outstanding ?? 0n),
      };
    }),
  };
}
