import { and, asc, desc, eq, inArray, lte } from "drizzle-orm";
import { z } from "~/modules/validation/z";
import { commitmentMessages } from "~/content/capital";
import { getDb, type Db } from "~/modules/db/connection.server";
import { commitmentChanges, commitments, entities } from "../../../db/schema";
import { audit } from "../audit/audit.server";
import type { LpUser } from "../auth/session.server";
import { calendarDateSchema } from "../capital/calendar-date";
import { parseAmount, toDecimalString } from "../capital/money";
import { findFundBySlug, listFunds, type Fund } from "../funds/funds.server";
import { AppError } from "../http/app-error";
import { assertQuarterOpen } from "../statements/lock.server";

/**
 * Commitments (issue 24 §3, DESIGN.md §10): one per entity and fund, an
 * amount in the fund's currency (integer minor units in the database, a
 * decimal string with the currency's digits in JSON) and the date it was
 * accepted. At a subsequent close an entity may raise it: the new amount
 * takes effect on its date, and commitment_changes keeps every amount, so
 * the amount in force on any date can be read (the allocation of a call uses
 * the commitments in force on its notice date).
 */

export type CommitmentRead = {
  id: string;
  entityId: string;
  fund: string;
  currency: string;
  amount: string;
  acceptedOn: string;
  history: { amount: string; effectiveOn: string }[];
};

export const createCommitmentSchema = z.object({
  entityId: z.string({ error: commitmentMessages.entityId }).trim().min(1, commitmentMessages.entityId).max(64, commitmentMessages.entityId),
  fund: z.string({ error: commitmentMessages.fund }).trim().min(1, commitmentMessages.fund).max(64, commitmentMessages.fund),
  // A decimal string in the fund's currency: checked once the fund is known (parseAmount).
  amount: z.unknown(),
  acceptedOn: calendarDateSchema(commitmentMessages.date),
});
export type CreateCommitmentInput = z.output<typeof createCommitmentSchema>;

export const raiseCommitmentSchema = z.object({
  amount: z.unknown(),
  effectiveOn: calendarDateSchema(commitmentMessages.date),
});
export type RaiseCommitmentInput = z.output<typeof raiseCommitmentSchema>;

type Commitment = typeof commitments.$inferSelect;

function fieldError(field: string, message: string, code: "bad_request" | "conflict" = "bad_request"): AppError {
  return new AppError(code, message, { fields: { [field]: [message] } });
}

/** The amount, in minor units of the fund's currency, or a 400 on the `amount` field. */
function amountIn(fund: Fund, value: unknown): bigint {
  const parsed = parseAmount(value, fund.currency);
  if (!parsed.ok) throw fieldError("amount", parsed.message);
  if (parsed.minor > BigInt(Number.MAX_SAFE_INTEGER)) throw fieldError("amount", "The amount is too large");
  return parsed.minor;
}

function toRead(row: Commitment, fund: Fund, history: { amountMinor: number; effectiveOn: string }[]): CommitmentRead {
  return {
    id: row.id,
    entityId: row.entityId,
    fund: fund.slug,
    currency: fund.currency,
    amount: toDecimalString(BigInt(row.amountMinor), fund.currency),
    acceptedOn: row.acceptedOn,
    history: history.map((h) => ({ amount: toDecimalString(BigInt(h.amountMinor), fund.currency), effectiveOn: h.effectiveOn })),
  };
}

function historyOf(db: Pick<Db, "select">, ids: string[]) {
  if (!ids.length) return [];
  return db
    .select({ commitmentId: commitmentChanges.commitmentId, amountMinor: commitmentChanges.amountMinor, effectiveOn: commitmentChanges.effectiveOn })
    .from(commitmentChanges)
    .where(inArray(commitmentChanges.commitmentId, ids))
    .orderBy(asc(commitmentChanges.effectiveOn), asc(commitmentChanges.createdAt))
    .all();
}

/** Commitments as read, with each one's history, for rows already chosen. */
function readAll(db: Pick<Db, "select">, rows: Commitment[]): CommitmentRead[] {
  const funds = new Map(listFunds(db).map((f) => [f.id, f]));
  const history = historyOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) =>
    toRead(
      row,
      funds.get(row.fundId)!,
      history.filter((h) => h.commitmentId === row.id),
    ),
  );
}

/** The commitments of these entities (by fund vintage, then slug). */
export function commitmentsOfEntities(entityIds: string[], db: Pick<Db, "select"> = getDb()): CommitmentRead[] {
  if (!entityIds.length) return [];
  const rows = db.select().from(commitments).where(inArray(commitments.entityId, entityIds)).all();
  const order = new Map(listFunds(db).map((f, i) => [f.id, i]));
  rows.sort((a, b) => (order.get(a.fundId) ?? 0) - (order.get(b.fundId) ?? 0) || (a.entityId < b.entityId ? -1 : 1));
  return readAll(db, rows);
}

/** Record an entity's commitment to a fund (400 bad fields, 409 when it already has one), audited. */
export function createCommitment(admin: Pick<LpUser, "id" | "email">, input: CreateCommitmentInput, db: Db = getDb()): CommitmentRead {
  const fund = findFundBySlug(input.fund, db);
  if (!fund) throw fieldError("fund", commitmentMessages.fund);
  const amount = amountIn(fund, input.amount);
  const id = db.transaction((tx) => {
    const entity = tx.select({ id: entities.id, name: entities.name }).from(entities).where(eq(entities.id, input.entityId)).get();
    if (!entity) throw fieldError("entityId", commitmentMessages.entityId);
    const existing = tx
      .select({ id: commitments.id })
      .from(commitments)
      .where(and(eq(commitments.entityId, entity.id), eq(commitments.fundId, fund.id)))
      .get();
    if (existing) throw fieldError("fund", commitmentMessages.exists, "conflict");
    // Nothing may be dated inside a published quarter (issue 25 §2): 409 unless it was reopened.
    assertQuarterOpen(tx, fund.id, { acceptedOn: input.acceptedOn });
    const row = tx
      .insert(commitments)
      .values({ entityId: entity.id, fundId: fund.id, amountMinor: Number(amount), acceptedOn: input.acceptedOn })
      .returning({ id: commitments.id })
      .get();
    tx.insert(commitmentChanges).values({ commitmentId: row.id, amountMinor: Number(amount), effectiveOn: input.acceptedOn }).run();
    audit(tx, "commitment.created", {
      actor: { id: admin.id, email: admin.email },
      target: { type: "commitment", id: row.id, label: `${entity.name} · ${fund.name}` },
      details: { entityId: entity.id, fund: fund.slug, amount: toDecimalString(amount, fund.currency), acceptedOn: input.acceptedOn },
    });
    return row.id;
  });
  return commitmentById(id, db);
}

/** One commitment; 404 for an unknown id. */
export function commitmentById(id: string, db: Pick<Db, "select"> = getDb()): CommitmentRead {
  const row = db.select().from(commitments).where(eq(commitments.id, id)).get();
  if (!row) throw new AppError("not_found", commitmentMessages.notFound);
  return readAll(db, [row])[0]!;
}

/**
 * Raise a commitment at a subsequent close: a larger amount, in force from
 * `effectiveOn` (on or after the accepted date and the last change). The
 * history keeps the earlier amounts. Audited.
 */
export function raiseCommitment(admin: Pick<LpUser, "id" | "email">, id: string, input: RaiseCommitmentInput, db: Db = getDb()): CommitmentRead {
  db.transaction((tx) => {
    const row = tx.select().from(commitments).where(eq(commitments.id, id)).get();
    if (!row) throw new AppError("not_found", commitmentMessages.notFound);
    const fund = listFunds(tx).find((f) => f.id === row.fundId)!;
    const amount = amountIn(fund, input.amount);
    if (amount <= BigInt(row.amountMinor)) throw fieldError("amount", commitmentMessages.notHigher);
    if (input.effectiveOn < row.acceptedOn) throw fieldError("effectiveOn", commitmentMessages.beforeAccepted);
    const last = tx
      .select({ effectiveOn: commitmentChanges.effectiveOn })
      .from(commitmentChanges)
      .where(eq(commitmentChanges.commitmentId, id))
      .orderBy(desc(commitmentChanges.effectiveOn))
      .get();
    if (last && input.effectiveOn < last.effectiveOn) throw fieldError("effectiveOn", commitmentMessages.notLatest);
    assertQuarterOpen(tx, row.fundId, { effectiveOn: input.effectiveOn });
    tx.update(commitments).set({ amountMinor: Number(amount) }).where(eq(commitments.id, id)).run();
    tx.insert(commitmentChanges).values({ commitmentId: id, amountMinor: Number(amount), effectiveOn: input.effectiveOn }).run();
    audit(tx, "commitment.raised", {
      actor: { id: admin.id, email: admin.email },
      target: { type: "commitment", id, label: fund.name },
      details: {
        entityId: row.entityId,
        fund: fund.slug,
        from: toDecimalString(BigInt(row.amountMinor), fund.currency),
        to: toDecimalString(amount, fund.currency),
        effectiveOn: input.effectiveOn,
      },
    });
  });
  return commitmentById(id, db);
}

/**
 * The commitments of a fund in force on `date` (minor units, per entity): the
 * latest change on or before it. Entities whose commitment starts later are
 * not in it. What a call's or a distribution's allocation is pro rata to.
 */
export function commitmentsInForce(fundId: string, date: string, db: Pick<Db, "select"> = getDb()): { entityId: string; amountMinor: bigint }[] {
  const rows = db
    .select({ entityId: commitments.entityId, commitmentId: commitments.id, amountMinor: commitmentChanges.amountMinor, effectiveOn: commitmentChanges.effectiveOn })
    .from(commitmentChanges)
    .innerJoin(commitments, eq(commitments.id, commitmentChanges.commitmentId))
    .where(and(eq(commitments.fundId, fundId), lte(commitmentChanges.effectiveOn, date)))
    .orderBy(asc(commitmentChanges.effectiveOn), asc(commitmentChanges.createdAt))
    .all();
  const latest = new Map<string, bigint>();
  for (const row of rows) latest.set(row.entityId, BigInt(row.amountMinor));
  return [...latest].map(([entityId, amountMinor]) => ({ entityId, amountMinor }));
}
