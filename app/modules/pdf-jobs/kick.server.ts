import { processWide } from "../config/process-wide.server";

/**
 * The PDF job runner's wake-up (issue 25 §2–3), apart from the runner so the
 * ledger and the statements can ask for a run without importing the
 * renderer. Only a started runner (server/start.ts: startPdfJobs) answers;
 * elsewhere (a CLI, a test that runs the jobs by hand) a kick does nothing
 * and the job waits, `running`, for the next server start to resume it.
 */
const wake = processWide("pdf-jobs.wake", () => ({ run: null as (() => void) | null }));

/** Ask the runner (if this process started one) to work through the running jobs now. */
export function kickPdfJobs(): void {
  wake.run?.();
}

/** The runner registers how it is woken (null when it stops). */
export function setPdfJobsWake(run: (() => void) | null): void {
  wake.run = run;
}
