/**
 * Load: a realistic mix of visitors against one production server for 15 s
 * (CI) or 60 s (--full) at 50 connections, with the server's real logging on
 * (LOG_LEVEL=info; the lines are counted, checked for errors and dropped).
 *
 * One autocannon instance; each of its connections sends a weighted sequence
 * of visits: per 40 requests, 16 public pages, 6 investor dashboards, 6
 * document lists, 4 downloads of a 1 MB PDF, 4 newsletter sign-ups, and 4
 * admin actions (signed in with two-factor, as the portal requires): an
 * investor approved or rejected, a document uploaded, a document deleted, an
 * e-mail list exported. The server trusts X-Forwarded-For (TRUST_PROXY=1) and
 * every request carries a different address, so the per-client rate limits
 * see many visitors, not one; every admin action carries an X-Request-Id of
 * its own, which the audit trail records.
 *
 * Checks: every answer has the expected status (no errors, timeouts or
 * unexpected statuses), every download is the whole file, the newsletter rows
 * in the database are exactly the sign-ups answered 202 (plus any still in
 * flight when the load stopped), every admin action answered 2xx left exactly
 * its audit_events row (same request id, its event) and no row stands for an
 * action never sent, no error-level log line, RSS growth under 150 MB, no
 * crash, and a clean exit 0 on SIGTERM afterwards.
 *
 * The mix itself (prepareLoadMix: the accounts, documents and request kinds;
 * mixPattern: their order) is shared with the soak (soak/run.ts), which sends
 * it at a steady rate for an hour and watches the server's memory.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import fs from "node:fs";
import { createRequire } from "node:module";
import { publicPages } from "../app/content/sitemap";
import { openDatabase as openAppDatabase } from "../db/client";
import {
  approvedInvestor,
  createAdmin,
  jsonBody,
  openDatabase,
  percentile,
  PRODUCTION_PASSWORD_COST,
  request,
  rssKb,
  sameOrigin,
  signIn,
  sleep,
  startServer,
  Tally,
  type AppServer,
  type Section,
  type SectionResult,
} from "./harness";

// ─── autocannon (CommonJS, no bundled types) ───────────────────────────────

type Histogram = { mean: number; p50: number; p99: number; total: number; max: number };
type CannonResult = {
  requests: Histogram;
  latency: Histogram;
  throughput: Histogram;
  errors: number;
  timeouts: number;
  non2xx: number;
  mismatches: number;
  duration: number;
};
type RawRequest = { method: string; path: string; headers: Record<string, string>; body?: string | Buffer };
type CannonRequest = {
  method?: string;
  path?: string;
  setupRequest?: (req: RawRequest, context: Record<string, unknown>) => RawRequest;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
};
type CannonInstance = EventEmitter & { stop: () => void };
type Autocannon = (opts: Record<string, unknown>, cb: (err: Error | null, result: CannonResult) => void) => CannonInstance;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

// ─── the mix ────────────────────────────────────────────────────────────────

const CONNECTIONS = 50;
/** The downloaded document's size. */
export const PDF_BYTES = 1024 * 1024;
const RSS_GROWTH_LIMIT_KB = 150 * 1024;
/** --max-old-space-size of the server, as in deploy/lumen-ridge.service. */
const HEAP_CAP_MB = 256;
const WARMUP_SECONDS = 3;

export type KindName =
  | "public pages"
  | "dashboard"
  | "document list"
  | "downloads"
  | "newsletter"
  | "admin: approve/reject"
  | "admin: upload"
  | "admin: delete"
  | "admin: export list";
export type Kind = {
  name: KindName;
  /** Requests of this kind in every PATTERN sent. */
  weight: number;
  /** The status every answer must have. */
  expect: number;
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** Fills in the request (path, headers, body) for the n-th request of this kind. */
  build: (n: number) => { path: string; headers: Record<string, string>; body?: string | Buffer };
  /** Admin actions: the audit event each one answered 2xx must leave (matched by X-Request-Id). */
  audited?: string;
};

/** The mix repeats every PATTERN requests (the weights add up to it). */
const PATTERN = 40;

type KindStats = {
  name: KindName;
  responses: number;
  statuses: Map<number, number>;
  latencies: number[];
  /** Download answers shorter than the file. */
  shortBodies: number;
};
type MixResult = { kinds: KindStats[]; result: CannonResult; untagged: number };
/** What the mix hears back, per request: its kind, the X-Request-Id it carried (admin actions), status and body. */
export type Answer = { kind: KindName; requestId: string | undefined; status: number; body: string };

/** A different client address per request: 198.18.0.0/15 (benchmarking range), wrapping after 131,072. */
function clientIp(n: number): string {
  const v = n % 131_072;
  return `198.${18 + (v >>> 16)}.${(v >>> 8) & 255}.${v & 255}`;
}

/** A PDF of about `bytes` bytes (real header and trailer, incompressible stream). */
function makePdf(bytes: number): Buffer {
  const head = Buffer.from("%PDF-1.4\n1 0 obj\n<< /Length 0 >>\nstream\n", "latin1");
  const tail = Buffer.from("\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n", "latin1");
  return Buffer.concat([head, randomBytes(bytes - head.length - tail.length), tail]);
}

function multipart(fields: Record<string, string>, file: { name: string; type: string; data: Buffer }) {
  const boundary = `----hardening-load-${randomBytes(8).toString("hex")}`;
  let pre = "";
  for (const [name, value] of Object.entries(fields)) {
    pre += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  }
  pre += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`;
  return {
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    body: Buffer.concat([Buffer.from(pre, "utf8"), file.data, Buffer.from(`\r\n--${boundary}--\r\n`, "utf8")]),
  };
}

/** CPU seconds (user + system) of a process, from /proc; null when unreadable. */
export function cpuSeconds(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks (100 Hz)
  } catch {
    return null;
  }
}

/**
 * Reads the server's log lines as they come and drops them from the harness's
 * buffer (a long run logs a line per request): counts lines, bytes, request
 * lines and error-level lines, and keeps a few error samples and the last
 * lines other than request lines. `take` sees each line first and may claim it
 * (true: not a log line, not counted).
 */
export function logDrain(server: AppServer, take?: (line: string) => boolean) {
  const stats = { lines: 0, bytes: 0, requestLines: 0, errorLines: 0, warnLines: 0, unparsed: 0, maxBuffered: 0, samples: [] as string[], recent: [] as string[] };
  const keepRecent = (line: string) => {
    stats.recent.push(line.slice(0, 500));
    if (stats.recent.length > 20) stats.recent.shift();
  };
  const drain = () => {
    const lines = server.logLines();
    stats.maxBuffered = Math.max(stats.maxBuffered, lines.length);
    for (const line of lines) {
      if (take?.(line)) continue;
      stats.lines += 1;
      stats.bytes += Buffer.byteLength(line) + 1;
      let level: unknown;
      let msg: unknown;
      try {
        ({ level, msg } = JSON.parse(line) as { level?: unknown; msg?: unknown });
      } catch {
        stats.unparsed += 1;
        if (stats.samples.length < 5) stats.samples.push(line.slice(0, 300));
        keepRecent(line);
        continue;
      }
      if (msg === "request") stats.requestLines += 1;
      else keepRecent(line);
      if (level === "error") {
        stats.errorLines += 1;
        if (stats.samples.length < 5) stats.samples.push(line.slice(0, 300));
      } else if (level === "warn") stats.warnLines += 1;
    }
    lines.length = 0;
  };
  const timer = setInterval(drain, 500);
  return {
    stats,
    drain,
    stop: () => {
      clearInterval(timer);
      drain();
    },
  };
}

/**
 * The order of kinds in every PATTERN requests: slot i goes to the kind
 * furthest behind its share, so the kinds are interleaved and the shares of
 * requests sent are exactly the weights. Indexes into `kinds`.
 */
export function mixPattern(kinds: Kind[]): number[] {
  const pattern: number[] = [];
  const given = kinds.map(() => 0);
  for (let slot = 0; slot < PATTERN; slot++) {
    let best = 0;
    for (let k = 1; k < kinds.length; k++) {
      if ((slot + 1) * kinds[k]!.weight - PATTERN * given[k]! > (slot + 1) * kinds[best]!.weight - PATTERN * given[best]!) best = k;
    }
    given[best]! += 1;
    pattern.push(best);
  }
  return pattern;
}

/**
 * One autocannon instance, 50 connections, each sending a weighted sequence of
 * kinds (a global round over mixPattern). Every answer is tagged with its kind:
 * autocannon calls the request's onResponse and then, synchronously on the
 * same connection, emits "response" with the latency and bytes.
 */
async function runMix(server: AppServer, kinds: Kind[], seconds: number, onAnswer: (answer: Answer) => void): Promise<MixResult> {
  const stats = kinds.map((kind): KindStats => ({ name: kind.name, responses: 0, statuses: new Map(), latencies: [], shortBodies: 0 }));
  const pattern = mixPattern(kinds);
  const counters = kinds.map(() => 0);
  let sent = 0;
  let lastKind = -1;
  let untagged = 0;
  const req: CannonRequest = {
    setupRequest: (raw, context) => {
      const k = pattern[sent++ % pattern.length]!;
      const kind = kinds[k]!;
      const built = kind.build(counters[k]!++);
      context.kind = k;
      context.requestId = built.headers["x-request-id"];
      raw.method = kind.method;
      raw.path = built.path;
      raw.headers = { ...raw.headers, ...built.headers };
      raw.body = built.body ?? Buffer.alloc(0);
      return raw;
    },
    onResponse: (status, body, context) => {
      lastKind = typeof context.kind === "number" ? context.kind : -1;
      const requestId = typeof context.requestId === "string" ? context.requestId : undefined;
      if (lastKind >= 0) onAnswer({ kind: kinds[lastKind]!.name, requestId, status, body });
    },
  };
  const result = await new Promise<CannonResult>((resolve, reject) => {
    const instance = autocannon(
      { url: server.url, connections: CONNECTIONS, duration: seconds, pipelining: 1, timeout: 10, requests: [req] },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    instance.on("response", (_client: unknown, status: number, bytes: number, ms: number) => {
      const k = lastKind;
      lastKind = -1;
      if (k < 0) {
        untagged += 1;
        return;
      }
      const s = stats[k]!;
      s.responses += 1;
      s.statuses.set(status, (s.statuses.get(status) ?? 0) + 1);
      s.latencies.push(ms);
      if (s.name === "downloads" && status === 200 && bytes < PDF_BYTES) s.shortBodies += 1;
    });
  });
  return { kinds: stats, result, untagged };
}

/** Pending investors to approve or reject (one per status action; the main phase uses a few hundred). */
const PENDING_INVESTORS = 5_000;
/** Documents uploaded before the load for the deletes to start on. */
const DELETE_STOCK = 40;

/**
 * Pending investors as registration leaves them (one password hash for all: nobody signs in as them),
 * new-document mails as the server's DOCUMENT_MAIL_DEFAULT says (the harness: none; the column's default,
 * each, would mail every upload of the mix to every investor it has approved so far); their ids.
 */
function insertPendingInvestors(server: AppServer, runId: string, count: number): string[] {
  // The app's own connection setup: its pragmas and the SQL functions its triggers call (lp_users' fold_search).
  const db = openAppDatabase(server.dbPath).$client;
  try {
    const hash = (db.prepare("select password_hash from lp_users where is_admin = 0 limit 1").pluck().get() as string | undefined) ?? "$2b$12$invalidinvalidinvalidinvalidinvalidinvalidinvalidinva";
    const insert = db.prepare("insert into lp_users (id, email, password_hash, name, company, status, document_mail) values (?, ?, ?, ?, ?, 'pending', ?)");
    const documentMail = server.env.DOCUMENT_MAIL_DEFAULT || "each";
    const ids: string[] = [];
    db.transaction(() => {
      for (let i = 0; i < count; i++) {
        const id = randomUUID();
        insert.run(id, `load-pending-${runId}-${i}@example.com`, hash, `Load Pending ${i}`, "Load LP", documentMail);
        ids.push(id);
      }
    })();
    return ids;
  } finally {
    db.close();
  }
}

/**
 * The audit trail after the load: per admin action, the 2xx answers of the
 * main phase against the audit_events rows carrying their X-Request-Id. Every
 * 2xx must have exactly one row of its event; a row without a 2xx is allowed
 * only for a request sent but not answered when the load stopped.
 */
function auditFigures(t: Tally, server: AppServer, runId: string, kinds: Kind[], answers: Answer[], sentIds: Set<string>) {
  const db = openDatabase(server);
  const rows = db.prepare("select request_id as requestId, event from audit_events where request_id like ?").all(`load-${runId}-main-%`) as Array<{ requestId: string; event: string }>;
  db.close();
  const byId = new Map<string, string[]>();
  for (const row of rows) byId.set(row.requestId, [...(byId.get(row.requestId) ?? []), row.event]);
  let actions = 0;
  let missing = 0;
  let duplicated = 0;
  let wrongEvent = 0;
  let inFlight = 0;
  let neverSent = 0;
  const samples: string[] = [];
  for (const kind of kinds.filter((k) => k.audited)) {
    const mine = answers.filter((a) => a.kind === kind.name);
    const ok = mine.filter((a) => a.status >= 200 && a.status < 300 && a.requestId);
    const answeredIds = new Set(mine.map((a) => a.requestId));
    const kindRows = rows.filter((r) => r.event === kind.audited);
    let kindMissing = 0;
    for (const answer of ok) {
      const events = byId.get(answer.requestId!) ?? [];
      const own = events.filter((e) => e === kind.audited).length;
      if (own === 0) {
        kindMissing += 1;
        if (samples.length < 3) samples.push(`${kind.name} ${answer.requestId} → ${answer.status}, rows: ${events.join(", ") || "none"}`);
      }
      if (own > 1) duplicated += 1;
      if (events.some((e) => e !== kind.audited)) wrongEvent += 1;
    }
    // Rows of this event whose request was not answered 2xx in the main phase.
    const okIds = new Set(ok.map((a) => a.requestId));
    const extra = kindRows.filter((r) => !okIds.has(r.requestId));
    inFlight += extra.filter((r) => sentIds.has(r.requestId) && !answeredIds.has(r.requestId)).length;
    neverSent += extra.filter((r) => !sentIds.has(r.requestId) || answeredIds.has(r.requestId)).length;
    actions += ok.length;
    missing += kindMissing;
    t.info(`audit: ${kind.name} — 2xx answers / ${kind.audited} rows`, `${ok.length} / ${kindRows.length}${extra.length ? ` (${extra.length} in flight at the stop)` : ""}`);
  }
  t.info("audit: admin actions answered 2xx during the load", actions);
  t.count("audit: admin 2xx answers without their audit_events row", missing, 0, samples.join("; "));
  t.count("audit: admin actions recorded more than once", duplicated);
  t.count("audit: admin actions with a row of another event", wrongEvent);
  t.count("audit: rows for an action not sent, or answered non-2xx", neverSent);
  t.check(`audit: rows of actions still in flight at the stop ≤ ${CONNECTIONS}`, inFlight <= CONNECTIONS, `${inFlight} rows`);
}

const fmtMs = (ms: number) => (Number.isFinite(ms) ? `${ms.toFixed(ms < 10 ? 1 : 0)} ms` : "n/a");
const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;

/** The load mix's server settings: the ones the load section measures under, which the soak keeps. */
export function loadServerEnv(): Record<string, string> {
  // The heap cap of deploy/lumen-ridge.service (a 1 GB VPS): without it V8 sizes its heap from
  // this machine's memory and collects lazily, so RSS says more about GC timing than about leaks.
  // The production password cost (12): sign-ins are part of the mix whose latency is measured.
  return { TRUST_PROXY: "1", LOG_LEVEL: "info", NODE_OPTIONS: `--max-old-space-size=${HEAP_CAP_MB}`, ...PRODUCTION_PASSWORD_COST };
}

export type LoadMix = {
  /** The request kinds, PATTERN slots' worth of weights. */
  kinds: Kind[];
  /**
   * Names the requests built from now on (the newsletter e-mails and the admin
   * actions' X-Request-Ids carry it) and empties sentEmails and adminSent.
   */
  setPhase: (phase: string) => void;
  /** Newsletter e-mails built since the last setPhase. */
  sentEmails: Set<string>;
  /** X-Request-Id of every admin action built since the last setPhase. */
  adminSent: Set<string>;
  /** Give it every answer: uploads answered 201 become documents for the deletes. */
  onAnswer: (answer: Answer) => void;
};

/**
 * The accounts and documents the mix acts on, on a fresh server started with
 * loadServerEnv(): an admin (two-factor on), an approved investor, a 1 MB PDF,
 * pending investors, a stock of documents to delete; then the kinds, each
 * sent once and checked (a broken setup is not a load failure). Phase "probe"
 * until setPhase.
 */
export async function prepareLoadMix(server: AppServer, runId: string): Promise<LoadMix> {
  // ── setup: an admin (two-factor on), an approved investor, a 1 MB PDF ─
  const admin = { email: "load-admin@lumenridge.example", password: "load-admin-password-1234" };
  createAdmin(server, admin.email, admin.password);
  const adminCookie = await signIn(server, admin.email, admin.password);
  const investorCookie = await approvedInvestor(server, adminCookie, {
    email: "load-investor@lumenridge.example",
    password: "load-investor-password-1234",
    name: "Load Investor",
    company: "Load LP",
  });
  const pdf = makePdf(PDF_BYTES);
  const upload = multipart({ title: "Quarterly report (load test)", category: "reports" }, { name: "q-report.pdf", type: "application/pdf", data: pdf });
  const uploaded = await request(server.url, "POST", "/api/documents", { headers: { ...upload.headers, cookie: adminCookie, accept: "application/json" }, body: upload.body });
  if (uploaded.status !== 201) throw new Error(`upload answered ${uploaded.status}: ${uploaded.text.slice(0, 300)}`);
  const documentId = (JSON.parse(uploaded.text) as { id: string }).id;

  // What the admin actions act on. Pending investors, inserted straight into the database (through
  // the API each would cost a bcrypt hash): each status action takes the next one, so every action
  // is a real change (approving an approved investor answers 200 and records nothing). Documents to
  // delete: a stock uploaded now, topped up by the uploads of the load.
  const pendingIds = insertPendingInvestors(server, runId, PENDING_INVESTORS);
  const smallPdf = makePdf(16 * 1024);
  const uploadBody = (title: string) => multipart({ title, category: "reports" }, { name: "load-upload.pdf", type: "application/pdf", data: smallPdf });
  const deletable: string[] = [];
  for (let i = 0; i < DELETE_STOCK; i++) {
    const body = uploadBody(`Load stock ${runId}-${i}`);
    const answer = await request(server.url, "POST", "/api/documents", { headers: { ...body.headers, ...sameOrigin(server), cookie: adminCookie }, body: body.body });
    if (answer.status !== 201) throw new Error(`stock upload answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    deletable.push((JSON.parse(answer.text) as { id: string }).id);
  }
  let statusNext = 0;

  let phase = "probe";
  /** Newsletter e-mails built, by phase. */
  const sent = new Set<string>();
  /** X-Request-Id of every admin action built, by phase. */
  const adminSent = new Set<string>();
  const requestId = (kind: string, n: number) => {
    const id = `load-${runId}-${phase}-${kind}-${n}`;
    adminSent.add(id);
    return id;
  };
  // Without Accept-Encoding: the harness reads the upload's answer (the new document's id) as sent.
  const asAdmin = (kind: string, n: number, extra: Record<string, string> = {}) => ({
    "user-agent": browser["user-agent"],
    ...extra,
    cookie: adminCookie,
    "x-request-id": requestId(kind, n),
    "x-forwarded-for": clientIp(n * 9 + 5),
  });
  const browser = { "accept-encoding": "br, gzip", "user-agent": "hardening-load" };
  const pages = publicPages;
  const kinds: Kind[] = [
    {
      name: "public pages",
      weight: 16,
      expect: 200,
      method: "GET",
      build: (n) => ({ path: pages[n % pages.length]!, headers: { ...browser, accept: "text/html", "x-forwarded-for": clientIp(n * 5) } }),
    },
    {
      name: "dashboard",
      weight: 6,
      expect: 200,
      method: "GET",
      build: (n) => ({ path: "/lp/dashboard", headers: { ...browser, accept: "text/html", cookie: investorCookie, "x-forwarded-for": clientIp(n * 5 + 1) } }),
    },
    {
      name: "document list",
      weight: 6,
      expect: 200,
      method: "GET",
      build: (n) => ({ path: "/api/documents", headers: { ...browser, accept: "application/json", cookie: investorCookie, "x-forwarded-for": clientIp(n * 5 + 2) } }),
    },
    {
      name: "downloads",
      weight: 4,
      expect: 200,
      method: "GET",
      build: (n) => ({ path: `/api/documents/${documentId}/download`, headers: { ...browser, cookie: investorCookie, "x-forwarded-for": clientIp(n * 5 + 3) } }),
    },
    {
      name: "newsletter",
      weight: 4,
      // Double opt-in: a sign-up is pending until confirmed (decision 010).
      expect: 202,
      method: "POST",
      build: (n) => {
        const email = `load-${runId}-${phase}-${n}@example.com`;
        sent.add(email);
        const { headers, body } = jsonBody({ email });
        return { path: "/api/newsletter", headers: { ...headers, ...sameOrigin(server), accept: "application/json", "x-forwarded-for": clientIp(n * 5 + 4) }, body };
      },
    },
    {
      name: "admin: approve/reject",
      weight: 1,
      expect: 200,
      method: "PATCH",
      audited: "user.status_changed",
      build: (n) => {
        // The next pending investor; after a full round (never in practice) the other status, still a change.
        const k = statusNext++;
        const status = Math.floor(k / pendingIds.length) % 2 === 0 ? (k % 2 ? "rejected" : "approved") : k % 2 ? "approved" : "rejected";
        const { headers, body } = jsonBody({ status });
        return { path: `/api/auth/users/${pendingIds[k % pendingIds.length]!}/status`, headers: asAdmin("status", n, { ...headers, ...sameOrigin(server), accept: "application/json" }), body };
      },
    },
    {
      name: "admin: upload",
      weight: 1,
      expect: 201,
      method: "POST",
      audited: "document.uploaded",
      build: (n) => {
        const { headers, body } = uploadBody(`Load upload ${runId}-${phase}-${n}`);
        return { path: "/api/documents", headers: asAdmin("upload", n, { ...headers, ...sameOrigin(server), accept: "application/json" }), body };
      },
    },
    {
      name: "admin: delete",
      weight: 1,
      expect: 200,
      method: "DELETE",
      audited: "document.deleted",
      // The oldest document not yet deleted (the stock, then the load's own uploads); none left: an unknown id, a 404 the checks count.
      build: (n) => ({ path: `/api/documents/${deletable.shift() ?? randomUUID()}`, headers: asAdmin("delete", n, { ...sameOrigin(server), accept: "application/json" }) }),
    },
    {
      name: "admin: export list",
      weight: 1,
      expect: 200,
      method: "GET",
      audited: "email_list.exported",
      build: (n) => ({ path: "/admin/email-lists/newsletter.csv", headers: asAdmin("export", n, { accept: "text/csv" }) }),
    },
  ];
  if (kinds.reduce((sum, k) => sum + k.weight, 0) !== PATTERN) throw new Error(`the weights do not add up to ${PATTERN}`);
  /** Every answer of the mix: uploads answered 201 give documents to delete. */
  const onAnswer = (answer: Answer) => {
    if (answer.kind === "admin: upload" && answer.status === 201) {
      try {
        deletable.push((JSON.parse(answer.body) as { id: string }).id);
      } catch {
        /* a body without an id: the upload's row is still checked through the audit trail */
      }
    }
  };

  // Every kind answers as expected once before the load (a broken setup is not a load failure).
  for (const kind of kinds) {
    const built = kind.build(0);
    const answer = await request(server.url, kind.method, built.path, { headers: built.headers, body: built.body });
    if (answer.status !== kind.expect) throw new Error(`${kind.name}: ${kind.method} ${built.path} answered ${answer.status}, expected ${kind.expect}: ${answer.text.slice(0, 200)}`);
    if (kind.name === "downloads" && answer.body.length !== PDF_BYTES) throw new Error(`download returned ${answer.body.length} bytes, expected ${PDF_BYTES}`);
    if (kind.name === "admin: upload") onAnswer({ kind: kind.name, requestId: built.headers["x-request-id"], status: answer.status, body: answer.text });
  }

  return {
    kinds,
    setPhase: (next) => {
      phase = next;
      sent.clear();
      adminSent.clear();
    },
    sentEmails: sent,
    adminSent,
    onAnswer,
  };
}

export const section: Section = {
  name: "load",
  run: async (ctx): Promise<SectionResult> => {
    const t = new Tally();
    const seconds = ctx.full ? 60 : 10;
    const runId = randomBytes(3).toString("hex");

    ctx.progress(`load: starting the server (TRUST_PROXY=1, LOG_LEVEL=info)`);
    const server = await startServer(ctx, { name: "load", env: loadServerEnv() });
    const logs = logDrain(server);
    try {
      const loadMix = await prepareLoadMix(server, runId);
      const { kinds, sentEmails: sent, adminSent } = loadMix;
      let phase = "probe";
      const setPhase = (next: string) => {
        phase = next;
        loadMix.setPhase(next);
      };
      /** Every answer of the mix goes to the mix; the main phase's answers are kept for the checks. */
      const answers: Answer[] = [];
      const onAnswer = (answer: Answer) => {
        loadMix.onAnswer(answer);
        if (phase === "main") answers.push(answer);
      };

      // ── warm-up (same mix, not measured) ─────────────────────────────────
      const rssStart = rssKb(server.pid());
      setPhase("warmup");
      ctx.progress(`load: warm-up ${WARMUP_SECONDS} s`);
      await runMix(server, kinds, WARMUP_SECONDS, onAnswer);
      await sleep(500);

      // ── the load ─────────────────────────────────────────────────────────
      setPhase("main");
      logs.drain();
      const logBefore = { ...logs.stats };
      const rssBefore = rssKb(server.pid());
      const cpu0 = cpuSeconds(server.pid());
      const client0 = process.cpuUsage();
      const t0 = Date.now();
      ctx.progress(`load: ${seconds} s at ${CONNECTIONS} connections (per ${PATTERN} requests: ${kinds.map((k) => `${k.name} ${k.weight}`).join(", ")})`);
      const mix = await runMix(server, kinds, seconds, onAnswer);
      const stats = mix.kinds;
      const wall = (Date.now() - t0) / 1000;
      const rssAfter = rssKb(server.pid());
      const cpu1 = cpuSeconds(server.pid());
      const client = process.cpuUsage(client0);
      await sleep(1000); // let requests still in flight at the stop finish on the server
      logs.drain();

      // ── figures ──────────────────────────────────────────────────────────
      const total = stats.reduce((sum, s) => sum + s.responses, 0);
      const all = stats.flatMap((s) => s.latencies).sort((a, b) => a - b);
      t.info("duration (s) × connections", `${seconds} × ${CONNECTIONS}`);
      t.info("requests answered", total);
      t.info("req/s", Math.round(total / wall));
      t.info("latency p50 / p99 (all)", `${fmtMs(percentile(all, 50))} / ${fmtMs(percentile(all, 99))} (autocannon, 2xx only: ${fmtMs(mix.result.latency.p50)} / ${fmtMs(mix.result.latency.p99)})`);
      for (const [i, s] of stats.entries()) {
        const sorted = [...s.latencies].sort((a, b) => a - b);
        const share = total ? ((s.responses / total) * 100).toFixed(0) : "0";
        t.info(
          `  ${s.name} (${((kinds[i]!.weight * 100) / PATTERN).toFixed(1).replace(/\.0$/, "")}% of requests sent)`,
          `${s.responses} req (${share}%), ${Math.round(s.responses / wall)}/s, p50 ${fmtMs(percentile(sorted, 50))}, p99 ${fmtMs(percentile(sorted, 99))}`,
        );
      }

      t.count("connection errors", mix.result.errors);
      t.count("timeouts", mix.result.timeouts);
      t.count("answers not matched to their kind", mix.untagged);
      const unexpected: string[] = [];
      let unexpectedCount = 0;
      for (const [i, s] of stats.entries()) {
        for (const [status, count] of s.statuses) {
          if (status === kinds[i]!.expect) continue;
          unexpectedCount += count;
          unexpected.push(`${s.name}: ${count} × ${status}`);
        }
      }
      t.count("answers with an unexpected status (non-2xx/3xx or other)", unexpectedCount, 0, unexpected.join(", "));
      const non2xx3xx = stats.reduce((sum, s) => sum + [...s.statuses].filter(([status]) => status < 200 || status >= 400).reduce((a, [, c]) => a + c, 0), 0);
      t.count("of which non-2xx/3xx", non2xx3xx);
      const downloads = stats.find((s) => s.name === "downloads")!;
      t.count("downloads shorter than the 1 MB file", downloads.shortBodies);

      // Newsletter: the rows are exactly the sign-ups answered 202 (pending, double opt-in), plus any still in flight at the stop.
      const answered202 = new Set<string>();
      let newsletterBadBodies = 0;
      for (const answer of answers) {
        if (answer.kind !== "newsletter" || answer.status !== 202) continue;
        try {
          answered202.add((JSON.parse(answer.body) as { email: string }).email);
        } catch {
          newsletterBadBodies += 1;
        }
      }
      const newsletter = stats.find((s) => s.name === "newsletter")!;
      const newsletter2xx = [...newsletter.statuses].filter(([status]) => status >= 200 && status < 300).reduce((a, [, c]) => a + c, 0);
      const db = openDatabase(server);
      const rows = (db.prepare("select email from newsletter_subscribers where email like ?").all(`load-${runId}-main-%`) as Array<{ email: string }>).map((r) => r.email);
      db.close();
      const rowSet = new Set(rows);
      const missing = [...answered202].filter((email) => !rowSet.has(email));
      const extra = rows.filter((email) => !answered202.has(email));
      const extraNotSent = extra.filter((email) => !sent.has(email));
      t.count("newsletter 2xx answers without a row", missing.length, 0, missing.slice(0, 3).join(", "));
      t.count("newsletter 202 bodies not JSON with the e-mail", newsletterBadBodies);
      t.check(
        "newsletter rows = 2xx answers (+ in flight at stop)",
        rows.length === rowSet.size && extraNotSent.length === 0 && extra.length <= CONNECTIONS && answered202.size === newsletter2xx,
        `rows ${rows.length} (distinct ${rowSet.size}), 2xx ${newsletter2xx} (distinct e-mails ${answered202.size}), rows without a 2xx ${extra.length} (never sent: ${extraNotSent.length})`,
      );
      t.info("newsletter rows / 2xx answers", `${rows.length} / ${newsletter2xx}${extra.length ? ` (${extra.length} in flight when the load stopped)` : ""}`);

      // Admin actions: each one answered 2xx left its audit_events row (its request id, its event), once.
      auditFigures(t, server, runId, kinds, answers, adminSent);

      // Logging: on, one line per request, nothing at error level.
      const logLines = logs.stats.lines - logBefore.lines;
      const requestLines = logs.stats.requestLines - logBefore.requestLines;
      t.check("a request log line per answer (LOG_LEVEL=info)", requestLines >= total, `${requestLines} request lines for ${total} answers`);
      t.count("error-level log lines", logs.stats.errorLines, 0, logs.stats.samples.join(" | "));
      t.info("log output during the load", `${logLines} lines, ${mb((logs.stats.bytes - logBefore.bytes) / 1024)} (${Math.round((logs.stats.bytes - logBefore.bytes) / Math.max(1, logLines))} B/line), warn ${logs.stats.warnLines - logBefore.warnLines}`);

      // Memory and CPU.
      t.info("RSS at start / before / after the load", `${mb(rssStart)} / ${mb(rssBefore)} / ${mb(rssAfter)}`);
      t.check(`RSS after ≤ before + 150 MB (heap capped at ${HEAP_CAP_MB} MB)`, rssBefore > 0 && rssAfter > 0 && rssAfter - rssBefore <= RSS_GROWTH_LIMIT_KB, `grew ${mb(rssAfter - rssBefore)}`);
      if (cpu0 !== null && cpu1 !== null) t.info("server CPU (% of one core)", `${Math.round(((cpu1 - cpu0) / wall) * 100)}%`);
      t.info("load generator CPU (this process, % of one core)", `${Math.round(((client.user + client.system) / 1e6 / wall) * 100)}%`);
      if ((client.user + client.system) / 1e6 / wall > 0.9) t.note("the load generator used > 90% of a core: req/s is capped by the client as much as by the server");
      t.note(`the harness's log buffer is emptied every 0.5 s here (at most ${logs.stats.maxBuffered} lines held at once)`);

      // ── stop: no crash during the load, a clean exit on SIGTERM ─────────
      t.count("unexpected server exits", server.unexpectedExits());
      const stopStarted = Date.now();
      const { code, signal } = await server.stop();
      t.check("server exits 0 on SIGTERM", code === 0, `exit code ${code}, signal ${signal ?? "none"} after ${Date.now() - stopStarted} ms`);
      return t.result();
    } finally {
      logs.stop();
      await server.stop();
    }
  },
};
