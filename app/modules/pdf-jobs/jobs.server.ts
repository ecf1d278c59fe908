import { and, asc, count, desc, eq, gt, isNotNull, sql } from "drizzle-orm";
import { getDb, type Db } from "~/modules/db/connection.server";
import { ledgerAllocations, noticeDocuments, pdfJobFailures, pdfJobs, statements } from "../../../db/schema";
import { audit } from "../audit/audit.server";
import { now } from "../config/clock.server";

/**
 * The PDF jobs' rows (issue 25 §2–3, decision 041): a quarter version's
 * statements or a published entry's notices. A job holds no list of items:
 * they are derived — the version's statements without a document, the
 * entry's allocated entities without a notice document — less the items the
 * job recorded as failed. So a restart resumes where it stopped, and the
 * unique keys (one document per statement; notice_documents' primary key)
 * make each PDF once however many runners try.
 */

export type PdfJob = typeof pdfJobs.$inferSelect;
export type PdfJobKind = PdfJob["kind"];
export type JobProgress = { done: number; total: number; failed: number; status: PdfJob["status"] };

type Reader = Pick<Db, "select">;
type Writer = Pick<Db, "select" | "insert" | "update">;

/** Queue a job inside the caller's transaction (the publish that makes its items); returns its id. */
export function queuePdfJob(tx: Writer, kind: PdfJobKind, refId: string, total: number): string {
  const row = tx.insert(pdfJobs).values({ kind, refId, total }).onConflictDoNothing().returning({ id: pdfJobs.id }).get();
  if (row) return row.id;
  // Already queued for this quarter version or entry (unique key): that job is the one.
  return tx
    .select({ id: pdfJobs.id })
    .from(pdfJobs)
    .where(and(eq(pdfJobs.kind, kind), eq(pdfJobs.refId, refId)))
    .get()!.id;
}

export function findPdfJob(jobId: string, db: Reader = getDb()): PdfJob | undefined {
  return db.select().from(pdfJobs).where(eq(pdfJobs.id, jobId)).get();
}

/** The job of a quarter version's statements or of an entry's notices, if any. */
export function pdfJobFor(kind: PdfJobKind, refId: string, db: Reader = getDb()): PdfJob | undefined {
  return db
    .select()
    .from(pdfJobs)
    .where(and(eq(pdfJobs.kind, kind), eq(pdfJobs.refId, refId)))
    .get();
}

/** How many of a job's items have their document. */
function doneCount(job: Pick<PdfJob, "kind" | "refId">, db: Reader): number {
  if (job.kind === "statements") {
    return (
      db
        .select({ n: count() })
        .from(statements)
        .where(and(eq(statements.quarterId, job.refId), isNotNull(statements.documentId)))
        .get()?.n ?? 0
    );
  }
  return db.select({ n: count() }).from(noticeDocuments).where(eq(noticeDocuments.entryId, job.refId)).get()?.n ?? 0;
}

function failedCount(jobId: string, db: Reader): number {
  return db.select({ n: count() }).from(pdfJobFailures).where(eq(pdfJobFailures.jobId, jobId)).get()?.n ?? 0;
}

/** A job's progress: documents made, items in all, items that failed, and whether it still runs; null for an unknown id. */
export function jobProgress(jobId: string, db: Reader = getDb()): JobProgress | null {
  const job = findPdfJob(jobId, db);
  if (!job) return null;
  return progressOf(job, db);
}

export function progressOf(job: PdfJob, db: Reader = getDb()): JobProgress {
  return { done: doneCount(job, db), total: job.total, failed: failedCount(job.id, db), status: job.status };
}

/** The running jobs, the next to work on first: notices (a call's PDFs follow within a minute) before statements, oldest first. */
export function runningJobs(db: Reader = getDb()): PdfJob[] {
  return db
    .select()
    .from(pdfJobs)
    .where(eq(pdfJobs.status, "running"))
    .orderBy(desc(sql`${pdfJobs.kind} = 'notices'`), asc(pdfJobs.createdAt), asc(pdfJobs.id))
    .all();
}

/** An item still to make: the entity, and for a statement its row and frozen figures (JSON). */
export type PendingItem = { entityId: string; statementId: string | null; figures: string | null };

/**
 * Up to `limit` items of the job still to make, after entity id `after`
 * (the runner's cursor), by entity id: neither made nor failed.
 */
export function pendingItems(job: Pick<PdfJob, "id" | "kind" | "refId">, after: string, limit: number, db: Pick<Db, "select" | "selectDistinct"> = getDb()): PendingItem[] {
  // Correlated subqueries name the outer table in full (drizzle writes a lone table's columns unqualified).
  const notFailed = (table: "statements" | "ledger_allocations") =>
    sql`not exists (select 1 from pdf_job_failures f where f.job_id = ${job.id} and f.entity_id = ${sql.raw(`"${table}"."entity_id"`)})`;
  if (job.kind === "statements") {
    return db
      .select({ entityId: statements.entityId, statementId: statements.id, figures: statements.figures })
      .from(statements)
      .where(and(eq(statements.quarterId, job.refId), gt(statements.entityId, after), sql`${statements.documentId} is null`, notFailed("statements")))
      .orderBy(asc(statements.entityId))
      .limit(limit)
      .all();
  }
  return db
    .selectDistinct({ entityId: ledgerAllocations.entityId })
    .from(ledgerAllocations)
    .where(
      and(
        eq(ledgerAllocations.entryId, job.refId),
        gt(ledgerAllocations.entityId, after),
        sql`not exists (select 1 from notice_documents n where n.entry_id = ${job.refId} and n.entity_id = "ledger_allocations"."entity_id")`,
        notFailed("ledger_allocations"),
      ),
    )
    .orderBy(asc(ledgerAllocations.entityId))
    .limit(limit)
    .all()
    .map((row) => ({ entityId: row.entityId, statementId: null, figures: null }));
}

/** The longest reason kept for a failed item. */
const FAILURE_MESSAGE_MAX = 500;

/** Record that the job could not make this entity's PDF (it is not tried again by this job). */
export function recordFailure(jobId: string, entityId: string, message: string, db: Pick<Db, "insert"> = getDb()): void {
  db.insert(pdfJobFailures)
    .values({ jobId, entityId, message: message.slice(0, FAILURE_MESSAGE_MAX) || "Unknown error" })
    .onConflictDoNothing()
    .run();
}

/** Mark a job finished (no item left), with its audit row; false when it was already finished. */
export function finishJob(job: PdfJob, db: Db = getDb()): boolean {
  return db.transaction((tx) => {
    const changed = tx
      .update(pdfJobs)
      .set({ status: "finished", finishedAt: now() })
      .where(and(eq(pdfJobs.id, job.id), eq(pdfJobs.status, "running")))
      .run().changes;
    if (!changed) return false;
    const progress = progressOf({ ...job, status: "finished" }, tx);
    audit(tx, "statements.pdf_job_finished", {
      target: { type: job.kind === "statements" ? "statement_quarter" : "ledger_entry", id: job.refId },
      details: { jobId: job.id, kind: job.kind, done: progress.done, total: progress.total, failed: progress.failed },
    });
    return true;
  });
}
