import { spawn, type ChildProcess } from "node:child_process";
import { writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/**
 * Running qpdf (11.x, the Debian package) as a child process: never in the
 * server's own memory, always with a time limit, killed when it overruns.
 * Exit codes: 0 fine, 2 errors, 3 warnings only (the output was written).
 */

export const QPDF = "qpdf";

/** How much of qpdf's stderr is kept for an error message. */
const STDERR_TAIL = 2048;

export function qpdfSucceeded(code: number | null): boolean {
  return code === 0 || code === 3;
}

/**
 * qpdf could not be run at all (not installed): the server's fault, never the
 * file's. The watermark module then counts watermarks as unavailable
 * (availability.server.ts `noteQpdfMissing`).
 */
export class QpdfNotStarted extends Error {
  constructor(readonly reason: string) {
    super(`qpdf could not be started (${reason}); is the qpdf package installed?`);
    this.name = "QpdfNotStarted";
  }
}

/** Why qpdf could not do what was asked with a file (not: qpdf is missing). */
export class QpdfError extends Error {
  constructor(
    readonly kind: "unreadable" | "timeout" | "output_too_large",
    message: string,
  ) {
    super(message);
    this.name = "QpdfError";
  }
}

/** Keeps the last `limit` characters written to it. */
export class TextTail {
  private text = "";
  constructor(private readonly limit = STDERR_TAIL) {}
  push(chunk: Buffer | string) {
    this.text = (this.text + chunk.toString()).slice(-this.limit);
  }
  toString(): string {
    return this.text.trim();
  }
}

export function describeExit(code: number | null, signal: NodeJS.Signals | null, stderr: TextTail): string {
  const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
  const said = stderr.toString();
  return said ? `qpdf ${how}: ${said}` : `qpdf ${how}`;
}

/**
 * qpdf reads arguments from a file named `@file`, one a line: long page lists
 * (one `--from` entry per page, one `--json-object` per object) then never meet
 * the command line's length limits.
 */
export async function writeArgFile(dir: string, name: string, args: string[]): Promise<string> {
  if (args.some((arg) => /[\r\n]/.test(arg))) throw new Error("qpdf argument with a line break");
  const file = path.join(dir, name);
  await writeFile(file, args.join("\n") + "\n");
  return `@${file}`;
}

export type QpdfRun = { code: number | null; stdout: string };

/**
 * Runs qpdf to its end. stdout is collected as text (up to `maxOutputBytes`,
 * beyond which qpdf is killed and QpdfError "output_too_large" thrown) or
 * discarded. Overrunning `timeoutMs` kills it and throws QpdfError "timeout".
 * Exit code 2 (or a signal) throws QpdfError "unreadable" with qpdf's words;
 * 0 and 3 are returned. Failing to start qpdf at all throws QpdfNotStarted.
 */
/**
 * qpdf runs at a lower CPU priority than the server (nice 10), so stamping
 * on a small machine does not slow the pages others are loading. Best effort:
 * a process that has already ended, or a platform without priorities, is fine.
 */
export function lowerPriority(child: ChildProcess) {
  if (child.pid === undefined) return;
  try {
    os.setPriority(child.pid, 10);
  } catch {
    // It ended already, or priorities are not ours to set.
  }
}

export function runQpdf(
  args: string[],
  options: { timeoutMs: number; maxOutputBytes?: number; discardOutput?: boolean; acceptExitCodes?: number[] },
): Promise<QpdfRun> {
  const { timeoutMs, maxOutputBytes = 16 * 1024 * 1024, discardOutput = false, acceptExitCodes = [0, 3] } = options;
  return new Promise<QpdfRun>((resolve, reject) => {
    const child = spawn(QPDF, args, { stdio: ["ignore", discardOutput ? "ignore" : "pipe", "pipe"] });
    lowerPriority(child);
    const chunks: Buffer[] = [];
    let outputBytes = 0;
    let stopped: "timeout" | "output_too_large" | null = null;
    let settled = false;
    const stderr = new TextTail();

    const stop = (why: "timeout" | "output_too_large") => {
      if (stopped) return;
      stopped = why;
      child.kill("SIGKILL");
    };
    const timer = setTimeout(() => stop("timeout"), Math.max(1, timeoutMs));

    child.stdout?.on("data", (chunk: Buffer) => {
      outputBytes += chunk.length;
      if (outputBytes > maxOutputBytes) stop("output_too_large");
      else chunks.push(chunk);
    });
    child.stderr!.on("data", (chunk: Buffer) => stderr.push(chunk));

    child.once("error", (error) => {
      // Only a failed start ends here without a "close"; a failed kill of a running qpdf is followed by one.
      if (child.pid !== undefined || settled) return;
      settled = true;
      clearTimeout(timer);
      reject(new QpdfNotStarted(error.message));
    });
    child.once("close", (code, signal) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (stopped === "timeout") return reject(new QpdfError("timeout", `qpdf took longer than ${timeoutMs} ms and was stopped`));
      if (stopped === "output_too_large") {
        return reject(new QpdfError("output_too_large", `qpdf wrote more than ${maxOutputBytes} bytes and was stopped`));
      }
      if (code === null || !acceptExitCodes.includes(code)) return reject(new QpdfError("unreadable", describeExit(code, signal, stderr)));
      resolve({ code, stdout: Buffer.concat(chunks).toString("utf8") });
    });
  });
}
