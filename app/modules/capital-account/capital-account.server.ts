import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { ledgerReference } from "~/content/capital";
import { getDb, type Db } from "~/modules/db/connection.server";
import { callPayments, commitments, entities, entityMembers, ledgerAllocations, ledgerEntries, ledgerLines, valuations } from "../../../db/schema";
import type { LpUser } from "../auth/session.server";
import { capitalMetrics, type IrrNote } from "../capital/metrics";
import { parseSignedAmount, sumByCurrency, toDecimalString } from "../capital/money";
import { listFunds, type Fund } from "../funds/funds.server";
import { entryHead, type LedgerEntryRead } from "../ledger/ledger.server";

/**
 * The investor's capital account (issue 24 §8, DESIGN.md §10): for each
 * entity they are a member of, and each fund where it has a commitment, the
 * figures (commitment, called, paid in, outstanding, unfunded, distributed,
 * NAV), the multiples and IRR as of the latest valuation (capital/metrics.ts),
 * and the flows: published calls (by notice date) and distributions (by
 * payment date) line by line, payments received, and valuations. Only
 * published entries count; a draft is the firm's, not the investor's. The
 * one membership rule decides what is read: another entity is never touched.
 *
 * Reads are batched: one query per table for all the investor's entities
 * (memberships, commitments, their shares of the ledger, payments,
 * valuations), grouped here by entity and fund, so five entities in two funds
 * cost the same six queries as one.
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

type Share = { entryId: string; kind: "call" | "distribution"; number: number | null; date: string; type: string; recallable: boolean; amountMinor: number };
type Payment = { entryId: string; receivedOn: string; amountMinor: number; number: number | null };
type Nav = { date: string; navMinor: number };

/** One entity's account in one fund, from its rows (already in date order). */
function fundAccount(fund: Fund, commitmentMinor: bigint, shares: readonly Share[], payments: readonly Payment[], navs: readonly Nav[]): FundAccount {
  const money = (minor: bigint) => toDecimalString(minor, fund.currency);

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

/** Rows grouped by entity and fund: `key(entityId, fundId)`. */
const key = (entityId: string, fundId: string) => `${entityId}\n${fundId}`;

function groupBy<T extends { entityId: string; fundId: string }>(rows: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row.entityId, row.fundId);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

/** The entities `userId` is a member of, with their role, by name. */
function membershipsOf(db: Reader, userId: string) {
  return db
    .select({ id: entities.id, name: entities.name, role: entityMembers.role })
    .from(entityMembers)
    .innerJoin(entities, eq(entities.id, entityMembers.entityId))
    .where(eq(entityMembers.userId, userId))
    .all()
    .sort((a, b) => a.name.localeCompare(b.name, "en") || (a.id < b.id ? -1 : 1));
}

/** The capital account of every entity `user` is a member of, by entity name, each fund by vintage. */
export function capitalAccountFor(user: Pick<LpUser, "id">, db: Reader = getDb()): EntityAccount[] {
  const memberships = membershipsOf(db, user.id);
  if (!memberships.length) return [];
  const ids = memberships.map((m) => m.id);
  const funds = listFunds(db);
  const held = db.select().from(commitments).where(inArray(commitments.entityId, ids)).all();
  const shares = groupBy(
    db
      .select({
        entityId: ledgerAllocations.entityId,
        fundId: ledgerEntries.fundId,
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
      .where(and(inArray(ledgerAllocations.entityId, ids), eq(ledgerEntries.status, "published")))
      .orderBy(asc(ledgerEntries.date), asc(ledgerEntries.number), asc(ledgerEntries.id), asc(ledgerAllocations.position))
      .all(),
  );
  const payments = groupBy(
    db
      .select({
        entityId: callPayments.entityId,
        fundId: ledgerEntries.fundId,
        entryId: callPayments.entryId,
        receivedOn: callPayments.receivedOn,
        amountMinor: callPayments.amountMinor,
        number: ledgerEntries.number,
      })
      .from(callPayments)
      .innerJoin(ledgerEntries, eq(ledgerEntries.id, callPayments.entryId))
      .where(inArray(callPayments.entityId, ids))
      .orderBy(asc(callPayments.receivedOn), asc(ledgerEntries.number), asc(callPayments.createdAt), asc(callPayments.id))
      .all(),
  );
  const navs = groupBy(
    db
      .select({ entityId: valuations.entityId, fundId: valuations.fundId, date: valuations.date, navMinor: valuations.navMinor })
      .from(valuations)
      .where(inArray(valuations.entityId, ids))
      .orderBy(asc(valuations.date))
      .all(),
  );
  const commitmentOf = new Map(held.map((c) => [key(c.entityId, c.fundId), BigInt(c.amountMinor)]));
  return memberships.map((entity) => ({
    id: entity.id,
    name: entity.name,
    role: entity.role,
    funds: funds.flatMap((fund) => {
      const k = key(entity.id, fund.id);
      const commitment = commitmentOf.get(k);
      return commitment === undefined ? [] : [fundAccount(fund, commitment, shares.get(k) ?? [], payments.get(k) ?? [], navs.get(k) ?? [])];
    }),
  }));
}

/** Totals of one currency across entities and funds (decimal strings in that currency). */
export type CurrencyTotals = {
  currency: string;
  /** How many entity-and-fund holdings are summed. */
  holdings: number;
  commitment: string;
  called: string;
  paidIn: string;
  unfunded: string;
  distributed: string;
  /** The sum of each holding's latest NAV; null when no holding in this currency has one yet. */
  nav: string | null;
};

/**
 * The combined view (issue 24 §8): the accounts summed per currency, never
 * across two (money.ts sumByCurrency), currencies in the order they first
 * appear (entities by name, funds by vintage).
 */
export function combinedByCurrency(accounts: readonly EntityAccount[]): CurrencyTotals[] {
  const holdings = accounts.flatMap((entity) => entity.funds);
  const minor = (amount: string, currency: string) => {
    const parsed = parseSignedAmount(amount, currency);
    if (!parsed.ok) throw new RangeError(`Not an amount in ${currency}: ${amount}`);
    return parsed.minor;
  };
  const total = (field: "commitment" | "called" | "paidIn" | "unfunded" | "distributed" | "nav") =>
    sumByCurrency(holdings.flatMap((h) => (h[field] === null ? [] : [{ currency: h.fund.currency, minor: minor(h[field], h.fund.currency) }])));
  const commitment = total("commitment");
  const called = total("called");
  const paidIn = total("paidIn");
  const unfunded = total("unfunded");
  const distributed = total("distributed");
  const nav = total("nav");
  return [...commitment.keys()].map((currency) => {
    const money = (sums: Map<string, bigint>) => toDecimalString(sums.get(currency) ?? 0n, currency);
    return {
      currency,
      holdings: holdings.filter((h) => h.fund.currency === currency).length,
      commitment: money(commitment),
      called: money(called),
      paidIn: money(paidIn),
      unfunded: money(unfunded),
      distributed: money(distributed),
      nav: nav.has(currency) ? money(nav) : null,
    };
  });
}

/** A notice's entry as its reader sees it: the entry and its fund-level lines, not the other entities' shares. */
export type NoticeEntry = Omit<LedgerEntryRead, "allocations" | "warnings">;

/** A published call's or distribution's notice as a member reads it: the entry, and their entities' shares with what each still owes. */
export type Notice = {
  entry: NoticeEntry;
  fund: { slug: string; name: string; currency: string; paymentInstructions: string | null };
  shares: { entityId: string; entityName: string; amount: string; lines: { type: string; amount: string }[]; received: string; outstanding: string }[];
};

/**
 * The notice of entry `id` for `user`: only a published entry, and only the
 * shares of the entities they are a member of; anything else (a draft, an
 * entry that asks nothing of their entities, an unknown id) is the unknown
 * id's 404, the same answer for all. Only the reader's own shares and
 * payments are read (the membership is part of the query), not the entry's
 * two thousand others.
 */
export function noticeFor(user: Pick<LpUser, "id">, id: string, db: Reader = getDb()): Notice | null {
  const entry = db.select().from(ledgerEntries).where(eq(ledgerEntries.id, id)).get();
  if (!entry || entry.status !== "published") return null;
  const parts = db
    .select({ entityId: ledgerAllocations.entityId, entityName: entities.name, position: ledgerAllocations.position, amountMinor: ledgerAllocations.amountMinor })
    .from(ledgerAllocations)
    .innerJoin(entityMembers, and(eq(entityMembers.entityId, ledgerAllocations.entityId), eq(entityMembers.userId, user.id)))
    .innerJoin(entities, eq(entities.id, ledgerAllocations.entityId))
    .where(eq(ledgerAllocations.entryId, id))
    .orderBy(sql`${entities.name} collate nocase`, asc(ledgerAllocations.entityId), asc(ledgerAllocations.position))
    .all();
  if (!parts.length) return null;
  const fund = listFunds(db).find((f) => f.id === entry.fundId)!;
  const money = (minor: bigint | number) => toDecimalString(BigInt(minor), fund.currency);
  const lines = db.select().from(ledgerLines).where(eq(ledgerLines.entryId, id)).orderBy(asc(ledgerLines.position)).all();
  const typeAt = new Map(lines.map((l) => [l.position, l.type]));
  const mine = [...new Set(parts.map((p) => p.entityId))];
  const received =
    entry.kind === "call"
      ? new Map(
          db
            .select({ entityId: callPayments.entityId, received: sql<number>`sum(${callPayments.amountMinor})` })
            .from(callPayments)
            .where(and(eq(callPayments.entryId, id), inArray(callPayments.entityId, mine)))
            .groupBy(callPayments.entityId)
            .all()
            .map((r) => [r.entityId, BigInt(r.received)]),
        )
      : new Map<string, bigint>();
  const byEntity = new Map<string, { name: string; parts: { position: number; amountMinor: number }[] }>();
  for (const part of parts) {
    const entity = byEntity.get(part.entityId) ?? { name: part.entityName, parts: [] };
    entity.parts.push(part);
    byEntity.set(part.entityId, entity);
  }
  return {
    entry: entryHead(entry, fund, lines),
    fund: { slug: fund.slug, name: fund.name, currency: fund.currency, paymentInstructions: fund.paymentInstructions },
    shares: [...byEntity].map(([entityId, share]) => {
      const due = share.parts.reduce((sum, p) => sum + BigInt(p.amountMinor), 0n);
      // A distribution is paid by the firm: nothing is received or owed on it.
      const got = entry.kind === "call" ? (received.get(entityId) ?? 0n) : 0n;
      return {
        entityId,
        entityName: share.name,
        amount: money(due),
        lines: share.parts.map((p) => ({ type: typeAt.get(p.position) ?? "other", amount: money(p.amountMinor) })),
        received: money(got),
        outstanding: money(entry.kind === "call" ? due - got : 0n),
      };
    }),
  };
}
