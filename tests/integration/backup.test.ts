/**
 * npm run db:backup / db:restore end to end: accounts and documents made
 * through the domain code, a backup taken by the real CLI while this process
 * keeps uploading and deleting, a restore by the real CLI into a fresh folder,
 * then the restored data served (route handlers in-process; and the production
 * server when BUILD_DIR names a finished build): the same people sign in, the
 * same documents are listed and download byte for byte. A tampered backup and
 * a restore onto existing data without --force are refused.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb } from "../../app/modules/db/connection.server";
import type { BackupManifest } from "~/modules/backup/backup.server";
import { getEnv, resetEnvForTests } from "~/modules/config/env.server";
import { resetRateLimitsForTests } from "~/modules/http/rate-limit.server";
import { testTotpSecret, totpAt } from "../support/totp";
import { createAdminAccount } from "~/modules/lp-users/admin-create.server";
import { findUserByEmail, setUserStatus } from "~/modules/lp-users/lp-users.server";
import { action as loginAction } from "~/routes/api/auth/login";
import { action as deleteAction } from "~/routes/api/document";
import { loader as fileLoader } from "~/routes/api/document-file";
import { action as uploadAction, loader as listLoader } from "~/routes/api/documents";
import { action as fundUploadAction } from "~/routes/api/fund-documents/index";
import { bodyBytes, sleep, uploadRequest } from "../helpers/documents";
import { fundFile, listFundDocs, registerFund } from "../helpers/funds";
import { MIME, samplePdf, sampleOoxml } from "../helpers/sample-files";
import { apiRequest, callRouteWith, cookiePair, registerAndConfirm, sessionCookieFor } from "../helpers/users";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "lumen-ridge-backup-"));
const backupsDir = path.join(work, "backups");
const restored = { db: path.join(work, "r1", "data.sqlite"), storage: path.join(work, "r1", "uploads") };

const ADMIN = { email: "admin@lumenridge.example", name: "Ada Admin", password: "admin passphrase for the backup test" };
const INVESTOR = { email: "lp@investor.example", name: "Ian Investor", password: "investor passphrase 42", company: "Acme LP" };

type Fixture = { id: string; title: string; bytes: Buffer };
const lpDocs: Fixture[] = [];
const fundDocs: Fixture[] = [];
let adminCookie = "";
let holderCookie = "";
let quietPort = 0;
let backupDir = "";
let manifest: BackupManifest;

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** A port in 4801–4849 nothing listens on right now. */
async function freePort(after = 4800): Promise<number> {
  for (let port = after + 1; port <= 4849; port++) {
    const free = await new Promise<boolean>((resolve) => {
      const server = net.createServer();
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error("no free port in 4801–4849");
}

type Run = { code: number | null; stdout: string; stderr: string };

/** Run scripts/<name>.ts as `npm run` would (tsx), with the test environment plus `env`. */
function runScript(name: "db-backup" | "db-restore", args: string[], env: Record<string, string> = {}): { child: ChildProcess; done: Promise<Run> } {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "test", LOG_LEVEL: "silent", HOST: "127.0.0.1", PORT: String(quietPort), ...env };
  delete childEnv.BACKUP_DIR;
  const child = spawn(process.execPath, ["--import", "tsx", `scripts/${name}.ts`, ...args], { cwd: ROOT, env: childEnv });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<Run>((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
  return { child, done };
}

const restoreInto = (target: { db: string; storage: string }, from: string, ...flags: string[]) =>
  runScript("db-restore", ["--from", from, ...flags], { DATABASE_PATH: target.db, STORAGE_DIR: target.storage }).done;

const liveEnv = () => ({ DATABASE_PATH: getEnv().DATABASE_PATH, STORAGE_DIR: getEnv().STORAGE_DIR });

async function uploadLp(title: string, bytes: Buffer, type: string = MIME.pdf): Promise<string> {
  const response = await callRouteWith(
    uploadAction,
    uploadRequest("/api/documents", { fields: { title, category: "reports" }, file: { bytes, name: `${title}.pdf`, type }, cookie: adminCookie }),
  );
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function uploadFund(fundId: "fund-i" | "fund-ii", title: string, bytes: Buffer): Promise<string> {
  const response = await callRouteWith(
    fundUploadAction,
    uploadRequest("/api/fund-documents", {
      fields: { title, category: "pitchdeck", fundId },
      file: { bytes, name: `${title}.pdf`, type: MIME.pdf },
      cookie: adminCookie,
    }),
  );
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** The rows of the backup's own database that name a file. */
function rowsInBackup(): { lp: { id: string; title: string; file_path: string }[]; fund: { id: string; fund_id: string; file_path: string }[] } {
  const db = new Database(path.join(backupDir, "data.sqlite"), { readonly: true, fileMustExist: true });
  try {
    return {
      lp: db.prepare("select id, title, file_path from documents").all() as { id: string; title: string; file_path: string }[],
      fund: db.prepare("select id, fund_id, file_path from fund_documents").all() as { id: string; fund_id: string; file_path: string }[],
    };
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  quietPort = await freePort();
  // Accounts the way the CLI and the portal make them: admin:create, an investor registering and being approved.
  await createAdminAccount({ ...ADMIN, totpSecret: testTotpSecret(ADMIN.email) });
  const admin = findUserByEmail(ADMIN.email)!;
  adminCookie = await sessionCookieFor(admin);
  await registerAndConfirm(INVESTOR);
  setUserStatus(admin, findUserByEmail(INVESTOR.email)!.id, "approved");
  // Documents through the upload endpoints (the admin panel's domain functions).
  for (const [title, bytes, type] of [
    ["Q3 2026 report", samplePdf("Q3 2026 report", 180_000), MIME.pdf],
    ["Annual letter", samplePdf("Annual letter", 3_000), MIME.pdf],
    ["Capital account", await sampleOoxml("docx"), MIME.docx],
  ] as const) {
    lpDocs.push({ id: await uploadLp(title, bytes, type), title, bytes });
  }
  for (const [fundId, title, bytes] of [
    ["fund-i", "Fund I deck", samplePdf("Fund I deck", 90_000)],
    ["fund-ii", "Fund II memo", samplePdf("Fund II memo", 5_000)],
  ] as const) {
    fundDocs.push({ id: await uploadFund(fundId, title, bytes), title, bytes });
  }
  // A Fund I holder (access granted at once, carried by a signed cookie).
  const registered = await registerFund({ name: "Holly Holder", email: "holder@example.test", fundId: "fund-i" });
  expect(registered.status).toBe(201);
  holderCookie = cookiePair(registered.headers.get("Set-Cookie"));
}, 30_000);

afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

describe("npm run db:backup", () => {
  it("copies the database and the files its rows name, consistently, while uploads and deletions go on", async () => {
    const backup = runScript("db-backup", ["--to", backupsDir], liveEnv());
    let finished = false;
    const writes: number[] = [];
    const writer = (async () => {
      let previous: string | null = null;
      for (let n = 0; !finished; n++) {
        const id = await uploadLp(`Churn ${n}`, samplePdf(`Churn ${n}`, 20_000 + n));
        writes.push(Date.now());
        if (previous && n % 2 === 0) {
          const response = await callRouteWith(deleteAction, apiRequest("DELETE", `/api/documents/${previous}`, { cookie: adminCookie }), {
            params: { id: previous },
          });
          expect(response.status).toBe(200);
          writes.push(Date.now());
        }
        previous = id;
        await sleep(5);
      }
    })();
    const result = await backup.done;
    finished = true;
    await writer;

    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines).toHaveLength(1); // one JSON summary line
    const summary = JSON.parse(lines[0]!) as { ok: boolean; backup: string; created_at: string; integrity_check: string; missing_files: number };
    expect(summary).toMatchObject({ ok: true, integrity_check: "ok", missing_files: 0 });
    backupDir = summary.backup;
    expect(path.basename(backupDir)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z$/);
    expect(fs.readdirSync(backupsDir)).toEqual([path.basename(backupDir)]); // no .partial left
    // The writes really ran around the backup: some before it started, some after.
    const startedAt = Date.parse(summary.created_at);
    expect(writes.some((t) => t < startedAt)).toBe(true);
    expect(writes.some((t) => t > startedAt)).toBe(true);

    manifest = JSON.parse(fs.readFileSync(path.join(backupDir, "manifest.json"), "utf8")) as BackupManifest;
    const rows = rowsInBackup();
    // Every row of the copy has its file, and the manifest lists exactly those files with their true hashes.
    const named = [...rows.lp, ...rows.fund].map((r) => r.file_path).sort();
    expect(manifest.files.map((f) => f.path).sort()).toEqual(named);
    for (const f of manifest.files) {
      const bytes = fs.readFileSync(path.join(backupDir, "uploads", f.path));
      expect({ path: f.path, size: bytes.length, sha256: sha256(bytes) }).toEqual(f);
    }
    expect(fs.readdirSync(path.join(backupDir, "uploads")).sort()).toEqual(["documents", "fund-documents"]); // never incoming/
    expect(manifest.tables).toMatchObject({ lp_users: 2, documents: rows.lp.length, fund_documents: 2, fund_access_users: 1 });
    expect(manifest.migrations).toBeGreaterThan(0);
    expect(manifest.database.sha256).toBe(sha256(fs.readFileSync(path.join(backupDir, "data.sqlite"))));
    for (const doc of lpDocs) expect(rows.lp.map((r) => r.id)).toContain(doc.id);
  }, 30_000);
});

describe("npm run db:restore", () => {
  it("restores into a fresh folder after checking every file", async () => {
    const result = await restoreInto(restored, backupDir);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Restored database: ${restored.db}`);
    expect(fs.existsSync(restored.db)).toBe(true);
    expect(fs.readdirSync(path.dirname(restored.db)).sort()).toEqual(["data.sqlite", "uploads"]); // no staging copies left
  }, 20_000);

  it("serves the restored data: the same people sign in, the same documents list and download byte for byte", async () => {
    const live = liveEnv();
    // Point this process's app at the restored folder, as a server started on it would be.
    closeDb();
    process.env.DATABASE_PATH = restored.db;
    process.env.STORAGE_DIR = restored.storage;
    resetEnvForTests();
    resetRateLimitsForTests();
    try {
      expect(getEnv().DATABASE_PATH).not.toBe(live.DATABASE_PATH);
      // The admin has two-factor (admin:create with a TOTP secret): its code goes with the password.
      const signIn = (email: string, password: string) =>
        callRouteWith(
          loginAction,
          apiRequest("POST", "/api/auth/login", {
            json: email === ADMIN.email ? { email, password, code: totpAt(testTotpSecret(email), Date.now()) } : { email, password },
          }),
        );
      const wrong = await signIn(INVESTOR.email, "not the password");
      expect(wrong.status).toBe(401);
      const cookies: Record<string, string> = {};
      for (const who of [ADMIN, INVESTOR]) {
        const response = await signIn(who.email, who.password);
        expect(response.status, await response.clone().text()).toBe(200);
        expect(((await response.json()) as { email: string }).email).toBe(who.email);
        cookies[who.email] = cookiePair(response.headers.get("Set-Cookie"));
      }

      const rows = rowsInBackup();
      const hashOf = new Map(manifest.files.map((f) => [f.path, f.sha256]));
      const list = await callRouteWith(listLoader, apiRequest("GET", "/api/documents", { cookie: cookies[INVESTOR.email] }));
      expect(list.status).toBe(200);
      const listed = (await list.json()) as { id: string; title: string }[];
      expect(listed.map((d) => d.id).sort()).toEqual(rows.lp.map((r) => r.id).sort());
      for (const row of rows.lp) {
        const response = await callRouteWith(
          fileLoader,
          apiRequest("GET", `/api/documents/${row.id}/download`, { cookie: cookies[INVESTOR.email] }),
          { params: { id: row.id } },
        );
        expect(response.status, row.title).toBe(200);
        const bytes = await bodyBytes(response);
        expect(sha256(bytes), row.title).toBe(hashOf.get(row.file_path));
        const original = lpDocs.find((d) => d.id === row.id);
        if (original) expect(bytes.equals(original.bytes), row.title).toBe(true);
      }

      for (const fundId of ["fund-i", "fund-ii"] as const) {
        const response = await listFundDocs(fundId, cookies[ADMIN.email]!);
        expect(response.status).toBe(200);
        const ids = ((await response.json()) as { id: string }[]).map((d) => d.id).sort();
        expect(ids).toEqual(rows.fund.filter((r) => r.fund_id === fundId).map((r) => r.id).sort());
      }
      for (const doc of fundDocs) {
        const response = await fundFile("download", doc.id, cookies[ADMIN.email]!);
        expect(response.status, doc.title).toBe(200);
        expect((await bodyBytes(response)).equals(doc.bytes), doc.title).toBe(true);
      }
      // The Fund I holder's cookie from before the backup still opens Fund I.
      const holder = await listFundDocs("fund-i", holderCookie);
      expect(holder.status).toBe(200);
      expect(((await holder.json()) as { title: string }[]).map((d) => d.title)).toEqual(["Fund I deck"]);
    } finally {
      closeDb();
    }
  }, 20_000);

  const buildDir = process.env.BUILD_DIR ? path.resolve(ROOT, process.env.BUILD_DIR) : "";
  const haveBuild = buildDir !== "" && fs.existsSync(path.join(buildDir, "server/index.js"));
  it.skipIf(!haveBuild)("the production server (BUILD_DIR) started on the restored data serves them too", async () => {
    const port = await freePort(quietPort);
    const origin = `http://127.0.0.1:${port}`;
    const server = spawn(process.execPath, ["--import", "tsx", "server/index.ts"], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: "production",
        BUILD_DIR: buildDir,
        PORT: String(port),
        HOST: "127.0.0.1",
        APP_URL: origin,
        DATABASE_PATH: restored.db,
        STORAGE_DIR: restored.storage,
        LOG_LEVEL: "silent",
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    server.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
    const send = (method: string, pathname: string, headers: Record<string, string> = {}, body?: string) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const req = http.request(`${origin}${pathname}`, { method, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on("error", reject);
        req.end(body);
      });
    try {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const up = await send("GET", "/healthz").then((r) => r.status === 200, () => false);
        if (up) break;
        if (server.exitCode !== null || Date.now() > deadline) throw new Error(`server did not start:\n${stderr}`);
        await sleep(100);
      }
      const signIn = async (who: { email: string; password: string; code?: string }) => {
        const login = await send("POST", "/api/auth/login", { "Content-Type": "application/json" }, JSON.stringify(who));
        expect(login.status, login.body.toString()).toBe(200);
        return cookiePair(String(login.headers["set-cookie"]?.[0] ?? ""));
      };
      const investor = await signIn(INVESTOR);
      // The admin's code: the next step (the test above spent the current one on this restored database).
      const admin = await signIn({ ...ADMIN, code: totpAt(testTotpSecret(ADMIN.email), Date.now() + 30_000) });
      const rows = rowsInBackup();
      const hashOf = new Map(manifest.files.map((f) => [f.path, f.sha256]));
      const list = await send("GET", "/api/documents", { Cookie: investor });
      expect(list.status).toBe(200);
      const listed = JSON.parse(list.body.toString()) as { id: string }[];
      expect(listed.map((d) => d.id).sort()).toEqual(rows.lp.map((r) => r.id).sort());
      for (const row of rows.lp) {
        const file = await send("GET", `/api/documents/${row.id}/download`, { Cookie: investor });
        expect(file.status, row.title).toBe(200);
        expect(sha256(file.body), row.title).toBe(hashOf.get(row.file_path));
      }
      for (const doc of [...lpDocs, ...fundDocs]) {
        const kind = lpDocs.includes(doc) ? `/api/documents/${doc.id}/download` : `/api/fund-documents/download/${doc.id}`;
        const file = await send("GET", kind, { Cookie: admin });
        expect(file.status, doc.title).toBe(200);
        expect(file.body.equals(doc.bytes), doc.title).toBe(true);
      }
    } finally {
      server.kill("SIGTERM");
      await new Promise((resolve) => (server.exitCode !== null ? resolve(null) : server.once("exit", resolve)));
    }
  }, 30_000);

  it("refuses a backup whose file no longer matches its sha256, and changes nothing", async () => {
    const tampered = path.join(work, "tampered");
    fs.cpSync(backupDir, tampered, { recursive: true });
    const victim = manifest.files[0]!;
    const file = path.join(tampered, "uploads", victim.path);
    const bytes = fs.readFileSync(file);
    bytes[Math.floor(bytes.length / 2)]! ^= 0xff; // same size, one byte changed
    fs.writeFileSync(file, bytes);

    const target = { db: path.join(work, "r2", "data.sqlite"), storage: path.join(work, "r2", "uploads") };
    const result = await restoreInto(target, tampered);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`uploads/${victim.path}: sha256 does not match the manifest`);
    expect(fs.existsSync(target.db)).toBe(false);
    expect(fs.existsSync(target.storage)).toBe(false);
    expect(fs.readdirSync(path.dirname(target.db))).toEqual([]); // no staging copies left

    // A manifest naming a path outside the storage areas is refused before anything is read.
    const evil = path.join(work, "evil");
    fs.cpSync(backupDir, evil, { recursive: true });
    const evilManifest = { ...manifest, files: [...manifest.files, { path: "../../../etc/passwd", size: 1, sha256: "0".repeat(64) }] };
    fs.writeFileSync(path.join(evil, "manifest.json"), JSON.stringify(evilManifest));
    const refused = await restoreInto(target, evil);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("outside documents/ and fund-documents/");
  }, 20_000);

  it("refuses to overwrite an existing database without --force, or while it is open; --force moves it aside", async () => {
    const before = sha256(fs.readFileSync(restored.db));
    const refused = await restoreInto(restored, backupDir);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/already a database at .*--force/s);
    expect(sha256(fs.readFileSync(restored.db))).toBe(before);

    // A process holding the database open (as the running server does) blocks even --force.
    const holder = new Database(restored.db);
    holder.pragma("journal_mode = WAL");
    holder.prepare("select count(*) from lp_users").get();
    try {
      const inUse = await restoreInto(restored, backupDir, "--force");
      expect(inUse.code).not.toBe(0);
      expect(inUse.stderr).toContain("is open in another process");
    } finally {
      holder.close();
    }
    const beforeForce = sha256(fs.readFileSync(restored.db));

    const forced = await restoreInto(restored, backupDir, "--force");
    expect(forced.code, forced.stderr).toBe(0);
    const dir = fs.readdirSync(path.dirname(restored.db));
    const asideDb = dir.find((n) => /^data\.sqlite\.before-restore-[\dT-]+Z$/.test(n));
    const asideUploads = dir.find((n) => /^uploads\.before-restore-[\dT-]+Z$/.test(n));
    expect(asideDb, dir.join(", ")).toBeDefined();
    expect(asideUploads, dir.join(", ")).toBeDefined();
    expect(sha256(fs.readFileSync(path.join(path.dirname(restored.db), asideDb!)))).toBe(beforeForce);
    expect(forced.stdout).toContain(`Moved aside: ${restored.db} -> ${path.join(path.dirname(restored.db), asideDb!)}`);
    expect(sha256(fs.readFileSync(restored.db))).toBe(manifest.database.sha256);
  }, 30_000);
});
