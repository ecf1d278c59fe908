import { and, count, desc, eq } from "drizzle-orm";
import { publishingMessages } from "~/content/statements-rules";
import { getDb, type Db } from "~/modules/db/connection.server";
import { z } from "~/modules/validation/z";
import { pnlRows, statementQuarters, statements } from "../../../db/schema";
import { audit } from "../audit/audit.server";
import type { LpUser } from "../auth/session.server";
import { now } from "../config/clock.server";
import { findFundBySlug, type Fund } from "../funds/funds.server";
import { AppError } from "../http/app-error";
import { queuePdfJob } from "../pdf-jobs/jobs.server";
import { kickPdfJobs } from "../pdf-jobs/kick.server";
import { firmDay } from "../pitch-clock/clock.server";
import { quarterIsOver } from "./lock.server";
import { QUARTER_PATTERN, isQuarter, quarterEnd } from "./quarter";
import { readFundHistories } from "./inputs.server";
import { statementDocsOf } from "./statement-docs.server";
import { committedAtQuarterEnd, tieOutHistories } from "./tie-out.server";
import type { StatementDoc } from "./types";

/**
 * Publishing a fund's quarter (issue 25 §2, decision 041). Once the quarter
 * is over, has its P&L and ties out for every entity, one transaction writes
 * the quarter's version (n+1), every entity's statement with its figures
 * frozen (StatementDoc as JSON; a restatement lists its differences against
 * version n and supersedes it) and the PDF job, with the audit row; the job
 * runner then makes the PDFs in the background. A published quarter is closed
 * (lock.server.ts) until "Restate" reopens it.
 */

type Admin = Pick<LpUser, "id" | "email">;
type Reader = Pick<Db, "select">;
type Version = typeof statementQuarters.$inferSelect;

export type PublishResult = { quarterId: string; version: number; jobId: string; total: number };

/** Rows per INSERT: 2,000 statements are four statements of SQLite's. */
const CHUNK = 500;

/** The latest version of a fund's quarter, if it was ever published. */
export function latestVersion(db: Reader, fundId: string, quarter: string): Version | undefined {
  return db
    .select()
    .from(statementQuarters)
    .where(and(eq(statementQuarters.fundId, fundId), eq(statementQuarters.quarter, quarter)))
    .orderBy(desc(statementQuarters.version))
    .get();
}

/** A version's statements as frozen, by entity. */
export function frozenDocs(db: Reader, quarterId: string): Map<string, StatementDoc> {
  const rows = db.select({ entityId: statements.entityId, figures: statements.figures }).from(statements).where(eq(statements.quarterId, quarterId)).all();
  return new Map(rows.map((row) => [row.entityId, JSON.parse(row.figures) as StatementDoc]));
}

function quarterField(quarter: string): void {
  if (!isQuarter(quarter)) throw new AppError("bad_request", publishingMessages.quarter, { fields: { quarter: [publishingMessages.quarter] } });
}

/**
 * Publish `quarter` of `fund`: 400 for a malformed quarter; 422 when it is
 * not over (Zurich), has no P&L, does not tie out, or no entity holds a
 * commitment at its end; 409 when its latest version is published (restate
 * first). Returns the version written and its PDF job; the runner is kicked.
 */
export function publishQuarter(admin: Admin, fund: Fund, quarter: string, db: Db = getDb()): PublishResult {
  quarterField(quarter);
  const publishedOn = firmDay(now());
  if (!quarterIsOver(quarter, publishedOn)) throw new AppError("unprocessable", publishingMessages.notOver(quarter, quarterEnd(quarter)));
  const result = db.transaction((tx) => {
    const latest = latestVersion(tx, fund.id, quarter);
    if (latest?.status === "published") throw new AppError("conflict", publishingMessages.alreadyPublished(quarter));
    const pnl = tx
      .select({ n: count() })
      .from(pnlRows)
      .where(and(eq(pnlRows.fundId, fund.id), eq(pnlRows.quarter, quarter)))
      .get();
    if (!pnl?.n) throw new AppError("unprocessable", publishingMessages.noPnl(quarter));
    // One read of the histories for the tie-out and the statements.
    const histories = committedAtQuarterEnd(readFundHistories(fund.id, quarterEnd(quarter), tx), quarter);
    const off = tieOutHistories(histories, quarter).filter((row) => !row.ok);
    if (off.length) throw new AppError("unprocessable", publishingMessages.doesNotTie(quarter, off.length));
    if (!histories.length) throw new AppError("unprocessable", publishingMessages.noEntities(quarter));
    const version = (latest?.version ?? 0) + 1;
    if (latest) tx.update(statementQuarters).set({ status: "superseded" }).where(eq(statementQuarters.id, latest.id)).run();
    const row = tx
      .insert(statementQuarters)
      .values({ fundId: fund.id, quarter, version, status: "published", differences: null, publishedBy: admin.id, publishedAt: now() })
      .returning({ id: statementQuarters.id })
      .get();
    // The statements made and written a chunk at a time: 2,000 of them never sit in memory together.
    const changed: { entityId: string; rows: string[] }[] = [];
    let chunk: { quarterId: string; entityId: string; figures: string }[] = [];
    const flush = () => {
      if (chunk.length) tx.insert(statements).values(chunk).run();
      chunk = [];
    };
    for (const doc of statementDocsOf(fund, quarter, histories, { version, previous: latest ? frozenDocs(tx, latest.id) : null, publishedOn })) {
      if (doc.differences.length) changed.push({ entityId: doc.entity.id, rows: doc.differences.map((d) => d.row) });
      chunk.push({ quarterId: row.id, entityId: doc.entity.id, figures: JSON.stringify(doc) });
      if (chunk.length === CHUNK) flush();
    }
    flush();
    if (latest) tx.update(statementQuarters).set({ differences: JSON.stringify(changed) }).where(eq(statementQuarters.id, row.id)).run();
    const total = histories.length;
    const jobId = queuePdfJob(tx, "statements", row.id, total);
    audit(tx, "statements.published", {
      actor: { id: admin.id, email: admin.email },
      target: { type: "fund", id: fund.id, label: `${fund.name} · ${quarter}` },
      details: { fund: fund.slug, quarter, version, count: total, restated: version > 1, entitiesChanged: latest ? changed.length : null, jobId },
    });
    return { quarterId: row.id, version, jobId, total };
  });
  kickPdfJobs();
  return result;
}

/** POST /api/statements/publish's body (and the admin page's form fields). */
export const publishQuarterSchema = z.object({
  fund: z.string({ error: publishingMessages.fund }).trim().min(1, publishingMessages.fund).max(64, publishingMessages.fund),
  quarter: z.string({ error: publishingMessages.quarter }).trim().regex(QUARTER_PATTERN, publishingMessages.quarter),
});
export type PublishQuarterInput = z.output<typeof publishQuarterSchema>;

/** The fund a body names by slug (400 on `fund` for an unknown one). */
export function fundNamed(slug: string, db: Reader = getDb()): Fund {
  const fund = findFundBySlug(slug, db);
  if (!fund) throw new AppError("bad_request", publishingMessages.fund, { fields: { fund: [publishingMessages.fund] } });
  return fund;
}

/**
 * Restate: reopen the quarter's published version (→ `reopened`), so dated
 * changes are allowed in it again until the next version is published;
 * audited. 409 when its latest version is not published.
 */
export function reopenQuarter(admin: Admin, fund: Fund, quarter: string, db: Db = getDb()): { quarterId: string; version: number } {
  quarterField(quarter);
  return db.transaction((tx) => {
    const latest = latestVersion(tx, fund.id, quarter);
    if (latest?.status !== "published") throw new AppError("conflict", publishingMessages.notPublished(quarter));
    tx.update(statementQuarters).set({ status: "reopened" }).where(eq(statementQuarters.id, latest.id)).run();
    audit(tx, "statements.reopened", {
      actor: { id: admin.id, email: admin.email },
      target: { type: "fund", id: fund.id, label: `${fund.name} · ${quarter}` },
      details: { fund: fund.slug, quarter, version: latest.version },
    });
    return { quarterId: latest.id, version: latest.version };
  });
}
