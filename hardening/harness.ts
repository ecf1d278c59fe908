/**
 * The hardening run's toolkit: production servers on their own data, raw HTTP,
 * accounts made the way an operator and a user make them, a mail catcher, and
 * the result shape every section returns (see hardening/run.ts).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { twoFactorMessages } from "../app/content/two-factor";
import { isLoopbackUrl } from "../app/modules/config/env.server";
import { startSmtpServer, type ReceivedMail } from "../tests/helpers/smtp";
import { nextTotpCode, skipStep, testTotpSecret } from "../tests/support/totp";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const SESSION_SECRET = "hardening-session-secret-0123456789abcdef-0123";

// ─── results ────────────────────────────────────────────────────────────────

/** One printed figure. `ok: false` fails the run. */
export type Figure = { label: string; value: string | number; budget?: string; ok: boolean };
export type SectionResult = {
  figures: Figure[];
  /** Human-readable reasons for each failed check (empty when all passed). */
  failures: string[];
  /** Lines printed under the section (what was skipped and why, sample failures). */
  notes?: string[];
};
export type Context = {
  /** --full: the long parts at their full size. */
  full: boolean;
  buildDir: string;
  /** A scratch folder for this run (removed at the end unless --keep). */
  tmpRoot: string;
  /** A fresh TCP port for a server or mail catcher. */
  nextPort: () => number;
  /** Progress line on stderr. */
  progress: (message: string) => void;
};
export type Section = { name: string; run: (ctx: Context) => Promise<SectionResult> };

/** A run's Context: ports handed out from `ports` (reserved up front: they are handed out synchronously), progress on stderr. */
export function runContext({ full, buildDir, tmpRoot, ports }: { full: boolean; buildDir: string; tmpRoot: string; ports: number[] }): Context {
  return {
    full,
    buildDir,
    tmpRoot,
    nextPort: () => {
      const next = ports.shift();
      if (next === undefined) throw new Error("out of reserved ports");
      return next;
    },
    progress: (message) => console.error(`    ${message}`),
  };
}

/** Collects figures and failures for a section. */
export class Tally {
  figures: Figure[] = [];
  failures: string[] = [];
  notes: string[] = [];
  /** A count that must equal `expected` (default 0), e.g. 5xx answers. */
  count(label: string, value: number, expected = 0, why?: string) {
    const ok = value === expected;
    this.figures.push({ label, value, budget: `= ${expected}`, ok });
    if (!ok) this.failures.push(`${label}: ${value}, expected ${expected}${why ? ` (${why})` : ""}`);
  }
  /** A figure that must not exceed `max` (e.g. attempts that reached bcrypt). */
  atMost(label: string, value: number, max: number, why?: string) {
    const ok = value <= max;
    this.figures.push({ label, value, budget: `≤ ${max}`, ok });
    if (!ok) this.failures.push(`${label}: ${value}, at most ${max} allowed${why ? ` (${why})` : ""}`);
  }
  /** A check that must hold. */
  check(label: string, ok: boolean, detail: string) {
    this.figures.push({ label, value: ok ? "yes" : "no", budget: "yes", ok });
    if (!ok) this.failures.push(`${label}: ${detail}`);
  }
  /** A measured figure without a pass/fail budget. */
  info(label: string, value: string | number) {
    this.figures.push({ label, value, ok: true });
  }
  note(line: string) {
    this.notes.push(line);
  }
  result(): SectionResult {
    return { figures: this.figures, failures: this.failures, notes: this.notes };
  }
}

// ─── servers ────────────────────────────────────────────────────────────────

export type ServerOptions = {
  name: string;
  /** Extra or overriding environment (e.g. TRUST_PROXY, APP_URL, SMTP_URL). */
  env?: Record<string, string>;
  /** Reuse a data folder (database + storage) from an earlier server. */
  dataDir?: string;
};

export type ExitInfo = { code: number | null; signal: NodeJS.Signals | null };

export type AppServer = {
  name: string;
  port: number;
  url: string;
  dataDir: string;
  dbPath: string;
  storageDir: string;
  /** The build the server runs (its compiled scripts are in server/ there too). */
  buildDir: string;
  env: Record<string, string>;
  pid: () => number;
  /** Every stdout/stderr line so far (JSON log lines and anything else): the live array, which a long section may empty. */
  logLines: () => string[];
  /** Exits this harness did not cause (crashes). */
  unexpectedExits: () => number;
  /** True while the process runs. */
  running: () => boolean;
  /** SIGTERM and wait (SIGKILL after 15 s); the exit code and signal (both null when it was not running). */
  stop: () => Promise<ExitInfo>;
  /** SIGKILL now and wait for the exit. */
  kill9: () => Promise<void>;
  /** Start again on the same port and data (after stop or kill9). */
  start: () => Promise<void>;
};

/** The env for startServer that keeps bcrypt at the production cost (12), for the sections where its cost matters. */
export const PRODUCTION_PASSWORD_COST = { TEST_BCRYPT_COST: "" };

/** Start the production server (the finished build) on a fresh port and data folder. */
export async function startServer(ctx: Context, options: ServerOptions): Promise<AppServer> {
  const port = ctx.nextPort();
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(ctx.tmpRoot, `${options.name}-`));
  const env: Record<string, string> = {
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: `http://localhost:${port}`,
    SESSION_SECRET,
    DATABASE_PATH: path.join(dataDir, "data.sqlite"),
    STORAGE_DIR: path.join(dataDir, "uploads"),
    LOG_LEVEL: "info",
    // Sections count mails by the hundred; the send rate itself is tested in tests/integration/mail-outbox.test.ts.
    MAIL_RATE_PER_MINUTE: "100000",
    // Sections upload by the hundred; only the unsubscribe section wants new-document mails (it turns them on).
    DOCUMENT_MAIL_DEFAULT: "none",
    // The server finds its files next to itself; hardening/headers.ts reads the client folder from here.
    BUILD_DIR: ctx.buildDir,
    ...options.env,
  };
  // New password hashes at bcrypt cost 4 (decision 036): most sections create accounts by the dozen and
  // sign in hundreds of times. The sections about guessing and load keep the production cost (12:
  // PRODUCTION_PASSWORD_COST), and so does a server with a public APP_URL (the server refuses the
  // setting there).
  if (!("TEST_BCRYPT_COST" in (options.env ?? {})) && isLoopbackUrl(env.APP_URL!)) {
    env.TEST_BCRYPT_COST = "4";
  }
  const lines: string[] = [];
  let proc: ChildProcess | null = null;
  let exitedPromise: Promise<void> = Promise.resolve();
  let expectingExit = false;
  let crashes = 0;
  let lastExit: ExitInfo = { code: null, signal: null };

  const start = async () => {
    expectingExit = false;
    // What `npm start` runs: the compiled server, with plain node.
    const child = spawn(process.execPath, [path.join(ctx.buildDir, "server/index.js")], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    proc = child;
    let pending = "";
    const keep = (chunk: Buffer) => {
      pending += chunk.toString("utf8");
      const parts = pending.split("\n");
      pending = parts.pop() ?? "";
      for (const line of parts) if (line) lines.push(line);
    };
    child.stdout!.on("data", keep);
    child.stderr!.on("data", keep);
    exitedPromise = new Promise((resolve) => {
      child.on("exit", (code, signal) => {
        lastExit = { code, signal };
        if (!expectingExit) crashes += 1;
        proc = null;
        resolve();
      });
    });
    await waitForHealth(`http://127.0.0.1:${port}/healthz`, () => proc === null, lines);
  };

  await start();
  return {
    name: options.name,
    port,
    url: `http://127.0.0.1:${port}`,
    dataDir,
    dbPath: env.DATABASE_PATH!,
    storageDir: env.STORAGE_DIR!,
    buildDir: ctx.buildDir,
    env,
    pid: () => (proc as ChildProcess | null)?.pid ?? -1,
    logLines: () => lines,
    unexpectedExits: () => crashes,
    running: () => proc !== null,
    stop: async () => {
      const child = proc as ChildProcess | null;
      if (!child) return { code: null, signal: null };
      expectingExit = true;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exitedPromise;
      clearTimeout(timer);
      return lastExit;
    },
    kill9: async () => {
      const child = proc as ChildProcess | null;
      if (!child) return;
      expectingExit = true;
      child.kill("SIGKILL");
      await exitedPromise;
    },
    start,
  };
}

async function waitForHealth(url: string, exited: () => boolean, lines: string[], timeoutMs = 60_000) {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (exited()) throw new Error(`server exited before ${url} answered:\n${lines.slice(-30).join("\n")}`);
    try {
      const res = await request(url.replace(/\/healthz$/, ""), "GET", "/healthz", { timeoutMs: 2_000 });
      if (res.status === 200) return;
    } catch {
      /* not up yet */
    }
    await sleep(100);
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${lines.slice(-30).join("\n")}`);
}

/** A free TCP port at or above `from`. */
export async function freePort(from: number): Promise<number> {
  for (let port = from; port < from + 500; port++) {
    const free = await new Promise<boolean>((resolve) => {
      const server = net.createServer();
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port from ${from}`);
}

// ─── HTTP ───────────────────────────────────────────────────────────────────

export type HttpAnswer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer; text: string };
export type RequestOptions = {
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
  timeoutMs?: number;
  /** Connect from this local address (127.x.y.z): a client address of its own on a server without TRUST_PROXY. */
  localAddress?: string;
  /** "chunked": send the body without Content-Length (counted while streaming, not declared). */
  framing?: "length" | "chunked";
};

/**
 * One request exactly as given: no cookies, Origin or Sec-Fetch-* headers are
 * added, redirects are not followed, bodies are not decompressed.
 */
export function request(baseUrl: string, method: string, pathAndQuery: string, options: RequestOptions = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const url = new URL(pathAndQuery, baseUrl);
    const headers: http.OutgoingHttpHeaders = { ...options.headers };
    const chunked = options.framing === "chunked";
    if (options.body !== undefined && !chunked && headers["content-length"] === undefined) {
      headers["content-length"] = Buffer.byteLength(options.body);
    }
    if (chunked) headers["transfer-encoding"] = "chunked";
    const init = { method, headers, agent: false, timeout: options.timeoutMs ?? 30_000, localAddress: options.localAddress };
    const req = http.request(url, init, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString("utf8") });
      });
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`timeout: ${method} ${url.href}`)));
    req.on("error", reject);
    if (options.body === undefined) req.end();
    else if (chunked) {
      req.write(options.body);
      req.end();
    } else req.end(options.body);
  });
}

/**
 * Headers a same-origin browser form or fetch sends: Origin, Sec-Fetch-Site,
 * and the Host of APP_URL (React Router compares Origin with the request's
 * URL, which it builds from Host, before a page action runs).
 */
export function sameOrigin(server: AppServer): Record<string, string> {
  const appUrl = new URL(server.env.APP_URL!);
  return { origin: appUrl.origin, host: appUrl.host, "sec-fetch-site": "same-origin" };
}

/** The password the sections give the accounts they make. */
export const PASSWORD = "hardening-password-123";

/** A short random tag for unique e-mails, titles and boundaries. */
export const unique = () => randomBytes(5).toString("hex");

export type Part = { name: string; value: string | Buffer; filename?: string; contentType?: string };

/** A multipart/form-data body (fields and files, in order) with a random boundary. */
export function multipart(parts: Part[], boundary = `----hardening${unique()}${unique()}`): { headers: Record<string, string>; body: Buffer } {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename.replace(/"/g, "%22")}"`;
    head += "\r\n";
    if (part.contentType) head += `Content-Type: ${part.contentType}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`, "utf8"), Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value, "utf8"), Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { headers: { "content-type": `multipart/form-data; boundary=${boundary}` }, body: Buffer.concat(chunks) };
}

export function jsonBody(value: unknown): { headers: Record<string, string>; body: string } {
  return { headers: { "content-type": "application/json" }, body: JSON.stringify(value) };
}

export function formBody(fields: Record<string, string>): { headers: Record<string, string>; body: string } {
  return { headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() };
}

/** The `name=value` pairs of an answer's Set-Cookie headers, as one Cookie header. */
export function cookiesFrom(answer: HttpAnswer, previous = ""): string {
  const jar = new Map<string, string>();
  for (const pair of previous.split(";").map((s) => s.trim()).filter(Boolean)) {
    const i = pair.indexOf("=");
    jar.set(pair.slice(0, i), pair.slice(i + 1));
  }
  for (const line of answer.headers["set-cookie"] ?? []) {
    const pair = line.split(";")[0]!;
    const i = pair.indexOf("=");
    const name = pair.slice(0, i);
    const value = pair.slice(i + 1);
    if (value === "" || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([n, v]) => `${n}=${v}`).join("; ");
}

// ─── accounts ───────────────────────────────────────────────────────────────

/**
 * Admins made by this process with two-factor on (createAdmin): their sign-ins
 * send a code at once. Others learn that they need one from the 401.
 */
const twoFactorAdmins = new Set<string>();

/**
 * An approved admin, made with the real CLI (npm run admin:create), compiled as
 * on a server. The admin portal requires two-factor, so by default the admin is
 * enrolled (ADMIN_TOTP_SECRET) with testTotpSecret(email) and its sign-ins send
 * codes from tests/support/totp.ts; `twoFactor: false` makes an admin whose
 * session is limited to setting it up. The script seals the secret with the
 * server's key (TOTP_KEYS, else SESSION_SECRET), so it gets the server's.
 */
export function createAdmin(server: AppServer, email: string, password: string, name = "Hardening Admin", { twoFactor = true }: { twoFactor?: boolean } = {}) {
  const script = path.join(server.buildDir, "server/admin-create.js");
  const keys = { SESSION_SECRET: server.env.SESSION_SECRET!, ...(server.env.TOTP_KEYS ? { TOTP_KEYS: server.env.TOTP_KEYS } : {}) };
  // The admin's password is hashed at the server's cost ("" for the production cost).
  const cost = { TEST_BCRYPT_COST: server.env.TEST_BCRYPT_COST ?? "" };
  // The secrets through the environment (DESIGN.md §8), never the command line.
  const env: NodeJS.ProcessEnv = { ...process.env, ...keys, ...cost, DATABASE_PATH: server.dbPath, LOG_LEVEL: "silent", ADMIN_PASSWORD: password };
  if (twoFactor) env.ADMIN_TOTP_SECRET = testTotpSecret(email);
  else delete env.ADMIN_TOTP_SECRET;
  execFileSync(process.execPath, [script, "--email", email, "--name", name], { cwd: ROOT, env, stdio: "pipe" });
  if (twoFactor) twoFactorAdmins.add(email.trim().toLowerCase());
  else twoFactorAdmins.delete(email.trim().toLowerCase());
}

const jsonOf = (answer: HttpAnswer): Record<string, unknown> => {
  try {
    return JSON.parse(answer.text) as Record<string, unknown>;
  } catch {
    return {};
  }
};

/**
 * POST /api/auth/login through `post` (the caller's headers, address and
 * cookie), with the two-factor code an account needs: a test admin's at once,
 * any other account's after a 401 that asks for it. Each TOTP step is accepted
 * once per account, so codes come from nextTotpCode (a step at most once per
 * process; it waits when the current and the next are spent); a code refused
 * as already used (a step spent elsewhere) is retried with the next step.
 */
export async function loginWithCode(
  post: (body: Record<string, string>) => Promise<HttpAnswer>,
  email: string,
  password: string,
  secret = testTotpSecret(email),
): Promise<HttpAnswer> {
  let needsCode = twoFactorAdmins.has(email.trim().toLowerCase());
  let answer = needsCode ? null : await post({ email, password });
  if (answer && answer.status === 401 && jsonOf(answer).twoFactorRequired === true) needsCode = true;
  for (let attempt = 0; needsCode && attempt < 3; attempt++) {
    const { code, step } = await nextTotpCode(email, secret);
    answer = await post({ email, password, code });
    if (answer.status !== 401 || jsonOf(answer).error !== twoFactorMessages.invalidCode) break;
    skipStep(email, step);
  }
  return answer!;
}

/** Sign in through the JSON API (with a code when the account needs one); returns the Cookie header to send afterwards. */
export async function signIn(server: AppServer, email: string, password: string, extraHeaders: Record<string, string> = {}): Promise<string> {
  const answer = await loginWithCode(
    (fields) => {
      const { headers, body } = jsonBody(fields);
      return request(server.url, "POST", "/api/auth/login", { headers: { ...headers, ...extraHeaders }, body });
    },
    email,
    password,
  );
  if (answer.status !== 200) throw new Error(`sign-in of ${email} answered ${answer.status}: ${answer.text}`);
  return cookiesFrom(answer);
}

/**
 * Give a registration waiting for its confirmation a link token of the
 * harness's own, stored as the server stores one (its SHA-256), and return the
 * token: the token the server mailed travels sealed and is erased once the mail
 * is out (production logs never show it), so this stands in for reading the
 * mail. The confirmation itself goes through the real page (confirmRegistration).
 */
export function registrationTokenFor(server: AppServer, email: string): string {
  const token = randomBytes(32).toString("base64url");
  const db = openDatabase(server, false);
  try {
    const hash = createHash("sha256").update(token, "utf8").digest("hex");
    const changed = db.prepare("update registration_requests set token_hash = ? where email = ?").run(hash, email.trim().toLowerCase()).changes;
    if (changed !== 1) throw new Error(`no registration of ${email} waits for its confirmation`);
  } finally {
    db.close();
  }
  return token;
}

/**
 * Confirm a registration as its address's owner does (decision 028): the
 * link's page, posted with the registration's password, through `post` (the
 * caller's client address and headers; by default a plain request). Throws
 * unless the request reached the admins (303 to the thank-you).
 */
export async function confirmRegistration(
  server: AppServer,
  email: string,
  password: string,
  post: (path: string, body: { headers: Record<string, string>; body: string }) => Promise<HttpAnswer> = (path, body) =>
    request(server.url, "POST", path, { headers: body.headers, body: body.body }),
): Promise<void> {
  const answer = await post(`/lp/register/confirm?token=${registrationTokenFor(server, email)}`, formBody({ password }));
  if (answer.status !== 303) throw new Error(`confirm the registration of ${email}: ${answer.status} ${answer.text.slice(0, 200)}`);
}

/** Register an investor through the API, confirm the address and approve them as the admin; returns their Cookie header. */
export async function approvedInvestor(
  server: AppServer,
  adminCookie: string,
  user: { email: string; password: string; name: string; company?: string },
): Promise<string> {
  const registered = await request(server.url, "POST", "/api/auth/register", jsonBody(user));
  if (registered.status !== 201) throw new Error(`register ${user.email}: ${registered.status} ${registered.text}`);
  await confirmRegistration(server, user.email, user.password);
  const pending = await request(server.url, "GET", "/api/auth/pending-users", { headers: { cookie: adminCookie } });
  const listed = (JSON.parse(pending.text) as Array<{ id: string; email: string }>).find((u) => u.email === user.email.toLowerCase());
  if (!listed) throw new Error(`${user.email} is not among the pending users: ${pending.status} ${pending.text.slice(0, 200)}`);
  const approved = await request(server.url, "PATCH", `/api/auth/users/${listed.id}/status`, {
    headers: { "content-type": "application/json", cookie: adminCookie },
    body: JSON.stringify({ status: "approved" }),
  });
  if (approved.status !== 200) throw new Error(`approve ${user.email}: ${approved.status} ${approved.text}`);
  return signIn(server, user.email, user.password);
}

/** Open the server's database from this process (WAL: safe next to the running server). */
export function openDatabase(server: AppServer, readonly = true): Database.Database {
  return new Database(server.dbPath, { readonly, fileMustExist: true });
}

// ─── mail ───────────────────────────────────────────────────────────────────

export type CaughtMail = ReceivedMail;

/** A real SMTP server that keeps every message; pass `smtpUrl` to the app as SMTP_URL. */
export async function startMailCatcher(ctx: Context, port = ctx.nextPort()) {
  const mails: CaughtMail[] = [];
  const server = await startSmtpServer({ port, onMail: (mail: CaughtMail) => void mails.push(mail) });
  return {
    port,
    smtpUrl: `smtp://127.0.0.1:${port}`,
    mails,
    /** Wait until a mail matches; throws after the timeout. */
    async waitFor(match: (mail: CaughtMail) => boolean, timeoutMs = 20_000): Promise<CaughtMail> {
      const started = Date.now();
      while (Date.now() - started < timeoutMs) {
        const found = mails.find(match);
        if (found) return found;
        await sleep(100);
      }
      throw new Error(`no matching mail within ${timeoutMs} ms (${mails.length} caught)`);
    },
    /** Take the SMTP server down (connections refused) and bring it back on the same port. */
    down: () => server.stop(),
    up: () => server.start(),
    stop: () => server.stop(),
  };
}

// ─── misc ───────────────────────────────────────────────────────────────────

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Files (not folders) under a directory, recursively, as paths relative to it. */
export function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

/** VmRSS of a process in kB (Linux), or -1. */
export function rssKb(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : -1;
  } catch {
    return -1;
  }
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export const tmpBase = () => os.tmpdir();
