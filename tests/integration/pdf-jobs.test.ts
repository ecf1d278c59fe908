import fs from "node:fs";
import path from "node:path";
import { and, eq, isNotNull } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/modules/db/connection.server";
import { setStatementsWatermark } from "~/modules/firm-settings/settings.server";
import { flushMailer } from "~/modules/mail/mail.server";
import { renderPdfInProcess } from "~/modules/pdf/pdf.server";
import { jobProgress } from "~/modules/pdf-jobs/jobs.server";
import { runPdfJobsUntilIdle, type PdfRenderer } from "~/modules/pdf-jobs/runner.server";
import { publishQuarter, reopenQuarter } from "~/modules/statements/publish.server";
import { noticeDocumentId } from "~/modules/statements/reads.server";
import { storageRoot } from "~/modules/storage/storage.server";
import { loader as fileLoader } from "~/routes/api/document-file";
import { loader as listLoader } from "~/routes/api/documents";
import { documentRecipientEntities, documents, emailOutbox, noticeDocuments, pdfJobFailures, pdfJobs, statements } from "../../db/schema";
import { filesUnder } from "../helpers/documents";
import { samplePdf } from "../helpers/sample-files";
import { publishingFixture, putPnl, type PublishingFixture } from "../helpers/publishing";
import { ORIGIN, apiRequest, callRouteWith, sessionCookieFor } from "../helpers/users";

/**
 * The resumable PDF job (issue 25 §2–3, decision 041): a quarter's statements
 * and a call's notices become one document per entity, addressed to that
 * entity only, announced by mail for statements only; running again (a
 * restart) or two runners at once never make one twice; a failing item is
 * counted and the rest finish.
 */

let f: PublishingFixture;
const cookies = { olivia: "", otto: "" };

/** pdfkit in this thread (the server uses the worker thread; same bytes): the first run's real PDFs. */
const render: PdfRenderer = (job) => renderPdfInProcess(job);
/** A small PDF naming the entity, for the runs about the job's bookkeeping (pdfkit takes a while on a busy CI core). */
const quick: PdfRenderer = async (job) => new Uint8Array(samplePdf(`${job.kind} ${job.doc.entity.name}`));

const docsIn = (category: string) => getDb().select().from(documents).where(eq(documents.category, category)).all();
const storedDocumentFiles = () => filesUnder(path.join(storageRoot(), "documents"));
const statementsOf = (quarterId: string) => getDb().select().from(statements).where(eq(statements.quarterId, quarterId)).all();

async function listedIds(cookie: string): Promise<string[]> {
  const response = await callRouteWith(listLoader as never, apiRequest("GET", "/api/documents", { cookie }));
  expect(response.status).toBe(200);
  return ((await response.json()) as { id: string }[]).map((d) => d.id);
}
const download = (id: string, cookie: string) =>
  callRouteWith(fileLoader as never, new Request(`${ORIGIN}/api/documents/${id}/download`, { headers: { Cookie: cookie } }), { params: { id } });

/** Publish version n+1 of 2025-Q1 (restating it when it is published). */
function publishAgain() {
  try {
    reopenQuarter(f.admin, f.fund, "2025-Q1");
  } catch {
    // not published yet
  }
  return publishQuarter(f.admin, f.fund, "2025-Q1");
}

beforeAll(async () => {
  f = await publishingFixture();
  cookies.olivia = await sessionCookieFor(f.olivia);
  cookies.otto = await sessionCookieFor(f.otto);
});

describe("a quarter's statements and a call's notices", () => {
  let v1: ReturnType<typeof publishQuarter>;

  it("become one PDF document per entity, addressed to that entity only", async () => {
    v1 = publishQuarter(f.admin, f.fund, "2025-Q1");
    const result = await runPdfJobsUntilIdle({ render });
    // The fixture's Call 1 (2 notices) and the quarter's 2 statements; both jobs finished.
    expect(result).toEqual({ made: 4, duplicates: 0, failed: 0, finished: 2 });
    expect(jobProgress(v1.jobId)).toEqual({ done: 2, total: 2, failed: 0, status: "finished" });

    const reports = docsIn("reports");
    expect(reports.map((d) => d.title).sort()).toEqual([
      "Capital account statement — Deeptech Fund II — 2025-Q1 — Atlas Holdings AG a",
      "Capital account statement — Deeptech Fund II — 2025-Q1 — Brunner Ventures GmbH a",
    ]);
    for (const doc of reports) {
      expect(doc).toMatchObject({ audience: "selected", mimeType: "application/pdf", uploadedBy: f.admin.id, watermark: false });
      const bytes = fs.readFileSync(path.join(storageRoot(), doc.filePath));
      expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      expect(doc.fileSize).toBe(bytes.byteLength);
    }
    const atlasDoc = reports.find((d) => d.title.endsWith("Atlas Holdings AG a"))!;
    const brunnerDoc = reports.find((d) => d.title.endsWith("Brunner Ventures GmbH a"))!;
    expect(atlasDoc.fileName).toBe("statement-fund-ii-2025-Q1-atlas-holdings-ag-a.pdf");
    expect(getDb().select().from(documentRecipientEntities).where(eq(documentRecipientEntities.documentId, atlasDoc.id)).all()).toEqual([
      { documentId: atlasDoc.id, entityId: f.atlas },
    ]);
    expect(statementsOf(v1.quarterId).map((s) => s.documentId).sort()).toEqual([atlasDoc.id, brunnerDoc.id].sort());

    // The documents' one access rule: Atlas's members read Atlas's, Brunner's member cannot (the unknown id's 404).
    expect(await listedIds(cookies.olivia)).toContain(atlasDoc.id);
    expect(await listedIds(cookies.olivia)).not.toContain(brunnerDoc.id);
    expect(await listedIds(cookies.otto)).not.toContain(atlasDoc.id);
    expect((await download(atlasDoc.id, cookies.olivia)).status).toBe(200);
    expect((await download(atlasDoc.id, cookies.otto)).status).toBe(404);

    // Notices: "Fund Documents", titled by the call, linked per entity, no new-document mail.
    const notices = docsIn("fund_documents");
    expect(notices.map((d) => d.title).sort()).toEqual([
      "Capital call notice — Deeptech Fund II — Call 1 — Atlas Holdings AG a",
      "Capital call notice — Deeptech Fund II — Call 1 — Brunner Ventures GmbH a",
    ]);
    const atlasNotice = noticeDocumentId(f.olivia, f.callId, f.atlas);
    expect(atlasNotice).toBe(notices.find((d) => d.title.endsWith("Atlas Holdings AG a"))!.id);
    expect(noticeDocumentId(f.otto, f.callId, f.atlas)).toBeNull();
    expect(notices.find((d) => d.id === atlasNotice)!.fileName).toBe("notice-fund-ii-call-1-atlas-holdings-ag-a.pdf");

    // New-document mails for the statements (each member who wants each), none for the notices.
    await flushMailer();
    const mailed = getDb().select().from(emailOutbox).where(isNotNull(emailOutbox.documentId)).all();
    expect(mailed.map((m) => [m.documentId, m.to]).sort()).toEqual(
      [
        [atlasDoc.id, f.olivia.email],
        [atlasDoc.id, f.victor.email],
        [brunnerDoc.id, f.otto.email],
      ].sort(),
    );
    expect(storedDocumentFiles()).toHaveLength(4);
  });

  it("makes nothing twice: running again, or a job resumed after a restart", async () => {
    expect(await runPdfJobsUntilIdle({ render: quick })).toEqual({ made: 0, duplicates: 0, failed: 0, finished: 0 });
    // A restart finds the job still running (it stopped before marking it finished): nothing is made again.
    getDb().update(pdfJobs).set({ status: "running", finishedAt: null }).where(eq(pdfJobs.id, v1.jobId)).run();
    expect(await runPdfJobsUntilIdle({ render: quick })).toEqual({ made: 0, duplicates: 0, failed: 0, finished: 1 });
    // One document lost (deleted): a resumed job makes that one only.
    const atlasStatement = statementsOf(v1.quarterId).find((s) => s.entityId === f.atlas)!;
    const lost = getDb().select().from(documents).where(eq(documents.id, atlasStatement.documentId!)).get()!;
    getDb().delete(documents).where(eq(documents.id, lost.id)).run();
    fs.rmSync(path.join(storageRoot(), lost.filePath));
    getDb().update(pdfJobs).set({ status: "running", finishedAt: null }).where(eq(pdfJobs.id, v1.jobId)).run();
    expect(await runPdfJobsUntilIdle({ render: quick })).toEqual({ made: 1, duplicates: 0, failed: 0, finished: 1 });
    expect(statementsOf(v1.quarterId).every((s) => s.documentId !== null)).toBe(true);
    expect(getDb().select().from(noticeDocuments).all()).toHaveLength(2);
  });

  it("never makes a PDF twice when two runners work the same job, and leaves no stray file", async () => {
    const v2 = publishAgain();
    expect(v2.version).toBe(2);
    const slow: PdfRenderer = async (job) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return quick(job);
    };
    const [a, b] = await Promise.all([runPdfJobsUntilIdle({ render: slow }), runPdfJobsUntilIdle({ render: slow })]);
    expect(a.made + b.made).toBe(2);
    expect(a.duplicates + b.duplicates).toBe(2);
    expect(statementsOf(v2.quarterId).every((s) => s.documentId !== null)).toBe(true);
    const rows = getDb().select({ filePath: documents.filePath }).from(documents).all();
    expect(storedDocumentFiles().sort()).toEqual(rows.map((r) => r.filePath.replace(/^documents\//, "")).sort());
    expect(filesUnder(path.join(storageRoot(), "incoming"))).toEqual([]);
    // Restated: the file name says the version, the description that it replaces the earlier one.
    const v2Atlas = getDb().select().from(documents).where(eq(documents.id, statementsOf(v2.quarterId).find((s) => s.entityId === f.atlas)!.documentId!)).get()!;
    expect(v2Atlas.fileName).toBe("statement-fund-ii-2025-Q1-atlas-holdings-ag-a-v2.pdf");
    expect(v2Atlas.description).toMatch(/Restated \(version 2\)/);
  });

  it("resumes a job stopped halfway (a server stopping) with the items left", async () => {
    putPnl(f.fund, "2025-Q1", f.brunner, { managementFeesMinor: -100_000, unrealizedGainChangeMinor: -300_000 });
    const version = publishAgain();
    let rendered = 0;
    const counted: PdfRenderer = (job) => {
      rendered++;
      return quick(job);
    };
    // The server stops once the first PDF is in hand: it is finished and recorded, nothing more is started.
    const first = await runPdfJobsUntilIdle({ render: counted, shouldStop: () => rendered >= 1 });
    expect(first).toEqual({ made: 1, duplicates: 0, failed: 0, finished: 0 });
    expect(jobProgress(version.jobId)).toEqual({ done: 1, total: 2, failed: 0, status: "running" });
    expect(await runPdfJobsUntilIdle({ render: quick })).toEqual({ made: 1, duplicates: 0, failed: 0, finished: 1 });
    expect(jobProgress(version.jobId)).toEqual({ done: 2, total: 2, failed: 0, status: "finished" });
  });

  it("counts a failing item and finishes the rest; the watermark setting is taken at creation", async () => {
    setStatementsWatermark(f.admin, true);
    putPnl(f.fund, "2025-Q1", f.atlas, { managementFeesMinor: -400_000, unrealizedGainChangeMinor: -600_000 });
    const v3 = publishAgain();
    const failing: PdfRenderer = async (job) => {
      if (job.doc.entity.id === f.brunner) throw new Error("the font could not be read");
      return quick(job);
    };
    expect(await runPdfJobsUntilIdle({ render: failing })).toEqual({ made: 1, duplicates: 0, failed: 1, finished: 1 });
    expect(jobProgress(v3.jobId)).toEqual({ done: 1, total: 2, failed: 1, status: "finished" });
    expect(getDb().select().from(pdfJobFailures).where(eq(pdfJobFailures.jobId, v3.jobId)).all()).toMatchObject([
      { entityId: f.brunner, message: "the font could not be read" },
    ]);
    const made = statementsOf(v3.quarterId).find((s) => s.entityId === f.atlas)!;
    expect(getDb().select().from(documents).where(eq(documents.id, made.documentId!)).get()!.watermark).toBe(true);
    // The failed item is not tried again by that job.
    expect(await runPdfJobsUntilIdle({ render: quick })).toEqual({ made: 0, duplicates: 0, failed: 0, finished: 0 });
    expect(getDb().select().from(statements).where(and(eq(statements.quarterId, v3.quarterId), isNotNull(statements.documentId))).all()).toHaveLength(1);
    setStatementsWatermark(f.admin, false);
  });
});
