import { spawn } from "node:child_process";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PassThrough, type Readable } from "node:stream";
import { watermarkCopy } from "~/content/watermark";
import { AppError } from "../http/app-error";
import {
  noteQpdfMissing,
  probeWatermark,
  watermarkAvailable,
  watermarkAvailableNow,
  watermarkUnavailableDownload,
  watermarkUnavailableUpload,
} from "./availability.server";
import { readPdfGeometry, type PageShape, type PdfGeometry } from "./page-geometry.server";
import { describeExit, lowerPriority, QPDF, QpdfError, QpdfNotStarted, qpdfSucceeded, runQpdf, TextTail, writeArgFile } from "./qpdf.server";
import { acquireSlot, queueState, type ReleaseSlot } from "./queue.server";
import { buildStampPdf, type StampLines } from "./stamp-page.server";

/**
 * Watermarked PDFs (issue 15 §3, decision 024). A stamped copy is made per
 * download by qpdf in a child process: `qpdf stored.pdf --overlay stamp.pdf …
 * -- -`, its stdout streamed to the client, the stored file only read. The
 * stamp PDF (made here with pdf-lib, a few KB) has one page per page shape of
 * the stored file, so the stamp runs along every page's diagonal whatever its
 * size and rotation. At most WATERMARK_CONCURRENCY runs at once (queue.server.ts).
 */

export type StampFor = { name: string; email: string; at: Date };

/** assertStampable's whole bound: reading, checking and one dry stamp. */
const ASSERT_TIMEOUT_MS = 20_000;
/** Reading the page shapes before a stamped download. */
const PREPARE_TIMEOUT_MS = 60_000;
/**
 * A download's qpdf is killed when no byte has moved for this long: qpdf busy
 * without output, or a client that stopped reading (qpdf then waits on the pipe).
 */
const STALL_TIMEOUT_MS = 60_000;
/** …and in any case after this long, however slowly the bytes still move. */
const MAX_RUN_MS = 15 * 60_000;
/** The page every page of unknown shape gets: square (so 45°), larger than any page (qpdf shrinks, never enlarges). */
const SQUARE: PageShape = { width: 14_400, height: 14_400 };
/** A dry stamp uses a name that needs the embedded font. */
const DRY_RUN_FOR: StampFor = { name: "Zoë Łukasiewicz", email: "dry-run@example.com", at: new Date(0) };

/** "2026-11-25 19:30" in UTC. */
function utcMinute(at: Date): string {
  return at.toISOString().slice(0, 16).replace("T", " ");
}

export function stampLines(who: StampFor): StampLines {
  return [watermarkCopy.stamp.title, watermarkCopy.stamp.recipient(who.name, who.email), watermarkCopy.stamp.time(utcMinute(who.at))];
}

type OverlayPlan = {
  /** The stamp PDF's pages. */
  shapes: PageShape[];
  /** The stamp page (1-based) for each page of the stored file; null when every page takes page 1. */
  from: number[] | null;
};

/**
 * Pages whose shapes differ by less than about 1 % in aspect ratio share a
 * stamp page, as large as the largest of them: qpdf scales a stamp page down
 * to fit the page (keeping its aspect ratio, centred), never up.
 */
export function planOverlay(geometry: PdfGeometry): OverlayPlan {
  const byAspect = new Map<string, number>();
  const shapes: PageShape[] = [];
  const from = geometry.pages.map((shape) => {
    const key = shape ? String(Math.round(Math.log(shape.width / shape.height) * 100)) : "square";
    const known = byAspect.get(key);
    if (known === undefined) {
      shapes.push(shape ?? SQUARE);
      byAspect.set(key, shapes.length);
      return shapes.length;
    }
    const current = shapes[known - 1]!;
    if (shape && shape.width * shape.height > current.width * current.height) shapes[known - 1] = shape;
    return known;
  });
  if (shapes.length === 0) shapes.push(SQUARE);
  return { shapes, from: shapes.length > 1 ? from : null };
}

/** qpdf's arguments after the input file: the overlay, then the output (stdout). */
function overlayArgs(stampFile: string, plan: OverlayPlan): string[] {
  const mapping = plan.from ? [`--from=${plan.from.join(",")}`] : ["--from=", "--repeat=1"];
  return ["--overlay", stampFile, "--to=1-z", ...mapping, "--", "-"];
}

/* Page shapes of a stored file, kept for the files most recently stamped (stored files never change). */
const GEOMETRY_CACHE_SIZE = 32;
const geometryCache = new Map<string, PdfGeometry>();

async function geometryFor(absolutePath: string, workDir: string, deadline: number): Promise<PdfGeometry> {
  const info = await stat(absolutePath);
  const key = `${absolutePath}\n${info.size}\n${info.mtimeMs}`;
  const cached = geometryCache.get(key);
  if (cached) {
    geometryCache.delete(key);
    geometryCache.set(key, cached);
    return cached;
  }
  const geometry = await readPdfGeometry(absolutePath, workDir, deadline);
  geometryCache.set(key, geometry);
  if (geometryCache.size > GEOMETRY_CACHE_SIZE) geometryCache.delete(geometryCache.keys().next().value!);
  return geometry;
}

async function makeWorkDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), "lumen-watermark-"));
}

async function removeWorkDir(dir: string) {
  await rm(dir, { recursive: true, force: true }).catch(() => {});
}

/** Writes the stamp PDF and qpdf's argument file for one run; returns the `@file` argument. */
async function prepareRun(workDir: string, geometry: PdfGeometry, who: StampFor): Promise<string> {
  const plan = planOverlay(geometry);
  const stampFile = path.join(workDir, "stamp.pdf");
  await writeFile(stampFile, await buildStampPdf(plan.shapes, stampLines(who)));
  return writeArgFile(workDir, "overlay.args", overlayArgs(stampFile, plan));
}

function refuse(message: string): AppError {
  return new AppError("bad_request", message, { fields: { file: [message] } });
}

/**
 * Throws AppError("bad_request", …, { fields: { file: [message] } }) when the
 * PDF cannot be stamped: encrypted (even with an empty user password), not
 * readable by qpdf, without pages, or failing a dry stamp of the whole file
 * (output discarded), all within ASSERT_TIMEOUT_MS (over: refused too). qpdf
 * warnings (exit 3: a damaged file it repaired) are accepted. Without a usable
 * qpdf (availability.server.ts) it throws the 400 that says what to install,
 * under `watermark`: the file is not at fault.
 *
 * Not counted in the download slots: uploads are rare and admin-only, and a
 * full download queue must not refuse an upload as unstampable.
 */
export async function assertStampable(absolutePath: string): Promise<void> {
  if (!(await watermarkAvailable())) throw watermarkUnavailableUpload();
  const file = path.resolve(absolutePath);
  const deadline = Date.now() + ASSERT_TIMEOUT_MS;
  const remaining = () => Math.max(1, deadline - Date.now());
  const workDir = await makeWorkDir();
  try {
    // Exit 0: encrypted (answered without the password); 2: not encrypted, or not readable (found out next).
    const encryption = await runQpdf(["--is-encrypted", file], { timeoutMs: remaining(), acceptExitCodes: [0, 2] });
    if (encryption.code === 0) throw refuse(watermarkCopy.messages.encrypted);
    const geometry = await readPdfGeometry(file, workDir, deadline);
    if (geometry.encrypted) throw refuse(watermarkCopy.messages.encrypted);
    if (geometry.pageCount === 0) throw refuse(watermarkCopy.messages.unreadable);
    const argFile = await prepareRun(workDir, geometry, DRY_RUN_FOR);
    await runQpdf([file, argFile], { timeoutMs: remaining(), discardOutput: true });
  } catch (error) {
    if (error instanceof QpdfError) {
      throw refuse(error.kind === "unreadable" ? watermarkCopy.messages.unreadable : watermarkCopy.messages.tooComplex);
    }
    // qpdf gone since the start: no watermark until it is back. Anything else (a stamp page for a
    // page shape no one can draw on) is the file's: refuse it rather than fail the upload.
    if (error instanceof QpdfNotStarted) {
      noteQpdfMissing(error);
      throw watermarkUnavailableUpload();
    }
    if (error instanceof AppError) throw error;
    throw refuse(watermarkCopy.messages.tooComplex);
  } finally {
    await removeWorkDir(workDir);
  }
}

/**
 * Starts qpdf and resolves with its output stream once the first byte is
 * there; rejects with an Error when qpdf ends (or is killed) before that.
 * From the start, `finish` (remove the work folder, give back the slot) runs
 * exactly once, when qpdf has ended, before the stream ends or errors.
 */
function runStamping(file: string, argFile: string, finish: () => Promise<void>, signal: AbortSignal | undefined): Promise<Readable> {
  return new Promise<Readable>((resolve, reject) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(QPDF, [file, argFile], { stdio: ["ignore", "pipe", "pipe"] });
      lowerPriority(child);
    } catch (error) {
      void finish().then(() => reject(error as Error));
      return;
    }
    const stderr = new TextTail();
    let started = false;
    let killedFor: string | null = null;
    let done = false;
    let markEnded: () => void = () => {};
    const ended = new Promise<void>((resolveEnded) => (markEnded = resolveEnded));

    const kill = (why: string) => {
      if (done || killedFor) return;
      killedFor = why;
      child.kill("SIGKILL");
      // A paused stdout would never see its end, and "close" waits for it.
      child.stdout?.destroy();
    };
    const output = new PassThrough({
      // The consumer destroyed the stream (the client went away): stop qpdf; "close" follows its end.
      destroy(error, callback) {
        kill("the stamped stream was closed by its reader");
        void ended.then(() => callback(error));
      },
    });
    const stall = setTimeout(() => kill(`no output for ${STALL_TIMEOUT_MS / 1000} s`), STALL_TIMEOUT_MS);
    const cap = setTimeout(() => kill(`still running after ${MAX_RUN_MS / 1000} s`), MAX_RUN_MS);
    const onAbort = () => kill("the request was aborted");
    signal?.addEventListener("abort", onAbort, { once: true });

    child.stdout!.pipe(output, { end: false });
    child.stdout!.on("data", () => {
      stall.refresh();
      if (!started) {
        started = true;
        resolve(output);
      }
    });
    child.stdout!.on("error", () => {});
    child.stderr!.on("data", (chunk: Buffer) => stderr.push(chunk));

    const end = (failure: Error | null) => {
      if (done) return;
      done = true;
      clearTimeout(stall);
      clearTimeout(cap);
      signal?.removeEventListener("abort", onAbort);
      void finish().then(() => {
        markEnded();
        if (!started) {
          output.destroy();
          reject(failure ?? new Error("qpdf wrote nothing"));
        } else if (output.destroyed) {
          // The reader is gone already.
        } else if (failure) {
          output.destroy(failure);
        } else {
          output.end();
        }
      });
    };
    child.once("error", (error) => {
      if (child.pid === undefined) end(new QpdfNotStarted(error.message));
    });
    child.once("close", (code, exitSignal) => {
      if (killedFor) end(new Error(`qpdf was stopped: ${killedFor}`));
      else if (!qpdfSucceeded(code)) end(new Error(`watermarking failed: ${describeExit(code, exitSignal, stderr)}`));
      else end(null);
    });
  });
}

/**
 * A stamped copy of the stored PDF as a stream (qpdf's stdout; the stored file
 * is only read). Waits for a slot first: a full queue throws the 503 AppError
 * with retryAfterSeconds at once. The slot is held until qpdf ends: done,
 * failed, killed on a timeout, or killed because the stream was destroyed
 * (the client went away) or `options.signal` aborted. Fails with a plain Error
 * when qpdf fails before the first byte; a failure later destroys the stream
 * with an error, so a cut-off copy never looks complete. Without a usable qpdf
 * (availability.server.ts) it throws the 503 AppError
 * `watermarkUnavailableDownload` before taking a slot.
 */
export async function stampPdf(absolutePath: string, who: StampFor, options: { signal?: AbortSignal } = {}): Promise<Readable> {
  // Known after the first probe: then the request joins the queue in this tick, first come, first served.
  if (watermarkAvailableNow() === null) await probeWatermark();
  if (!watermarkAvailableNow()) throw watermarkUnavailableDownload();
  const file = path.resolve(absolutePath);
  const release: ReleaseSlot = await acquireSlot(options.signal);
  let workDir: string | null = null;
  const finish = async () => {
    if (workDir) await removeWorkDir(workDir);
    release();
  };
  let handedOver = false;
  try {
    workDir = await makeWorkDir();
    const geometry = await geometryFor(file, workDir, Date.now() + PREPARE_TIMEOUT_MS);
    const argFile = await prepareRun(workDir, geometry, who);
    options.signal?.throwIfAborted();
    handedOver = true;
    return await runStamping(file, argFile, finish, options.signal);
  } catch (error) {
    if (error instanceof QpdfNotStarted) {
      noteQpdfMissing(error);
      throw watermarkUnavailableDownload();
    }
    throw error;
  } finally {
    if (!handedOver) await finish();
  }
}

/** The 503 AppError `watermarkUnavailableDownload` when watermarks cannot be made (a stamped HEAD checks this alone). */
export async function assertStampingAvailable(): Promise<void> {
  if (!(await watermarkAvailable())) throw watermarkUnavailableDownload();
}

/** For tests and the benchmark: stamping runs going on and requests waiting for one. */
export function watermarkQueueState(): { running: number; queued: number } {
  return queueState();
}
