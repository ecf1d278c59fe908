import { and, count, desc, eq, max, sql } from "drizzle-orm";
import type { SelectedFields } from "drizzle-orm/sqlite-core";
import { getDb } from "~/modules/db/connection.server";
import { accessLog, documents, fundAccessUsers, fundDocuments, lpUsers } from "../../../db/schema";
import { audit } from "../audit/audit.server";

/** Who viewed or downloaded which document, when, from where (DESIGN.md §5). */

export type AccessAction = "view" | "download";
export type DocumentKind = "lp" | "fund";
/** An investor or admin account, or a fund access holder (by its request); with the e-mail the audit trail shows. */
export type Actor = { kind: "lp_user" | "fund_access_user"; id: string; email: string };
export type RequestMeta = { ip: string | null; userAgent: string | null };

const USER_AGENT_MAX = 512;

export function requestMeta(request: Request, clientAddress: string | null | undefined): RequestMeta {
  const userAgent = request.headers.get("user-agent");
  return { ip: clientAddress ?? null, userAgent: userAgent ? userAgent.slice(0, USER_AGENT_MAX) : null };
}

export function recordAccess(entry: {
  action: AccessAction;
  documentKind: DocumentKind;
  document: { id: string; title: string };
  actor: Actor;
  meta: RequestMeta;
}): void {
  getDb().transaction((tx) => {
    tx.insert(accessLog)
      .values({
        action: entry.action,
        documentKind: entry.documentKind,
        documentId: entry.document.id,
        actorKind: entry.actor.kind,
        actorId: entry.actor.id,
        ip: entry.meta.ip,
        userAgent: entry.meta.userAgent,
      })
      .run();
    audit(tx, "document.accessed", {
      actor: { id: entry.actor.id, email: entry.actor.email },
      target: { type: "document", id: entry.document.id, label: entry.document.title },
      details: {
        action: entry.action,
        kind: entry.documentKind,
        documentId: entry.document.id,
        actorKind: entry.actor.kind,
        actorId: entry.actor.id,
      },
    });
  });
}

export type AccessSummary = { views: number; downloads: number; lastAccessAt: Date | null };

/** Per document of a kind: views, downloads and the last access. */
export function summarizeAccess(documentKind: DocumentKind): Map<string, AccessSummary> {
  const rows = getDb()
    .select({
      documentId: accessLog.documentId,
      views: sql<number>`sum(case when ${accessLog.action} = 'view' then 1 else 0 end)`,
      downloads: sql<number>`sum(case when ${accessLog.action} = 'download' then 1 else 0 end)`,
      last: max(accessLog.createdAt),
    })
    .from(accessLog)
    .where(eq(accessLog.documentKind, documentKind))
    .groupBy(accessLog.documentId)
    .all();
  return new Map(
    rows.map((row) => [
      row.documentId,
      { views: Number(row.views), downloads: Number(row.downloads), lastAccessAt: row.last ? new Date(row.last) : null },
    ]),
  );
}

export type AccessEntry = {
  id: string;
  action: AccessAction;
  at: Date;
  actorName: string | null;
  actorEmail: string | null;
  actorKind: Actor["kind"];
  ip: string | null;
  userAgent: string | null;
};

/** The columns of an entry, who included (an investor or admin, or a fund access holder). */
const entryColumns = {
  id: accessLog.id,
  action: accessLog.action,
  at: accessLog.createdAt,
  actorKind: accessLog.actorKind,
  ip: accessLog.ip,
  userAgent: accessLog.userAgent,
  lpName: lpUsers.name,
  lpEmail: lpUsers.email,
  fundName: fundAccessUsers.name,
  fundEmail: fundAccessUsers.email,
};

/** Entries, newest first, joined to whoever made them (still known or not). */
function entriesWithActors<Extra extends SelectedFields>(extra: Extra) {
  return getDb()
    .select({ ...entryColumns, ...extra })
    .from(accessLog)
    .leftJoin(lpUsers, and(eq(accessLog.actorKind, "lp_user"), eq(lpUsers.id, accessLog.actorId)))
    .leftJoin(fundAccessUsers, and(eq(accessLog.actorKind, "fund_access_user"), eq(fundAccessUsers.id, accessLog.actorId)))
    .$dynamic();
}

function toEntry(row: {
  id: string;
  action: AccessAction;
  at: Date;
  actorKind: Actor["kind"];
  ip: string | null;
  userAgent: string | null;
  lpName: string | null;
  lpEmail: string | null;
  fundName: string | null;
  fundEmail: string | null;
}): AccessEntry {
  return {
    id: row.id,
    action: row.action,
    at: row.at,
    actorKind: row.actorKind,
    actorName: row.lpName ?? row.fundName ?? null,
    actorEmail: row.lpEmail ?? row.fundEmail ?? null,
    ip: row.ip,
    userAgent: row.userAgent,
  };
}

/** The newest entries of one document's history (and the total), who included when still known. */
export function accessHistory(
  documentKind: DocumentKind,
  documentId: string,
  limit = 500,
): { entries: AccessEntry[]; total: number } {
  const where = and(eq(accessLog.documentKind, documentKind), eq(accessLog.documentId, documentId));
  const rows = entriesWithActors({}).where(where).orderBy(desc(accessLog.createdAt), desc(accessLog.id)).limit(limit).all();
  const total = getDb().select({ n: count() }).from(accessLog).where(where).get()?.n ?? 0;
  return { total, entries: rows.map(toEntry) };
}

export type LatestAccess = AccessEntry & { documentKind: DocumentKind; documentId: string; documentTitle: string | null };

/** The newest views and downloads of every document, with the document's title and who, when still known. */
export function latestAccesses(limit = 10): LatestAccess[] {
  return entriesWithActors({
    documentKind: accessLog.documentKind,
    documentId: accessLog.documentId,
    lpTitle: documents.title,
    fundTitle: fundDocuments.title,
  })
    .leftJoin(documents, and(eq(accessLog.documentKind, "lp"), eq(documents.id, accessLog.documentId)))
    .leftJoin(fundDocuments, and(eq(accessLog.documentKind, "fund"), eq(fundDocuments.id, accessLog.documentId)))
    .orderBy(desc(accessLog.createdAt), desc(accessLog.id))
    .limit(limit)
    .all()
    .map((row) => ({
      ...toEntry(row),
      documentKind: row.documentKind,
      documentId: row.documentId,
      documentTitle: row.lpTitle ?? row.fundTitle ?? null,
    }));
}
