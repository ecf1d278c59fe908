import type { NoticeDoc, StatementDoc } from "../statements/types";
import { pdfFonts } from "./fonts";
import { createPdf } from "./layout";
import { drawNotice, noticePdfMeta } from "./notice";
import { drawStatement, statementPdfMeta } from "./statement";

/** What the PDF worker is asked to make (decision 041): a statement or a notice, from its frozen figures. */
export type PdfJob = { kind: "statement"; doc: StatementDoc } | { kind: "notice"; doc: NoticeDoc };

/**
 * The PDF of `job` as bytes, made in this thread: the worker's work
 * (worker.ts), and what tests and scripts call without a worker
 * (pdf.server.ts renderPdfInProcess). pdfkit writes synchronously and ends
 * its stream on a later tick, so the bytes are collected from its events.
 */
export async function renderJob(job: PdfJob): Promise<Uint8Array> {
  const fonts = await pdfFonts();
  return new Promise((resolve, reject) => {
    const doc = createPdf(job.kind === "statement" ? statementPdfMeta(job.doc) : noticePdfMeta(job.doc), fonts);
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => {
      const bytes = Buffer.concat(chunks);
      // The bytes in an ArrayBuffer of their own, so the worker can transfer it: a document's buffer
      // is its own (larger than Node's pool slices), else it is copied out of the shared pool.
      const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
      resolve(new Uint8Array(owned ? bytes.buffer : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)));
    });
    doc.on("error", reject);
    try {
      if (job.kind === "statement") drawStatement(doc, job.doc);
      else drawNotice(doc, job.doc);
      doc.end();
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
