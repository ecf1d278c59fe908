import { writeFile } from "node:fs/promises";
import { and, eq, isNull } from "drizzle-orm";
import { statementDocumentCopy } from "~/content/statements-rules";
import { getDb, type Db } from "~/modules/db/connection.server";
import { documentRecipientEntities, documents, noticeDocuments, statementQuarters, statements } from "../../../db/schema";
import { processWide } from "../config/process-wide.server";
import { queueNewDocumentMails } from "../document-mail/document-mail.server";
import { readSetting } from "../firm-settings/settings.server";
import { log, logError } from "../logging/log.server";
import { kickMailer } from "../mail/mail.server";
import { renderPdf } from "../pdf/pdf.server";
import { noticeDocsFor } from "../statements/notice-docs.server";
import type { NoticeDoc, StatementDoc } from "../statements/types";
import { commitIncoming, incomingPath, prepareIncoming, removeQuietly, removeStoredFile } from "../storage/storage.server";
import { finishJob, pendingItems, recordFailure, runningJobs, type PdfJob } from "./jobs.server";
import { setPdfJobsWake } from "./kick.server";

/**
 * The PDF job runner (issue 25 §2–4, decision 041), in the server process:
 * one job at a time, one item at a time, each PDF rendered by the worker
 * thread of modules/pdf (so the site stays responsive on two cores). For an
 * item it renders the PDF, stores the file as uploads are stored (incoming/,
 * then moved into "documents"), and in one transaction inserts the document
 * (addressed to the entity), links it (statements.document_id, or a
 * notice_documents row) and, for a statement, queues the new-document mails.
 * When the link finds the item already made (another process, a retry), the
 * transaction is undone and the file dropped; when rendering or storing
 * throws, the item is recorded as failed and the job goes on. A job with no
 * item left is finished. Notices jobs go first: a call's PDFs follow within
 * a minute even while a quarter's 2,000 statements are being made.
 */

export type PdfRenderJob = { kind: "statement"; doc: StatementDoc } | { kind: "notice"; doc: NoticeDoc };
export type PdfRenderer = (job: PdfRenderJob) => Promise<Uint8Array>;

export type RunOptions = {
  /** The renderer (default: the worker thread's renderPdf); tests pass their own. */
  render?: PdfRenderer;
  db?: Db;
  /** Checked between items: a stopping server finishes the item in hand and goes no further. */
  shouldStop?: () => boolean;
};

export type RunResult = { made: number; duplicates: number; failed: number; finished: number };

/** Items read per query (the runner's cursor walks a job's items by entity id). */
const BATCH = 50;
/** New-document mails go out every this many statements (and at the end of a job) rather than after each. */
const MAIL_KICK_EVERY = 25;
/** A running job another process queued (its kick did not reach this one) is picked up within this time. */
const POLL_MS = 60_000;

/** The item was already made by someone else: undo, drop the file, count it as a duplicate (not a failure). */
class AlreadyMade extends Error {}

/** A file name of ASCII letters, digits and dashes. */
function slugPart(text: string): string {
  const slug = text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/g, "");
  return slug || "entity";
}

type Made = { title: string; description: string | null; category: string; fileName: string; watermark: boolean; uploadedBy: string | null };

function statementDocument(doc: StatementDoc, publishedBy: string | null, watermark: boolean): Made {
  const version = doc.version > 1 ? `-v${doc.version}` : "";
  return {
    title: statementDocumentCopy.statementTitle(doc.fund.name, doc.quarter, doc.entity.name),
    description: doc.restated ? statementDocumentCopy.restatedDescription(doc.version) : null,
    category: "reports",
    fileName: `statement-${doc.fund.slug}-${doc.quarter}-${slugPart(doc.entity.name)}${version}.pdf`,
    watermark,
    uploadedBy: publishedBy,
  };
}

function noticeDocument(doc: NoticeDoc): Made {
  return {
    title: statementDocumentCopy.noticeTitle(doc.kind, doc.fund.name, doc.reference, doc.entity.name),
    description: null,
    category: "fund_documents",
    fileName: `notice-${doc.fund.slug}-${slugPart(doc.reference)}-${slugPart(doc.entity.name)}.pdf`,
    watermark: false,
    uploadedBy: null,
  };
}

/** Store the bytes as an upload is stored: written to incoming/, then moved into "documents". Returns the stored path. */
async function storeBytes(bytes: Uint8Array): Promise<string> {
  await prepareIncoming();
  const tmp = incomingPath();
  try {
    await writeFile(tmp, bytes);
    return await commitIncoming(tmp, "documents");
  } catch (error) {
    await removeQuietly(tmp);
    throw error;
  }
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Insert the document row addressed to the entity only ("selected", its entity as recipient). */
function insertDocument(tx: Tx, made: Made, entityId: string, filePath: string, fileSize: number) {
  const row = tx
    .insert(documents)
    .values({ ...made, filePath, fileSize, mimeType: "application/pdf", audience: "selected" })
    .returning()
    .get();
  tx.insert(documentRecipientEntities).values({ documentId: row.id, entityId }).run();
  return row;
}

/** What one job needs across its items: the publisher and watermark of a version, an entry's notice figures. */
type JobContext = { publishedBy: string | null; notices: Map<string, NoticeDoc> | null };

function contextOf(job: PdfJob, db: Db): JobContext {
  if (job.kind === "statements") {
    const version = db.select({ publishedBy: statementQuarters.publishedBy }).from(statementQuarters).where(eq(statementQuarters.id, job.refId)).get();
    return { publishedBy: version?.publishedBy ?? null, notices: null };
  }
  return { publishedBy: null, notices: new Map(noticeDocsFor(job.refId, db).map((doc) => [doc.entity.id, doc])) };
}

/**
 * Make one item's PDF and document. "made", "duplicate" (already made
 * elsewhere: nothing kept) or "failed" (recorded on the job).
 */
async function makeItem(
  job: PdfJob,
  item: { entityId: string; statementId: string | null; figures: string | null },
  context: JobContext,
  render: PdfRenderer,
  db: Db,
): Promise<"made" | "duplicate" | "failed"> {
  let stored: string | null = null;
  try {
    let renderJob: PdfRenderJob;
    if (job.kind === "statements") {
      renderJob = { kind: "statement", doc: JSON.parse(item.figures ?? "null") as StatementDoc };
    } else {
      const doc = context.notices?.get(item.entityId);
      if (!doc) throw new Error(`no notice figures for entity ${item.entityId}`);
      renderJob = { kind: "notice", doc };
    }
    const bytes = await render(renderJob);
    stored = await storeBytes(bytes);
    const filePath = stored;
    db.transaction((tx) => {
      if (renderJob.kind === "statement") {
        const made = statementDocument(renderJob.doc, context.publishedBy, readSetting("statements_watermark", tx));
        const row = insertDocument(tx, made, item.entityId, filePath, bytes.byteLength);
        const linked = tx
          .update(statements)
          .set({ documentId: row.id })
          .where(and(eq(statements.id, item.statementId!), isNull(statements.documentId)))
          .run().changes;
        if (!linked) throw new AlreadyMade();
        queueNewDocumentMails(tx, row);
      } else {
        const row = insertDocument(tx, noticeDocument(renderJob.doc), item.entityId, filePath, bytes.byteLength);
        const linked = tx.insert(noticeDocuments).values({ entryId: job.refId, entityId: item.entityId, documentId: row.id }).onConflictDoNothing().run().changes;
        if (!linked) throw new AlreadyMade();
      }
    });
    return "made";
  } catch (error) {
    // The file was stored but its row not written (a duplicate, a failed insert): it must not stay behind.
    if (stored) await removeStoredFile(stored);
    if (error instanceof AlreadyMade) return "duplicate";
    logError(error, `pdf job ${job.id}: the PDF of entity ${item.entityId} failed`);
    recordFailure(job.id, item.entityId, error instanceof Error ? error.message : String(error), db);
    return "failed";
  }
}

/**
 * Work through every running job until none has an item left (or
 * `shouldStop`): the runner's loop, and the tests' "run once until idle".
 */
export async function runPdfJobsUntilIdle(options: RunOptions = {}): Promise<RunResult> {
  const db = options.db ?? getDb();
  const render = options.render ?? renderPdf;
  const stop = options.shouldStop ?? (() => false);
  const result: RunResult = { made: 0, duplicates: 0, failed: 0, finished: 0 };
  const cursors = new Map<string, string>();
  const contexts = new Map<string, JobContext>();
  let sinceMail = 0;
  while (!stop()) {
    const job = runningJobs(db)[0];
    if (!job) break;
    const after = cursors.get(job.id) ?? "";
    const items = pendingItems(job, after, BATCH, db);
    if (!items.length) {
      // Past the cursor nothing is left; from the start (an item may have come back behind it) neither: done.
      if (after !== "") {
        cursors.set(job.id, "");
        continue;
      }
      if (finishJob(job, db)) result.finished++;
      if (job.kind === "statements") kickMailer();
      contexts.delete(job.id);
      continue;
    }
    let context = contexts.get(job.id);
    if (!context) {
      try {
        context = contextOf(job, db);
      } catch (error) {
        // The figures of the whole job cannot be read: each item fails with the reason, the job ends.
        logError(error, `pdf job ${job.id}: reading its figures failed`);
        const message = error instanceof Error ? error.message : String(error);
        for (const item of items) recordFailure(job.id, item.entityId, message, db);
        result.failed += items.length;
        continue;
      }
      contexts.set(job.id, context);
    }
    for (const item of items) {
      if (stop()) break;
      const outcome = await makeItem(job, item, context, render, db);
      if (outcome === "made") result.made++;
      else if (outcome === "duplicate") result.duplicates++;
      else result.failed++;
      cursors.set(job.id, item.entityId);
      if (outcome === "made" && job.kind === "statements" && ++sinceMail >= MAIL_KICK_EVERY) {
        sinceMail = 0;
        kickMailer();
      }
    }
  }
  if (sinceMail > 0) kickMailer();
  return result;
}

const runner = processWide("pdf-jobs.runner", () => ({
  running: null as Promise<void> | null,
  again: false,
  stopped: true,
  options: {} as RunOptions,
}));

function kick(): void {
  if (runner.stopped) return;
  if (runner.running) {
    runner.again = true;
    return;
  }
  runner.running = (async () => {
    do {
      runner.again = false;
      try {
        const result = await runPdfJobsUntilIdle({ ...runner.options, shouldStop: () => runner.stopped });
        if (result.made + result.failed > 0) log("info", "pdf jobs: documents made", result);
      } catch (error) {
        logError(error, "pdf jobs: the run failed");
      }
    } while (runner.again && !runner.stopped);
  })().finally(() => {
    runner.running = null;
  });
}

/**
 * Start the runner (server/start.ts): resume the jobs still running, answer
 * kickPdfJobs(), and look for jobs queued by another process every minute.
 * Returns the stop function: no item is started after it (the one in hand
 * finishes; wait for it with flushPdfJobs).
 */
export function startPdfJobs(options: Omit<RunOptions, "shouldStop"> = {}): () => void {
  runner.stopped = false;
  runner.options = options;
  setPdfJobsWake(kick);
  const timer = setInterval(kick, POLL_MS);
  timer.unref();
  kick();
  return () => {
    runner.stopped = true;
    clearInterval(timer);
    setPdfJobsWake(null);
  };
}

/** Wait for the run in progress (graceful shutdown, tests). */
export async function flushPdfJobs(): Promise<void> {
  while (runner.running) await runner.running;
}
