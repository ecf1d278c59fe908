import { sql, type SQL } from "drizzle-orm";
import { getDb } from "~/modules/db/connection.server";
import type { documents } from "../../../db/schema";
import { addressees, type AddresseeRef } from "./addressees.server";

/**
 * Who of a document's audience has opened it (issue 15 §4): the documents
 * page's 'opened by N of M', the access page's audience list, and the
 * reminder's "those who haven't opened it". The audience is the approved,
 * non-admin investors: all of them for audience 'all'; for 'selected' those it
 * is addressed to (`addressees`: the chosen investors and the current members
 * of the chosen entities, each once). Opening is any view or download in the
 * access log.
 */

type LpRow = typeof documents.$inferSelect;

/**
 * The approved, non-admin addressees of a 'selected' document (`documentId`: a
 * value, or the enclosing query's column), as a subquery of user ids. CROSS
 * JOIN keeps SQLite walking the addressees and looking each account up, never
 * every account.
 */
function selectedAudience(documentId: AddresseeRef): SQL {
  return sql`select x.user_id from (${addressees("user", { documentId })}) x cross join lp_users u on u.id = x.user_id
    where u.status = 'approved' and u.is_admin = 0`;
}

/** The audience of one document, as a subquery of user ids. */
function audienceOf(row: Pick<LpRow, "id" | "audience">): SQL {
  return row.audience === "all" ? sql`select u.id from lp_users u where u.status = 'approved' and u.is_admin = 0` : selectedAudience(row.id);
}

export type ReadCounts = { opened: number; audience: number };

/** Per LP document (or just `documentId`'s): how many of its audience opened it, of how many. */
export function readCounts(documentId?: string): Map<string, ReadCounts> {
  const db = getDb();
  const everyone = db.get<{ n: number }>(sql`select count(*) as n from lp_users where status = 'approved' and is_admin = 0`)?.n ?? 0;
  const rows = db.all<{ id: string; kind: string; selected: number | null; opened: number | null }>(sql`
    select d.id, d.audience as kind,
      (select count(*) from (${selectedAudience(sql`d.id`)})) as selected,
      (select count(distinct a.actor_id) from access_log a join lp_users u on u.id = a.actor_id
        where a.document_kind = 'lp' and a.document_id = d.id and a.actor_kind = 'lp_user'
          and u.status = 'approved' and u.is_admin = 0
          and (d.audience = 'all' or exists (${addressees("user", { documentId: sql`d.id`, userId: sql`a.actor_id` })}))) as opened
    from documents d ${documentId === undefined ? sql`` : sql`where d.id = ${documentId}`}`);
  return new Map(rows.map((r) => [r.id, { opened: Number(r.opened ?? 0), audience: r.kind === "all" ? everyone : Number(r.selected ?? 0) }]));
}

export type AudienceMember = {
  id: string;
  name: string;
  email: string;
  referenceCode: string | null;
  firstViewAt: Date | null;
  firstDownloadAt: Date | null;
};

export type AudienceFilter = "all" | "opened" | "unopened";

/** One page of a document's audience, by e-mail, each with when they first viewed and downloaded it. */
export function audiencePage(
  row: Pick<LpRow, "id" | "audience">,
  page: { offset: number; limit: number; filter: AudienceFilter },
): { members: AudienceMember[]; total: number } {
  const db = getDb();
  const opened = sql`exists (select 1 from access_log a where a.document_kind = 'lp' and a.document_id = ${row.id}
    and a.actor_kind = 'lp_user' and a.actor_id = u.id)`;
  const filter = page.filter === "opened" ? sql`and ${opened}` : page.filter === "unopened" ? sql`and not ${opened}` : sql``;
  const total =
    db.get<{ n: number }>(sql`select count(*) as n from lp_users u where u.id in (${audienceOf(row)}) ${filter}`)?.n ?? 0;
  const rows = db.all<{
    id: string;
    name: string;
    email: string;
    reference_code: string | null;
    first_view: number | null;
    first_download: number | null;
  }>(sql`
    select u.id, u.name, u.email, u.reference_code,
      (select min(a.created_at) from access_log a where a.document_kind = 'lp' and a.document_id = ${row.id}
        and a.actor_kind = 'lp_user' and a.actor_id = u.id and a.action = 'view') as first_view,
      (select min(a.created_at) from access_log a where a.document_kind = 'lp' and a.document_id = ${row.id}
        and a.actor_kind = 'lp_user' and a.actor_id = u.id and a.action = 'download') as first_download
    from lp_users u
    where u.id in (${audienceOf(row)}) ${filter}
    order by u.email collate nocase
    limit ${page.limit} offset ${page.offset}`);
  return {
    total: Number(total),
    members: rows.map((r) => ({
      id: r.id,
      name: r.name,
      email: r.email,
      referenceCode: r.reference_code,
      firstViewAt: r.first_view === null ? null : new Date(r.first_view),
      firstDownloadAt: r.first_download === null ? null : new Date(r.first_download),
    })),
  };
}

/** The audience members who have not opened the document yet (the reminder's recipients). */
export function unopenedAudience(row: Pick<LpRow, "id" | "audience">): string[] {
  return getDb()
    .all<{ id: string }>(sql`
      select u.id from lp_users u where u.id in (${audienceOf(row)})
        and not exists (select 1 from access_log a where a.document_kind = 'lp' and a.document_id = ${row.id}
          and a.actor_kind = 'lp_user' and a.actor_id = u.id)`)
    .map((r) => r.id);
}

/**
 * Which of `documentIds` this user has opened (the same rule: any view or
 * download of it in the access log), for the investor's "New for you".
 * Walks the access log's document index, one short range per id.
 */
export function openedBy(userId: string, documentIds: readonly string[]): Set<string> {
  if (documentIds.length === 0) return new Set();
  const rows = getDb().all<{ id: string }>(sql`
    select distinct a.document_id as id from access_log a
    where a.document_kind = 'lp' and a.document_id in (${sql.join(
      documentIds.map((id) => sql`${id}`),
      sql`, `,
    )})
      and a.actor_kind = 'lp_user' and a.actor_id = ${userId}`);
  return new Set(rows.map((r) => r.id));
}
