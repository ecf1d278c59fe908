/**
 * Shared by hostile-input.ts and injection.ts: a production server with an
 * admin, an investor and real records to aim at, requests that rate limits
 * and the cross-site rule do not stop (a fresh X-Forwarded-For each, same-origin
 * headers), multipart bodies built by hand, a bounded request pool, raw
 * response heads (to see every header line as sent), the fast-check building
 * blocks of hostile bodies, and the mail, HTML and CSV readers of the injection checks.
 */
import fs from "node:fs";
import net from "node:net";
import { chromium } from "@playwright/test";
import { CHROMIUM_PATH } from "../tests/support/chromium";
import fc from "fast-check";
import path from "node:path";
import {
  approvedInvestor,
  confirmRegistration,
  listFiles,
  createAdmin,
  jsonBody,
  multipart,
  openDatabase,
  PASSWORD,
  request,
  sameOrigin,
  signIn,
  sleep,
  startServer,
  type AppServer,
  type Context,
  type HttpAnswer,
  type Part,
  type RequestOptions,
  unique,
} from "./harness";
import { MIME, samplePdf } from "../tests/helpers/sample-files";
import { capitalRecords, type CapitalIds } from "./web-helpers";

export { multipart, PASSWORD, unique, type Part };

let clients = 0;
/** A client address of its own for each request (the server trusts the last X-Forwarded-For hop). */
export function nextClientIp(): string {
  clients += 1;
  return `10.${(clients >> 16) & 255}.${(clients >> 8) & 255}.${clients & 255}`;
}

/**
 * Headers of a same-origin browser request from a fresh client address, with a cookie when given.
 * The Host is APP_URL's, as a browser on the site sends it: React Router refuses an action whose
 * Origin does not match the request's own URL (built from Host), so Origin = APP_URL alone, sent
 * to 127.0.0.1, would stop every page action before its handler.
 */
export function clientHeaders(server: AppServer, cookie = ""): Record<string, string> {
  const host = new URL(server.env.APP_URL!).host;
  return { ...sameOrigin(server), host, "x-forwarded-for": nextClientIp(), ...(cookie ? { cookie } : {}) };
}

/** POST/PATCH/DELETE from a fresh same-origin client. */
export function send(server: AppServer, method: string, path: string, body: { headers: Record<string, string>; body: string | Buffer } | null, cookie = "", timeoutMs = 30_000) {
  const options: RequestOptions = { headers: { ...clientHeaders(server, cookie), ...(body?.headers ?? {}) }, timeoutMs };
  if (body) options.body = body.body;
  return request(server.url, method, path, options);
}

/** The parts of a valid upload: a small real PDF. */
export function uploadParts(fields: Record<string, string>, filename = "report.pdf", pdf = samplePdf(`hardening ${unique()}`)): Part[] {
  return [...Object.entries(fields).map(([name, value]) => ({ name, value })), { name: "file", value: pdf, filename, contentType: MIME.pdf }];
}

/** At most `limit` tasks at once; `drain` waits for all started ones. */
export class Pool {
  private active = 0;
  private waiting: Array<() => void> = [];
  private running = new Set<Promise<void>>();
  constructor(private limit: number) {}
  /** Resolves once a slot is free and the task has started. */
  async start(task: () => Promise<void>): Promise<void> {
    while (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active += 1;
    const run = task()
      .catch(() => {})
      .finally(() => {
        this.active -= 1;
        this.running.delete(run);
        this.waiting.shift()?.();
      });
    this.running.add(run);
  }
  async drain(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running]);
  }
}

export type Fixture = {
  server: AppServer;
  adminCookie: string;
  adminEmail: string;
  investorCookie: string;
  investorEmail: string;
  /** The session cookie's name (lr_session or __Host-lr_session). */
  sessionCookie: string;
  investorId: string;
  /** Real records to aim at: a pending user (status changes), LP and fund documents, a Fund II request. */
  ids: { user: string; lpDoc: string; fundDocI: string; fundDocII: string; fundRequest: string };
  /** Capital records (issue 24; web-helpers capitalRecords): the investor owns both entities. */
  capital: CapitalIds;
};

/** A server (TRUST_PROXY on) with an admin, an approved investor and one record of each kind. */
export async function setUpFixture(ctx: Context, name: string, env: Record<string, string> = {}): Promise<Fixture> {
  const server = await startServer(ctx, { name, env: { TRUST_PROXY: "1", ...env } });
  try {
    return await populate(server);
  } catch (error) {
    await server.stop();
    throw error;
  }
}

async function populate(server: AppServer): Promise<Fixture> {
  const tag = unique();
  const adminEmail = `admin-${tag}@example.com`;
  createAdmin(server, adminEmail, PASSWORD);
  const adminCookie = await signIn(server, adminEmail, PASSWORD);
  const investorEmail = `investor-${tag}@example.com`;
  const investorCookie = await approvedInvestor(server, adminCookie, { email: investorEmail, password: PASSWORD, name: "Hardening Investor" });
  const must = async (what: string, answer: Promise<HttpAnswer>, status: number) => {
    const got = await answer;
    if (got.status !== status) throw new Error(`${what}: ${got.status} ${got.text.slice(0, 300)}`);
    return JSON.parse(got.text) as Record<string, unknown>;
  };
  const targetEmail = `target-${tag}@example.com`;
  await must("register target", send(server, "POST", "/api/auth/register", jsonBody({ email: targetEmail, password: PASSWORD, name: "Target User" })), 201);
  await confirmRegistration(server, targetEmail, PASSWORD, (path, body) => send(server, "POST", path, body));
  const pending = await request(server.url, "GET", "/api/auth/pending-users", { headers: { cookie: adminCookie } });
  const user = (JSON.parse(pending.text) as Array<{ id: string; email: string }>).find((u) => u.email === targetEmail)!.id;
  const lpDoc = await must("upload LP document", send(server, "POST", "/api/documents", multipart(uploadParts({ title: "Fixture report", category: "reports" })), adminCookie), 201);
  const upFund = (fundId: string) =>
    must(`upload ${fundId} document`, send(server, "POST", "/api/fund-documents", multipart(uploadParts({ title: `Fixture ${fundId}`, fundId })), adminCookie), 201);
  const fundDocI = await upFund("fund-i");
  const fundDocII = await upFund("fund-ii");
  const requestEmail = `fund-${tag}@example.com`;
  await must(
    "Fund II request",
    send(server, "POST", "/api/fund-access/register", jsonBody({ name: "Fixture Holder", email: requestEmail, fundId: "fund-ii", accreditedConfirmation: true })),
    201,
  );
  const requests = await request(server.url, "GET", "/api/fund-access/requests", { headers: { cookie: adminCookie } });
  const fundRequest = (JSON.parse(requests.text) as Array<{ id: string; email: string }>).find((r) => r.email === requestEmail)!.id;
  const sessionCookie = adminCookie.split("=")[0]!;
  // Capital records: the investor owns both entities; a viewer and a newcomer, registered from addresses of their own.
  const approvedIds = async () =>
    new Map((JSON.parse((await request(server.url, "GET", "/api/auth/approved-users", { headers: { cookie: adminCookie } })).text) as Array<{ id: string; email: string }>).map((u) => [u.email, u.id]));
  const approve = async (what: string) => {
    const email = `${what}-${tag}@example.com`;
    await must(`register ${what}`, send(server, "POST", "/api/auth/register", jsonBody({ email, password: PASSWORD, name: `Capital ${what}` })), 201);
    await confirmRegistration(server, email, PASSWORD, (path, body) => send(server, "POST", path, body));
    const pendingNow = await request(server.url, "GET", "/api/auth/pending-users", { headers: { cookie: adminCookie } });
    const id = (JSON.parse(pendingNow.text) as Array<{ id: string; email: string }>).find((u) => u.email === email)!.id;
    await must(`approve ${what}`, send(server, "PATCH", `/api/auth/users/${id}/status`, jsonBody({ status: "approved" }), adminCookie), 200);
    return { id, email };
  };
  const investorId = (await approvedIds()).get(investorEmail)!;
  const capital = await capitalRecords(
    (method, path, body) => send(server, method, path, body ? { headers: body.headers, body: body.body ?? "" } : null, adminCookie),
    {
      owner: { id: investorId, email: investorEmail },
      viewer: await approve("viewer"),
      newcomer: await approve("newcomer"),
    },
    server,
  );
  return {
    server,
    adminCookie,
    adminEmail,
    investorCookie,
    investorEmail,
    investorId,
    sessionCookie,
    ids: { user, lpDoc: String(lpDoc.id), fundDocI: String(fundDocI.id), fundDocII: String(fundDocII.id), fundRequest },
    capital,
  };
}

/** A response's head exactly as sent (status line and every header line), read from a raw socket. */
export function rawHead(server: AppServer, method: string, path: string, headers: Record<string, string>, body?: string, timeoutMs = 15_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.port, "127.0.0.1");
    let received = "";
    const timer = setTimeout(() => socket.destroy(new Error(`timeout: raw ${method} ${path}`)), timeoutMs);
    socket.on("connect", () => {
      const lines = [`${method} ${path} HTTP/1.1`, ...(headers.host ? [] : [`host: 127.0.0.1:${server.port}`]), "connection: close"];
      for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
      if (body !== undefined) lines.push(`content-length: ${Buffer.byteLength(body)}`);
      socket.write(`${lines.join("\r\n")}\r\n\r\n${body ?? ""}`);
    });
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
      const end = received.indexOf("\r\n\r\n");
      if (end !== -1) {
        clearTimeout(timer);
        socket.destroy();
        resolve(received.slice(0, end));
      }
    });
    socket.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(received.split("\r\n\r\n")[0] ?? "");
    });
  });
}

/** Header names of a raw head (lower-cased, one entry per header line, folded lines joined). */
export function headerNames(head: string): string[] {
  return head
    .replace(/\r\n[ \t]+/g, " ")
    .split("\r\n")
    .slice(1)
    .map((line) => line.slice(0, Math.max(0, line.indexOf(":"))).trim().toLowerCase());
}

/** A short printable form of a body for notes. */
export function preview(value: string | Buffer | undefined, max = 160): string {
  if (value === undefined) return "(no body)";
  const text = Buffer.isBuffer(value) ? value.toString("latin1") : value;
  const shown = JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
  return `${shown} (${Buffer.byteLength(value)} bytes)`;
}

/**
 * A history import's previewed pair (issue 25 §5): `history-<32 hex>.csv` and its `-pnl.csv`, kept in incoming/ for an
 * hour for the confirm (app/modules/history-import/uploads.server.ts). Only a preview without an error leaves one; a
 * part still being written has another name.
 */
export const STAGED_HISTORY = /^history-([0-9a-f]{32})(?:-pnl)?\.csv$/;

/**
 * Files left in STORAGE_DIR/incoming (the history import's staged pairs apart: `staged`, counted by upload), and
 * stored files no row points at.
 */
export async function leftovers(fx: Fixture) {
  let incoming: string[] = [];
  let staged = new Set<string>();
  for (let i = 0; i < 20; i++) {
    const all = listFiles(path.join(fx.server.storageDir, "incoming"));
    staged = new Set(all.flatMap((f) => STAGED_HISTORY.exec(path.basename(f))?.[1] ?? []));
    incoming = all.filter((f) => !STAGED_HISTORY.test(path.basename(f)));
    if (!incoming.length) break;
    await sleep(250);
  }
  const db = openDatabase(fx.server);
  const rows = db.prepare("select file_path as p from documents union all select file_path from fund_documents").all() as Array<{ p: string }>;
  db.close();
  const known = new Set(rows.map((r) => path.normalize(r.p)));
  const orphans = listFiles(path.join(fx.server.storageDir, "documents")).filter((f) => !known.has(path.normalize(path.join("documents", f))));
  const describe = (f: string) => {
    const st = fs.statSync(path.join(fx.server.storageDir, "incoming", f), { throwIfNoEntry: false });
    return st ? `${f} (${st.size} B, written ${st.mtime.toISOString()})` : `${f} (gone)`;
  };
  return { incoming: incoming.length, staged: staged.size, orphans: orphans.length, incomingFiles: incoming.map(describe) };
}

// ─── hostile values (fast-check) ───────────────────────────────────────────

export const codeUnits = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 40 });
export const latin1 = (maxLength: number) =>
  fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f).map((c) => String.fromCharCode(c)), maxLength });

export function hostileStrings(realIds: string[]): fc.Arbitrary<string> {
  const special = fc.constantFrom(
    ...["", " ", "\u0000", "a\u0000b", "\ud800", "\udfff", "x\ud83d", "__proto__", "constructor", "prototype", "toString", "hasOwnProperty"],
    ...["NaN", "null", "undefined", "true", "[object Object]", "%00", "%", "%zz", "'", '"', "\\", "../../etc/passwd", "<script>x</script>", "\r\n"],
    ...["\u2028", "\u202e", "𝕏😀", "a@b.co", "Seed", "approved", "rejected", "fund-i", "fund-ii", "on", "reports", "fund_documents", "dark"],
    ...["/admin/dashboard", "//evil.example/", "1e309", "-0", "9".repeat(400), "a@b.co\r\nBcc: x@y.co", ...realIds],
  );
  return fc.oneof(
    { arbitrary: special, weight: 4 },
    { arbitrary: fc.string({ unit: "binary", maxLength: 60 }), weight: 2 },
    { arbitrary: codeUnits, weight: 2 },
    { arbitrary: fc.emailAddress(), weight: 1 },
    { arbitrary: fc.uuid(), weight: 1 },
    { arbitrary: fc.string({ unit: "grapheme-ascii", maxLength: 300 }), weight: 1 },
  );
}

/** JSON text with every key kept as an own key (also __proto__), values stringified safely. */
export function jsonText(entries: Array<[string, unknown]>): string {
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${safeJson(v)}`).join(",")}}`;
}
export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)) ?? "null";
  } catch {
    return '"unserializable"';
  }
}

export type Body = { headers: Record<string, string>; body: Buffer; what: string };
export const jsonCase = (text: string | Buffer, what: string): Body => ({ headers: { "content-type": "application/json" }, body: Buffer.from(text), what });
export const formCase = (text: string | Buffer, what: string): Body => ({
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: Buffer.from(text),
  what,
});

/** Hand-made multipart: random boundaries, part headers, names, file names, types, framing. */
export function multipartArb(fields: string[], fixed: Array<[string, string]>, str: fc.Arbitrary<string>): fc.Arbitrary<Body> {
  const boundaryChars = fc.constantFrom(..."abcXYZ019-_'()+,./:=? \"".split(""));
  const part = fc.record({
    name: fc.oneof(fc.constantFrom(...fields, "file"), str),
    filename: fc.option(fc.oneof(str, fc.constantFrom("a.pdf", "../../x.pdf", "a\u0000.pdf", "%2e%2e%2fx.pdf", "CON.pdf", `${"x".repeat(300)}.pdf`, "a\r\nX-Injected: 1.pdf"))),
    filenameStar: fc.boolean(),
    type: fc.option(fc.oneof(fc.constantFrom(MIME.pdf, MIME.docx, "application/octet-stream", "text/html", "", "multipart/mixed; boundary=zz"), str)),
    extra: fc.array(fc.tuple(fc.constantFrom("Content-Transfer-Encoding", "Content-Length", "X-Odd", "Content-Disposition", "content-type"), str), { maxLength: 3 }),
    disposition: fc.constantFrom("normal", "normal", "normal", "no-name", "upper", "garbage", "missing"),
    body: fc.oneof(str.map((s) => Buffer.from(s)), fc.constant(samplePdf("fuzz")), fc.uint8Array({ maxLength: 4096 }).map((b) => Buffer.from(b))),
  });
  return fc
    .record({
      boundary: fc.oneof(fc.constant("XBOUNDARY"), fc.string({ unit: boundaryChars, minLength: 1, maxLength: 80 }), fc.constant("b".repeat(200))),
      headerStyle: fc.constantFrom("same", "same", "quoted", "other", "none"),
      parts: fc.array(part, { maxLength: 8 }),
      ending: fc.constantFrom("proper", "proper", "missing", "no-newline", "junk"),
      newline: fc.constantFrom("\r\n", "\r\n", "\n"),
      preamble: fc.option(str),
    })
    .map(({ boundary, headerStyle, parts, ending, newline: nl, preamble }) => {
      const chunks: Buffer[] = preamble === null ? [] : [Buffer.from(`${preamble}${nl}`)];
      const all = [...fixed.map(([name, value]) => ({ name, filename: null, filenameStar: false, type: null, extra: [], disposition: "normal", body: Buffer.from(value) })), ...parts];
      for (const p of all) {
        let head = `--${boundary}${nl}`;
        const name = JSON.stringify(p.name);
        if (p.disposition === "normal") head += `Content-Disposition: form-data; name=${name}`;
        if (p.disposition === "no-name") head += "Content-Disposition: form-data";
        if (p.disposition === "upper") head += `CONTENT-DISPOSITION: FORM-DATA; NAME=${name}`;
        if (p.disposition === "garbage") head += `Content-Disposition: ;;;=${p.name}`;
        if (p.filename !== null) head += p.filenameStar ? `; filename*=UTF-8''${percentEncode(p.filename)}` : `; filename="${p.filename}"`;
        if (p.disposition !== "missing") head += nl;
        if (p.type !== null) head += `Content-Type: ${p.type}${nl}`;
        for (const [k, v] of p.extra) head += `${k}: ${v}${nl}`;
        chunks.push(Buffer.from(`${head}${nl}`), p.body, Buffer.from(nl));
      }
      if (ending === "proper") chunks.push(Buffer.from(`--${boundary}--${nl}`));
      if (ending === "no-newline") chunks.push(Buffer.from(`--${boundary}--`));
      if (ending === "junk") chunks.push(Buffer.from(`--${boundary}-${nl}trailing junk`));
      const declared = headerStyle === "quoted" ? `"${boundary}"` : headerStyle === "other" ? "OTHERBOUNDARY" : boundary;
      const type = headerStyle === "none" ? "multipart/form-data" : `multipart/form-data; boundary=${declared}`;
      return { headers: { "content-type": type }, body: Buffer.concat(chunks), what: `multipart: ${all.length} parts, boundary ${headerStyle}, ending ${ending}` };
    });
}

/** Percent-encoding that also takes lone surrogates (as WTF-8 bytes: an invalid UTF-8 sequence on the wire). */
export function percentEncode(value: string): string {
  let out = "";
  for (const char of value) {
    const c = char.codePointAt(0)!;
    if (/[A-Za-z0-9_.~-]/.test(char)) out += char;
    else if (c < 0xd800 || c > 0xdfff) out += encodeURIComponent(char);
    else for (const b of [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63)]) out += `%${b.toString(16).toUpperCase()}`;
  }
  return out;
}

// ─── readers for the injection checks ──────────────────────────────────────

/** A JSON, form or multipart body (`filename` names the multipart's PDF file part). */
/** A body of this kind; a multipart one carries a small PDF named `values.filename`, in field `fileField`. */
export function bodyOf(kind: "json" | "form" | "multipart", values: Record<string, string>, fileField = "file") {
  if (kind === "json") return { headers: { "content-type": "application/json" }, body: JSON.stringify(values) };
  if (kind === "form") return { headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(values).toString() };
  const { filename, ...fields } = values;
  return multipart(uploadParts(fields, filename).map((part) => (part.filename === undefined ? part : { ...part, name: fileField })));
}

/** A mail's header names, one per (unfolded) header line. */
export const mailHeaders = (raw: string) => headerNames(`\r\n${raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n/g, "\r\n")}`);

/** Wait until the app has handed every queued mail to SMTP (at most 30 s). */
export async function drainOutbox(server: AppServer) {
  for (let i = 0; i < 150; i++) {
    const db = openDatabase(server);
    const { n } = db.prepare("select count(*) as n from email_outbox where status = 'pending'").get() as { n: number };
    db.close();
    if (n === 0) return;
    await sleep(200);
  }
}

/** RFC 4180 cells (quoted fields, doubled quotes, CRLF records). */
export function parseCsv(text: string): string[] {
  const cells: string[] = [];
  const re = /("(?:[^"]|"")*"|[^,\r\n]*)(,|\r\n|\n|$)/g;
  for (let m = re.exec(text); m && m[0] !== ""; m = re.exec(text)) {
    const raw = m[1]!;
    cells.push(raw.startsWith('"') ? raw.slice(1, -1).replace(/""/g, '"') : raw);
  }
  return cells;
}

/** Runs in the browser: elements a payload would have created (handlers, scripts, javascript: URLs, srcdoc). */
function scanDom(html: string | null): [number, string[]] {
  const doc = html === null ? document : new DOMParser().parseFromString(html, "text/html");
  const found: string[] = [];
  const payloadJs = /__xss|alert\(1\)/;
  for (const el of Array.from(doc.querySelectorAll("*"))) {
    const bad =
      Array.from(el.attributes).some((a) => (/^on/i.test(a.name) || /^(srcdoc|href|src|action|formaction)$/i.test(a.name)) && payloadJs.test(a.value)) ||
      (el.tagName === "SCRIPT" && /^\s*(window\.__xss\+\+|parent\.__xss\+\+|alert\(1\))\s*$/.test(el.textContent ?? ""));
    if (bad) found.push(el.outerHTML.slice(0, 140));
  }
  return [(window as unknown as { __xss?: number }).__xss ?? 0, found];
}

/** A page to load; `post`: the answer to this form post instead (the browser's navigation is sent as it). */
export type Visit = {
  path: string;
  cookie: string;
  html?: string;
  post?: { headers: Record<string, string>; body: Buffer };
  /** Scan the raw HTML only (a page whose components another visit's page runs live). */
  rawOnly?: boolean;
  /** Load it live with CSP bypassed only (escaping alone; what CSP would add is tried on the other pages). */
  bypassOnly?: boolean;
  /** Text the live page must show (else it is listed in `blank`: the visit proved nothing). */
  expectText?: string;
};

/**
 * Chromium with JavaScript on. Each visit's raw HTML (when given) is parsed,
 * not run, and scanned; then every page is loaded as served (CSP on) and with
 * CSP bypassed (so escaping alone is tested), with `window.__xss = 0` set
 * first and dialogs counted, and its live DOM scanned once the page's scripts
 * have run (React has hydrated: `html[data-hydrated]`, or 2 s for a page
 * without it). One browser context per session and CSP setting (a context of
 * its own per page cost a third of the section's time); `plant` adds HTML to
 * one page's answer (to show the check fails).
 */
export async function browsePages(server: AppServer, visits: Visit[], plant?: { path: string; html: string }) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ["--no-sandbox", "--headless"] });
  const findings: string[] = [];
  let executed = 0;
  let loads = 0;
  const unhydrated = new Set<string>();
  const notShown = new Set<string>();
  try {
    const blank = await browser.newPage();
    for (const visit of visits) {
      if (visit.html !== undefined) for (const f of (await blank.evaluate(scanDom, visit.html))[1]) findings.push(`unescaped in ${visit.path}: ${f}`);
    }
    const sessions = [...new Set(visits.map((v) => v.cookie))];
    for (const bypassCSP of [false, true]) {
      for (const cookie of sessions) {
        const context = await browser.newContext({ bypassCSP });
        await context.addCookies(cookie.split("; ").map((pair) => ({ name: pair.split("=")[0]!, value: pair.slice(pair.indexOf("=") + 1), url: server.url })));
        await context.addInitScript(() => Object.assign(window, { __xss: 0 }));
        const page = await context.newPage();
        page.on("dialog", (dialog) => {
          executed += 1;
          void dialog.dismiss();
        });
        if (plant) {
          await page.route(`**${plant.path}`, async (route) => {
            const response = await route.fetch();
            await route.fulfill({ response, body: (await response.text()).replace("</body>", `${plant.html}</body>`) });
          });
        }
        for (const { path, post, expectText } of visits.filter((v) => v.cookie === cookie && !v.rawOnly && (bypassCSP || !v.bypassOnly))) {
          // A form's answer: the navigation goes out as the form's POST (same origin), the page renders what it answers.
          const url = `${server.url}${path}`;
          if (post) {
            await page.route(url, (route) =>
              route.request().isNavigationRequest()
                ? route.continue({ method: "POST", headers: { ...route.request().headers(), ...post.headers, origin: server.url }, postData: post.body })
                : route.continue(),
            );
          }
          // Exports download instead of loading: goto throws, and there is no page to scan (the tab still
          // shows the page before).
          const loaded = await page.goto(url, { waitUntil: "load" }).then(
            () => true,
            () => false,
          );
          if (post) await page.unroute(url);
          loads += 1;
          if (!loaded) continue;
          const hydrated = await page.waitForSelector("html[data-hydrated]", { state: "attached", timeout: 2_000 }).then(
            () => true,
            () => false,
          );
          if (!hydrated) unhydrated.add(path);
          if (expectText && !(await page.evaluate((text) => document.body.innerText.includes(text), expectText).catch(() => false))) notShown.add(path);
          const [count, live] = await page.evaluate(scanDom, null).catch(() => [0, [] as string[]] as const);
          executed += count;
          for (const f of live) findings.push(`in the live DOM of ${path}${bypassCSP ? " (CSP bypassed)" : ""}: ${f}`);
        }
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  return { loads, executed, findings, unhydrated: [...unhydrated], blank: [...notShown] };
}
