import type Database from "better-sqlite3";
import { getEnv, type Env } from "../config/env.server";
import { processWide } from "../config/process-wide.server";
import { log } from "../logging/log.server";
import { replicationOn } from "./litestream.server";
import { databaseMetrics, LagTracker, parsePrometheus, type ReplicationStatus } from "./metrics.server";

/**
 * The server's side of replication (decision 042), on while LITESTREAM_REPLICA_URL
 * is set: it leaves checkpoints to Litestream, and /readyz reports the lag, read
 * from Litestream's metrics endpoint by a background poll (every POLL_MS; a
 * request never waits for it).
 */

/** How often the metrics endpoint is read. */
export const POLL_MS = 2_000;
const FETCH_TIMEOUT_MS = 1_500;
/**
 * The server's automatic checkpoint threshold while Litestream checkpoints:
 * twice Litestream's forced (RESTART) checkpoint at 10,000 pages, so it never
 * fires while Litestream runs and only bounds the WAL (about 80 MB) when
 * Litestream is down. It is PASSIVE, like every automatic checkpoint: never
 * TRUNCATE, never waiting on Litestream's read lock.
 */
export const WAL_AUTOCHECKPOINT_WITH_LITESTREAM = 20_000;

type Monitor = {
  tracker: LagTracker;
  timer: NodeJS.Timeout | null;
  inFlight: boolean;
  lastState: string | null;
};
const monitor = processWide("replication.monitor", (): Monitor => ({ tracker: new LagTracker(), timer: null, inFlight: false, lastState: null }));

/** Apply the checkpoint cooperation to the server's connection; returns the threshold set (null: replication off, SQLite's default kept). */
export function applyCheckpointPolicy(sqlite: Database.Database, env: Env = getEnv()): number | null {
  if (!replicationOn(env)) return null;
  sqlite.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_WITH_LITESTREAM}`);
  return WAL_AUTOCHECKPOINT_WITH_LITESTREAM;
}

/** The metrics URL /readyz reads (null: replication off or its metrics turned off). */
export function metricsUrl(env: Env): string | null {
  if (!replicationOn(env) || env.LITESTREAM_METRICS_ADDR === "off") return null;
  const addr = env.LITESTREAM_METRICS_ADDR;
  // Litestream listens on localhost when the host part is empty (":9090").
  return `http://${addr.startsWith(":") ? `127.0.0.1${addr}` : addr}/metrics`;
}

/** Read the metrics once and feed the tracker. */
export async function pollReplication(env: Env = getEnv(), now: () => number = Date.now): Promise<ReplicationStatus> {
  const url = metricsUrl(env);
  if (!url) return monitor.tracker.status();
  let status: ReplicationStatus;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const text = await response.text();
    status = monitor.tracker.observe(databaseMetrics(parsePrometheus(text), env.DATABASE_PATH), now());
  } catch {
    status = monitor.tracker.unreachable(now());
  }
  reportChange(status, url, env);
  return status;
}

/** One log line when the state changes (not every poll). */
function reportChange(status: ReplicationStatus, url: string, env: Env) {
  if (status.state === monitor.lastState || status.state === "starting") return;
  const first = monitor.lastState === null;
  monitor.lastState = status.state;
  if (status.state === "ok") {
    if (!first) log("info", "Replication is keeping up again", { replication: status.state });
    return;
  }
  const why: Record<string, string> = {
    behind: `the replica has not received WAL for ${status.lag_seconds} s (check the replica's reachability and credentials: journalctl -u lumen-ridge-litestream)`,
    sync_errors: "Litestream reports failed syncs of the database (journalctl -u lumen-ridge-litestream)",
    stalled: "Litestream did not sync the database between two looks",
    not_replicating: `Litestream at ${url} does not replicate ${env.DATABASE_PATH}: do both read the same DATABASE_PATH?`,
    unreachable: `Litestream's metrics at ${url} do not answer: is lumen-ridge-litestream running (npm run db:replicate)?`,
  };
  log("warn", `Replication: ${why[status.state] ?? status.state}`, { replication: status.state });
}

/** Start the background poll (idempotent; the timer does not keep the process alive). */
export function startReplicationMonitor(env: Env = getEnv()): void {
  if (monitor.timer || !metricsUrl(env)) return;
  const tick = () => {
    if (monitor.inFlight) return;
    monitor.inFlight = true;
    pollReplication(env)
      .catch(() => undefined)
      .finally(() => {
        monitor.inFlight = false;
      });
  };
  tick();
  monitor.timer = setInterval(tick, POLL_MS);
  monitor.timer.unref();
}

export function stopReplicationMonitor(): void {
  if (monitor.timer) clearInterval(monitor.timer);
  monitor.timer = null;
}

/**
 * The server's part at start: the checkpoint cooperation on its connection and
 * the metrics poll. Returns what to log.
 */
export function startReplication(sqlite: Database.Database, env: Env = getEnv()): { autocheckpoint: number | null } {
  const autocheckpoint = applyCheckpointPolicy(sqlite, env);
  if (autocheckpoint !== null) startReplicationMonitor(env);
  return { autocheckpoint };
}

/** /readyz's replication details: nothing while replication is off; never waits on Litestream. */
export function replicationReadiness(): Record<string, unknown> {
  const env = getEnv();
  if (!replicationOn(env)) return {};
  if (!metricsUrl(env)) return { replication: { state: "unmonitored", lag_seconds: null } };
  startReplicationMonitor(env); // a process that did not go through startServer (tests)
  return { replication: monitor.tracker.status() };
}

/** For tests: a fresh tracker and no timer. */
export function resetReplicationForTests(): void {
  stopReplicationMonitor();
  monitor.tracker = new LagTracker();
  monitor.inFlight = false;
  monitor.lastState = null;
}
