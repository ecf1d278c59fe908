import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "~/modules/db/connection.server";
import { commitments, entities } from "../../../db/schema";

/**
 * How the imports (valuations, P&L, history) find the entity a row names:
 * among the entities with a commitment in the fund, by its id, or by its name
 * (nameKey: case and spacing ignored), which must name one of them only; an
 * id or name the fund does not know is told apart from one of an entity that
 * has no commitment in it (knownElsewhere). Reads only.
 */

type Reader = Pick<Db, "select">;

/** A name as matched: NFC, spacing collapsed, case ignored. */
export const nameKey = (name: string) => name.normalize("NFC").replace(/\s+/g, " ").trim().toLocaleLowerCase("en-US");

/** An entity with a commitment in a fund, and the day its commitment was accepted. */
export type CommittedEntity = { id: string; name: string; acceptedOn: string };

/** An entity as a preview shows it: its id and name. */
export const entityRef = (entity: { id: string; name: string }) => ({ id: entity.id, name: entity.name });

/** The fund's entities with a commitment in it, by id and by name (nameKey: two may share one). */
export function committedEntities(fundId: string, db: Reader) {
  const rows: CommittedEntity[] = db
    .select({ id: entities.id, name: entities.name, acceptedOn: commitments.acceptedOn })
    .from(commitments)
    .innerJoin(entities, eq(entities.id, commitments.entityId))
    .where(eq(commitments.fundId, fundId))
    .all();
  const byName = new Map<string, CommittedEntity[]>();
  for (const row of rows) {
    const key = nameKey(row.name);
    const same = byName.get(key);
    if (same) same.push(row);
    else byName.set(key, [row]);
  }
  return { byId: new Map(rows.map((r) => [r.id, r])), byName };
}

/**
 * Of these ids and names, the ones some entity (of any fund) has: to tell "no
 * commitment" from "unknown". Ids with the entity's name; names by nameKey
 * (matched without case: SQLite's nocase).
 */
export function knownElsewhere(ids: readonly string[], names: readonly string[], db: Reader) {
  const knownIds = new Map<string, string>();
  const knownNames = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const row of db.select({ id: entities.id, name: entities.name }).from(entities).where(inArray(entities.id, ids.slice(i, i + 500))).all()) knownIds.set(row.id, row.name);
  }
  for (let i = 0; i < names.length; i += 500) {
    const chunk = names.slice(i, i + 500);
    for (const row of db
      .select({ name: entities.name })
      .from(entities)
      .where(inArray(sql`${entities.name} collate nocase`, chunk))
      .all())
      knownNames.add(nameKey(row.name));
  }
  return { knownIds, knownNames };
}
