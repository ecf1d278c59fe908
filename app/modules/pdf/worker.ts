import { parentPort } from "node:worker_threads";
import { renderJob, type PdfJob } from "./render";

/**
 * The PDF worker thread (decision 041): one long-lived thread of the server
 * that makes the statements' and notices' PDFs with pdfkit, so a publish of
 * 2,000 statements keeps the server's own thread free for requests. It takes
 * one job at a time from pdf.server.ts (which queues the rest) and answers
 * with the bytes, transferred rather than copied, or with the error's message.
 *
 * An entry of the server build (vite.config.ts SERVER_ENTRIES:
 * build/server/pdf-worker.js); from the sources it runs through
 * worker-source.mjs, which registers tsx first.
 */

export type PdfWorkerRequest = { id: number; job: PdfJob };
export type PdfWorkerReply = { id: number; ok: true; bytes: ArrayBuffer } | { id: number; ok: false; message: string; stack?: string };

const port = parentPort;
if (!port) throw new Error("pdf-worker runs as a worker thread (modules/pdf/pdf.server.ts starts it)");

port.on("message", ({ id, job }: PdfWorkerRequest) => {
  renderJob(job).then(
    (bytes) => {
      const buffer = bytes.buffer as ArrayBuffer;
      port.postMessage({ id, ok: true, bytes: buffer } satisfies PdfWorkerReply, [buffer]);
    },
    (error: unknown) => {
      const failure = error instanceof Error ? error : new Error(String(error));
      port.postMessage({ id, ok: false, message: failure.message, stack: failure.stack } satisfies PdfWorkerReply);
    },
  );
});
