/**
 * Loaded into the production server by the soak only (soak/run.ts starts it
 * with NODE_OPTIONS=--import=<this file> and SOAK_PROBE_MS): every
 * SOAK_PROBE_MS milliseconds it writes one line to the server's stdout,
 *
 *   {"soakProbe":1,"at":…,"rss":…,"heapUsed":…,"heapTotal":…,"external":…,"arrayBuffers":…,
 *    "eldP50Ms":…,"eldP99Ms":…,"eldMaxMs":…}
 *
 * the process's own memory figures (bytes) and the event-loop delay since the
 * previous line (perf_hooks.monitorEventLoopDelay, in ms beyond its 20 ms
 * sampling interval). It opens no port and changes nothing in the server; the
 * server's code does not know it is there. Without SOAK_PROBE_MS (a child
 * process that inherits NODE_OPTIONS, a worker thread) it does nothing.
 * Plain JavaScript: the server runs compiled code with plain node.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { isMainThread } from "node:worker_threads";

const RESOLUTION_MS = 20;
const intervalMs = Number(process.env.SOAK_PROBE_MS);
// Only this process: children and worker threads started later see no SOAK_PROBE_MS.
delete process.env.SOAK_PROBE_MS;

if (isMainThread && Number.isFinite(intervalMs) && intervalMs >= 100) {
  const delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  delay.enable();
  // The histogram records the time between its timer's runs: the interval itself plus the delay.
  const beyond = (ns) => (delay.count > 0 ? Math.max(0, ns / 1e6 - RESOLUTION_MS) : null);
  const timer = setInterval(() => {
    const memory = process.memoryUsage();
    const line = JSON.stringify({
      soakProbe: 1,
      at: Date.now(),
      rss: memory.rss,
      heapUsed: memory.heapUsed,
      heapTotal: memory.heapTotal,
      external: memory.external,
      arrayBuffers: memory.arrayBuffers,
      eldP50Ms: beyond(delay.percentile(50)),
      eldP99Ms: beyond(delay.percentile(99)),
      eldMaxMs: beyond(delay.max),
    });
    delay.reset();
    process.stdout.write(`${line}\n`);
  }, intervalMs);
  // Never what keeps the server running (it exits on its own after SIGTERM).
  timer.unref();
}
