import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import Database from "better-sqlite3";
import contentDisposition from "content-disposition";
import { expect, request as playwrightRequest, type APIRequestContext, type APIResponse } from "@playwright/test";
import { createAdmin, registerViaApi, setStatusViaApi, userIdByEmail } from "./accounts";
import { expectSecurityHeaders } from "./http";
import { BASE_URL } from "./origin";
import { e2eDatabasePath, mintSessionCookie } from "./sessions";

/**
 * LP documents over real HTTP: an admin session of its own, uploads as
 * Playwright sends them or as hand-made multipart bodies (for names a
 * browser would never send), raw requests (paths sent byte for byte), and a
 * look at the server's database and storage folder (playwright.config.ts puts
 * both in E2E_RUN_DIR).
 */

export type LpDocument = {
  id: string;
  title: string;
  description: string | null;
  category: string;
  fileName: string;
  fileSize: string;
  createdAt: string;
  audience: "all" | "selected";
  watermark: boolean;
  /** Admins only. */
  recipientIds?: string[];
};

export function runDir(): string {
  const dir = process.env.E2E_RUN_DIR;
  if (!dir) throw new Error("E2E_RUN_DIR is not set (run through playwright.config.ts)");
  return dir;
}

/** STORAGE_DIR of the e2e server. */
export function storageDir(): string {
  return path.join(runDir(), "uploads");
}

/** Run `fn` on a short-lived connection to the server's database. */
export function withDb<T>(fn: (db: Database.Database) => T, { write = false } = {}): T {
  const db = new Database(e2eDatabasePath(), { readonly: !write, fileMustExist: true });
  try {
    db.pragma("busy_timeout = 5000");
    return fn(db);
  } finally {
    db.close();
  }
}

/** A random client address for a context (per-IP rate limits never trip across tests). */
export function randomClientIp(): string {
  const b = randomBytes(3);
  return `10.${200 + (b[0]! % 50)}.${b[1]}.${(b[2]! % 254) + 1}`;
}

/** A request context that keeps its own cookies (starting with `sessionCookie`, "lr_session=…") and never follows redirects. */
export function newApiContext(ip = randomClientIp(), sessionCookie?: string): Promise<APIRequestContext> {
  const eq = sessionCookie?.indexOf("=") ?? -1;
  const cookies = sessionCookie
    ? [{ name: sessionCookie.slice(0, eq), value: sessionCookie.slice(eq + 1), domain: "localhost", path: "/", expires: -1, httpOnly: true, secure: false, sameSite: "Lax" as const }]
    : [];
  return playwrightRequest.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { "X-Forwarded-For": ip }, maxRedirects: 0, storageState: { cookies, origins: [] } });
}

export type Session = { context: APIRequestContext; cookie: string; email: string; ip: string };

/** A fresh admin (helpers/accounts.ts createAdmin), with a minted session (helpers/sessions.ts) in a context of its own. */
export async function adminSession(label = "docs-admin"): Promise<Session> {
  const email = `${label}-${Date.now().toString(36)}-${randomBytes(4).toString("hex")}@example.com`;
  const password = `pw-${randomBytes(8).toString("hex")}`;
  await createAdmin(email, "Documents Admin", password);
  const ip = randomClientIp();
  const cookie = await mintSessionCookie(email);
  const context = await newApiContext(ip, cookie);
  return { context, cookie, email, ip };
}

/** An investor registered over HTTP, approved by `admin`, with a minted session in a context of their own. */
export async function approvedInvestorSession(admin: Session, label = "docs-investor"): Promise<Session> {
  const email = `${label}-${Date.now().toString(36)}-${randomBytes(4).toString("hex")}@example.com`;
  const password = `pw-${randomBytes(8).toString("hex")}`;
  const ip = randomClientIp();
  const registering = await newApiContext(ip);
  await registerViaApi(registering, { email, password, name: "Documents Investor" });
  await registering.dispose();
  await setStatusViaApi(admin.context, "", await userIdByEmail(admin.context, "", email), "approved");
  const cookie = await mintSessionCookie(email);
  const context = await newApiContext(ip, cookie);
  return { context, cookie, email, ip };
}

export type UploadFile = { name: string; mimeType: string; buffer: Buffer };

/** POST /api/documents as Playwright's multipart encoder sends it (like a browser's FormData). */
export function uploadDocument(
  context: APIRequestContext,
  fields: { title?: string; description?: string; category?: string },
  file?: UploadFile,
  options: { headers?: Record<string, string>; path?: string } = {},
): Promise<APIResponse> {
  const multipart: Record<string, string | UploadFile> = {};
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) multipart[name] = value;
  if (file) multipart.file = file;
  return context.post(options.path ?? "/api/documents", { multipart, headers: options.headers, timeout: 120_000 });
}

/** One part of a hand-made multipart body. `disposition` replaces the default `form-data; name="…"` parameters. */
export type RawPart = { name: string; value: string | Buffer; filename?: string; mimeType?: string; disposition?: string };

/** Percent-encode for RFC 5987 `filename*=UTF-8''…` (every byte outside attr-char). */
export function rfc5987(value: string): string {
  return Array.from(Buffer.from(value, "utf8"))
    .map((byte) => {
      const c = String.fromCharCode(byte);
      return /[A-Za-z0-9!#$&+.^_`|~-]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    })
    .join("");
}

/** A multipart/form-data body built byte by byte (names as UTF-8), with its Content-Type. */
export function multipartBody(parts: RawPart[], boundary = `----e2e${randomBytes(12).toString("hex")}`): { body: Buffer; contentType: string } {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let disposition = part.disposition ?? `form-data; name="${part.name}"`;
    if (part.disposition === undefined && part.filename !== undefined) disposition += `; filename="${part.filename}"`;
    let head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n`;
    if (part.mimeType !== undefined) head += `Content-Type: ${part.mimeType}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`, "utf8"), Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value, "utf8"), Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** POST a hand-made body (sent as is). */
export function postRaw(context: APIRequestContext, urlPath: string, body: Buffer, contentType: string, headers: Record<string, string> = {}) {
  return context.post(urlPath, { data: body, headers: { "Content-Type": contentType, ...headers }, timeout: 120_000 });
}

export type RawAnswer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/**
 * A request sent byte for byte with node:http: the path is not normalised
 * (`%2e%2e` stays as typed), unlike a WHATWG URL.
 */
export function rawRequest(options: { method?: string; path: string; headers?: Record<string, string>; body?: Buffer }): Promise<RawAnswer> {
  const url = new URL(BASE_URL);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: options.path, method: options.method ?? "GET", headers: options.headers ?? {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** GET /healthz answers 200 (the server survived whatever came before). */
export async function expectHealthy(context: APIRequestContext) {
  const health = await context.get("/healthz");
  expect(health.status(), "GET /healthz").toBe(200);
}

/** The relative stored path (`documents/<32 hex>`) of an LP document, from the database. */
export function storedPathOf(id: string): string | undefined {
  return withDb((db) => (db.prepare("select file_path from documents where id = ?").get(id) as { file_path: string } | undefined)?.file_path);
}

function filesIn(dir: string): string[] {
  try {
    return fs.readdirSync(dir).filter((name) => fs.statSync(path.join(dir, name)).isFile());
  } catch {
    return [];
  }
}

/**
 * Files the upload pipeline left behind: anything in incoming/ (unfinished
 * uploads), and files in documents/ no LP document row points at.
 */
export function leftoverFiles(): { incoming: string[]; orphans: string[] } {
  const incoming = filesIn(path.join(storageDir(), "incoming"));
  const known = new Set(
    withDb((db) => (db.prepare("select file_path from documents").all() as { file_path: string }[]).map((r) => r.file_path)),
  );
  const orphans = filesIn(path.join(storageDir(), "documents"))
    .map((name) => `documents/${name}`)
    .filter((relative) => !known.has(relative));
  return { incoming, orphans };
}

/**
 * Wait (other specs upload at the same time: their files sit in incoming/ for
 * a moment) until nothing is left behind, or the time runs out; returns what remains.
 */
export async function settledLeftovers(timeoutMs = 15_000): Promise<{ incoming: string[]; orphans: string[] }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = leftoverFiles();
    if ((left.incoming.length === 0 && left.orphans.length === 0) || Date.now() > deadline) return left;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A fund document made behind the API's back: a fund_documents row and its file under STORAGE_DIR/fund-documents/. */
export function insertFundDocument(bytes: Buffer): { id: string; filePath: string; absolutePath: string } {
  const id = randomUUID();
  const filePath = `fund-documents/${randomBytes(16).toString("hex")}`;
  const absolutePath = path.join(storageDir(), filePath);
  fs.mkdirSync(path.dirname(absolutePath), { recursive: true });
  fs.writeFileSync(absolutePath, bytes);
  withDb(
    (db) =>
      db
        .prepare(
          "insert into fund_documents (id, fund_id, title, description, category, file_name, file_path, file_size, mime_type) values (?, 'fund-ii', ?, null, 'fund_documents', 'fund-secret.pdf', ?, ?, 'application/pdf')",
        )
        .run(id, `Fund secret ${id}`, filePath, bytes.length),
    { write: true },
  );
  return { id, filePath, absolutePath };
}

/** An LP document row whose stored path was tampered with (the server must never follow it). */
export function insertDocumentRow(filePath: string): string {
  const id = randomUUID();
  withDb(
    (db) =>
      db
        .prepare(
          "insert into documents (id, title, description, category, file_name, file_path, file_size, mime_type) values (?, ?, null, 'reports', 'tampered.pdf', ?, 1, 'application/pdf')",
        )
        .run(id, `Tampered ${id}`, filePath),
    { write: true },
  );
  return id;
}

export function deleteRows(table: "documents" | "fund_documents", ids: string[]) {
  withDb((db) => {
    const remove = db.prepare(`delete from ${table} where id = ?`);
    for (const id of ids) remove.run(id);
  }, { write: true });
}

/**
 * A Content-Disposition header that is well formed (RFC 6266): no control
 * characters, parseable, of the given type, naming `fileName` exactly. A name
 * that is not plain ASCII must come as filename*=UTF-8''… (clients do not
 * agree on raw Latin-1 bytes in filename="…": Chromium saves such a file as
 * "_"); the quoted fallback is then only a hint for old clients.
 */
export function expectContentDisposition(header: string | undefined, type: "inline" | "attachment", fileName: string) {
  expect(header, "Content-Disposition present").toBeTruthy();
  const value = header!;
  expect(value, "no control characters in Content-Disposition").not.toMatch(/[\u0000-\u001f\u007f]/);
  expect(value.startsWith(`${type};`), `Content-Disposition starts with ${type}: ${value}`).toBe(true);
  const parsed = contentDisposition.parse(value);
  expect(parsed.type).toBe(type);
  expect(parsed.parameters.filename, `the file name in ${value}`).toBe(fileName);
  const match = /^(?:inline|attachment)(?:; filename="((?:[^"\\]|\\.)*)")?(?:; filename\*=UTF-8''([A-Za-z0-9!#$&+.^_`|~%-]+))?$/.exec(value);
  expect(match, `Content-Disposition has the expected shape: ${value}`).not.toBeNull();
  if (!/^[\x20-\x7e]*$/.test(fileName)) {
    expect(match![2], `a non-ASCII name needs filename*=UTF-8'': ${value}`).toBeTruthy();
  } else {
    expect(match![1], `an ASCII name is given as filename="…": ${value}`).toBeDefined();
  }
}

/** A file name as the upload answer must give it: no path, control or bidi characters, at most 255 characters. */
export function expectCleanFileName(name: string) {
  expect(name.length, "non-empty file name").toBeGreaterThan(0);
  expect(name, "no path separators").not.toMatch(/[\\/]/);
  expect(name, "no control characters").not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  expect(name, "no bidi overrides or marks").not.toMatch(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
  expect(Array.from(name).length, "at most 255 characters").toBeLessThanOrEqual(255);
}

/**
 * The security headers of a file answer. Attachments carry the site's strict
 * set (expectSecurityHeaders). An inline view may let the browser's PDF viewer
 * run (object-src 'self', see file-response.server.ts) but nothing else: no
 * script, no frames around it, no base URL.
 */
export function expectFileSecurityHeaders(response: APIResponse, disposition: "inline" | "attachment", what: string) {
  if (disposition === "attachment") return expectSecurityHeaders(response, what);
  const headers = response.headers();
  const directives = new Map(
    (headers["content-security-policy"] ?? "")
      .split(";")
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => [d.split(/\s+/)[0]!, d.split(/\s+/).slice(1).join(" ")] as const),
  );
  expect(directives.get("default-src"), `${what}: default-src`).toBe("'none'");
  expect(directives.get("frame-ancestors"), `${what}: frame-ancestors`).toBe("'none'");
  expect(directives.get("base-uri"), `${what}: base-uri`).toBe("'none'");
  expect(["'none'", "'self'"], `${what}: object-src`).toContain(directives.get("object-src"));
  for (const loose of ["script-src", "script-src-elem", "connect-src", "frame-src", "form-action"]) {
    if (directives.has(loose)) expect(directives.get(loose), `${what}: ${loose}`).toBe("'none'");
  }
  expect(headers["x-content-type-options"], `${what}: X-Content-Type-Options`).toBe("nosniff");
  expect(headers["x-frame-options"], `${what}: X-Frame-Options`).toMatch(/^(DENY|SAMEORIGIN)$/i);
  expect(headers["referrer-policy"], `${what}: Referrer-Policy`).toBeTruthy();
}
