import { logError } from "../logging/log.server";

/**
 * The server's background jobs (retention, purges, the digest and summary
 * checks): `work` runs now and then every `intervalMs`, on a timer that does
 * not keep the process alive. A failure is logged as `failure` and the next
 * run comes as planned. Returns the stop function. Each job is safe to run in
 * two processes at once (one delete statement, or a claimed run).
 */
export function repeatEvery(intervalMs: number, failure: string, work: () => void): () => void {
  const run = () => {
    try {
      work();
    } catch (error) {
      logError(error, failure);
    }
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
