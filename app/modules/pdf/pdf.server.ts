import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { processWide } from "../config/process-wide.server";
import type { PdfJob } from "./render";
import type { PdfWorkerReply, PdfWorkerRequest } from "./worker";

export type { PdfJob };

/**
 * The PDFs of statements and notices, made in ONE long-lived worker thread
 * (issue 25 §4, decision 041), so that making 2,000 of them keeps GET /
 * responsive on a two-core server. The worker starts at the first job, takes
 * one job at a time (the others wait here, in order), answers with the bytes
 * (transferred, not copied), and is started again for the next job if it dies.
 * A job that throws, or that the worker dies or times out on, rejects its own
 * promise only. Between jobs the thread does not keep the process alive.
 *
 * The worker's file:
 * - compiled (`npm run build`): build/server/pdf-worker.js, an entry of the
 *   server build (vite.config.ts SERVER_ENTRIES). This module lands in
 *   build/server/index.js or in a chunk under build/server/chunks/, so the
 *   file is looked for next to this module's file, then one folder up.
 * - from the sources (this module's URL ends in .ts: Vitest, tsx, the Vite
 *   dev server): worker-source.mjs, which registers tsx and loads worker.ts.
 */

/** A job taking longer than this is stopped (the worker is restarted for the next). */
const JOB_TIMEOUT_MS = 60_000;
/**
 * The worker's heap: room for the largest document many times over (a statement's live heap is ~40 MB with
 * the parsed fonts), so a runaway job ends its worker, not the server. The young generation is kept small:
 * at V8's default (a 32 MB new space) the worker's RSS grew by ~105 MB over 300 statements, at 8 MB by ~78 MB,
 * at the same speed (33 ms a statement either way, measured on the built worker).
 */
const WORKER_HEAP = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 8 } as const;

type Pending = { job: PdfJob; resolve: (bytes: Uint8Array) => void; reject: (error: Error) => void };
type Running = Pending & { id: number; timer: NodeJS.Timeout };

const state = processWide("pdf.worker", () => ({
  worker: null as Worker | null,
  queue: [] as Pending[],
  running: null as Running | null,
  nextId: 1,
}));

/** Where the worker's code is, and how to start it (see the module's comment). */
export function pdfWorkerFile(): URL {
  const here = import.meta.url;
  if (here.endsWith(".ts")) return new URL("./worker-source.mjs", here);
  for (const candidate of ["./pdf-worker.js", "../pdf-worker.js"]) {
    const url = new URL(candidate, here);
    if (fs.existsSync(fileURLToPath(url))) return url;
  }
  throw new Error(`pdf-worker.js not found next to ${here} or one folder up: is it an entry of the server build?`);
}

function startWorker(): Worker {
  const worker = new Worker(pdfWorkerFile(), { resourceLimits: WORKER_HEAP });
  worker.on("message", (reply: PdfWorkerReply) => {
    const running = state.running;
    if (!running || running.id !== reply.id) return;
    finish(reply.ok ? { bytes: new Uint8Array(reply.bytes) } : { error: Object.assign(new Error(reply.message), { stack: reply.stack ?? reply.message }) });
  });
  // An uncaught error ends the thread: 'exit' follows and fails the running job.
  worker.on("error", () => {});
  worker.on("exit", (code) => {
    if (state.worker !== worker) return;
    state.worker = null;
    if (state.running) finish({ error: new Error(`The PDF worker stopped (exit code ${code}) while making this PDF`) });
  });
  return worker;
}

function finish(outcome: { bytes: Uint8Array } | { error: Error }): void {
  const running = state.running;
  if (!running) return;
  clearTimeout(running.timer);
  state.running = null;
  if ("bytes" in outcome) running.resolve(outcome.bytes);
  else running.reject(outcome.error);
  next();
}

/** Sends the next waiting job to the worker (starting it when needed). */
function next(): void {
  if (state.running) return;
  const pending = state.queue.shift();
  if (!pending) {
    state.worker?.unref();
    return;
  }
  const worker = (state.worker ??= startWorker());
  worker.ref();
  const id = state.nextId++;
  const timer = setTimeout(() => {
    if (state.running?.id !== id) return;
    state.worker = null;
    finish({ error: new Error(`The PDF took longer than ${JOB_TIMEOUT_MS / 1000} s and was stopped`) });
    void worker.terminate();
  }, JOB_TIMEOUT_MS);
  timer.unref();
  state.running = { ...pending, id, timer };
  worker.postMessage({ id, job: pending.job } satisfies PdfWorkerRequest);
}

/** The PDF of `job`, made in the worker thread. */
export function renderPdf(job: PdfJob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    state.queue.push({ job, resolve, reject });
    next();
  });
}

/** The same PDF made in this thread (tests, scripts): pdfkit is loaded at the first call. */
export async function renderPdfInProcess(job: PdfJob): Promise<Uint8Array> {
  const { renderJob } = await import("./render");
  return renderJob(job);
}

/**
 * Stops the worker (the server's shutdown, after its job runner has finished
 * the PDF in hand): jobs still waiting are refused, the running one fails. A
 * later renderPdf starts a new worker.
 */
export async function closePdfWorker(): Promise<void> {
  const waiting = state.queue.splice(0);
  for (const pending of waiting) pending.reject(new Error("The PDF worker was closed"));
  const worker = state.worker;
  state.worker = null;
  if (state.running) finish({ error: new Error("The PDF worker was closed while making this PDF") });
  if (worker) await worker.terminate();
}
