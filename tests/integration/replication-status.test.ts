/**
 * Replication as the server sees it (decision 042): the LITESTREAM_* variables
 * validated at start, the checkpoint cooperation on the server's connection, and
 * /readyz's replication lag worked out from Litestream's metrics (a stand-in
 * metrics endpoint serving the text Litestream 0.3.13 serves). The real
 * Litestream runs in the hardening run's replication section.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { EnvError, getEnv, parseEnv, resetEnvForTests } from "~/modules/config/env.server";
import { litestreamErrors, parseSnapshots, redactUrl } from "~/modules/replication/litestream.server";
import { databaseMetrics, LagTracker, parsePrometheus, type DatabaseMetrics } from "~/modules/replication/metrics.server";
import { applyCheckpointPolicy, pollReplication, replicationReadiness, resetReplicationForTests } from "~/modules/replication/status.server";

const DB = "/var/lib/lumen-ridge/data.sqlite";

/** What Litestream 0.3.13's /metrics says (trimmed: the go_* and process_* lines are ignored). */
function metricsText(m: { shadow: number; syncs: number; errors?: number; uploaded?: number; db?: string }): string {
  const db = m.db ?? DB;
  return [
    "# HELP go_goroutines Number of goroutines that currently exist.",
    "go_goroutines 23",
    `litestream_db_size{db="${db}"} 643072`,
    `litestream_replica_validation_total{db="${db}",name="s3",status="error"} 0`,
    ...(m.uploaded === undefined ? [] : [`litestream_replica_wal_bytes{db="${db}",name="s3"} ${m.uploaded}`]),
    `litestream_shadow_wal_index{db="${db}"} 3`,
    `litestream_sync_count{db="${db}"} ${m.syncs}`,
    `litestream_sync_error_count{db="${db}"} ${m.errors ?? 0}`,
    `litestream_total_wal_bytes{db="${db}"} ${m.shadow}`,
    "",
  ].join("\n");
}

const metrics = (shadow: number, syncs: number, uploaded: number, errors = 0): DatabaseMetrics => ({ shadowBytes: shadow, syncs, syncErrors: errors, replicas: { s3: uploaded } });

afterEach(() => {
  for (const key of Object.keys(process.env)) if (key.startsWith("LITESTREAM_")) delete process.env[key];
  resetEnvForTests();
  resetReplicationForTests();
});

describe("the LITESTREAM_* variables", () => {
  const base = { NODE_ENV: "test", SESSION_SECRET: "x".repeat(40) };
  const problems = (vars: Record<string, string>) => {
    try {
      parseEnv({ ...base, ...vars });
      return [];
    } catch (error) {
      return (error as EnvError).problems;
    }
  };

  it("take each supported replica URL and default the intervals", () => {
    for (const url of ["s3://bucket/lumen-ridge", "sftp://backup@host.example:22/srv/replica", "file:///var/backups/lumen-ridge/replica"]) {
      expect(problems({ LITESTREAM_REPLICA_URL: url })).toEqual([]);
    }
    const env = parseEnv({ ...base, LITESTREAM_REPLICA_URL: "s3://bucket/x" });
    expect(env).toMatchObject({ LITESTREAM_SYNC_INTERVAL: "1s", LITESTREAM_RETENTION: "168h", LITESTREAM_METRICS_ADDR: "127.0.0.1:9090" });
  });

  it("refuse what Litestream or the YAML template could not use, naming the variable", () => {
    expect(problems({ LITESTREAM_REPLICA_URL: "/var/backups/replica" })).toEqual([expect.stringMatching(/^LITESTREAM_REPLICA_URL: .*must be a URL/)]);
    expect(problems({ LITESTREAM_REPLICA_URL: "https://bucket.example/x" })[0]).toMatch(/https:\/\/ is not a Litestream replica/);
    expect(problems({ LITESTREAM_REPLICA_URL: "file://relative/path" })[0]).toMatch(/absolute folder/);
    expect(problems({ LITESTREAM_REPLICA_URL: 's3://bucket/a"b' })[0]).toMatch(/quotes/);
    expect(problems({ LITESTREAM_SYNC_INTERVAL: "1 second" })[0]).toMatch(/^LITESTREAM_SYNC_INTERVAL: .*duration/);
    expect(problems({ LITESTREAM_METRICS_ADDR: "localhost" })[0]).toMatch(/host:port/);
    expect(problems({ LITESTREAM_ENDPOINT: "r2.example" })[0]).toMatch(/http\(s\) URL/);
    expect(problems({ LITESTREAM_SFTP_KEY_PATH: "keys/id" })[0]).toMatch(/absolute path/);
  });

  it("print a replica URL without its password", () => {
    expect(redactUrl("sftp://backup:s3cret@host.example/srv/replica")).toBe("sftp://backup:***@host.example/srv/replica");
  });
});

describe("the checkpoint cooperation", () => {
  it("moves the server's automatic checkpoint past Litestream's while replication is on, and only then", () => {
    const sqlite = new Database(":memory:");
    try {
      expect(applyCheckpointPolicy(sqlite, parseEnv({ NODE_ENV: "test" }))).toBeNull();
      expect(sqlite.pragma("wal_autocheckpoint", { simple: true })).toBe(1000);
      expect(applyCheckpointPolicy(sqlite, parseEnv({ NODE_ENV: "test", LITESTREAM_REPLICA_URL: "s3://bucket/x" }))).toBe(20_000);
      expect(sqlite.pragma("wal_autocheckpoint", { simple: true })).toBe(20_000);
    } finally {
      sqlite.close();
    }
  });
});

describe("reading Litestream", () => {
  it("finds this database's counters in the metrics, and none for another path", () => {
    const samples = parsePrometheus(metricsText({ shadow: 28_840, syncs: 33, uploaded: 28_872 }));
    expect(databaseMetrics(samples, DB)).toEqual({ shadowBytes: 28_840, syncs: 33, syncErrors: 0, replicas: { s3: 28_872 } });
    expect(databaseMetrics(samples, "/elsewhere/data.sqlite")).toBeNull();
    // Before its first upload a replica has no byte counter yet: it counts as 0 uploaded.
    expect(databaseMetrics(parsePrometheus(metricsText({ shadow: 100, syncs: 2 })), DB)?.replicas).toEqual({ s3: 0 });
  });

  it("reads the snapshot table and the errors of its log", () => {
    const table = "replica  generation        index  size  created\nfile     5de9c057913d4371  0      354   2026-11-27T10:54:36Z\n";
    expect(parseSnapshots(table)).toEqual([{ replica: "file", generation: "5de9c057913d4371", index: 0, size: 354, createdAt: new Date("2026-11-27T10:54:36Z") }]);
    const log =
      'time=2026-11-27T10:54:44.769Z level=INFO msg="restoring snapshot" db=/x\n' +
      'time=2026-11-27T10:54:50.552Z level=ERROR msg="failed to run" error="cannot restore snapshot: lz4: bad magic number"\n' +
      'time=2026-11-27T10:54:45.330Z level=ERROR msg="cannot determine snapshots" error="cannot fetch generations: NoCredentialProviders\\n\\tFor verbose"\n';
    expect(litestreamErrors(log)).toEqual(["cannot restore snapshot: lz4: bad magic number", "cannot determine snapshots: cannot fetch generations: NoCredentialProviders  For verbose"]);
  });
});

describe("the lag", () => {
  it("is 0 while every shadow WAL growth is followed by an upload, and grows from the look before one that was not", () => {
    const lag = new LagTracker();
    expect(lag.observe(metrics(1000, 10, 1032), 0).state).toBe("starting");
    expect(lag.observe(metrics(5120, 12, 5184), 2_000)).toMatchObject({ state: "ok", lag_seconds: 0 });
    // The shadow WAL grew, the replica did not: behind since the previous look (2 s).
    expect(lag.observe(metrics(9240, 14, 5184), 4_000)).toMatchObject({ state: "ok", lag_seconds: 2 });
    expect(lag.observe(metrics(9240, 16, 5184), 6_000)).toMatchObject({ state: "ok", lag_seconds: 4 });
    expect(lag.observe(metrics(13_360, 18, 5184), 12_000)).toMatchObject({ state: "behind", lag_seconds: 10 });
    // One upload carries everything the shadow WAL had: caught up.
    const caughtUp = lag.observe(metrics(13_360, 20, 13_424), 14_000);
    expect(caughtUp).toMatchObject({ state: "ok", lag_seconds: 0, last_upload_at: new Date(14_000).toISOString() });
  });

  it("says when Litestream fails to sync, stops syncing, restarts, or does not answer", () => {
    const lag = new LagTracker();
    lag.observe(metrics(1000, 10, 1032), 0);
    expect(lag.observe(metrics(1000, 12, 1032, 1), 2_000).state).toBe("sync_errors");
    expect(lag.observe(metrics(1000, 12, 1032, 1), 4_000).state).toBe("stalled");
    expect(lag.observe(metrics(200, 1, 232), 6_000)).toMatchObject({ state: "starting", lag_seconds: null }); // counters restarted
    expect(lag.observe(null, 8_000).state).toBe("not_replicating");
    expect(lag.unreachable(10_000)).toMatchObject({ state: "unreachable", lag_seconds: null, checked_at: new Date(10_000).toISOString() });
  });

  it("reaches /readyz from the metrics endpoint without a request waiting for it", async () => {
    let body = metricsText({ shadow: 1000, syncs: 10, uploaded: 1032, db: "" });
    const server = http.createServer((_req, res) => res.end(body));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      expect(replicationReadiness()).toEqual({}); // replication off: nothing to report
      process.env.LITESTREAM_REPLICA_URL = "file:///tmp/replica";
      process.env.LITESTREAM_METRICS_ADDR = `127.0.0.1:${port}`;
      resetEnvForTests();
      const env = getEnv();
      body = metricsText({ shadow: 1000, syncs: 10, uploaded: 1032, db: env.DATABASE_PATH });
      // The first call answers at once from the cache (nothing known yet) and starts the poll.
      expect(replicationReadiness()).toEqual({ replication: { state: "starting", lag_seconds: null, last_upload_at: null, checked_at: null } });
      await pollReplication(env, () => Date.now());
      body = metricsText({ shadow: 2000, syncs: 11, uploaded: 2032, db: env.DATABASE_PATH });
      await pollReplication(env);
      expect(replicationReadiness()).toMatchObject({ replication: { state: "ok", lag_seconds: 0 } });
      server.close();
      await pollReplication(env);
      expect(replicationReadiness()).toMatchObject({ replication: { state: "unreachable", lag_seconds: null } });
    } finally {
      server.close();
    }
  });
});
