/**
 * replication (issue 26 §1, §3): continuous replication with Litestream to a file
 * replica, against the production build and its compiled scripts, as an
 * operator runs them (decision 042).
 *
 * - The server runs with LITESTREAM_REPLICA_URL (checkpoints left to Litestream),
 *   `db:replicate` beside it with 200 ms syncs and 100 ms monitor intervals.
 *   /readyz reports the replication state and lag, read from Litestream's metrics.
 * - Point in time: subscription A, then (once A is on the replica) a time T, then
 *   subscription B more than a sync later; `db:restore --from-replica --timestamp T`
 *   has A and not B.
 * - Newsletter sign-ups through the server from four clients at once; then
 *   kill -9 of the server and Litestream together. `db:restore --from-replica`
 *   into a fresh DATABASE_PATH: every sign-up answered more than 1 s before the
 *   kill is there, integrity_check ok. Prints rows written, rows restored and the
 *   RPO observed (the age at the kill of the oldest answered sign-up missing).
 * - Refused with exit 3, a message, and nothing left behind (no database, no
 *   staging folder): a missing replica, a time before the first snapshot, a
 *   damaged replica (snapshots overwritten), a folder that is not empty, and an
 *   existing database without --force.
 * - `npm run drill` (compiled) restores the replica into a scratch folder, starts
 *   the app there, checks /readyz and counts the rows: exit 0, the same rows.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { jsonBody, listFiles, request, ROOT, sameOrigin, sleep, startServer, Tally, unique, type AppServer, type Section } from "./harness";

const SYNC = "200ms";
const MONITOR = "100ms";
const WRITERS = 4;
const WRITE_MS = 3_000;

type Run = { code: number | null; stdout: string; stderr: string; ms: number };

/** Run one of the build's compiled scripts (what `npm run <name>` runs on a server) to its end. */
function runScript(buildDir: string, name: string, args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(buildDir, "server", `${name}.js`), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

const lastJson = (text: string): Record<string, unknown> | null => {
  const line = text.trim().split("\n").reverse().find((l) => l.startsWith("{"));
  try {
    return line ? (JSON.parse(line) as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

function emails(file: string, readonly = true): Set<string> {
  const db = new Database(file, { readonly, fileMustExist: true });
  try {
    return new Set((db.prepare("select email from newsletter_subscribers").all() as { email: string }[]).map((r) => r.email));
  } finally {
    db.close();
  }
}

function integrity(file: string): string {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.pragma("integrity_check") as { integrity_check: string }[]).map((r) => r.integrity_check).join("; ");
  } finally {
    db.close();
  }
}

/** Anything a refused restore could have left: the target, staging folders. */
const leftovers = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.includes("restoring") || n.startsWith("data.sqlite")) : []);

export const section: Section = {
  name: "replication",
  run: async (ctx) => {
    const t = new Tally();
    const work = fs.mkdtempSync(path.join(ctx.tmpRoot, "replication-"));
    const replicaDir = path.join(work, "replica");
    const metricsPort = ctx.nextPort();
    const replication = {
      LITESTREAM_REPLICA_URL: `file://${replicaDir}`,
      LITESTREAM_METRICS_ADDR: `127.0.0.1:${metricsPort}`,
      LITESTREAM_SYNC_INTERVAL: SYNC,
      LITESTREAM_MONITOR_INTERVAL: MONITOR,
    };
    let server: AppServer | null = null;
    let litestream: ChildProcess | null = null;
    const litestreamLog: string[] = [];
    const killLitestream = () => {
      if (litestream?.pid && litestream.exitCode === null && litestream.signalCode === null) {
        try {
          process.kill(-litestream.pid, "SIGKILL"); // the node wrapper and litestream, its child, at once
        } catch {
          /* already gone */
        }
      }
    };
    try {
      server = await startServer(ctx, { name: "replication", env: { ...replication, TRUST_PROXY: "1" } });
      const live = server;
      // Every script runs with the server's environment (its DATABASE_PATH names the replicated database).
      const scriptEnv = { ...live.env, ...replication };

      // ── db:replicate beside it ────────────────────────────────────────────
      litestream = spawn(process.execPath, [path.join(ctx.buildDir, "server", "db-replicate.js")], {
        cwd: ROOT,
        env: { ...process.env, ...scriptEnv },
        stdio: ["ignore", "pipe", "pipe"],
        detached: true, // its own process group: kill -9 takes Litestream with it
      });
      const keep = (c: Buffer) => litestreamLog.push(...c.toString().split("\n").filter(Boolean));
      litestream.stdout!.on("data", keep);
      litestream.stderr!.on("data", keep);
      const snapshotFiles = () => listFiles(replicaDir).filter((f) => f.includes(`${path.sep}snapshots${path.sep}`));
      for (let waited = 0; snapshotFiles().length === 0; waited += 50) {
        if (waited > 15_000 || litestream.exitCode !== null) throw new Error(`no snapshot on the replica within 15 s:\n${litestreamLog.slice(-10).join("\n")}`);
        await sleep(50);
      }
      ctx.progress("Litestream replicating; the first snapshot is on the replica");

      let clientN = 0;
      const subscribe = async (email: string) => {
        const { headers, body } = jsonBody({ email });
        const answer = await request(live.url, "POST", "/api/newsletter", {
          headers: { ...headers, ...sameOrigin(live), accept: "application/json", "x-forwarded-for": `198.18.${Math.floor(clientN / 250)}.${(clientN++ % 250) + 1}` },
          body,
          timeoutMs: 10_000,
        });
        return { status: answer.status, at: Date.now() };
      };
      const walSegmentsAfter = (ms: number) =>
        listFiles(replicaDir).filter((f) => f.includes(`${path.sep}wal${path.sep}`) && fs.statSync(path.join(replicaDir, f)).mtimeMs >= ms).length;

      // ── a point in time between two known writes ─────────────────────────
      const run = unique();
      const emailA = `pitr-a-${run}@example.com`;
      const emailB = `pitr-b-${run}@example.com`;
      const a = await subscribe(emailA);
      for (let waited = 0; walSegmentsAfter(a.at - 5) === 0 && waited < 5_000; waited += 25) await sleep(25);
      await sleep(300); // more than a sync after A reached the replica
      const pointInTime = new Date();
      await sleep(500); // and more than a sync before B
      const b = await subscribe(emailB);
      t.check("point-in-time writes answered 202", a.status === 202 && b.status === 202, `A ${a.status}, B ${b.status}`);

      // ── sign-ups from four clients, then kill -9 of both ─────────────────
      const answered: { email: string; at: number }[] = [];
      const refused: number[] = [];
      let writing = true;
      const writer = async (w: number) => {
        for (let n = 0; writing; n++) {
          const email = `repl-${run}-${w}-${n}@example.com`;
          try {
            const r = await subscribe(email);
            if (r.status === 202) answered.push({ email, at: r.at });
            else refused.push(r.status);
          } catch {
            return; // the server was killed mid-request
          }
        }
      };
      const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
      await sleep(WRITE_MS - 800);
      // /readyz while replicating: the state and lag from Litestream's metrics (polled every 2 s).
      let replicationReady: { state?: string; lag_seconds?: number | null } | undefined;
      for (let waited = 0; waited < 6_000; waited += 200) {
        const ready = await request(live.url, "GET", "/readyz");
        replicationReady = (JSON.parse(ready.text) as { replication?: typeof replicationReady }).replication;
        if (typeof replicationReady?.lag_seconds === "number") break;
        await sleep(200);
      }
      t.check(
        "/readyz reports replication ok with a lag",
        replicationReady?.state === "ok" && typeof replicationReady.lag_seconds === "number" && replicationReady.lag_seconds <= 5,
        JSON.stringify(replicationReady),
      );
      t.info("/readyz replication lag while writing", `${replicationReady?.lag_seconds ?? "?"} s (${replicationReady?.state ?? "?"})`);
      await sleep(800);
      const killedAt = Date.now();
      killLitestream();
      await live.kill9();
      writing = false;
      await Promise.all(writers);
      t.count("sign-ups refused while writing", refused.length, 0, refused.slice(0, 3).join(", "));

      const liveRows = emails(live.dbPath, false); // opened read-write: SQLite recovers the killed server's WAL

      // ── everything after the kill at once (separate targets): restores, refusals, the drill ──
      const fresh = (name: string) => {
        const dir = path.join(work, name);
        fs.mkdirSync(dir);
        return { dir, db: path.join(dir, "data.sqlite") };
      };
      // The folder as it was (a -wal/-shm may come and go: the in-use check opens an existing database).
      const contents = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => !/-(wal|shm)$/.test(n)).sort().join(",") : null);
      type Refusal = { label: string; run: Run; before: string | null; after: string | null; expect: RegExp };
      const refuse = async (label: string, args: string[], env: Record<string, string>, expect: RegExp, targetDir: string): Promise<Refusal> => {
        const before = contents(targetDir);
        const run = await runScript(ctx.buildDir, "db-restore", args, { ...scriptEnv, ...env });
        return { label, run, before, after: contents(targetDir), expect };
      };
      const latest = fresh("restored");
      const pitr = fresh("pitr");
      const none = fresh("missing");
      const early = fresh("early");
      const damaged = fresh("damaged");
      const busy = fresh("not-empty");
      fs.writeFileSync(path.join(busy.dir, "notes.txt"), "someone's file\n");
      const damagedReplica = path.join(work, "damaged-replica");
      fs.cpSync(replicaDir, damagedReplica, { recursive: true });
      for (const f of listFiles(damagedReplica).filter((f) => f.includes(`${path.sep}snapshots${path.sep}`))) {
        fs.writeFileSync(path.join(damagedReplica, f), randomBytes(fs.statSync(path.join(damagedReplica, f)).size));
      }
      const firstSnapshot = Math.min(...snapshotFiles().map((f) => fs.statSync(path.join(replicaDir, f)).mtimeMs));
      const [restored, atTime, refusals, drill] = await Promise.all([
        runScript(ctx.buildDir, "db-restore", ["--from-replica"], { ...scriptEnv, DATABASE_PATH: latest.db }).then(async (run) => {
          // Then the same again onto the database it made: refused without --force.
          const again = await refuse("an existing database without --force", ["--from-replica"], { DATABASE_PATH: latest.db }, /already a database at .*--force/s, latest.dir);
          return { run, again };
        }),
        runScript(ctx.buildDir, "db-restore", ["--from-replica", "--timestamp", pointInTime.toISOString()], { ...scriptEnv, DATABASE_PATH: pitr.db }),
        Promise.all([
          refuse("a missing replica", ["--from-replica"], { DATABASE_PATH: none.db, LITESTREAM_REPLICA_URL: `file://${path.join(work, "no-replica-here")}` }, /no replica at/, none.dir),
          refuse(
            "a time before the first snapshot",
            ["--from-replica", "--timestamp", new Date(firstSnapshot - 60_000).toISOString()],
            { DATABASE_PATH: early.db },
            /before the replica's first snapshot/,
            early.dir,
          ),
          refuse("a damaged replica", ["--from-replica"], { DATABASE_PATH: damaged.db, LITESTREAM_REPLICA_URL: `file://${damagedReplica}` }, /could not be restored/, damaged.dir),
          refuse("a folder that is not empty (--to)", ["--from-replica", "--to", busy.dir], {}, /is not empty/, busy.dir),
        ]),
        runScript(ctx.buildDir, "drill", ["--port", String(ctx.nextPort())], scriptEnv),
      ]);

      // ── the latest state: every sign-up answered > 1 s before the kill ────
      t.check("db:restore --from-replica exits 0", restored.run.code === 0, `exit ${restored.run.code}: ${restored.run.stderr.trim().slice(-300)}`);
      const got = fs.existsSync(latest.db) ? emails(latest.db) : new Set<string>();
      const mustHave = answered.filter((w) => w.at < killedAt - 1_000);
      const missingOld = mustHave.filter((w) => !got.has(w.email));
      const lost = answered.filter((w) => !got.has(w.email));
      const rpoMs = lost.length === 0 ? 0 : killedAt - Math.min(...lost.map((w) => w.at));
      t.info("rows written (sign-ups answered 202)", answered.length);
      t.info("rows restored (of those)", answered.length - lost.length);
      t.count("rows answered > 1 s before the kill, missing from the restore", missingOld.length, 0, missingOld.slice(0, 3).map((w) => w.email).join(", "));
      t.atMost("RPO observed (ms: oldest lost sign-up's age at the kill)", rpoMs, 1_000);
      const check = fs.existsSync(latest.db) ? integrity(latest.db) : "no file";
      t.check("restored integrity_check ok", check === "ok", check);
      t.check("the killed server's own database still has every answered sign-up", answered.every((w) => liveRows.has(w.email)), "rows answered 202 are missing from the live file");
      t.info("restore time", `${(restored.run.ms / 1000).toFixed(1)} s`);

      // ── the point in time ─────────────────────────────────────────────────
      const atT = fs.existsSync(pitr.db) ? emails(pitr.db) : new Set<string>();
      t.check(
        "restore at T (between A and B) has A, not B",
        atTime.code === 0 && atT.has(emailA) && !atT.has(emailB),
        `exit ${atTime.code}, A ${atT.has(emailA)}, B ${atT.has(emailB)}: ${atTime.stderr.trim().slice(-300)}`,
      );

      // ── bad inputs: exit 3, a message (no stack trace), the target as it was ──
      for (const r of [...refusals, restored.again]) {
        const ok = r.run.code === 3 && r.expect.test(r.run.stderr) && r.before === r.after && !/\n\s+at /.test(r.run.stderr);
        t.check(`refused: ${r.label}`, ok, `exit ${r.run.code}, folder ${r.before} -> ${r.after}: ${r.run.stderr.trim().slice(0, 300)}`);
        t.note(`${r.label}: ${r.run.stderr.trim().split("\n")[0]}`);
      }
      t.count(
        "files left by refused restores (a database, a staging folder)",
        [none, early, damaged, busy].flatMap((f) => leftovers(f.dir)).length + leftovers(latest.dir).filter((n) => n.includes("restoring")).length,
      );

      // ── npm run drill ─────────────────────────────────────────────────────
      const report = lastJson(drill.stdout) as { ok?: boolean; readyz?: { status?: number }; tables?: Record<string, number | null>; total_ms?: number } | null;
      const drillRows = report?.tables?.newsletter_subscribers;
      t.check(
        "npm run drill: restored, app ready, rows counted, exit 0",
        drill.code === 0 && report?.ok === true && report.readyz?.status === 200 && drillRows === got.size,
        `exit ${drill.code}, newsletter rows ${drillRows} vs restored ${got.size}: ${drill.stderr.trim().slice(-300)}`,
      );
      t.info("drill time", `${((report?.total_ms ?? drill.ms) / 1000).toFixed(1)} s`);
      t.count("server crashes", live.unexpectedExits());
    } finally {
      killLitestream();
      if (server?.running()) await server.kill9();
    }
    return t.result();
  },
};
