/**
 * storage-replica (issue 26 §2): the stored documents off the machine with
 * rclone, against a local replica folder, on the production build's compiled
 * scripts (build/server/storage-replicate.js, storage-restore.js) as the
 * systemd timer and an operator run them.
 *
 * Upload documents, replicate, replicate again (copies nothing), delete one
 * (it moves to the replica's deleted/<today>/, a day folder past the grace
 * period is pruned), then with the server stopped: the refusals (server
 * running, no replica, a folder that is not empty), the storage folder lost and
 * restored (every stored file byte-identical by sha256, the reconcile clean),
 * a database from before the deletion (its file comes back from deleted/), the
 * server serving the restored files, and a document whose file is nowhere
 * (reported, exit 4).
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { samplePdf } from "../tests/helpers/sample-files";
import { listFiles, openDatabase, ROOT, startServer, Tally, unique, type AppServer, type Section } from "./harness";
import { multipartBody, Portal } from "./web-helpers";

type ScriptRun = { code: number; json: Record<string, unknown>; stderr: string; ms: number };

const sha256 = (file: string) => createHash("sha256").update(fs.readFileSync(file)).digest("hex");
const today = () => new Date().toISOString().slice(0, 10);

/** Run a compiled operational script with the server's environment; its last stdout line is its JSON report. */
function runScript(server: AppServer, name: string, args: string[], env: Record<string, string>): Promise<ScriptRun> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(server.buildDir, "server", `${name}.js`), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...server.env, LOG_LEVEL: "silent", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("close", (code) => {
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as Record<string, unknown>;
      } catch {
        json = { unparsed: stdout.slice(-300) };
      }
      resolve({ code: code ?? -1, json, stderr: stderr.trim(), ms: Date.now() - started });
    });
  });
}

/** The stored files the database names: document id → relative path. */
function storedRows(server: AppServer): Map<string, string> {
  const db = openDatabase(server);
  try {
    const rows = db.prepare("select id, file_path as p from documents union all select id, file_path as p from fund_documents").all() as { id: string; p: string }[];
    return new Map(rows.map((row) => [row.id, row.p]));
  } finally {
    db.close();
  }
}

export const section: Section = {
  name: "storage-replica",
  run: async (ctx) => {
    const t = new Tally();
    const replica = path.join(ctx.tmpRoot, `storage-replica-${unique()}`);
    const withReplica = { STORAGE_REPLICA: replica };
    const server = await startServer(ctx, { name: "storage-replica" });
    try {
      const portal = await new Portal(server).init();
      const timed = async (label: string, run: Promise<ScriptRun>) => {
        const done = await run;
        ctx.progress(`${label}: exit ${done.code} in ${done.ms} ms`);
        return done;
      };
      const replicate = (args: string[] = []) => timed(["storage:replicate", ...args].join(" "), runScript(server, "storage-replicate", args, withReplica));
      const restore = (args: string[] = [], env: Record<string, string> = withReplica) =>
        timed(["storage:restore", ...args].join(" "), runScript(server, "storage-restore", args, env));
      const stored = (relative: string) => path.join(server.storageDir, relative);
      const summary = (run: ScriptRun) => `exit ${run.code}: ${JSON.stringify(run.json).slice(0, 300)} ${run.stderr.slice(0, 300)}`;

      // ── documents in storage: LP documents of a few sizes and a fund document ──
      const lpIds: string[] = [];
      for (const size of [40_000, 400_000, 1_500_000]) {
        const title = `Replicated ${unique()}`;
        const body = multipartBody({ title, category: "reports" }, { name: "report.pdf", type: "application/pdf", bytes: samplePdf(title, size) });
        const answer = await portal.call("POST", "/api/documents", body, portal.adminCookie);
        if (answer.status !== 201) throw new Error(`upload: ${answer.status} ${answer.text.slice(0, 200)}`);
        lpIds.push((JSON.parse(answer.text) as { id: string }).id);
      }
      await portal.uploadFundDocument("fund-i");
      const rows = storedRows(server);
      const hashes = new Map([...rows].map(([id, relative]) => [id, sha256(stored(relative))]));
      t.info("documents stored", rows.size);

      // Work in progress and strays, which must stay out of the replica.
      fs.mkdirSync(path.join(server.storageDir, "incoming"), { recursive: true });
      fs.writeFileSync(path.join(server.storageDir, "incoming", `${unique()}.part`), "an upload cut off");
      fs.writeFileSync(path.join(server.storageDir, "notes.txt"), "not a stored file");

      // ── replicate, then again ───────────────────────────────────────────────
      const first = await replicate();
      t.check("first run copies every stored file", first.code === 0 && first.json.copied === rows.size && first.json.rclone_transfers === rows.size, summary(first));
      t.info("first run: files copied", String(first.json.copied));
      const second = await replicate();
      t.check(
        "second run copies nothing (rclone's stats: 0 transfers)",
        second.code === 0 && second.json.copied === 0 && second.json.rclone_transfers === 0 && second.json.moved_to_deleted === 0,
        summary(second),
      );
      t.info("second run: files copied / rclone transfers / checks", `${String(second.json.copied)} / ${String(second.json.rclone_transfers)} / ${String(second.json.rclone_checks)}`);
      const strays = listFiles(path.join(replica, "current")).filter((f) => !/^(documents|fund-documents|pitch-decks)\/[0-9a-f]{32}$/.test(f));
      t.check("the replica holds the stored files only (not incoming/ or other files)", strays.length === 0, `also: ${strays.join(", ")}`);

      // ── a deletion waits in deleted/<today>/ ──────────────────────────────
      const snapshot = path.join(ctx.tmpRoot, `storage-replica-before-delete-${unique()}.sqlite`);
      {
        const db = openDatabase(server);
        try {
          await db.backup(snapshot); // the database as a point-in-time restore would give it back
        } finally {
          db.close();
        }
      }
      const deletedId = lpIds[0]!;
      const deletedPath = rows.get(deletedId)!;
      const deletion = await portal.call("DELETE", `/api/documents/${deletedId}`, { headers: {} }, portal.adminCookie);
      if (deletion.status !== 200) throw new Error(`delete: ${deletion.status} ${deletion.text.slice(0, 200)}`);
      const old = path.join(replica, "deleted", "2000-01-01", "documents", "0".repeat(32));
      fs.mkdirSync(path.dirname(old), { recursive: true });
      fs.writeFileSync(old, "deleted long ago");
      const third = await replicate();
      const kept = path.join(replica, "deleted", today(), deletedPath);
      t.check("after a deletion: nothing copied, one file moved to deleted/<today>", third.code === 0 && third.json.copied === 0 && third.json.moved_to_deleted === 1, summary(third));
      t.check(
        "the deleted document waits in deleted/<today>/ (same sha256), gone from current/",
        fs.existsSync(kept) && sha256(kept) === hashes.get(deletedId) && !fs.existsSync(path.join(replica, "current", deletedPath)),
        `${kept} ${fs.existsSync(kept) ? "differs" : "is missing"}`,
      );
      t.check(
        "a day folder older than the grace period (30 days) is pruned, today's kept",
        JSON.stringify(third.json.pruned) === '["2000-01-01"]' && !fs.existsSync(path.dirname(path.dirname(old))) && fs.existsSync(kept),
        summary(third),
      );

      // ── refusals ───────────────────────────────────────────────────────────
      const running = await restore();
      t.check("restore refused while the server runs (exit 3)", running.code === 3 && /server seems to be running/.test(running.stderr), summary(running));
      await server.stop();
      const nowhere = await restore([], { STORAGE_REPLICA: path.join(ctx.tmpRoot, "no-such-replica") });
      t.check("restore from a missing replica: exit 2, says so", nowhere.code === 2 && /no replica at/.test(nowhere.stderr), summary(nowhere));
      const notEmpty = await restore();
      t.check("restore into a folder that holds files, without --force: exit 3", notEmpty.code === 3 && /--force/.test(notEmpty.stderr), summary(notEmpty));
      const badTarget = path.join(ctx.tmpRoot, `storage-replica-file-${unique()}`);
      fs.writeFileSync(badTarget, "not a folder");
      const asFile = await restore([], { ...withReplica, STORAGE_DIR: badTarget });
      t.check("restore into a STORAGE_DIR that is a file: exit 2", asFile.code === 2 && /not a folder/.test(asFile.stderr), summary(asFile));

      // ── the storage folder lost, restored ─────────────────────────────────
      fs.rmSync(server.storageDir, { recursive: true, force: true });
      const restored = await restore();
      const live = storedRows(server);
      const different = [...live].filter(([id, relative]) => !fs.existsSync(stored(relative)) || sha256(stored(relative)) !== hashes.get(id));
      t.check("restore after losing the storage folder: exit 0, reconcile clean", restored.code === 0 && (restored.json.rows_without_file as unknown[] | undefined)?.length === 0, summary(restored));
      t.check(`every stored document back byte-identical (${live.size} sha256)`, live.size === rows.size - 1 && different.length === 0, `differ or missing: ${different.map(([id]) => id).join(", ")}`);
      t.info("files restored", String(restored.json.restored));
      const markerLeft = fs.existsSync(path.join(server.storageDir, ".storage-restore-in-progress"));
      t.check("no restore marker left behind", !markerLeft, "the marker is still in STORAGE_DIR");

      // ── a database from before the deletion: its file comes from deleted/ ──
      for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(server.dbPath + suffix, { force: true });
      fs.copyFileSync(snapshot, server.dbPath);
      const pointInTime = await restore(["--force"]);
      t.check(
        "database restored to before the deletion: restore --force takes its file from deleted/<day>/ (sha256 equal)",
        pointInTime.code === 0 && pointInTime.json.recovered_from_deleted === 1 && fs.existsSync(stored(deletedPath)) && sha256(stored(deletedPath)) === hashes.get(deletedId),
        summary(pointInTime),
      );

      // ── the server serves what was restored ───────────────────────────────
      await server.start();
      let served = 0;
      for (const id of lpIds) {
        const answer = await portal.call("GET", `/api/documents/${id}/download`, { headers: {} }, portal.adminCookie);
        if (answer.status === 200 && createHash("sha256").update(answer.body).digest("hex") === hashes.get(id)) served += 1;
      }
      t.count("LP documents downloaded byte-identical after the restores", served, lpIds.length);
      await server.stop();

      // ── a document whose file is nowhere: reported ────────────────────────
      const lost = [...rows].find(([id]) => id !== deletedId)!;
      fs.rmSync(stored(lost[1]));
      fs.rmSync(path.join(replica, "current", lost[1]));
      const missing = await restore(["--force"]);
      t.check(
        "a document whose file neither current/ nor deleted/ holds: exit 4, its id listed",
        missing.code === 4 && JSON.stringify(missing.json.rows_without_file) === JSON.stringify([lost[0]]),
        summary(missing),
      );
    } finally {
      await server.stop();
    }
    return t.result();
  },
};
