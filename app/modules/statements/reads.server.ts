import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import { getDb, type Db } from "~/modules/db/connection.server";
import { entities, funds, noticeDocuments, pnlRows, statementQuarters, statements } from "../../../db/schema";
import type { LpUser } from "../auth/session.server";
import { memberEntityIds } from "../entities/entities.server";
import { now } from "../config/clock.server";
import type { Fund } from "../funds/funds.server";
import { pdfJobFor, progressOf } from "../pdf-jobs/jobs.server";
import { firmDay } from "../pitch-clock/clock.server";
import { quarterIsOver } from "./lock.server";
import { compareQuarters } from "./quarter";
import type { StatementDoc } from "./types";

/**
 * What the statements' pages and JSON read (issue 25 §2, §6): a fund's
 * quarters with their versions and PDF job (the admin), and an investor's
 * statements and notice PDFs. An investor reads only their entities' (the
 * entities module's membership rule, entity_members, read at each request);
 * another entity's statement reads exactly like an unknown id (null).
 */

type Reader = Pick<Db, "select">;
/** Who reads: a member of the entity, or an admin. */
type Reader2 = Pick<LpUser, "id" | "isAdmin">;

export type QuarterVersion = { id: string; version: number; status: "published" | "reopened" | "superseded"; publishedAt: Date; count: number };
export type QuarterJob = { id: string; done: number; total: number; failed: number; status: "running" | "finished" };

export type FundQuarter = {
  quarter: string;
  /** P&L rows imported for the quarter. */
  pnlRows: number;
  /** Newest first. */
  versions: QuarterVersion[];
  /** The PDF job of the latest version. */
  job: QuarterJob | null;
  /** Over (Zurich), with P&L, and not published (the tie-out is checked when publishing). */
  canPublish: boolean;
  /** Its latest version is published. */
  canRestate: boolean;
};

/** A fund's quarters that have P&L rows or versions, newest first. */
export function fundQuarters(fund: Pick<Fund, "id">, db: Reader = getDb(), at: Date = now()): FundQuarter[] {
  const today = firmDay(at);
  const pnl = new Map(
    db
      .select({ quarter: pnlRows.quarter, n: count() })
      .from(pnlRows)
      .where(eq(pnlRows.fundId, fund.id))
      .groupBy(pnlRows.quarter)
      .all()
      .map((row) => [row.quarter, row.n]),
  );
  const versionRows = db
    .select({
      id: statementQuarters.id,
      quarter: statementQuarters.quarter,
      version: statementQuarters.version,
      status: statementQuarters.status,
      publishedAt: statementQuarters.publishedAt,
    })
    .from(statementQuarters)
    .where(eq(statementQuarters.fundId, fund.id))
    .orderBy(desc(statementQuarters.version))
    .all();
  const counts = new Map(
    db
      .select({ quarterId: statements.quarterId, n: count() })
      .from(statements)
      .innerJoin(statementQuarters, eq(statementQuarters.id, statements.quarterId))
      .where(eq(statementQuarters.fundId, fund.id))
      .groupBy(statements.quarterId)
      .all()
      .map((row) => [row.quarterId, row.n]),
  );
  const byQuarter = new Map<string, QuarterVersion[]>();
  for (const row of versionRows) {
    const list = byQuarter.get(row.quarter) ?? [];
    list.push({ id: row.id, version: row.version, status: row.status, publishedAt: row.publishedAt, count: counts.get(row.id) ?? 0 });
    byQuarter.set(row.quarter, list);
  }
  const quarters = [...new Set([...pnl.keys(), ...byQuarter.keys()])].sort((a, b) => compareQuarters(b, a));
  return quarters.map((quarter) => {
    const versions = byQuarter.get(quarter) ?? [];
    const latest = versions[0];
    const jobRow = latest ? pdfJobFor("statements", latest.id, db) : undefined;
    const job = jobRow ? { id: jobRow.id, ...progressOf(jobRow, db) } : null;
    const pnlCount = pnl.get(quarter) ?? 0;
    return {
      quarter,
      pnlRows: pnlCount,
      versions,
      job,
      canPublish: pnlCount > 0 && latest?.status !== "published" && quarterIsOver(quarter, today),
      canRestate: latest?.status === "published",
    };
  });
}

export type LpStatementRow = {
  id: string;
  entityId: string;
  entityName: string;
  fund: { slug: string; name: string };
  quarter: string;
  version: number;
  documentId: string | null;
  restated: boolean;
};

/**
 * The reader's statements: the latest version of each entity × fund ×
 * quarter, only for the entities they are a member of (an admin is a reader
 * like any other here: their own entities, usually none). Newest quarter first.
 */
export function lpStatements(user: Pick<LpUser, "id">, db: Reader = getDb()): LpStatementRow[] {
  const mine = memberEntityIds(user.id, db);
  if (!mine.length) return [];
  const rows = db
    .select({
      id: statements.id,
      entityId: statements.entityId,
      entityName: entities.name,
      fundSlug: funds.slug,
      fundName: funds.name,
      quarter: statementQuarters.quarter,
      version: statementQuarters.version,
      documentId: statements.documentId,
    })
    .from(statements)
    .innerJoin(statementQuarters, eq(statementQuarters.id, statements.quarterId))
    .innerJoin(funds, eq(funds.id, statementQuarters.fundId))
    .innerJoin(entities, eq(entities.id, statements.entityId))
    .where(inArray(statements.entityId, mine))
    .orderBy(desc(statementQuarters.quarter), asc(funds.vintageYear), asc(funds.slug), sql`${entities.name} collate nocase`, asc(statements.entityId), desc(statementQuarters.version))
    .all();
  const seen = new Set<string>();
  const latest: LpStatementRow[] = [];
  for (const row of rows) {
    const key = `${row.entityId}|${row.fundSlug}|${row.quarter}`;
    if (seen.has(key)) continue;
    seen.add(key);
    latest.push({
      id: row.id,
      entityId: row.entityId,
      entityName: row.entityName,
      fund: { slug: row.fundSlug, name: row.fundName },
      quarter: row.quarter,
      version: row.version,
      documentId: row.documentId,
      restated: row.version > 1,
    });
  }
  return latest;
}

/** Whether `user` may read the entity's statements and notices: a member of it (the entities module's one rule), or an admin. */
function mayReadEntity(db: Reader, user: Reader2, entityId: string): boolean {
  return user.isAdmin || memberEntityIds(user.id, db).includes(entityId);
}

export type LpStatement = {
  doc: StatementDoc;
  documentId: string | null;
  /** The same entity's earlier versions of this fund's quarter, newest first. */
  earlierVersions: { id: string; version: number }[];
  /** The newest version when this one was restated since. */
  laterVersion: { id: string } | null;
};

/**
 * One statement for `user` (a member of its entity, or an admin) with its
 * frozen figures and its versions; null for an unknown id or another
 * entity's statement (the same answer).
 */
export function lpStatement(user: Reader2, id: string, db: Reader = getDb()): LpStatement | null {
  const row = db
    .select({
      entityId: statements.entityId,
      figures: statements.figures,
      documentId: statements.documentId,
      fundId: statementQuarters.fundId,
      quarter: statementQuarters.quarter,
      version: statementQuarters.version,
    })
    .from(statements)
    .innerJoin(statementQuarters, eq(statementQuarters.id, statements.quarterId))
    .where(eq(statements.id, id))
    .get();
  if (!row || !mayReadEntity(db, user, row.entityId)) return null;
  const versions = db
    .select({ id: statements.id, version: statementQuarters.version })
    .from(statements)
    .innerJoin(statementQuarters, eq(statementQuarters.id, statements.quarterId))
    .where(and(eq(statements.entityId, row.entityId), eq(statementQuarters.fundId, row.fundId), eq(statementQuarters.quarter, row.quarter)))
    .orderBy(desc(statementQuarters.version))
    .all();
  const newest = versions[0];
  return {
    doc: JSON.parse(row.figures) as StatementDoc,
    documentId: row.documentId,
    earlierVersions: versions.filter((v) => v.version < row.version),
    laterVersion: newest && newest.version > row.version ? { id: newest.id } : null,
  };
}

/** The notice PDF of a published entry for one entity, when `user` may read that entity's (member or admin) and it is made. */
export function noticeDocumentId(user: Reader2, entryId: string, entityId: string, db: Reader = getDb()): string | null {
  if (!mayReadEntity(db, user, entityId)) return null;
  return (
    db
      .select({ documentId: noticeDocuments.documentId })
      .from(noticeDocuments)
      .where(and(eq(noticeDocuments.entryId, entryId), eq(noticeDocuments.entityId, entityId)))
      .get()?.documentId ?? null
  );
}

/** The key of an entry's notice for one entity in noticeDocumentIds's answer. */
export const noticeKey = (entryId: string, entityId: string) => `${entryId}|${entityId}`;

/**
 * The notice PDFs made for these calls' and distributions' entities (one query): entry and entity →
 * document id. The pairs come from the reader's own ledger rows (the capital account's tables), so
 * they are already theirs to read.
 */
export function noticeDocumentIds(pairs: readonly { entryId: string; entityId: string }[], db: Reader = getDb()): Map<string, string> {
  if (!pairs.length) return new Map();
  const entryIds = [...new Set(pairs.map((p) => p.entryId))];
  const entityIds = new Set(pairs.map((p) => p.entityId));
  const rows = db
    .select({ entryId: noticeDocuments.entryId, entityId: noticeDocuments.entityId, documentId: noticeDocuments.documentId })
    .from(noticeDocuments)
    .where(inArray(noticeDocuments.entryId, entryIds))
    .all();
  return new Map(rows.filter((row) => entityIds.has(row.entityId)).map((row) => [noticeKey(row.entryId, row.entityId), row.documentId]));
}
