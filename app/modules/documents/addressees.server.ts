import { sql, type SQL } from "drizzle-orm";

/**
 * Who a 'selected' LP document is addressed to: decision 025's one access
 * rule, extended by issue 24 §2. Its chosen investors (document_recipients)
 * and every current member of its chosen entities (document_recipient_entities
 * joined to entity_members): membership is read here, at each request, never
 * copied, so a member removed from an entity loses its documents at once and
 * one added gains them. A person chosen twice (directly and through an entity,
 * or through two entities) is one addressee (UNION).
 *
 * Every reader of the rule goes through `addressees`: the investor's list and
 * view/download (documents.server.ts), read status and reminders
 * (read-status.server.ts), the new-document mails and the weekly digest
 * (modules/document-mail). Account status and admins are the callers' own
 * filters (decision 009: an approved investor; admins read everything and are
 * never counted or mailed).
 */

/** A bound value, or an SQL expression of the enclosing query (e.g. `d.id`, `"documents"."id"`) for a correlated subquery. */
export type AddresseeRef = string | SQL;

export type AddresseeFilter = {
  /** One document. */
  documentId?: AddresseeRef;
  /** Any of these documents (keep each list short: callers chunk, see IN_CHUNK). */
  documentIds?: readonly string[];
  /** One person. */
  userId?: AddresseeRef;
};

/** What the subquery selects: the people (`user_id`), the documents (`document_id`), or both. */
export type AddresseeColumns = "user" | "document" | "pair";

const ref = (value: AddresseeRef): SQL => (typeof value === "string" ? sql`${value}` : value);

/**
 * The addressees of 'selected' documents as a subquery (`select user_id …`,
 * `select document_id …` or both columns), narrowed by `where` in each of its
 * two branches so both walk their indexes (document_recipients' primary key
 * and user index; document_recipient_entities' primary key and entity index;
 * entity_members' primary key and user index). Its aliases (`ar`, `ae`, `am`)
 * are its own; a correlated reference names the enclosing query's table.
 */
export function addressees(columns: AddresseeColumns, where: AddresseeFilter): SQL {
  const direct: SQL[] = [];
  const viaEntity: SQL[] = [];
  if (where.documentId !== undefined) {
    direct.push(sql`ar.document_id = ${ref(where.documentId)}`);
    viaEntity.push(sql`ae.document_id = ${ref(where.documentId)}`);
  }
  if (where.documentIds !== undefined) {
    const ids = where.documentIds.length ? sql.join(where.documentIds.map((id) => sql`${id}`), sql`, `) : sql`null`;
    direct.push(sql`ar.document_id in (${ids})`);
    viaEntity.push(sql`ae.document_id in (${ids})`);
  }
  if (where.userId !== undefined) {
    direct.push(sql`ar.user_id = ${ref(where.userId)}`);
    viaEntity.push(sql`am.user_id = ${ref(where.userId)}`);
  }
  if (direct.length === 0) throw new Error("addressees: narrow by a document or a person");
  const picked = {
    user: [sql`ar.user_id as user_id`, sql`am.user_id`],
    document: [sql`ar.document_id as document_id`, sql`ae.document_id`],
    pair: [sql`ar.document_id as document_id, ar.user_id as user_id`, sql`ae.document_id, am.user_id`],
  }[columns];
  return sql`select ${picked[0]} from document_recipients ar where ${sql.join(direct, sql` and `)}
    union
    select ${picked[1]} from document_recipient_entities ae join entity_members am on am.entity_id = ae.entity_id
    where ${sql.join(viaEntity, sql` and `)}`;
}
