/**
 * Litestream's Prometheus metrics (v0.3.13, `addr:` in deploy/litestream.yml) and
 * the replication lag /readyz reports, worked out from them. Pure functions and
 * one small state machine, so the tests feed them text and times.
 *
 * Litestream 0.3.13 has no lag metric. What it counts, per database (label `db`,
 * the absolute path) and replica (label `name`):
 * - `litestream_total_wal_bytes{db}`: bytes copied from the database's WAL into
 *   its shadow WAL (what is waiting to be uploaded, and everything before it);
 * - `litestream_replica_wal_bytes{db,name}`: bytes uploaded to the replica;
 * - `litestream_sync_count{db}` / `litestream_sync_error_count{db}`: shadow WAL
 *   syncs, one per monitor interval, and the failed ones.
 * A replica's sync uploads everything the shadow WAL holds at that moment
 * (Replica.Sync reads to its end), so: when the shadow WAL grew and the
 * replica's bytes did not, the replica is behind since then; once its bytes
 * grow again it has caught up. The counters restart with Litestream, and the
 * position gauges (`litestream_shadow_wal_size` is the size of every shadow WAL
 * file kept, including the one Litestream keeps behind on purpose) do not give
 * a byte lag, hence the counting. The lag's resolution is the poll interval.
 */

export type MetricSample = { name: string; labels: Record<string, string>; value: number };

/** Parse the Prometheus text format (the lines that matter: `name{labels} value`). */
export function parsePrometheus(text: string): MetricSample[] {
  const samples: MetricSample[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([A-Za-z_:][A-Za-z0-9_:]*)(\{(.*)\})?\s+(\S+)(\s+\S+)?$/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    if (match[3]) {
      for (const pair of match[3].matchAll(/([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
        labels[pair[1]!] = pair[2]!.replace(/\\n/g, "\n").replace(/\\(.)/g, "$1");
      }
    }
    const value = Number(match[4]);
    if (!Number.isNaN(value)) samples.push({ name: match[1]!, labels, value });
  }
  return samples;
}

/** What one scrape says about one database. */
export type DatabaseMetrics = {
  shadowBytes: number;
  syncs: number;
  syncErrors: number;
  /** Uploaded bytes per replica name. */
  replicas: Record<string, number>;
};

/** The figures for `databasePath` (null when Litestream does not replicate that file). */
export function databaseMetrics(samples: MetricSample[], databasePath: string): DatabaseMetrics | null {
  const forDb = samples.filter((s) => s.labels.db === databasePath);
  const one = (name: string) => forDb.find((s) => s.name === name)?.value;
  const shadowBytes = one("litestream_total_wal_bytes");
  const syncs = one("litestream_sync_count");
  if (shadowBytes === undefined || syncs === undefined) return null;
  // Every replica has its validation counters from the start; its byte counter only after its first upload.
  const replicas: Record<string, number> = {};
  for (const s of forDb) if (s.name.startsWith("litestream_replica_") && s.labels.name) replicas[s.labels.name] ??= 0;
  for (const s of forDb) if (s.name === "litestream_replica_wal_bytes" && s.labels.name) replicas[s.labels.name] = s.value;
  return { shadowBytes, syncs, syncErrors: one("litestream_sync_error_count") ?? 0, replicas };
}

export type ReplicationState =
  /** Not enough scrapes yet to tell (the first two after start). */
  | "starting"
  | "ok"
  /** A replica has not uploaded WAL the shadow WAL got LAG_BEHIND_MS ago or longer. */
  | "behind"
  /** Litestream's syncs of this database failed since the last scrape. */
  | "sync_errors"
  /** Litestream runs but did not sync this database between two scrapes (e.g. its file is missing). */
  | "stalled"
  /** Litestream answers but does not replicate DATABASE_PATH (another path in its config?). */
  | "not_replicating"
  /** The metrics endpoint does not answer: Litestream is not running (or LITESTREAM_METRICS_ADDR is wrong). */
  | "unreachable";

export type ReplicationStatus = {
  state: ReplicationState;
  /** How long the slowest replica has been behind the shadow WAL, in seconds (0: caught up at the last scrape); null when unknown. */
  lag_seconds: number | null;
  /** The last scrape that saw a replica upload (ISO), null before the first. */
  last_upload_at: string | null;
  /** The last scrape (ISO), null before the first. */
  checked_at: string | null;
};

/** Behind for this long (or more) is reported as `behind` rather than ok. */
export const LAG_BEHIND_MS = 10_000;

type Previous = { at: number; metrics: DatabaseMetrics };

/**
 * Follows the scrapes of one database's metrics and keeps the lag. Feed it each
 * scrape (`observe`) or each failed one (`unreachable`), in time order.
 */
export class LagTracker {
  private previous: Previous | null = null;
  /** Per replica: since when it is behind (the scrape before the one that saw the shadow WAL grow without it). */
  private behindSince = new Map<string, number>();
  private lastUploadAt: number | null = null;
  private checkedAt: number | null = null;
  private state: ReplicationState = "starting";
  private lagMs: number | null = null;

  observe(metrics: DatabaseMetrics | null, now: number): ReplicationStatus {
    this.checkedAt = now;
    if (!metrics) {
      this.previous = null;
      this.behindSince.clear();
      this.state = "not_replicating";
      this.lagMs = null;
      return this.status();
    }
    const before = this.previous;
    this.previous = { at: now, metrics };
    const restarted =
      before !== null &&
      (metrics.shadowBytes < before.metrics.shadowBytes ||
        metrics.syncs < before.metrics.syncs ||
        Object.entries(metrics.replicas).some(([name, bytes]) => bytes < (before.metrics.replicas[name] ?? 0)));
    if (before === null || restarted) {
      // A first look (or Litestream restarted: its counters start again): nothing to compare yet.
      this.behindSince.clear();
      this.state = "starting";
      this.lagMs = null;
      return this.status();
    }
    const shadowGrew = metrics.shadowBytes > before.metrics.shadowBytes;
    for (const [name, bytes] of Object.entries(metrics.replicas)) {
      if (bytes > (before.metrics.replicas[name] ?? 0)) {
        // An upload takes everything the shadow WAL held then: caught up (to within this scrape's interval).
        this.behindSince.delete(name);
        this.lastUploadAt = now;
      } else if (shadowGrew && !this.behindSince.has(name)) {
        this.behindSince.set(name, before.at);
      }
    }
    const oldest = Math.min(...this.behindSince.values());
    this.lagMs = Number.isFinite(oldest) ? now - oldest : 0;
    if (metrics.syncErrors > before.metrics.syncErrors) this.state = "sync_errors";
    else if (metrics.syncs === before.metrics.syncs) this.state = "stalled";
    else if (this.lagMs >= LAG_BEHIND_MS) this.state = "behind";
    else this.state = "ok";
    return this.status();
  }

  unreachable(now: number): ReplicationStatus {
    this.checkedAt = now;
    this.previous = null;
    this.behindSince.clear();
    this.state = "unreachable";
    this.lagMs = null;
    return this.status();
  }

  status(): ReplicationStatus {
    return {
      state: this.state,
      lag_seconds: this.lagMs === null ? null : Math.round(this.lagMs / 100) / 10,
      last_upload_at: this.lastUploadAt === null ? null : new Date(this.lastUploadAt).toISOString(),
      checked_at: this.checkedAt === null ? null : new Date(this.checkedAt).toISOString(),
    };
  }
}
