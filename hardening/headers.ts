/**
 * headers: every route in hardening/endpoints.ts, answered with each status
 * it can give (200 to the right role, 302 page redirects, 401/403 from the
 * JSON guards, 404 for unknown ids and paths, 405, 413 bodies over the limits,
 * 429 after tripping each limit, 304/206/416 on files), plus static files,
 * health checks and the pipeline's own refusals, on a production server with
 * an https APP_URL. Each answer must carry the DESIGN.md §4 headers (see
 * web-helpers.ts headerProblems): CSP with object-src 'none' (inline file
 * views: 'self', documented in file-response.server.ts), base-uri 'none',
 * frame-ancestors 'none'; nosniff; Referrer-Policy; HSTS; and no-store on
 * private pages, JSON, files and answers that set cookies.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { RATE_LIMITS } from "../app/modules/http/rate-limit.server";
import { MUTATIONS, mutationKey, READS } from "./endpoints";
import { bodyLimitFor } from "../server/app";
import { formBody, jsonBody, registrationTokenFor, startMailCatcher, startServer, Tally, type AppServer, type HttpAnswer, type Section } from "./harness";
import { nextTotpCode } from "../tests/support/totp";
import {
  CAPITAL_FUND,
  capitalReadId,
  EVIL_ORIGIN,
  HEADER_RULES,
  headerProblems,
  headerValue,
  madeUpBatchId,
  mutationTargets,
  PASSWORD,
  Portal,
  send,
  setCookies,
  unique,
  type Body,
  type HeaderRule,
} from "./web-helpers";

const APP_URL = "https://portal.example";
const PROXIED = { host: "portal.example", "x-forwarded-proto": "https" };
const SAME_ORIGIN = { origin: APP_URL, "sec-fetch-site": "same-origin" };
const KB64 = 64 * 1024;
const MB64 = 64 * 1024 * 1024;
const MB1 = 1024 * 1024;
/** Requests in flight at once within a phase. */
const CONCURRENCY = 4;

type Probe = {
  /** The endpoints.ts route it answers for ("GET /api/documents/{id}/view"), if any. */
  route?: string;
  method: string;
  path: string;
  body?: Body;
  cookie?: string;
  headers?: Record<string, string>;
  /** The client (X-Forwarded-For); each limit is tripped from a client of its own. */
  client?: string;
  framing?: "length" | "chunked";
  expect: number[];
  /** Phases run in order; the probes of one phase run side by side. */
  phase?: number;
};

/** Pages and endpoints that are private: they need a session or fund access. */
function isPrivatePath(pathname: string): boolean {
  if (pathname.startsWith("/api/")) return true;
  if (pathname === "/lp/dashboard" || pathname === "/lp/account" || pathname === "/fund-i/documents" || pathname === "/fund-ii/documents") return true;
  if (pathname === "/lp/capital-account" || pathname.startsWith("/lp/notices/")) return true;
  return pathname.startsWith("/admin/") && pathname !== "/admin/login";
}

/** The answer must say no-store: private, JSON, a file, or it sets a cookie. */
function needsNoStore(probe: Probe, answer: HttpAnswer): boolean {
  const pathname = probe.path.split("?")[0]!;
  if (pathname.startsWith("/assets/")) return false;
  return (
    isPrivatePath(pathname) ||
    /json/i.test(headerValue(answer, "content-type")) ||
    headerValue(answer, "content-disposition") !== "" ||
    setCookies(answer).length > 0
  );
}

export const section: Section = {
  name: "headers",
  run: async (ctx) => {
    const t = new Tally();
    const t0 = Date.now();
    const mail = await startMailCatcher(ctx);
    const server = await startServer(ctx, { name: "headers", env: { APP_URL, TRUST_PROXY: "1", SMTP_URL: mail.smtpUrl } });
    try {
      const started = Date.now();
      ctx.progress(`server up (${((started - t0) / 1000).toFixed(1)} s)`);
      await check(ctx.full, server, t, mail, (m) => ctx.progress(`${m} (${((Date.now() - started) / 1000).toFixed(1)} s)`));
      t.count("server crashes", server.unexpectedExits(), 0);
    } finally {
      const stopping = Date.now();
      await server.stop();
      await mail.stop();
      ctx.progress(`stopped (${((Date.now() - stopping) / 1000).toFixed(1)} s)`);
    }
    return t.result();
  },
};

type Mail = Awaited<ReturnType<typeof startMailCatcher>>;

/** A live newsletter confirmation token: a sign-up, and the link of the mail it sends. */
async function confirmTokenFor(portal: Portal, mail: Mail): Promise<string> {
  const { email } = await portal.subscriber();
  const sent = await mail.waitFor((m) => m.to.includes(email) && /newsletter\/confirm\?token=/.test(m.text));
  return /newsletter\/confirm\?token=([A-Za-z0-9_-]{43})/.exec(sent.text)![1]!;
}

/** A live registration confirmation token (its password is PASSWORD): a registration, and a link token of the harness's own. */
async function registrationTokenOf(portal: Portal): Promise<string> {
  const email = `confirm-${unique()}@example.com`;
  const answer = await portal.call("POST", "/api/auth/register", jsonBody({ email, password: PASSWORD, name: "Headers Registrant" }));
  if (answer.status !== 201) throw new Error(`register ${email}: ${answer.status}`);
  return registrationTokenFor(portal.server, email);
}

async function check(full: boolean, server: AppServer, t: Tally, mail: Mail, progress: (m: string) => void) {
  const setupClient = "198.51.100.1";
  const portal = await new Portal(server, { ...PROXIED, ...SAME_ORIGIN, "x-forwarded-for": setupClient }).init();
  const admin = portal.adminCookie;
  const investor = await portal.investor();
  const docId = await portal.uploadDocument();
  const fundDocId = await portal.uploadFundDocument("fund-ii");
  // What the mutations act on (deleted, revoked, approved at the end).
  const target = await portal.register();
  const ids = {
    adminEmail: portal.adminEmail,
    // The JSON sign-in's right-role answer (200) is an investor's: the admin's needs a code of the moment.
    signInEmail: investor.email,
    userId: target.id,
    documentId: await portal.uploadDocument(),
    fundDocumentId: await portal.uploadFundDocument("fund-i"),
    revokeRequestId: await portal.fundRequest("fund-ii"),
    resendRequestId: await portal.fundRequest("fund-ii"),
    pitchId: await portal.pitch(),
    // A staged batch: publish is refused (its one file matches nobody) and cancel removes it, each answered with a redirect.
    batchId: await portal.bulkBatch(),
    documentMailToken: portal.documentMailToken(investor.id),
    newsletterUnsubscribeToken: (await portal.subscriber()).unsubscribeToken,
    newsletterConfirmToken: await confirmTokenFor(portal, mail),
    registrationConfirmToken: await registrationTokenOf(portal),
    // The investor owns the entities: their notice page (/lp/notices/{id}) answers them 200.
    capital: await portal.capital(investor),
  };
  const unknownId = randomUUID();
  // A real password reset link for the reset form's own answer.
  const resetFor = target;
  const forgot = await portal.call("POST", "/lp/forgot-password", formBody({ email: resetFor.email }));
  if (forgot.status !== 302 && forgot.status !== 303) throw new Error(`forgot-password: ${forgot.status}`);
  const resetMail = await mail.waitFor((m) => m.to.includes(resetFor.email) && /reset-password\?token=/.test(m.text));
  const resetToken = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(resetMail.text)![1]!;

  const probes: Probe[] = [];
  const add = (probe: Probe) => probes.push(probe);
  const fill = (p: string) =>
    p
      .replace("{id}", capitalReadId(p, ids.capital) ?? (p.startsWith("/api/fund-documents") ? fundDocId : docId))
      .replace("{userId}", ids.capital.viewerId)
      .replace("{batchId}", madeUpBatchId())
      .replace("{slug}", CAPITAL_FUND)
      .replace("{token}", "made-up-token")
      .replace("{key}", "fund-ii");
  const cookieFor = { anonymous: "", investor: investor.cookie, admin } as const;

  // ── 200 (or the page's own answer) to the right role; 302 / 401 / 403 to the wrong ones ──
  for (const read of READS) {
    const route = `GET ${read.path}`;
    const p = fill(read.path);
    if (p === "/fund-i/documents" || p === "/fund-ii/documents") {
      add({ route, method: "GET", path: p, cookie: admin, expect: [200] });
      add({ method: "GET", path: p, expect: p === "/fund-i/documents" ? [302] : [401] });
      continue;
    }
    add({ route, method: "GET", path: p, cookie: cookieFor[read.role], expect: [200] });
    if (read.role === "anonymous") continue;
    // JSON guards (401/403) rather than page redirects: the API and the admin's CSV/TSV exports.
    const api = p.startsWith("/api/") || /^\/(admin|lp)\/.*\.(csv|tsv)$/.test(p);
    add({ method: "GET", path: p, expect: api ? [401] : [302] });
    // An investor holds no fund access: the fund endpoints answer them as anyone without it (401).
    const fundApi = p.startsWith("/api/fund-documents/");
    if (read.role === "admin") add({ method: "GET", path: p, cookie: investor.cookie, expect: fundApi ? [401] : api ? [403] : [302] });
  }
  add({ method: "GET", path: "/lp/login", cookie: admin, expect: [302] }); // signed in: off to the dashboard
  add({ method: "GET", path: "/logout", expect: [302] });
  add({ method: "GET", path: "/theme", expect: [302] });
  add({ method: "GET", path: "/admin/dashboard?pending.page=2", cookie: admin, expect: [302] }); // an old dashboard link, on to its page
  add({ method: "GET", path: "/admin/fund-documents", expect: [302] });
  add({ method: "GET", path: "/fund-ii/documents?token=not-a-real-token", client: "198.51.100.2", expect: [403] });

  // ── 404: unknown ids and paths; 405: wrong methods ──
  add({ method: "GET", path: `/api/documents/${unknownId}/view`, cookie: investor.cookie, expect: [404] });
  add({ method: "GET", path: `/api/documents/${unknownId}/download`, cookie: investor.cookie, expect: [404] });
  add({ method: "GET", path: `/api/fund-documents/view/${unknownId}`, cookie: admin, expect: [404] });
  add({ method: "GET", path: `/api/fund-documents/download/${unknownId}`, cookie: admin, expect: [404] });
  add({ method: "GET", path: `/admin/documents/${unknownId}/access`, cookie: admin, expect: [404] });
  add({ method: "GET", path: "/admin/email-lists/nothing.csv", cookie: admin, expect: [404] });
  add({ method: "DELETE", path: `/api/documents/${unknownId}`, cookie: admin, expect: [404] });
  add({ method: "DELETE", path: `/api/fund-documents/${unknownId}`, cookie: admin, expect: [404] });
  add({ method: "PATCH", path: `/api/auth/users/${unknownId}/status`, cookie: admin, body: jsonBody({ status: "approved" }), expect: [404] });
  // Capital accounts: unknown ids (an investor's notice of an entry that is not theirs answers the same 404).
  for (const p of ["/api/commitments", "/api/capital-calls", "/api/distributions", "/admin/entities"]) add({ method: "GET", path: `${p}/${unknownId}`, cookie: admin, expect: [404] });
  add({ method: "GET", path: `/lp/notices/${unknownId}`, cookie: investor.cookie, expect: [404] });
  add({ method: "GET", path: "/admin/funds/no-such-fund", cookie: admin, expect: [404] });
  add({ method: "DELETE", path: `/api/capital-calls/${unknownId}`, cookie: admin, expect: [404] });
  add({ method: "POST", path: `/api/capital-calls/${unknownId}/publish`, cookie: admin, expect: [404] });
  // The ledger pages and a fund's forms: an unknown entry or fund; the investor's ledger filtered by an entity not theirs.
  for (const p of [`/admin/ledger/${unknownId}`, `/admin/ledger/${unknownId}/change`, "/admin/funds/no-such-fund/calls/new", "/admin/funds/no-such-fund/valuations"]) add({ method: "GET", path: p, cookie: admin, expect: [404] });
  add({ method: "POST", path: `/admin/ledger/${unknownId}`, cookie: admin, body: formBody({ intent: "publish" }), expect: [404] });
  for (const p of ["/lp/capital-account/ledger", "/lp/capital-account/ledger.csv"]) add({ method: "GET", path: `${p}?entity=${unknownId}`, cookie: investor.cookie, expect: [404] });
  for (const p of ["/no-such-page", "/api/no-such-endpoint", "/lp/no-such-page", "/assets/no-such-file.js", "/favicon.ico"]) {
    add({ method: "GET", path: p, expect: [404] });
  }
  add({ method: "GET", path: "/admin/no-such-page", cookie: admin, expect: [404] });
  for (const p of ["/api/auth/logout", "/api/auth/login", "/api/newsletter", "/api/pitch", "/api/fund-access/validate-token"]) {
    add({ method: "GET", path: p, expect: [405] });
  }
  add({ method: "GET", path: "/api/fund-documents/not-a-fund", cookie: admin, expect: [405] });
  for (const p of ["/api/capital-calls", "/api/distributions", "/api/valuations", "/api/commitments"]) add({ method: "GET", path: p, cookie: admin, expect: [405] });
  // A published call is never deleted, only corrected (issue 24): 409.
  add({ method: "DELETE", path: `/api/capital-calls/${ids.capital.publishedCallId}`, cookie: admin, expect: [409] });

  // ── files: 200 above; 304, 206, 416 ──
  const view = await send(server.url, "GET", `/api/documents/${docId}/view`, { headers: { ...PROXIED, cookie: investor.cookie, "x-forwarded-for": setupClient } });
  const fundDownload = await send(server.url, "GET", `/api/fund-documents/download/${fundDocId}`, { headers: { ...PROXIED, cookie: admin, "x-forwarded-for": setupClient } });
  add({ method: "GET", path: `/api/documents/${docId}/view`, cookie: investor.cookie, headers: { "if-none-match": headerValue(view, "etag") }, expect: [304] });
  add({ method: "GET", path: `/api/documents/${docId}/download`, cookie: investor.cookie, headers: { range: "bytes=0-9" }, expect: [206] });
  add({ method: "GET", path: `/api/documents/${docId}/download`, cookie: investor.cookie, headers: { range: "bytes=99999999-" }, expect: [416] });
  add({ method: "GET", path: `/api/fund-documents/download/${fundDocId}`, cookie: admin, headers: { "if-none-match": headerValue(fundDownload, "etag") }, expect: [304] });
  add({ method: "GET", path: `/api/fund-documents/view/${fundDocId}`, cookie: admin, headers: { range: "bytes=0-9" }, expect: [206] });

  // ── static files, health, cached public pages ──
  const clientDir = path.join(server.env.BUILD_DIR!, "client");
  const assets = fs.readdirSync(path.join(clientDir, "assets"));
  const js = assets.find((f) => f.endsWith(".js"));
  const css = assets.find((f) => f.endsWith(".css"));
  for (const f of [js, css]) if (f) add({ method: "GET", path: `/assets/${f}`, headers: { "accept-encoding": "br, gzip" }, expect: [200] });
  for (const f of fs.readdirSync(clientDir).filter((f) => !f.startsWith(".") && fs.statSync(path.join(clientDir, f)).isFile())) {
    add({ method: "GET", path: `/${f}`, expect: [200] });
  }
  add({ method: "GET", path: "/healthz", expect: [200] });
  add({ method: "GET", path: "/readyz", expect: [200, 404] });
  if (js) {
    const asset = await send(server.url, "GET", `/assets/${js}`, { headers: PROXIED });
    add({ method: "GET", path: `/assets/${js}`, headers: { "if-none-match": headerValue(asset, "etag") }, expect: [304] });
  }
  await send(server.url, "GET", "/", { headers: { ...PROXIED, "x-forwarded-for": setupClient } });
  const home = await send(server.url, "GET", "/", { headers: { ...PROXIED, "x-forwarded-for": setupClient } });
  add({ method: "GET", path: "/", headers: { "if-none-match": headerValue(home, "etag") }, expect: [304] });
  add({ method: "GET", path: "/", headers: { "accept-encoding": "br" }, expect: [200] }); // a cache hit

  // ── the pipeline's refusals: cross-site 403, 413 ──
  for (const [p, body] of [
    ["/api/newsletter", jsonBody({ email: "x@example.com" })],
    ["/newsletter", formBody({ email: "x@example.com" })],
    ["/admin/dashboard", formBody({ intent: "status" })],
  ] as const) {
    // What a browser sends from another site (the probes' same-origin Sec-Fetch-Site replaced).
    add({ method: "POST", path: p, body, cookie: admin, headers: { origin: EVIL_ORIGIN, "sec-fetch-site": "cross-site" }, expect: [403] });
  }
  add({ method: "DELETE", path: `/api/documents/${docId}`, cookie: admin, headers: { "sec-fetch-site": "same-site" }, expect: [403] });
  add({ method: "POST", path: "/api/pitch", body: jsonBody({}), headers: { origin: "null", "sec-fetch-site": "" }, expect: [403] });
  const big = "x".repeat(KB64 + 1024);
  for (const m of MUTATIONS) {
    const p = fill(m.path);
    if (m.kind === "multipart") {
      // Declared beyond this path's upload ceiling (64 MB; the pitch deck's less, the bulk upload's more): refused before a byte is read.
      const declared = Math.max(MB64, bodyLimitFor(p.split("?")[0]!, "multipart/form-data; boundary=x")) + 1;
      add({ method: m.method, path: p, cookie: m.role === "admin" ? admin : "", headers: { "content-type": "multipart/form-data; boundary=x", "content-length": String(declared) }, body: { headers: {}, body: "--x--\r\n" }, expect: [413] });
    } else if (bodyLimitFor(p.split("?")[0]!, "application/json") > MB1) {
      // An import's JSON (valuations: 8 MB) declared beyond its limit: refused before a byte is read. (Sending
      // the megabytes would race the early 413 and its closed connection: EPIPE on this side.)
      const declared = bodyLimitFor(p.split("?")[0]!, "application/json") + 1;
      add({ method: m.method, path: p, cookie: m.role === "admin" ? admin : "", headers: { "content-type": "application/json", "content-length": String(declared) }, body: { headers: {}, body: "{}" }, expect: [413] });
    } else {
      // Past this path's own limit (a document's audience change may be larger than the 64 KB of other forms).
      const filler = "x".repeat(bodyLimitFor(p.split("?")[0]!, m.kind === "form" ? "application/x-www-form-urlencoded" : "application/json") + 1024);
      const body = m.kind === "form" ? formBody({ email: "x@example.com", filler }) : jsonBody({ email: "x@example.com", filler });
      add({ method: m.method, path: p, cookie: m.role === "admin" ? admin : "", body, expect: [413] });
    }
  }
  // Over the limit without a declared length: counted while streaming.
  add({ method: "POST", path: "/api/newsletter", body: jsonBody({ email: "x@example.com", filler: big }), framing: "chunked", expect: [413] });
  add({ method: "POST", path: "/newsletter", body: formBody({ email: "x@example.com", filler: big }), framing: "chunked", expect: [413] });

  // ── the right role's own answer to every mutation (2xx / 3xx) ──
  // The payment instructions form takes a fresh two-factor code (a step the admin has not used; sent within it).
  const paymentCode = (await nextTotpCode(portal.adminEmail)).code;
  for (const target of mutationTargets({ ...ids, paymentCode })) {
    if (target.routePath === "/lp/reset-password") target.build = () => formBody({ token: resetToken, password: "a-new-password-456" });
    add({
      route: target.route,
      method: target.method,
      path: target.path,
      body: target.build(),
      cookie: target.role === "admin" ? admin : "",
      client: "198.51.100.3",
      expect: [200, 201, 202, 302, 303], // 202: the newsletter sign-up (pending until confirmed)
      phase: 1, // after the reads: these delete, revoke and approve
    });
  }

  // ── 429: trip each limit from a client of its own, then the routes that share the bucket ──
  let clientNo = 10;
  const trip = (bucket: keyof typeof RATE_LIMITS, probe: (i: number) => Omit<Probe, "expect" | "client">, then: Array<Omit<Probe, "client">>) => {
    const client = `198.51.100.${clientNo++}`;
    const points = RATE_LIMITS[bucket].points;
    for (let i = 1; i <= points; i++) add({ ...probe(i), client, expect: [], phase: 2 }); // spending the points: status not checked
    add({ ...probe(points + 1), client, expect: [429], phase: 3 });
    for (const p of then) add({ ...p, client, phase: 4 });
  };
  const email = () => `limit-${unique()}@example.com`;
  trip("newsletter", () => ({ method: "POST", path: "/api/newsletter", body: jsonBody({ email: email() }) }), [
    { method: "POST", path: "/newsletter", body: formBody({ email: email() }), expect: [303] }, // a plain post: back with the message (decision 010)
    { method: "POST", path: "/newsletter", body: formBody({ email: email(), _enhanced: "1" }), expect: [429] },
  ]);
  trip("pitch", () => ({ method: "POST", path: "/api/pitch", body: jsonBody({ name: "A", email: email(), company: "B", stage: "Seed", message: "C" }) }), [
    { method: "POST", path: "/process", body: formBody({ name: "A", email: email(), company: "B", stage: "Seed", message: "C", _enhanced: "1" }), expect: [429] },
  ]);
  // Sign-in: an empty body still spends a point on the API (the limit comes first), without a bcrypt hash.
  trip("login", () => ({ method: "POST", path: "/api/auth/login", body: jsonBody({}) }), [
    { method: "POST", path: "/lp/login", body: formBody({ email: email(), password: "wrong-password", _enhanced: "1" }), expect: [429] },
    { method: "POST", path: "/admin/login", body: formBody({ email: email(), password: "wrong-password", _enhanced: "1" }), expect: [429] },
  ]);
  trip("reset", () => ({ method: "POST", path: "/lp/forgot-password", body: formBody({ email: email(), _enhanced: "1" }) }), []);
  trip("resetSubmit", () => ({ method: "POST", path: "/lp/reset-password", body: formBody({ token: `bogus-token-${unique()}`, password: "a-new-password-1" }) }), []);
  trip("fundAccess", () => ({ method: "POST", path: "/api/fund-access/register", body: jsonBody({ name: "F", email: email(), fundId: "fund-i" }) }), [
    { method: "POST", path: "/fund-i/signup", body: formBody({ name: "F", email: email(), _enhanced: "1" }), expect: [429] },
    { method: "POST", path: "/fund-ii/signup", body: formBody({ name: "F", email: email(), accreditedConfirmation: "on", _enhanced: "1" }), expect: [429] },
  ]);
  trip("tokenCheck", () => ({ method: "POST", path: "/api/fund-access/validate-token", body: jsonBody({ token: `t-${unique()}` }) }), [
    { method: "GET", path: `/fund-ii/documents?token=t-${unique()}`, expect: [429] },
  ]);
  if (full) {
    // Each registration costs a bcrypt hash: only in --full.
    trip("register", () => ({ method: "POST", path: "/api/auth/register", body: jsonBody({ email: email(), password: PASSWORD, name: "R" }) }), [
      { method: "POST", path: "/lp/register", body: formBody({ email: email(), password: PASSWORD, name: "R", _enhanced: "1" }), expect: [429] },
    ]);
  }

  progress(`setup done, ${probes.length} probes`);
  // ── send them all and check each answer ──
  const perStatus = new Map<number, number>();
  const missing = new Map<HeaderRule, string[]>(HEADER_RULES.map((r) => [r, []]));
  const unexpected: string[] = [];
  const covered = new Set<string>();
  let inlineViews = 0;
  const noRetryAfter: string[] = [];
  const run = async (probe: Probe) => {
    const headers: Record<string, string> = {
      ...PROXIED,
      "x-forwarded-for": probe.client ?? setupClient,
      ...(probe.method !== "GET" ? SAME_ORIGIN : {}),
      ...probe.body?.headers,
      ...probe.headers,
      ...(probe.cookie ? { cookie: probe.cookie } : {}),
    };
    for (const name of Object.keys(headers)) if (headers[name] === "") delete headers[name];
    const answer = await send(server.url, probe.method, probe.path, { headers, body: probe.body?.body, framing: probe.framing });
    const what = `${probe.method} ${probe.path.slice(0, 70)}${probe.cookie ? (probe.cookie === admin ? " [admin]" : " [investor]") : ""} → ${answer.status}`;
    if (probe.expect.length && !probe.expect.includes(answer.status)) unexpected.push(`${what} (expected ${probe.expect.join("/")})`);
    if (probe.route && probe.expect.includes(answer.status)) covered.add(probe.route);
    perStatus.set(answer.status, (perStatus.get(answer.status) ?? 0) + 1);
    if (answer.status === 429 && !/^\d+$/.test(headerValue(answer, "retry-after"))) noRetryAfter.push(what);
    if (/^inline/i.test(headerValue(answer, "content-disposition")) && /object-src 'self'/.test(headerValue(answer, "content-security-policy"))) inlineViews += 1;
    for (const rule of headerProblems(answer, { https: true, noStore: needsNoStore(probe, answer) })) missing.get(rule)!.push(what);
  };
  const phases = [...new Set(probes.map((p) => p.phase ?? 0))].sort((a, b) => a - b);
  for (const phase of phases) {
    const queue = probes.filter((p) => (p.phase ?? 0) === phase);
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) await run(next);
      }),
    );
  }
  progress("probes done");
  // ── figures ──
  for (const [status, n] of [...perStatus].sort((a, b) => a[0] - b[0])) t.info(`answers checked: ${status}`, n);
  t.info("answers checked: all", probes.length);
  for (const [rule, list] of missing) t.count(`answers missing: ${rule}`, list.length, 0, list.slice(0, 3).join("; "));
  t.count("429 answers without Retry-After (DESIGN.md §4)", noRetryAfter.length, 0, noRetryAfter.join("; "));
  t.count("answers with an unexpected status", unexpected.length, 0, unexpected.slice(0, 4).join("; "));
  const routes = [
    ...READS.map((r) => `GET ${r.path}`),
    ...MUTATIONS.flatMap((m) => (m.intents ?? [undefined]).map((i) => mutationKey(m, i))),
  ];
  const uncovered = routes.filter((r) => !covered.has(r));
  t.count(`routes without a checked right-role answer (of ${routes.length})`, uncovered.length, 0, uncovered.join(", "));
  t.note(`inline file views answered with object-src 'self' (the browser's PDF viewer; documented in file-response.server.ts): ${inlineViews}, accepted`);
  t.note("no-store required on: /api/*, /lp/dashboard, /lp/account, /lp/capital-account, /lp/notices/*, /admin/* (not /admin/login), the fund document pages, JSON, files, and any answer setting a cookie");
  t.note("the admin has two-factor (the portal requires it): its /admin/login and /lp/login form sign-ins answer 302 to /login/two-factor with a challenge cookie; the JSON sign-in's 200 is an investor's");
  if (!full) t.note("--full also trips the registration limit (each attempt costs a bcrypt hash)");
  for (const line of unexpected.slice(0, 8)) t.note(`unexpected: ${line}`);
  for (const [rule, list] of missing) for (const line of list.slice(0, 3)) t.note(`missing ${rule}: ${line}`);
}
