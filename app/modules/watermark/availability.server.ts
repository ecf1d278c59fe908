import { spawn } from "node:child_process";
import { watermarkCopy } from "~/content/watermark";
import { AppError } from "../http/app-error";
import { log } from "../logging/log.server";
import { QPDF, type QpdfNotStarted } from "./qpdf.server";

/**
 * Whether watermarks can be made on this machine (issue 26 §7): the one owner
 * of that fact. The watermark's only external program is qpdf (Debian package
 * `qpdf`); 11 or later, for its `--json=2` (page-geometry.server.ts). Nothing
 * else the server runs at request time is an external program (PDFs of
 * statements are pdfkit in a worker thread; `git` is read by db:backup only,
 * and optional there).
 *
 * `probeWatermark()` runs `qpdf --version` once, found on the PATH as every
 * later run finds it (so a test overrides it by starting the server with a
 * PATH without qpdf), and keeps the answer: server/start.ts awaits it before
 * the server listens; elsewhere (tests, scripts) the first use runs it. A qpdf
 * that cannot be started later on (removed while the server runs) makes
 * watermarks unavailable from then on, as at start. Becoming unavailable is
 * logged once, with why and what to install; the refusals it causes are not
 * logged again (the request log shows their status).
 *
 * Without it: uploads and audience changes that turn the watermark on are
 * refused with a 400 under `watermark` (`watermarkUnavailableUpload`), an
 * investor's view or download of a watermarked document is a 503
 * (`watermarkUnavailableDownload`; documents/stamped.server.ts answers a page
 * to a browser), the upload forms show the switch disabled, and /readyz says
 * `watermark: "unavailable"` and what is missing. Nothing else changes.
 */

/** The Debian package that provides the program, and its oldest version that works here. */
export const WATERMARK_PROGRAM = { program: QPDF, debianPackage: "qpdf", minimumMajor: 11 } as const;

/** How long `qpdf --version` may take at start. */
const PROBE_TIMEOUT_MS = 10_000;

export type WatermarkAvailability =
  | { state: "available"; version: string }
  | { state: "unavailable"; missing: typeof QPDF; reason: string };

let probe: Promise<WatermarkAvailability> | null = null;
let known: WatermarkAvailability | null = null;

function unavailable(reason: string): WatermarkAvailability {
  return { state: "unavailable", missing: QPDF, reason };
}

/** What `qpdf --version` says ("qpdf version 11.3.0 …") decides; any failure to run it is a reason. */
function runProbe(): Promise<WatermarkAvailability> {
  return new Promise((resolve) => {
    let output = "";
    let settled = false;
    const settle = (result: WatermarkAvailability) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(QPDF, ["--version"], { stdio: ["ignore", "pipe", "ignore"] });
    } catch (error) {
      resolve(unavailable(`${QPDF} could not be started (${(error as Error).message})`));
      return;
    }
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      settle(unavailable(`${QPDF} --version did not answer within ${PROBE_TIMEOUT_MS / 1000} s`));
    }, PROBE_TIMEOUT_MS);
    child.stdout!.on("data", (chunk: Buffer) => {
      if (output.length < 4096) output += chunk.toString("utf8");
    });
    child.once("error", (error: NodeJS.ErrnoException) => {
      const why = error.code === "ENOENT" ? `${QPDF} was not found on the PATH` : `${QPDF} could not be started (${error.message})`;
      settle(unavailable(why));
    });
    child.once("close", (code) => {
      if (code !== 0) return settle(unavailable(`${QPDF} --version exited with code ${code}`));
      const version = /\bversion\s+(\d+)\.(\d+)(?:\.(\d+))?/i.exec(output);
      if (!version) return settle(unavailable(`${QPDF} --version gave no version number`));
      const text = version.slice(1).filter(Boolean).join(".");
      if (Number(version[1]) < WATERMARK_PROGRAM.minimumMajor) {
        return settle(unavailable(`${QPDF} ${text} is too old (${WATERMARK_PROGRAM.minimumMajor} or later is needed)`));
      }
      settle({ state: "available", version: text });
    });
  });
}

function learn(result: WatermarkAvailability) {
  const wasUnavailable = known?.state === "unavailable";
  known = result;
  if (result.state === "unavailable" && !wasUnavailable) {
    log(
      "warn",
      `Watermarks are unavailable: ${result.reason}. Watermarked uploads are refused (400) and investors' views and downloads of watermarked documents answer 503 until it is installed (apt-get install ${WATERMARK_PROGRAM.debianPackage}) and the app restarted.`,
      { feature: "watermark", missing: result.missing },
    );
  }
}

/**
 * Probe once (later calls share the first answer). Never rejects: a missing
 * or unusable qpdf is an answer, logged once.
 */
export function probeWatermark(): Promise<WatermarkAvailability> {
  probe ??= runProbe().then((result) => {
    // A failure noted while the probe ran (noteQpdfMissing) stands.
    if (known?.state !== "unavailable") learn(result);
    return known!;
  });
  return probe;
}

/** Whether watermarks can be made (probing first if nothing has yet). */
export async function watermarkAvailable(): Promise<boolean> {
  if (!known) await probeWatermark();
  return known?.state === "available";
}

/**
 * The same without waiting, once known (null before the first probe has
 * answered): a stamped download takes its place in the queue in the same tick.
 */
export function watermarkAvailableNow(): boolean | null {
  return known ? known.state === "available" : null;
}

/**
 * qpdf could not be started although it was there at start (QpdfNotStarted):
 * watermarks are unavailable from now on, logged once.
 */
export function noteQpdfMissing(error: QpdfNotStarted) {
  learn(unavailable(`${QPDF} could not be started (${error.reason})`));
}

/** /readyz's watermark details (modules/ops/readiness.server.ts): not a readiness check, a feature's state. */
export function watermarkReadiness(): Record<string, unknown> {
  if (!known) return { watermark: "unknown" };
  if (known.state === "available") return { watermark: "available" };
  return { watermark: "unavailable", watermarkMissing: known.missing, watermarkReason: known.reason };
}

/** The 400 of an upload or an audience change that turns the watermark on while it is unavailable: under `watermark`. */
export function watermarkUnavailableUpload(): AppError {
  const message = watermarkCopy.unavailable.install;
  return new AppError("bad_request", message, { fields: { watermark: [message] } });
}

/** The 503 of an investor's view or download of a watermarked document while watermarks are unavailable. */
export function watermarkUnavailableDownload(): AppError {
  return new AppError("service_unavailable", watermarkCopy.unavailable.download, { json: { watermark: "unavailable" } });
}

export function isWatermarkUnavailableDownload(error: unknown): error is AppError {
  return error instanceof AppError && error.code === "service_unavailable" && error.options.json?.watermark === "unavailable";
}

/** For tests: forget the probe (the next use probes again, with the PATH then). */
export function resetWatermarkProbeForTests() {
  probe = null;
  known = null;
}
