/**
 * two-factor: the second factor on a production server, from outside, as an
 * attacker with the password (or the mailbox) would try it.
 *
 * - The JSON sign-in of a two-factor account (investor and admin) without a
 *   code: 401 { twoFactorRequired: true } and no session.
 * - A password reset as a way around the code: it signs nobody in, ends every
 *   session, and the next sign-in still needs the code.
 * - The half-session of the code step (the challenge cookie the /lp/login and
 *   /admin/login forms give) on every investor and admin endpoint of
 *   hardening/endpoints.ts (pages and their .data, JSON, files, form actions,
 *   the account pages' actions): nothing opens, each answer is a visitor's,
 *   nothing changes; the challenge then completes with a code (it was live).
 * - An admin without two-factor (enrolment-limited) on the same endpoints:
 *   only /admin/account opens; JSON answers 403 with the set-up message,
 *   pages go to /admin/account, the fund endpoints answer it as a visitor.
 * - A replayed TOTP code (in turn, and two at once): accepted once.
 * - Code guessing: the wrong codes the server lets through per account before
 *   429, the window from Retry-After, the guesses that allows in 24 h and the
 *   chance they hit (±1 step: about 3 in 1,000,000 each); at most 1/1000.
 *   The per-address limit of the code step too.
 * - A recovery code (from enabling two-factor on /lp/account, and from the
 *   admin's regenerate-codes) used twice: the second is refused.
 * - Signing out another session (revoke-session, revoke-others) and changing
 *   the password end the other sessions at the very next request.
 */
import { randomInt } from "node:crypto";
import { twoFactorMessages } from "../app/content/two-factor";
import { RATE_LIMITS } from "../app/modules/http/rate-limit.server";
import { nextTotpCode, testTotpSecret, totpAt } from "../tests/support/totp";
import { READS } from "./endpoints";
import {
  createAdmin,
  formBody,
  jsonBody,
  openDatabase,
  PASSWORD,
  request,
  sameOrigin,
  startMailCatcher,
  startServer,
  Tally,
  unique,
  type AppServer,
  type HttpAnswer,
  type Section,
} from "./harness";
import { accountTargets, capitalReadId, headerValue, mutationTargets, Portal, retryAfterSeconds, sessionPair, type Body } from "./web-helpers";

const TWO_FACTOR_PATH = "/login/two-factor";
const NEW_PASSWORD = "hardening-changed-password-789";
/** Each TOTP guess hits one of the 3 accepted steps (±1) of 10⁶ codes. */
const P_GUESS = 3 / 1_000_000;
const P_BUDGET = 1 / 1000;
const DAY_S = 24 * 60 * 60;

// ─── requests ───────────────────────────────────────────────────────────────

let clients = 0;
/** A client address of its own (the server trusts X-Forwarded-For): no per-address limit is shared by accident. */
const freshIp = () => {
  clients += 1;
  return `198.18.${(clients >> 8) & 255}.${clients & 255}`;
};

type CallOptions = { body?: Body; cookie?: string; ip?: string };

/** A same-origin browser request (Origin, Host and Sec-Fetch-Site as the csrf check and React Router expect). */
function call(server: AppServer, method: string, path: string, { body, cookie, ip }: CallOptions = {}): Promise<HttpAnswer> {
  const headers = { ...sameOrigin(server), "x-forwarded-for": ip ?? freshIp(), ...(body?.headers ?? {}), ...(cookie ? { cookie } : {}) };
  return request(server.url, method, path, { headers, body: body?.body });
}

function json(answer: HttpAnswer): Record<string, unknown> {
  try {
    const value = JSON.parse(answer.text) as unknown;
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const jsonLogin = (server: AppServer, fields: Record<string, string>, ip?: string) => call(server, "POST", "/api/auth/login", { body: jsonBody(fields), ip });
const formLogin = (server: AppServer, path: "/lp/login" | "/admin/login", email: string, password = PASSWORD) =>
  call(server, "POST", path, { body: formBody({ email, password }) });
/**
 * Where a .data answer sends the browser: React Router's single fetch answers
 * a redirect with 202 and `[["SingleFetchRedirect",1],{…},"redirect","/lp/login",…]`.
 */
function dataRedirect(answer: HttpAnswer): string {
  if (answer.status !== 202 || !answer.text.startsWith('[["SingleFetchRedirect"')) return "";
  try {
    const items = JSON.parse(answer.text.split("\n")[0]!) as unknown[];
    const to = items[items.indexOf("redirect") + 1];
    return typeof to === "string" ? to : "";
  } catch {
    return "";
  }
}
/** Where an answer sends the browser: Location, or the redirect of a .data answer. */
const target = (answer: HttpAnswer) => headerValue(answer, "location") || dataRedirect(answer);
const redirected = (answer: HttpAnswer) => answer.status >= 300 && answer.status < 400;

/** GET /api/auth/user with a cookie: 200 means it is a signed-in session. */
async function whoAmI(server: AppServer, cookie: string): Promise<number> {
  return (await call(server, "GET", "/api/auth/user", { cookie })).status;
}

/** Does the cookie open anything: the user endpoint or the investor dashboard (a redirect to a login page is no). */
async function opensAnything(server: AppServer, cookie: string): Promise<string | null> {
  if (!cookie) return null;
  const me = await call(server, "GET", "/api/auth/user", { cookie });
  if (me.status === 200) return `GET /api/auth/user → 200`;
  const page = await call(server, "GET", "/lp/dashboard", { cookie });
  if (page.status === 200) return `GET /lp/dashboard → 200`;
  const admin = await call(server, "GET", "/api/auth/pending-users", { cookie });
  if (admin.status === 200) return `GET /api/auth/pending-users → 200`;
  return null;
}

function sessionRows(server: AppServer, email: string): Array<{ id: string; stage: string }> {
  const db = openDatabase(server);
  try {
    return db.prepare("select s.id, s.stage from sessions s join lp_users u on u.id = s.user_id where u.email = ?").all(email.toLowerCase()) as Array<{ id: string; stage: string }>;
  } finally {
    db.close();
  }
}

/**
 * What the sweeps must not change: every table (sessions without last_seen_at,
 * which a request may touch; the outbox by ids), and the audit events added.
 */
function snapshot(server: AppServer): { tables: Map<string, string>; auditMax: number } {
  const db = openDatabase(server);
  try {
    const names = (db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '__drizzle%' order by name").all() as Array<{ name: string }>).map((r) => r.name);
    const tables = new Map<string, string>();
    for (const name of names) {
      const sql =
        name === "sessions"
          ? "select id, user_id, role, stage, expires_at from sessions order by id"
          : name === "email_outbox"
            ? "select id from email_outbox order by rowid"
            : `select * from "${name}" order by rowid`;
      tables.set(name, JSON.stringify(db.prepare(sql).raw().all(), (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : Buffer.isBuffer(v) ? v.toString("hex") : v)));
    }
    const auditMax = (db.prepare("select coalesce(max(id), 0) from audit_events").pluck().get() as number) ?? 0;
    return { tables, auditMax };
  } finally {
    db.close();
  }
}

function changesSince(server: AppServer, before: ReturnType<typeof snapshot>): { tables: string[]; audit: string[] } {
  const after = snapshot(server);
  const tables = [...after.tables.keys()].filter((name) => name !== "audit_events" && after.tables.get(name) !== before.tables.get(name));
  const db = openDatabase(server);
  try {
    const audit = (db.prepare("select event from audit_events where id > ?").pluck().all(before.auditMax) as string[]) ?? [];
    return { tables, audit };
  } finally {
    db.close();
  }
}

// ─── accounts ───────────────────────────────────────────────────────────────

const email = (what: string) => `tf-${what}-${unique()}@example.com`;

/** The recovery codes an answer shows (the section under "Recovery codes"), in the account page's alphabet. */
function recoveryCodesIn(html: string): string[] {
  const start = html.indexOf('id="recovery-codes-title"');
  if (start < 0) return [];
  const section = html.slice(start, html.indexOf("</section>", start));
  return [...new Set(section.match(/\b[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}\b/g) ?? [])];
}

/**
 * Turn two-factor on from the account page as a browser without JavaScript:
 * read the secret shown as text, confirm with a code of it (enable-2fa); the
 * answer shows the 10 recovery codes.
 */
async function enableOnAccountPage(server: AppServer, who: { email: string; cookie: string }): Promise<{ secret: string; codes: string[] }> {
  const page = await call(server, "GET", "/lp/account", { cookie: who.cookie });
  const secret = /id="two-factor-secret"[^>]*>\s*([A-Z2-7]{16,})\s*</.exec(page.text)?.[1];
  if (page.status !== 200 || !secret) throw new Error(`GET /lp/account of ${who.email}: ${page.status}, no secret shown`);
  const { code } = await nextTotpCode(who.email, secret);
  const answer = await call(server, "POST", "/lp/account", { cookie: who.cookie, body: formBody({ intent: "enable-2fa", code }) });
  const codes = recoveryCodesIn(answer.text);
  if (answer.status !== 200 || codes.length !== 10) throw new Error(`enable-2fa for ${who.email}: ${answer.status}, ${codes.length} recovery codes shown`);
  return { secret, codes };
}

/** A code step challenge from a sign-in form: the redirect to /login/two-factor and its cookie. */
async function challenge(server: AppServer, path: "/lp/login" | "/admin/login", who: string): Promise<string> {
  const answer = await formLogin(server, path, who);
  const cookie = sessionPair(answer);
  if (!redirected(answer) || target(answer) !== TWO_FACTOR_PATH || !cookie) {
    throw new Error(`${path} for ${who}: ${answer.status} → ${target(answer) || "nowhere"}, cookie ${cookie ? "set" : "none"}`);
  }
  return cookie;
}

/** Whether the code step shows its form for this cookie (a live challenge). */
async function challengeLive(server: AppServer, cookie: string): Promise<boolean> {
  const page = await call(server, "GET", TWO_FACTOR_PATH, { cookie });
  return page.status === 200 && /name="code"/.test(page.text);
}

/**
 * POST the code step; returns the answer and the full session's cookie it set ("" if none). `js`: as the enhanced
 * form posts it (`_enhanced=1`), answered with its status (401, 429); a plain post's every answer is a 303.
 */
async function codeStep(server: AppServer, cookie: string, code: string, ip?: string, js = false): Promise<{ answer: HttpAnswer; session: string }> {
  const answer = await call(server, "POST", TWO_FACTOR_PATH, { cookie, body: formBody(js ? { code, _enhanced: "1" } : { code }), ip });
  return { answer, session: sessionPair(answer) };
}

/** A 6-digit code that is none of the three accepted right now (previous, current, next step). */
function wrongCode(secret: string): string {
  const now = Date.now();
  const valid = new Set([-1, 0, 1].map((d) => totpAt(secret, now + d * 30_000)));
  for (;;) {
    const code = String(randomInt(1_000_000)).padStart(6, "0");
    if (!valid.has(code)) return code;
  }
}

// ─── the sweep list ─────────────────────────────────────────────────────────

type Probe = {
  label: string;
  method: string;
  path: string;
  body?: () => Body;
  /** json: /api and the admin's CSV/TSV exports; page: pages, their .data and form actions; fund: open to admins and fund access holders. */
  kind: "json" | "page" | "fund";
  /** The admin account page and its forms: the one place an admin without two-factor may use. */
  enrolment?: boolean;
  /** Opens only for a member of an entity it concerns (a notice; an admin is none): its control is the entity owner's session. */
  memberOnly?: boolean;
};

/**
 * Every investor and admin endpoint: the reads of READS (and each page's
 * .data), the fund document pages (they open for admins), the admin
 * mutations of MUTATIONS (each intent), and the account pages' actions.
 */
function sweepList(ids: Parameters<typeof mutationTargets>[0], docId: string, fundDocId: string): Probe[] {
  const probes: Probe[] = [];
  const isJson = (p: string) => p.startsWith("/api/") || /^\/(admin|lp)\/.*\.(csv|tsv)$/.test(p);
  const isFund = (p: string) => p.startsWith("/api/fund-documents/") || p === "/fund-i/documents" || p === "/fund-ii/documents";
  const reads = [...READS.filter((r) => r.role !== "anonymous").map((r) => r.path), "/fund-i/documents", "/fund-ii/documents"];
  for (const raw of reads) {
    const path = raw.replace("{id}", capitalReadId(raw, ids.capital) ?? (raw.startsWith("/api/fund-documents") ? fundDocId : docId)).replace("{key}", "fund-ii");
    const kind = isFund(path) ? "fund" : isJson(path) ? "json" : "page";
    const enrolment = path === "/admin/account";
    const memberOnly = raw === "/lp/notices/{id}";
    probes.push({ label: `GET ${raw}`, method: "GET", path, kind, enrolment, memberOnly });
    if (!isJson(path)) probes.push({ label: `GET ${raw}.data`, method: "GET", path: `${path}.data`, kind, enrolment, memberOnly });
  }
  for (const m of mutationTargets(ids).filter((x) => x.role !== "anonymous")) {
    probes.push({ label: m.label, method: m.method, path: m.path, body: m.build, kind: isJson(m.path) ? "json" : "page" });
  }
  for (const a of accountTargets().filter((x) => x.role !== "anonymous")) {
    probes.push({ label: a.label, method: a.method, path: a.path, body: a.build, kind: "page", enrolment: a.path === "/admin/account" });
  }
  return probes;
}

/** What a visitor (no cookie) gets: status and where it is sent. */
const shape = (answer: HttpAnswer) => `${answer.status}${target(answer) ? ` → ${target(answer)}` : ""}`;

/** A refusal: 401/403, or a redirect (plain or .data) to a sign-in or sign-up page. */
function refused(answer: HttpAnswer): boolean {
  if (answer.status === 401 || answer.status === 403) return true;
  const to = target(answer).split("?")[0] ?? "";
  return (redirected(answer) || answer.status === 202) && ["/lp/login", "/admin/login", "/fund-i/signup", "/fund-ii/signup"].includes(to);
}

// ─── the section ────────────────────────────────────────────────────────────

export const section: Section = {
  name: "two-factor",
  run: async (ctx) => {
    const t = new Tally();
    const mail = await startMailCatcher(ctx);
    const server = await startServer(ctx, { name: "two-factor", env: { TRUST_PROXY: "1", SMTP_URL: mail.smtpUrl } }).catch(async (error: unknown) => {
      await mail.stop();
      throw error;
    });
    const started = Date.now();
    const progress = (what: string) => ctx.progress(`${what} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    try {
      // ── setup: an admin (two-factor, signed in with a code), records to aim at, investors ──
      const portal = await new Portal(server, { ...sameOrigin(server), "x-forwarded-for": "198.51.100.1" }).init();
      const investor = async (what: string) => {
        const user = await portal.register(email(what));
        await portal.setStatus(user.id, "approved");
        return { ...user, cookie: await portal.signIn(user.email) };
      };
      const pending = await portal.register(email("pending"));
      // The owner of the capital records' entities: the control of the notice page (an admin is no member).
      const owner = await investor("owner");
      const docId = await portal.uploadDocument();
      const fundDocId = await portal.uploadFundDocument("fund-ii");
      const ids = {
        adminEmail: portal.adminEmail,
        userId: pending.id,
        documentId: await portal.uploadDocument(),
        fundDocumentId: await portal.uploadFundDocument("fund-i"),
        revokeRequestId: await portal.fundRequest("fund-ii"),
        resendRequestId: await portal.fundRequest("fund-ii"),
        pitchId: await portal.pitch(),
        batchId: await portal.bulkBatch(),
        capital: await portal.capital(owner),
      };
      const probes = sweepList(ids, docId, fundDocId);
      // An investor who turns two-factor on from the account page, as a browser would.
      const lp = await investor("lp");
      const lpFactor = await enableOnAccountPage(server, lp);
      // A second admin for the code step: its own TOTP steps (each is accepted once per account), so nothing waits.
      const admin2 = `tf-admin-${unique()}@lumenridge.example`;
      createAdmin(server, admin2, PASSWORD, "Second Admin");
      progress("setup done");

      // ── 1. JSON sign-in without a code ────────────────────────────────────
      for (const [who, address] of [
        ["investor", lp.email],
        ["admin", portal.adminEmail],
      ] as const) {
        const before = sessionRows(server, address).length;
        const answer = await jsonLogin(server, { email: address, password: PASSWORD });
        const body = json(answer);
        t.check(
          `no code (${who}): 401 'Two-factor code required', twoFactorRequired`,
          answer.status === 401 && body.error === twoFactorMessages.codeRequired && body.twoFactorRequired === true,
          `${answer.status} ${answer.text.slice(0, 120)}`,
        );
        const cookie = sessionPair(answer);
        const opened = await opensAnything(server, cookie);
        const after = sessionRows(server, address).length;
        t.check(`no code (${who}): no session cookie, no session row, nothing opens`, !cookie && !opened && after === before, `cookie ${cookie ? "set" : "none"}, ${opened ?? "nothing opened"}, session rows ${before} → ${after}`);
      }

      // ── 2. a password reset used to get around the code ───────────────────
      {
        const victim = await investor("reset");
        const factor = await enableOnAccountPage(server, victim);
        const halfBefore = await challenge(server, "/lp/login", victim.email);
        const forgot = await call(server, "POST", "/lp/forgot-password", { body: formBody({ email: victim.email }) });
        if (!redirected(forgot)) throw new Error(`forgot-password: ${forgot.status}`);
        const resetMail = await mail.waitFor((m) => m.to.includes(victim.email) && /reset-password\?token=/.test(m.text));
        const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(resetMail.text)![1]!;
        const reset = await call(server, "POST", "/lp/reset-password", { body: formBody({ token, password: NEW_PASSWORD }) });
        const resetCookie = sessionPair(reset);
        t.check(
          "reset: answered with a redirect to /lp/login and no session cookie",
          redirected(reset) && target(reset).startsWith("/lp/login") && !resetCookie,
          `${reset.status} → ${target(reset) || "nowhere"}, session cookie ${resetCookie ? "set" : "none"}`,
        );
        const rows = sessionRows(server, victim.email);
        const [oldFull, oldHalf] = [await whoAmI(server, victim.cookie), await challengeLive(server, halfBefore)];
        t.check("reset: every session ended (the signed-in one and a code step's)", rows.length === 0 && oldFull === 401 && !oldHalf, `session rows ${rows.length}, old session → ${oldFull}, old challenge live: ${oldHalf}`);
        const noCode = await jsonLogin(server, { email: victim.email, password: NEW_PASSWORD });
        const form = await formLogin(server, "/lp/login", victim.email, NEW_PASSWORD);
        const formOpened = await opensAnything(server, sessionPair(form));
        t.check(
          "reset: the new password still needs the code (JSON 401 twoFactorRequired; form → code step)",
          noCode.status === 401 && json(noCode).twoFactorRequired === true && redirected(form) && target(form) === TWO_FACTOR_PATH && !formOpened,
          `JSON ${noCode.status} ${noCode.text.slice(0, 80)}; form ${form.status} → ${target(form)}, ${formOpened ?? "nothing opened"}`,
        );
        const enabled = openDatabase(server);
        const still = enabled.prepare("select enabled_at from user_two_factor where user_id = ?").pluck().get(victim.id);
        enabled.close();
        const { code } = await nextTotpCode(victim.email, factor.secret);
        const withCode = await jsonLogin(server, { email: victim.email, password: NEW_PASSWORD, code });
        t.check("reset: two-factor still on; the new password with a code signs in", !!still && withCode.status === 200, `enabled_at ${String(still)}, sign-in with code → ${withCode.status}`);
      }
      progress("sign-in and reset done");

      // ── 3. the code step's half-session on every endpoint ─────────────────
      const visitor = new Map<string, HttpAnswer>();
      for (const probe of probes) visitor.set(probe.label, await call(server, probe.method, probe.path, { body: probe.body?.() }));
      const visitorOpens = probes.filter((p) => !refused(visitor.get(p.label)!));
      // The control: a full admin session opens every read of the list (so a refusal below is the session's doing);
      // a notice, which only a member reads, opens for its entity's owner.
      const reads = probes.filter((p) => p.method === "GET");
      const closedToAdmin: string[] = [];
      for (const probe of reads) {
        const answer = await call(server, "GET", probe.path, { cookie: probe.memberOnly ? owner.cookie : portal.adminCookie });
        if (answer.status !== 200) closedToAdmin.push(`${probe.label} → ${shape(answer)}`);
      }
      t.check(`control: a full admin session (a notice: its entity owner's) opens every read swept (${reads.length - closedToAdmin.length}/${reads.length})`, closedToAdmin.length === 0, closedToAdmin.slice(0, 4).join("; "));
      t.info("endpoints swept (investor + admin: pages, .data, JSON, files, form and account actions)", probes.length);
      t.count("endpoints a visitor opens (the sweep list is wrong)", visitorOpens.length, 0, visitorOpens.map((p) => `${p.label} → ${shape(visitor.get(p.label)!)}`).slice(0, 4).join("; "));
      const halves = [
        { name: "investor, /lp/login", who: lp.email, cookie: await challenge(server, "/lp/login", lp.email), complete: lpFactor.secret },
        { name: "admin, /admin/login", who: admin2, cookie: await challenge(server, "/admin/login", admin2), complete: testTotpSecret(admin2) },
        { name: "admin, /lp/login", who: portal.adminEmail, cookie: await challenge(server, "/lp/login", portal.adminEmail), complete: null },
      ];
      let halfTried = 0;
      for (const half of halves) {
        const liveBefore = await challengeLive(server, half.cookie);
        const before = snapshot(server);
        const opened: string[] = [];
        const unlike: string[] = [];
        for (const probe of probes) {
          const answer = await call(server, probe.method, probe.path, { body: probe.body?.(), cookie: half.cookie });
          halfTried += 1;
          if (!refused(answer)) opened.push(`${probe.label} → ${shape(answer)}`);
          else if (shape(answer) !== shape(visitor.get(probe.label)!)) unlike.push(`${probe.label} → ${shape(answer)} (visitor: ${shape(visitor.get(probe.label)!)})`);
        }
        const changed = changesSince(server, before);
        const liveAfter = await challengeLive(server, half.cookie);
        t.count(`half-session (${half.name}): endpoints that opened`, opened.length, 0, opened.slice(0, 4).join("; "));
        t.count(`half-session (${half.name}): answers unlike a visitor's`, unlike.length, 0, unlike.slice(0, 4).join("; "));
        t.count(`half-session (${half.name}): tables changed, audit events written`, changed.tables.length + changed.audit.length, 0, [...changed.tables, ...changed.audit].join(", "));
        t.check(`half-session (${half.name}): a live challenge before and after the sweep`, liveBefore && liveAfter, `live before ${liveBefore}, after ${liveAfter}`);
        for (const line of [...opened, ...unlike].slice(0, 3)) t.note(`half-session (${half.name}): ${line}`);
        if (half.complete) {
          // It was a real challenge: a code completes it, under a new cookie; the old one is spent.
          const { code } = await nextTotpCode(half.who, half.complete);
          const done = await codeStep(server, half.cookie, code);
          const full = await whoAmI(server, done.session);
          const oldAfter = await challengeLive(server, half.cookie);
          t.check(
            `half-session (${half.name}): the code completes it (new cookie; the challenge's is spent)`,
            redirected(done.answer) && full === 200 && done.session !== half.cookie && !oldAfter,
            `${done.answer.status} → ${target(done.answer)}, new session → ${full}, old challenge live: ${oldAfter}`,
          );
        }
      }
      t.info("half-session requests (3 challenges × endpoints)", halfTried);
      progress("half-session sweeps done");

      // ── 4. an admin without two-factor: only /admin/account opens ──────────
      {
        const limited = `tf-enrol-${unique()}@lumenridge.example`;
        createAdmin(server, limited, PASSWORD, "Admin Without Two-Factor", { twoFactor: false });
        const login = await jsonLogin(server, { email: limited, password: PASSWORD });
        const cookie = sessionPair(login);
        if (login.status !== 200 || !cookie) throw new Error(`sign-in of the admin without two-factor: ${login.status} ${login.text.slice(0, 120)}`);
        const account = await call(server, "GET", "/admin/account", { cookie });
        t.check(
          "enrolment-limited admin: /admin/account opens with the set-up (secret shown)",
          account.status === 200 && /id="two-factor-secret"/.test(account.text),
          `GET /admin/account → ${account.status}`,
        );
        const before = snapshot(server);
        const opened: string[] = [];
        const tried = { json: 0, page: 0, fund: 0 };
        const wrong: Record<Probe["kind"], string[]> = { json: [], page: [], fund: [] };
        for (const probe of probes.filter((p) => !p.enrolment)) {
          const answer = await call(server, probe.method, probe.path, { body: probe.body?.(), cookie });
          if (answer.status >= 200 && answer.status < 300 && !target(answer)) {
            opened.push(`${probe.label} → ${shape(answer)}`);
            continue;
          }
          tried[probe.kind] += 1;
          const ok =
            probe.kind === "json"
              ? answer.status === 403 && json(answer).error === twoFactorMessages.enrolmentRequired
              : probe.kind === "page"
                ? (redirected(answer) || answer.status === 202) && target(answer) === "/admin/account"
                : refused(answer) && shape(answer) === shape(visitor.get(probe.label)!);
          if (!ok) wrong[probe.kind].push(`${probe.label} → ${shape(answer)}${probe.kind === "json" ? ` ${answer.text.slice(0, 80)}` : ""}`);
        }
        const changed = changesSince(server, before);
        const right = (kind: Probe["kind"]) => `${tried[kind] - wrong[kind].length}/${tried[kind]}`;
        t.count("enrolment-limited admin: other endpoints that opened", opened.length, 0, opened.slice(0, 4).join("; "));
        t.check(`enrolment-limited admin: JSON → 403 with the set-up message (${right("json")})`, wrong.json.length === 0 && tried.json > 0, wrong.json.slice(0, 3).join("; "));
        t.check(`enrolment-limited admin: pages, .data and form actions → /admin/account (${right("page")})`, wrong.page.length === 0 && tried.page > 0, wrong.page.slice(0, 3).join("; "));
        t.check(`enrolment-limited admin: fund endpoints answer it as a visitor (${right("fund")})`, wrong.fund.length === 0, wrong.fund.slice(0, 3).join("; "));
        t.count("enrolment-limited admin: tables changed, audit events written", changed.tables.length + changed.audit.length, 0, [...changed.tables, ...changed.audit].join(", "));
        for (const line of [...opened, ...wrong.json, ...wrong.page, ...wrong.fund].slice(0, 4)) t.note(`enrolment-limited admin: ${line}`);
        t.note("the fund document endpoints and pages serve admins and fund access holders; to an admin without two-factor they answer as to a visitor (401 / sign-up page), not with the set-up message");
        // The set-up itself: the secret shown, a code of it (enable-2fa), and the same session opens the portal.
        const secret = /id="two-factor-secret"[^>]*>\s*([A-Z2-7]{16,})\s*</.exec(account.text)?.[1] ?? "";
        const enable = secret ? await call(server, "POST", "/admin/account", { cookie, body: formBody({ intent: "enable-2fa", code: (await nextTotpCode(limited, secret)).code }) }) : null;
        const portalAfter = await call(server, "GET", "/api/auth/pending-users", { cookie });
        t.check(
          "enrolment-limited admin: enable-2fa on /admin/account, then the same session opens the portal",
          enable?.status === 200 && recoveryCodesIn(enable.text).length === 10 && portalAfter.status === 200,
          `enable-2fa ${enable?.status ?? "not sent (no secret shown)"}, GET /api/auth/pending-users → ${portalAfter.status}`,
        );
      }
      progress("enrolment sweep done");

      // ── 5. a replayed code ────────────────────────────────────────────────
      {
        const replayer = `tf-replay-${unique()}@lumenridge.example`;
        createAdmin(server, replayer, PASSWORD, "Replay Admin");
        const { code } = await nextTotpCode(replayer);
        const first = await jsonLogin(server, { email: replayer, password: PASSWORD, code });
        const again = await jsonLogin(server, { email: replayer, password: PASSWORD, code });
        t.check(
          "replay: the same code twice → 200, then 401 'Invalid two-factor code'",
          first.status === 200 && again.status === 401 && json(again).error === twoFactorMessages.invalidCode && !sessionPair(again),
          `first ${first.status}, again ${again.status} ${again.text.slice(0, 80)}`,
        );
        const next = await nextTotpCode(replayer);
        const both = await Promise.all([0, 1].map(() => jsonLogin(server, { email: replayer, password: PASSWORD, code: next.code })));
        const wins = both.filter((a) => a.status === 200).length;
        t.check("replay: one fresh code in two sign-ins at once → exactly one 200", wins === 1, `answers ${both.map((a) => a.status).join(", ")}`);
      }

      // ── 6. recovery codes: each works once ────────────────────────────────
      {
        const [a, b] = lpFactor.codes;
        const first = await jsonLogin(server, { email: lp.email, password: PASSWORD, code: a! });
        const again = await jsonLogin(server, { email: lp.email, password: PASSWORD, code: a! });
        t.check(
          "recovery code (from enable-2fa on /lp/account), JSON sign-in twice → 200, then 401",
          first.status === 200 && again.status === 401 && json(again).error === twoFactorMessages.invalidCode,
          `first ${first.status}, again ${again.status} ${again.text.slice(0, 80)}`,
        );
        const step = await codeStep(server, await challenge(server, "/lp/login", lp.email), b!);
        const reuse = await jsonLogin(server, { email: lp.email, password: PASSWORD, code: b! });
        t.check(
          "recovery code used on the code step, then on the JSON sign-in → signed in, then 401",
          redirected(step.answer) && (await whoAmI(server, step.session)) === 200 && reuse.status === 401,
          `code step ${step.answer.status} → ${target(step.answer)}, reuse ${reuse.status}`,
        );
        // An admin's codes come from regenerate-codes (a current TOTP code) on /admin/account.
        const keeper = `tf-codes-${unique()}@lumenridge.example`;
        createAdmin(server, keeper, PASSWORD, "Codes Admin");
        const signedIn = await jsonLogin(server, { email: keeper, password: PASSWORD, code: (await nextTotpCode(keeper)).code });
        const regenerate = await call(server, "POST", "/admin/account", { cookie: sessionPair(signedIn), body: formBody({ intent: "regenerate-codes", code: (await nextTotpCode(keeper)).code }) });
        const codes = recoveryCodesIn(regenerate.text);
        const use = codes[0] ?? "none-shown";
        const once = await jsonLogin(server, { email: keeper, password: PASSWORD, code: use });
        const twice = await jsonLogin(server, { email: keeper, password: PASSWORD, code: use });
        t.check(
          "recovery code (admin, regenerate-codes on /admin/account) twice → 200, then 401",
          regenerate.status === 200 && codes.length === 10 && once.status === 200 && twice.status === 401,
          `regenerate ${regenerate.status} (${codes.length} codes), first ${once.status}, again ${twice.status}`,
        );
      }
      progress("replay and recovery codes done");

      // ── 7. code guessing: what the limits allow in 24 h ───────────────────
      {
        const guessed = `tf-guess-${unique()}@lumenridge.example`;
        createAdmin(server, guessed, PASSWORD, "Guessed Admin");
        const secret = testTotpSecret(guessed);
        // Right password, wrong codes, each from an address of its own: only the per-account limit can stop it.
        let allowed = 0;
        let limitedAnswer: HttpAnswer | null = null;
        const unusual: string[] = [];
        const first = Date.now();
        for (let i = 0; i < 100 && !limitedAnswer; i++) {
          const answer = await jsonLogin(server, { email: guessed, password: PASSWORD, code: wrongCode(secret) });
          if (answer.status === 429) limitedAnswer = answer;
          else if (answer.status === 401 && json(answer).error === twoFactorMessages.invalidCode) allowed += 1;
          else unusual.push(`#${i + 1} → ${answer.status}`);
        }
        const elapsed = Math.ceil((Date.now() - first) / 1000);
        const retry = limitedAnswer ? retryAfterSeconds(limitedAnswer) : NaN;
        const window = retry + elapsed;
        const windows = Math.ceil(DAY_S / window);
        const perDay = allowed * windows;
        const chance = 1 - Math.pow(1 - P_GUESS, perDay);
        t.check("guessing: wrong codes answered 401 until a 429 (per account, any address)", !!limitedAnswer && unusual.length === 0, `no 429 after ${allowed} wrong codes; ${unusual.slice(0, 3).join(", ")}`);
        t.info("guessing: wrong codes allowed per account before 429", allowed);
        t.info("guessing: Retry-After on the 429 (s)", Number.isNaN(retry) ? "missing" : retry);
        t.info("guessing: window (Retry-After + time spent guessing, s)", Number.isNaN(window) ? "n/a" : window);
        t.info("guessing: guesses per 24 h (allowed × windows a day)", `${allowed} × ${windows} = ${perDay}`);
        t.info("guessing: chance per guess (±1 step)", "3 / 1,000,000");
        const shown = `${(chance * 100).toFixed(3)} % (1 in ${Math.round(1 / chance).toLocaleString("en-US")})`;
        t.figures.push({ label: "guessing: chance a 24 h attack hits (1 − (1 − 3e-6)^guesses)", value: Number.isFinite(chance) ? shown : "n/a", budget: "≤ 0.1 %", ok: Number.isFinite(chance) && chance <= P_BUDGET });
        if (!(Number.isFinite(chance) && chance <= P_BUDGET)) t.failures.push(`guessing: a 24 h attack hits with ${shown}, over 1/1000`);
        t.check("guessing: the allowed guesses match RATE_LIMITS.twoFactorAccount", allowed === RATE_LIMITS.twoFactorAccount.points && Math.abs(window - RATE_LIMITS.twoFactorAccount.duration) <= 5, `${allowed} per ${window} s, configured ${RATE_LIMITS.twoFactorAccount.points} per ${RATE_LIMITS.twoFactorAccount.duration} s`);
        // Locked: even the right code is refused, on the JSON sign-in and on the code step.
        const right = await jsonLogin(server, { email: guessed, password: PASSWORD, code: totpAt(secret, Date.now()) });
        const lockedStep = await codeStep(server, await challenge(server, "/admin/login", guessed), totpAt(secret, Date.now()), undefined, true);
        t.check("guessing: while locked the right code is refused too (JSON and code step → 429)", right.status === 429 && lockedStep.answer.status === 429 && !lockedStep.session, `JSON ${right.status}, code step ${lockedStep.answer.status}`);

        // Per address: the code step from one address, spread over accounts that stay under their own limit.
        const accounts: Array<{ email: string; cookie: string }> = [];
        for (let i = 0; i < 4; i++) {
          const who = `tf-addr-${i}-${unique()}@lumenridge.example`;
          createAdmin(server, who, PASSWORD, `Address Admin ${i}`);
          accounts.push({ email: who, cookie: await challenge(server, "/admin/login", who) });
        }
        const address = "203.0.113.77";
        const expected = RATE_LIMITS.twoFactorAddress.points + 1;
        let firstLimited = -1;
        for (let i = 1; i <= expected + 2 && firstLimited < 0; i++) {
          const who = accounts[i % accounts.length]!;
          const answer = await codeStep(server, who.cookie, wrongCode(testTotpSecret(who.email)), address, true);
          if (answer.answer.status === 429) firstLimited = i;
        }
        t.count("guessing: code step attempts from one address before 429 (4 accounts)", firstLimited, expected, `first 429 at ${firstLimited}`);
        const other = accounts[0]!;
        const elsewhere = await codeStep(server, other.cookie, (await nextTotpCode(other.email)).code);
        t.check("guessing: the same account from another address with the right code signs in", redirected(elsewhere.answer) && (await whoAmI(server, elsewhere.session)) === 200, `${elsewhere.answer.status} → ${target(elsewhere.answer)}`);
      }
      progress("guessing done");

      // ── 8. signing out other sessions, at once ────────────────────────────
      {
        const owner = await investor("sessions");
        const second = await portal.signIn(owner.email);
        const third = await portal.signIn(owner.email);
        const page = await call(server, "GET", "/lp/account", { cookie: owner.cookie });
        const listed = [...page.text.matchAll(/name="sessionId" value="([^"]+)"/g)].map((m) => m[1]!);
        const revokeOne = await call(server, "POST", "/lp/account", { cookie: owner.cookie, body: formBody({ intent: "revoke-session", sessionId: listed[0] ?? "none" }) });
        const afterOne = [await whoAmI(server, second), await whoAmI(server, third)];
        t.check(
          "revoke-session (/lp/account): that session refused at its next request, the others kept",
          listed.length === 2 && revokeOne.status === 303 && afterOne.filter((s) => s === 401).length === 1 && afterOne.filter((s) => s === 200).length === 1 && (await whoAmI(server, owner.cookie)) === 200,
          `${listed.length} other sessions listed, revoke ${revokeOne.status}, the two others → ${afterOne.join(", ")}`,
        );
        const fourth = await portal.signIn(owner.email);
        const revokeAll = await call(server, "POST", "/lp/account", { cookie: owner.cookie, body: formBody({ intent: "revoke-others" }) });
        const api = await Promise.all([second, third, fourth].map((c) => whoAmI(server, c)));
        const dashboard = await call(server, "GET", "/lp/dashboard", { cookie: fourth });
        t.check(
          "revoke-others (/lp/account): every other session refused at once (401; dashboard → /lp/login); this one kept",
          revokeAll.status === 303 && api.every((s) => s === 401) && redirected(dashboard) && target(dashboard).startsWith("/lp/login") && (await whoAmI(server, owner.cookie)) === 200,
          `revoke ${revokeAll.status}, others → ${api.join(", ")}, dashboard ${shape(dashboard)}`,
        );

        const changer = await investor("password");
        const other = await portal.signIn(changer.email);
        const changed = await call(server, "POST", "/lp/account", {
          cookie: changer.cookie,
          body: formBody({ intent: "change-password", currentPassword: PASSWORD, password: NEW_PASSWORD }),
        });
        const [otherApi, otherPage, own] = [await whoAmI(server, other), await call(server, "GET", "/lp/dashboard", { cookie: other }), await whoAmI(server, changer.cookie)];
        const oldPassword = await jsonLogin(server, { email: changer.email, password: PASSWORD });
        t.check(
          "change password (/lp/account): the other session refused at once, this one kept, the old password refused",
          changed.status === 303 && otherApi === 401 && redirected(otherPage) && target(otherPage).startsWith("/lp/login") && own === 200 && oldPassword.status === 401,
          `change ${changed.status}, other → ${otherApi}, its dashboard ${shape(otherPage)}, own → ${own}, old password → ${oldPassword.status}`,
        );
        t.count("sessions left after revoke-others / change password (besides the current)", sessionRows(server, owner.email).length - 1 + (sessionRows(server, changer.email).length - 1), 0);
      }
      progress("sessions done");
      t.count("server crashes", server.unexpectedExits(), 0);
      const errors = server.logLines().filter((l) => l.includes('"level":"error"'));
      t.count("error-level log lines", errors.length, 0, errors.slice(0, 2).join(" | "));
    } finally {
      await server.stop();
      await mail.stop();
    }
    return t.result();
  },
};
