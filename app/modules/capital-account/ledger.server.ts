import { asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { ledgerReference } from "~/content/capital";
import { ledgerPageCopy } from "~/content/capital-lp";
import { getDb, type Db } from "~/modules/db/connection.server";
import { z } from "~/modules/validation/z";
import { commitments, entities, entityMembers, funds } from "../../../db/schema";
import type { LpUser } from "../auth/session.server";
import { toDecimalString } from "../capital/money";
import { AppError } from "../http/app-error";
import type { FlowKind } from "./capital-account.server";

/**
 * The investor's full ledger (issue 24 §8): every transaction of the entities
 * they are a member of — each published call's and distribution's lines (their
 * entity's share), each payment received, each valuation — newest first, in
 * pages, optionally of one entity and one fund; the CSV export reads the same
 * rows in batches. One query unites the three tables, ordered in SQL, so a
 * page reads its 50 rows and not the ledger.
 *
 * Filters name only what is the investor's: an entity they are a member of, a
 * fund one of those entities has a commitment in. Any other value — another
 * investor's entity, an id that does not exist, a malformed one — is the
 * unknown id's 404, the same answer for all, on the page and the CSV alike
 * (DESIGN.md §10: another entity's id gets the unknown id's 404 everywhere).
 */

type Reader = Pick<Db, "select" | "selectDistinct" | "all" | "get">;

/** The query of the ledger page and its export: empty means no filter; `page` is 1-based (anything else is page 1). */
export const ledgerQuerySchema = z.object({
  entity: z.string().trim().max(100).optional(),
  fund: z.string().trim().max(64).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
});

/** What may be chosen: the investor's entities (by name) and the funds they hold commitments in (by vintage). */
export type LedgerChoices = { entities: { id: string; name: string }[]; funds: { id: string; slug: string; name: string }[] };

/** A filter as the query holds it (`entity` an id, `fund` a slug), resolved to rows the investor may read. */
export type LedgerFilters = { entity: { id: string; name: string } | null; fund: { id: string; slug: string; name: string } | null };

/** One transaction as the page and the CSV show it (the amount positive: `kind` says the direction). */
export type LedgerRow = {
  date: string;
  kind: FlowKind;
  /** The call's or distribution's line type; null for payments and valuations. */
  type: string | null;
  amount: string;
  currency: string;
  /** "Call 3", "Distribution 1" (a payment names the call it pays); null for valuations. */
  reference: string | null;
  /** The call or distribution (its notice); null for valuations. */
  entryId: string | null;
  entityId: string;
  entityName: string;
  fundSlug: string;
  fundName: string;
};

function notFound(): AppError {
  return new AppError("not_found", ledgerPageCopy.notFound.title);
}

/** The entities and funds the ledger of `user` can be filtered by. */
export function ledgerChoicesFor(user: Pick<LpUser, "id">, db: Reader = getDb()): LedgerChoices {
  const mine = db
    .select({ id: entities.id, name: entities.name })
    .from(entityMembers)
    .innerJoin(entities, eq(entities.id, entityMembers.entityId))
    .where(eq(entityMembers.userId, user.id))
    .orderBy(sql`${entities.name} collate nocase`, asc(entities.id))
    .all();
  const held = mine.length
    ? db
        .selectDistinct({ id: funds.id, slug: funds.slug, name: funds.name, vintage: funds.vintageYear })
        .from(commitments)
        .innerJoin(funds, eq(funds.id, commitments.fundId))
        .where(
          inArray(
            commitments.entityId,
            mine.map((e) => e.id),
          ),
        )
        .orderBy(asc(funds.vintageYear), asc(funds.slug))
        .all()
    : [];
  return { entities: mine, funds: held.map(({ id, slug, name }) => ({ id, slug, name })) };
}

/**
 * The query's filters, checked against what `user` may read: a value that
 * names nothing of theirs throws the unknown id's 404 (AppError not_found).
 */
export function resolveLedgerFilters(user: Pick<LpUser, "id">, query: { entity?: string | undefined; fund?: string | undefined }, db: Reader = getDb()) {
  const choices = ledgerChoicesFor(user, db);
  let entity: LedgerFilters["entity"] = null;
  let fund: LedgerFilters["fund"] = null;
  if (query.entity) {
    entity = choices.entities.find((e) => e.id === query.entity) ?? null;
    if (!entity) throw notFound();
  }
  if (query.fund) {
    fund = choices.funds.find((f) => f.slug === query.fund) ?? null;
    if (!fund) throw notFound();
  }
  return { filters: { entity, fund } satisfies LedgerFilters, choices };
}

/**
 * Every transaction of the investor's entities (or the filter's one entity),
 * as one UNION ALL: allocations of published entries with their line type,
 * payments with the call they pay, valuations. `ord` orders a day's rows
 * (newest first: valuation, distribution, payment, call); `tie` is unique, so
 * pages never overlap.
 */
function transactions(user: Pick<LpUser, "id">, filters: LedgerFilters): SQL {
  const mine = filters.entity ? sql`(${filters.entity.id})` : sql`(select m.entity_id from entity_members m where m.user_id = ${user.id})`;
  const inFund = (column: SQL) => (filters.fund ? sql`and ${column} = ${filters.fund.id}` : sql``);
  return sql`
    select e.date as date, e.kind as kind, case e.kind when 'call' then 0 else 2 end as ord, l.type as type,
      a.amount_minor as amount, e.number as number, a.entity_id as entity_id, e.fund_id as fund_id, e.id as entry_id,
      a.position as position, 'a' || a.entry_id || a.position as tie
    from ledger_allocations a
    join ledger_entries e on e.id = a.entry_id
    join ledger_lines l on l.entry_id = a.entry_id and l.position = a.position
    where a.entity_id in ${mine} and e.status = 'published' ${inFund(sql`e.fund_id`)}
    union all
    select p.received_on, 'payment', 1, null, p.amount_minor, e.number, p.entity_id, e.fund_id, p.entry_id, 0, 'p' || p.id
    from call_payments p
    join ledger_entries e on e.id = p.entry_id
    where p.entity_id in ${mine} ${inFund(sql`e.fund_id`)}
    union all
    select v.date, 'valuation', 3, null, v.nav_minor, null, v.entity_id, v.fund_id, null, 0, 'v' || v.id
    from valuations v
    where v.entity_id in ${mine} ${inFund(sql`v.fund_id`)}`;
}

type RawRow = {
  date: string;
  kind: FlowKind;
  type: string | null;
  amount: number;
  number: number | null;
  entry_id: string | null;
  entity_id: string;
  entity_name: string;
  fund_slug: string;
  fund_name: string;
  currency: string;
};

function toRow(raw: RawRow): LedgerRow {
  const reference = raw.number === null ? null : ledgerReference(raw.kind === "distribution" ? "distribution" : "call", raw.number);
  return {
    date: raw.date,
    kind: raw.kind,
    type: raw.type,
    amount: toDecimalString(BigInt(raw.amount), raw.currency),
    currency: raw.currency,
    reference,
    entryId: raw.entry_id,
    entityId: raw.entity_id,
    entityName: raw.entity_name,
    fundSlug: raw.fund_slug,
    fundName: raw.fund_name,
  };
}

function readRows(db: Reader, user: Pick<LpUser, "id">, filters: LedgerFilters, range: { offset: number; limit: number }): LedgerRow[] {
  return db
    .all<RawRow>(
      sql`select t.date, t.kind, t.type, t.amount, t.number, t.entry_id, t.entity_id, n.name as entity_name, f.slug as fund_slug, f.name as fund_name, f.currency
        from (${transactions(user, filters)}) t
        join entities n on n.id = t.entity_id
        join funds f on f.id = t.fund_id
        order by t.date desc, t.ord desc, n.name collate nocase, t.entity_id, f.vintage_year, f.slug, t.number desc, t.position, t.tie
        limit ${range.limit} offset ${range.offset}`,
    )
    .map(toRow);
}

/** How many transactions the filters match. */
export function ledgerCount(user: Pick<LpUser, "id">, filters: LedgerFilters, db: Reader = getDb()): number {
  return db.get<{ n: number }>(sql`select count(*) as n from (${transactions(user, filters)})`)?.n ?? 0;
}

/** One page of the ledger, newest first; a page past the end is the last page. */
export function ledgerPage(
  user: Pick<LpUser, "id">,
  filters: LedgerFilters,
  page: { page: number; size: number },
  db: Reader = getDb(),
): { rows: LedgerRow[]; total: number; page: number } {
  const total = ledgerCount(user, filters, db);
  const last = Math.max(1, Math.ceil(total / page.size));
  const current = Math.min(Math.max(1, page.page), last);
  return { rows: total ? readRows(db, user, filters, { offset: (current - 1) * page.size, limit: page.size }) : [], total, page: current };
}

/** The newest `limit` transactions of all the investor's entities (the account page's latest ones). */
export function latestTransactions(user: Pick<LpUser, "id">, limit: number, db: Reader = getDb()): LedgerRow[] {
  return readRows(db, user, { entity: null, fund: null }, { offset: 0, limit });
}

/**
 * One entity's newest `limit` transactions, whoever its members are (the admin's entity page).
 * The caller has checked who may read it: the reader is not part of the query.
 */
export function entityTransactions(entityId: string, limit: number, db: Reader = getDb()): LedgerRow[] {
  return readRows(db, { id: "" }, { entity: { id: entityId, name: "" }, fund: null }, { offset: 0, limit });
}

/** Every transaction the filters match, newest first, `size` at a time (the CSV export streams them). */
export function* ledgerBatches(user: Pick<LpUser, "id">, filters: LedgerFilters, size = 1000, db: Reader = getDb()): Generator<LedgerRow[], void, undefined> {
  for (let offset = 0; ; offset += size) {
    const rows = readRows(db, user, filters, { offset, limit: size });
    if (rows.length) yield rows;
    if (rows.length < size) return;
  }
}

/**
 * The date of each holding's latest valuation (`${entityId} ${fundSlug}` → 'YYYY-MM-DD'),
 * of the investor's entities: a flow after it is listed as after the valuation
 * (the multiples and the IRR are as of that date).
 */
export function latestValuationDates(user: Pick<LpUser, "id">, db: Reader = getDb()): Map<string, string> {
  const rows = db.all<{ entity_id: string; slug: string; date: string }>(
    sql`select v.entity_id, f.slug, max(v.date) as date from valuations v join funds f on f.id = v.fund_id
      where v.entity_id in (select m.entity_id from entity_members m where m.user_id = ${user.id})
      group by v.entity_id, v.fund_id`,
  );
  return new Map(rows.map((r) => [holdingKey(r.entity_id, r.slug), r.date]));
}

/** The key of an entity's holding in a fund, for latestValuationDates. */
export function holdingKey(entityId: string, fundSlug: string): string {
  return `${entityId} ${fundSlug}`;
}
