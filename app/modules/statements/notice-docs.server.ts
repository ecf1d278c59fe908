import { and, asc, eq, inArray, lt, lte, or, sql } from "drizzle-orm";
import { ledgerReference } from "~/content/capital";
import { firm } from "~/content/firm";
import { paymentInstructionsCopy } from "~/content/fund-operations";
import { getDb, type Db } from "~/modules/db/connection.server";
import { commitmentChanges, commitments, entities, funds, ledgerAllocations, ledgerEntries, ledgerLines } from "../../../db/schema";
import { toDecimalString } from "../capital/money";
import { paymentInstructionLines, readPaymentInstructions } from "../funds/payment-instructions.server";
import { noticeFigures, type NoticeAmount } from "./notice-figures";
import { commitmentInForce } from "./rollforward";
import type { NoticeDoc } from "./types";

/**
 * The notices of a published call or distribution, one per entity it was
 * allocated to (issue 25 §3, ILPA notice layout; the figures' rules are in
 * notice-figures.ts): the fund's commitments in force on the entry's date,
 * its cumulative calls and distributions before this entry and this entry by
 * type; the entity's commitment, share of the fund, cumulative shares before,
 * its share of this entry by type, the total, and the unfunded commitment
 * after it. A call's notice carries the fund's payment instructions and the
 * firm's standing line (as the notice page shows them; never mailed).
 *
 * Seven queries whatever the number of entities; none for an entry that is
 * not published (no notices: []).
 */

type Reader = Pick<Db, "select">;

export function noticeDocsFor(entryId: string, db: Reader = getDb()): NoticeDoc[] {
  const entry = db.select().from(ledgerEntries).where(eq(ledgerEntries.id, entryId)).get();
  if (!entry || entry.status !== "published" || entry.number === null) return [];
  const fund = db.select().from(funds).where(eq(funds.id, entry.fundId)).get();
  if (!fund) return [];
  const money = (minor: bigint) => toDecimalString(minor, fund.currency);
  const moneyLines = (lines: NoticeAmount[]) => lines.map((line) => ({ type: line.type, amount: money(line.amount) }));

  const lines = db.select().from(ledgerLines).where(eq(ledgerLines.entryId, entryId)).orderBy(asc(ledgerLines.position)).all();
  const lineAt = new Map(lines.map((line) => [line.position, line]));
  const shares = db
    .select({ entityId: ledgerAllocations.entityId, name: entities.name, position: ledgerAllocations.position, amountMinor: ledgerAllocations.amountMinor })
    .from(ledgerAllocations)
    .innerJoin(entities, eq(entities.id, ledgerAllocations.entityId))
    .where(eq(ledgerAllocations.entryId, entryId))
    .orderBy(sql`${entities.name} collate nocase`, asc(ledgerAllocations.entityId), asc(ledgerAllocations.position))
    .all();

  // The commitments in force on the entry's date, per entity and in all.
  const changes = db
    .select({ entityId: commitments.entityId, amountMinor: commitmentChanges.amountMinor, effectiveOn: commitmentChanges.effectiveOn })
    .from(commitmentChanges)
    .innerJoin(commitments, eq(commitments.id, commitmentChanges.commitmentId))
    .where(and(eq(commitments.fundId, fund.id), lte(commitmentChanges.effectiveOn, entry.date)))
    .orderBy(asc(commitmentChanges.effectiveOn), asc(commitmentChanges.createdAt), asc(sql`${commitmentChanges}.rowid`))
    .all();
  const changesOf = new Map<string, { effectiveOn: string; amount: bigint }[]>();
  for (const change of changes) {
    const list = changesOf.get(change.entityId) ?? [];
    list.push({ effectiveOn: change.effectiveOn, amount: BigInt(change.amountMinor) });
    changesOf.set(change.entityId, list);
  }
  const commitmentOf = new Map([...changesOf].map(([entityId, list]) => [entityId, commitmentInForce(list, entry.date)]));
  let fundCommitments = 0n;
  for (const amount of commitmentOf.values()) fundCommitments += amount;

  // The published entries before this one: an earlier date, or the same date, kind and a lower number.
  const before = and(
    eq(ledgerEntries.fundId, fund.id),
    eq(ledgerEntries.status, "published"),
    or(lt(ledgerEntries.date, entry.date), and(eq(ledgerEntries.date, entry.date), eq(ledgerEntries.kind, entry.kind), lt(ledgerEntries.number, entry.number))),
  );
  const fundBefore = { contributions: 0n, distributions: 0n };
  for (const row of db
    .select({ kind: ledgerEntries.kind, amount: sql<number>`sum(${ledgerLines.amountMinor})` })
    .from(ledgerEntries)
    .innerJoin(ledgerLines, eq(ledgerLines.entryId, ledgerEntries.id))
    .where(before)
    .groupBy(ledgerEntries.kind)
    .all()) {
    if (row.kind === "call") fundBefore.contributions += BigInt(row.amount);
    else fundBefore.distributions += BigInt(row.amount);
  }

  // The entry's entities' shares of those entries (the others' are not read).
  const entityIds = [...new Set(shares.map((s) => s.entityId))];
  const investorBefore = new Map<string, { contributions: bigint; distributions: bigint; recallable: bigint }>();
  for (const row of db
    .select({
      entityId: ledgerAllocations.entityId,
      kind: ledgerEntries.kind,
      amount: sql<number>`sum(${ledgerAllocations.amountMinor})`,
      recallable: sql<number>`sum(case when ${ledgerLines.recallable} then ${ledgerAllocations.amountMinor} else 0 end)`,
    })
    .from(ledgerEntries)
    .innerJoin(ledgerAllocations, eq(ledgerAllocations.entryId, ledgerEntries.id))
    .innerJoin(ledgerLines, and(eq(ledgerLines.entryId, ledgerAllocations.entryId), eq(ledgerLines.position, ledgerAllocations.position)))
    .where(and(before, inArray(ledgerAllocations.entityId, db.select({ id: ledgerAllocations.entityId }).from(ledgerAllocations).where(eq(ledgerAllocations.entryId, entryId)))))
    .groupBy(ledgerAllocations.entityId, ledgerEntries.kind)
    .all()) {
    const sums = investorBefore.get(row.entityId) ?? { contributions: 0n, distributions: 0n, recallable: 0n };
    if (row.kind === "call") sums.contributions += BigInt(row.amount);
    else {
      sums.distributions += BigInt(row.amount);
      sums.recallable += BigInt(row.recallable);
    }
    investorBefore.set(row.entityId, sums);
  }

  const instructions =
    entry.kind === "call"
      ? (() => {
          const saved = readPaymentInstructions(fund.paymentInstructions);
          return saved ? paymentInstructionLines(saved).map(({ label, value }) => ({ label, value })) : [];
        })()
      : null;
  const fundLines = lines.map((line) => ({ type: line.type, amount: BigInt(line.amountMinor) }));

  const byEntity = new Map<string, { name: string; lines: (NoticeAmount & { recallable: boolean })[] }>();
  for (const share of shares) {
    const line = lineAt.get(share.position);
    const entity = byEntity.get(share.entityId) ?? { name: share.name, lines: [] };
    entity.lines.push({ type: line?.type ?? "other", amount: BigInt(share.amountMinor), recallable: line?.recallable ?? false });
    byEntity.set(share.entityId, entity);
  }

  return entityIds.map((entityId) => {
    const entity = byEntity.get(entityId)!;
    const figures = noticeFigures({
      kind: entry.kind,
      fundCommitments,
      fundBefore,
      fundLines,
      investor: { commitment: commitmentOf.get(entityId) ?? 0n, before: investorBefore.get(entityId) ?? { contributions: 0n, distributions: 0n, recallable: 0n }, lines: entity.lines },
    });
    return {
      firmName: firm.name,
      kind: entry.kind,
      fund: { slug: fund.slug, name: fund.name, currency: fund.currency },
      entity: { id: entityId, name: entity.name },
      reference: ledgerReference(entry.kind, entry.number!),
      noticeDate: entry.date,
      dueOrPaymentDate: entry.kind === "call" ? (entry.dueDate ?? entry.date) : entry.date,
      fundSection: {
        totalCommitments: money(figures.fund.totalCommitments),
        contributionsBefore: money(figures.fund.contributionsBefore),
        distributionsBefore: money(figures.fund.distributionsBefore),
        thisNotice: moneyLines(figures.fund.thisNotice),
      },
      investorSection: {
        commitment: money(figures.investor.commitment),
        shareOfFund: figures.investor.shareOfFund,
        contributionsBefore: money(figures.investor.contributionsBefore),
        distributionsBefore: money(figures.investor.distributionsBefore),
        thisNotice: moneyLines(figures.investor.thisNotice),
        total: money(figures.investor.total),
        unfundedAfter: money(figures.investor.unfundedAfter),
      },
      paymentInstructions: instructions,
      standingLine: entry.kind === "call" ? paymentInstructionsCopy.standing : null,
    };
  });
}
