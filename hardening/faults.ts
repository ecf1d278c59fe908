/**
 * Faults (issue 7): what a crash, a client that goes away, an SMTP outage
 * and a full disk leave behind.
 *
 * 1. kill -9 of the server at 10 %, 50 % and 90 % of a 50 MB upload, and a
 *    file left by a kill between the move into storage and the insert; after
 *    a restart on the same data: no orphan files, no rows without a file, the
 *    site answers. Then client aborts mid-upload on a running server
 *    (20; --full 100): incoming/ empty, no orphans, no 5xx, no exits, RSS.
 * 2. SMTP down during an investor approval, a Fund II request and a pitch:
 *    each action answers 2xx, nothing arrives while down, and once SMTP is
 *    back each mail arrives exactly once.
 * 3. kill -9 under 8 concurrent writers (newsletter + pitch): integrity_check
 *    ok and every write that was answered 2xx is there (3 rounds; --full 5).
 * 4. STORAGE_DIR on an 8 MB tmpfs: a 20 MB upload and an upload into a full
 *    disk get a clear error, leave nothing behind, and the server goes on.
 *
 * The SMTP check mostly waits for the mailer's retry, so it runs beside the others.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { samplePdf } from "../tests/helpers/sample-files";
import {
  createAdmin,
  formBody,
  jsonBody,
  openDatabase,
  request,
  rssKb,
  signIn,
  sleep,
  startMailCatcher,
  startServer,
  Tally,
  type AppServer,
  type Context,
  type Section,
} from "./harness";
import {
  auditStorage,
  incomingSize,
  logged5xx,
  lpFields,
  mb,
  multipartBody,
  seconds,
  StreamingUpload,
  tallyAudit,
  waitIncomingSettled,
  waitUntil,
  type MultipartBody,
  type UploadOutcome,
} from "./faults-helpers";

/**
 * The admin of each part's server (two-factor on, as the portal requires): an
 * address per server, so parts running side by side never wait for each
 * other's two-factor code step.
 */
const ADMIN = { password: "Faults-admin-passphrase-2024!" };
const adminEmail = (part: "upload" | "mail" | "disk") => `faults-admin-${part}@lumenridge.example`;
const PDF = "application/pdf";
const MB = 1024 * 1024;
/** An upload whose socket sees no progress for this long has hung. */
const HANG_MS = 15_000;

export const section: Section = {
  name: "faults",
  run: async (ctx) => {
    const mail = part(ctx, "smtp outage", smtpOutage);
    const uploads = await part(ctx, "upload kills", uploadKills);
    const writes = await part(ctx, "kill under writes", killUnderWrites);
    const disk = await part(ctx, "disk full", diskFull);
    const parts = [uploads, await mail, writes, disk];
    const t = new Tally();
    for (const p of parts) {
      t.figures.push(...p.figures);
      t.failures.push(...p.failures);
      t.notes.push(...p.notes);
    }
    return t.result();
  },
};

/** Run one check on a Tally of its own; a crash is a failure of that check only. */
async function part(ctx: Context, name: string, run: (ctx: Context, t: Tally) => Promise<void>): Promise<Tally> {
  const t = new Tally();
  const started = Date.now();
  try {
    await run(ctx, t);
  } catch (error) {
    t.failures.push(`${name} crashed: ${(error as Error).stack ?? String(error)}`);
    t.figures.push({ label: `${name}: ran to the end`, value: "no", budget: "yes", ok: false });
  }
  t.info(`${name}: time`, seconds(Date.now() - started));
  return t;
}

function upload(server: AppServer, cookie: string, body: MultipartBody, idleTimeoutMs?: number): StreamingUpload {
  return new StreamingUpload(server.url, "/api/documents", body, { cookie }, idleTimeoutMs);
}

function describe(outcome: UploadOutcome): string {
  return outcome.kind === "answer" ? `${outcome.status} ${outcome.text.slice(0, 160)}` : `no answer (${outcome.error})`;
}

async function siteAnswers(server: AppServer, cookie: string): Promise<{ ok: boolean; detail: string }> {
  const home = await request(server.url, "GET", "/");
  const docs = await request(server.url, "GET", "/api/documents", { headers: { cookie } });
  return { ok: home.status === 200 && docs.status === 200, detail: `GET / ${home.status}, GET /api/documents ${docs.status}` };
}

// ─── 1. kill -9 mid-upload; client aborts ───────────────────────────────────

async function uploadKills(ctx: Context, t: Tally) {
  const server = await startServer(ctx, { name: "faults-upload" });
  try {
    createAdmin(server, adminEmail("upload"), ADMIN.password);
    let cookie = await signIn(server, adminEmail("upload"), ADMIN.password);
    const pdf = samplePdf("Faults 50 MB", 50 * MB);
    const body = multipartBody(lpFields("Faults 50 MB"), { name: "fifty.pdf", type: PDF, data: pdf });

    // A complete upload first: a real row and file for the later audits to keep.
    ctx.progress("faults: 50 MB upload, complete");
    const full = await upload(server, cookie, body).finish();
    t.count("50 MB upload, complete: status", full.kind === "answer" ? full.status : 0, 201, describe(full));
    t.info("50 MB upload, complete: time", seconds(full.ms));

    for (const share of [0.1, 0.5, 0.9]) {
      const label = `kill -9 at ${share * 100}% of 50 MB`;
      ctx.progress(`faults: ${label}`);
      const up = upload(server, cookie, body);
      await up.sendTo(body.fileStart + Math.round(share * body.fileLength));
      const received = await waitIncomingSettled(server);
      await server.kill9();
      await up.outcome;
      const restartStarted = Date.now();
      await server.start();
      const restartMs = Date.now() - restartStarted;
      t.check(
        `${label}: killed mid-upload`,
        received > 0 && received < body.fileLength,
        `the partial file held ${received} bytes of ${body.fileLength} at the kill`,
      );
      t.info(`${label}: server had received`, `${((100 * received) / body.fileLength).toFixed(1)}%, restart ${seconds(restartMs)}`);
      const audit = auditStorage(server);
      tallyAudit(t, label, audit);
      t.count(`${label}: document rows`, audit.rows, 1, "only the complete upload's");
      const site = await siteAnswers(server, cookie);
      t.check(`${label}: site answers after restart`, site.ok, site.detail);
    }

    // A kill between the move into documents/ and the insert leaves a file no row names.
    // That window is too short to hit with a signal, so leave such a file while stopped.
    await server.kill9();
    fs.mkdirSync(path.join(server.storageDir, "documents"), { recursive: true });
    fs.writeFileSync(path.join(server.storageDir, "documents", randomBytes(16).toString("hex")), samplePdf("stray"));
    await server.start();
    tallyAudit(t, "kill between move and insert (file left in documents/)", auditStorage(server));

    // Clients that go away mid-upload, on a running server.
    const aborts = ctx.full ? 100 : 20;
    ctx.progress(`faults: ${aborts} client aborts mid-upload`);
    cookie = await signIn(server, adminEmail("upload"), ADMIN.password);
    const rssBefore = rssKb(server.pid());
    const logFrom = server.logLines().length;
    const exitsBefore = server.unexpectedExits();
    const cutAt: number[] = [];
    let next = 0;
    const worker = async () => {
      while (next < aborts) {
        next += 1;
        const share = 0.02 + Math.random() * 0.96;
        cutAt.push(share);
        const up = upload(server, cookie, body);
        await up.sendTo(Math.round(share * body.body.length));
        await sleep(Math.random() * 30);
        up.abort();
        await up.outcome;
      }
    };
    const abortStarted = Date.now();
    await Promise.all(Array.from({ length: 4 }, worker));
    const abortMs = Date.now() - abortStarted;
    const settleMs = await waitUntil(() => auditStorage(server).incoming.length === 0, 15_000);
    const audit = auditStorage(server);
    const follow = await siteAnswers(server, cookie);
    const rssAfter = rssKb(server.pid());
    const label = `${aborts} client aborts`;
    t.info(`${label}: cut at`, `${(100 * Math.min(...cutAt)).toFixed(0)}–${(100 * Math.max(...cutAt)).toFixed(0)}% of the body, ${seconds(abortMs)}`);
    t.count(`${label}: files left in incoming/`, audit.incoming.length, 0, `after ${settleMs < 0 ? "15 s (timed out)" : `${settleMs} ms`}: ${audit.incoming.join(", ")}`);
    t.info(`${label}: incoming/ empty after`, settleMs < 0 ? "not within 15 s" : `${settleMs} ms`);
    tallyAudit(t, label, audit);
    t.count(`${label}: document rows`, audit.rows, 1, "no aborted upload may become a document");
    t.count(`${label}: 5xx logged`, logged5xx(server, logFrom).length, 0, logged5xx(server, logFrom).slice(0, 3).join(" | "));
    t.check(`${label}: follow-up requests answer 200`, follow.ok, follow.detail);
    t.count(`${label}: process exits`, server.unexpectedExits() - exitsBefore, 0);
    t.info(`${label}: RSS before → after`, `${mb(rssBefore * 1024)} → ${mb(rssAfter * 1024)}`);
  } finally {
    await server.stop();
  }
}

// ─── 2. SMTP down during user actions ───────────────────────────────────────

async function smtpOutage(ctx: Context, t: Tally) {
  const catcher = await startMailCatcher(ctx);
  const inbox = "inbox@faults.example";
  const server = await startServer(ctx, { name: "faults-mail", env: { SMTP_URL: catcher.smtpUrl, FIRM_INBOX: inbox } });
  try {
    createAdmin(server, adminEmail("mail"), ADMIN.password);
    const admin = await signIn(server, adminEmail("mail"), ADMIN.password);
    const investor = { email: "investor@faults.example", password: "Investor-passphrase-2024!", name: "Fault Investor" };
    const registered = await request(server.url, "POST", "/api/auth/register", jsonBody(investor));
    if (registered.status !== 201) throw new Error(`register: ${registered.status} ${registered.text}`);
    // The address is confirmed with the link the mail carries (it arrives over SMTP too), then the request reaches the admins.
    const confirmMail = await catcher.waitFor((m) => m.envelopeTo.includes(investor.email) && /\/lp\/register\/confirm\?token=/.test(m.text), 30_000);
    const confirmToken = /\/lp\/register\/confirm\?token=([A-Za-z0-9_-]{43})/.exec(confirmMail.text)![1]!;
    const confirmed = await request(server.url, "POST", `/lp/register/confirm?token=${confirmToken}`, formBody({ password: investor.password }));
    if (confirmed.status !== 303) throw new Error(`confirm: ${confirmed.status} ${confirmed.text.slice(0, 200)}`);
    // With SMTP up, the admins' notice arrives: the mail path works before the outage.
    const upMs = await waitUntil(() => catcher.mails.some((m) => m.envelopeTo.includes(adminEmail("mail"))), 30_000);
    t.check("SMTP up: admin notice of a registration arrives", upMs >= 0, "no mail within 30 s with SMTP up");
    const pending = await request(server.url, "GET", "/api/auth/pending-users", { headers: { cookie: admin } });
    const investorId = (JSON.parse(pending.text) as Array<{ id: string; email: string }>).find((u) => u.email === investor.email)?.id;
    if (!investorId) throw new Error(`investor not pending: ${pending.status} ${pending.text.slice(0, 200)}`);

    await catcher.down();
    const downAt = Date.now();
    const caughtBefore = catcher.mails.length;
    ctx.progress("faults: SMTP down; approval, Fund II request, pitch");
    const approval = await request(server.url, "PATCH", `/api/auth/users/${investorId}/status`, {
      headers: { "content-type": "application/json", cookie: admin },
      body: JSON.stringify({ status: "approved" }),
    });
    const fundTwo = await request(
      server.url,
      "POST",
      "/api/fund-access/register",
      jsonBody({ name: "Fault Requester", email: "fund2@faults.example", fundId: "fund-ii", accreditedConfirmation: true }),
    );
    const pitch = await request(
      server.url,
      "POST",
      "/api/pitch",
      jsonBody({ name: "Fault Founder", email: "founder@faults.example", company: "Faultline Labs", stage: "Seed", message: "SMTP is down." }),
    );
    t.count("SMTP down: investor approval answers", approval.status, 200, approval.text.slice(0, 160));
    t.count("SMTP down: Fund II request answers", fundTwo.status, 201, fundTwo.text.slice(0, 160));
    t.count("SMTP down: pitch answers", pitch.status, 201, pitch.text.slice(0, 160));

    const expected = [
      { what: "approval", to: investor.email, subject: /investor portal access is approved/ },
      { what: "Fund II link", to: "fund2@faults.example", subject: /Deeptech Fund II documents access link/ },
      { what: "pitch to the firm", to: inbox, subject: /^New pitch: Faultline Labs \(Seed\)$/ },
      { what: "pitch acknowledgement", to: "founder@faults.example", subject: /^We received your pitch/ },
    ];
    // The immediate send is tried and fails: each mail is pending with an error recorded.
    const outbox = () => {
      const db = openDatabase(server);
      try {
        return db.prepare('select "to", subject, status, attempts, last_error, next_attempt_at from email_outbox').all() as Array<{
          to: string;
          subject: string;
          status: string;
          attempts: number;
          last_error: string | null;
          next_attempt_at: number;
        }>;
      } finally {
        db.close();
      }
    };
    const rowsOf = (e: (typeof expected)[number]) => outbox().filter((r) => r.to === e.to && e.subject.test(r.subject));
    const failedMs = await waitUntil(() => expected.every((e) => rowsOf(e).some((r) => r.status === "pending" && r.attempts >= 1)), 15_000, 200);
    const tried = expected.map((e) => {
      const row = rowsOf(e)[0];
      return `${e.what}: ${row ? `${row.status}, ${row.attempts} attempt(s), retry in ${seconds(row.next_attempt_at - Date.now())}` : "not queued"}`;
    });
    t.check("SMTP down: each send tried and failed, mail kept pending", failedMs >= 0, tried.join("; "));
    t.count("SMTP down: mails arriving while down", catcher.mails.length - caughtBefore, 0);

    await catcher.up();
    const upAt = Date.now();
    ctx.progress("faults: SMTP back up; waiting for the retries (up to 90 s)");
    const arrived = (e: (typeof expected)[number]) => catcher.mails.filter((m) => m.envelopeTo.includes(e.to) && e.subject.test(m.subject));
    const allMs = await waitUntil(() => expected.every((e) => arrived(e).length > 0), 90_000, 250);
    await sleep(2_000); // a duplicate would come right behind
    for (const e of expected) t.count(`SMTP back: ${e.what} mails`, arrived(e).length, 1, `within ${seconds(Date.now() - upAt)} of SMTP coming back`);
    t.info("SMTP back: all four delivered after", allMs < 0 ? "not within 90 s" : `${seconds(allMs)} (SMTP down ${seconds(upAt - downAt)})`);
    const link = arrived(expected[1]!)[0];
    t.check(
      "SMTP back: Fund II mail carries its link",
      !!link && /\/fund-ii\/documents\?token=[A-Za-z0-9_-]{20,}/.test(link.text),
      link ? link.text.slice(0, 200) : "no mail",
    );
    const stillPending = outbox().filter((r) => r.status === "pending").length;
    t.count("SMTP back: mails still pending in the outbox", stillPending, 0);
    t.note(
      "mail retry: a failed send waits 30 s × 2^(attempts−1) (cap 1 h), picked up by the 30 s worker tick: after a short outage a mail arrives 30–60 s after its first failure.",
    );
  } finally {
    await server.stop();
    await catcher.stop();
  }
}

// ─── 3. kill -9 under concurrent writes ─────────────────────────────────────

async function killUnderWrites(ctx: Context, t: Tally) {
  const server = await startServer(ctx, { name: "faults-writes", env: { TRUST_PROXY: "1" } });
  const rounds = ctx.full ? 5 : 3;
  let address = 0;
  const nextAddress = () => {
    address += 1;
    return `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
  };
  let committedTotal = 0;
  let lostTotal = 0;
  let failedBefore = 0;
  let unexpected = 0;
  const integrity: string[] = [];
  const roundNotes: string[] = [];
  try {
    for (let round = 1; round <= rounds; round++) {
      ctx.progress(`faults: kill -9 under writes, round ${round}/${rounds}`);
      const committed: Array<{ table: "newsletter_subscribers" | "pitch_submissions"; email: string }> = [];
      let killed = false;
      let stop = false;
      let cutOff = 0;
      const odd: string[] = [];
      const client = async (c: number) => {
        for (let i = 1; !stop; i++) {
          const email = `r${round}-c${c}-n${i}@faults.example`;
          const pitch = i % 2 === 0;
          const payload = pitch
            ? jsonBody({ name: "Fault Founder", email, company: `Company ${round}-${c}-${i}`, stage: "Seed", message: "Written under kill -9." })
            : jsonBody({ email });
          try {
            const res = await request(server.url, "POST", pitch ? "/api/pitch" : "/api/newsletter", {
              headers: { ...payload.headers, "x-forwarded-for": nextAddress() },
              body: payload.body,
              timeoutMs: 15_000,
            });
            if (res.status >= 200 && res.status < 300) committed.push({ table: pitch ? "pitch_submissions" : "newsletter_subscribers", email });
            else odd.push(`${res.status} ${res.text.slice(0, 80)}`);
          } catch (error) {
            if (killed) cutOff += 1;
            else odd.push(`error before the kill: ${(error as Error).message}`);
            if (killed) return;
          }
        }
      };
      const clients = Array.from({ length: 8 }, (_, c) => client(c));
      const killAfter = 20 + Math.floor(Math.random() * 150);
      await waitUntil(() => committed.length >= killAfter, 30_000, 5);
      killed = true;
      await server.kill9();
      stop = true;
      await Promise.all(clients);
      const restartStarted = Date.now();
      await server.start();
      const restartMs = Date.now() - restartStarted;

      const db = openDatabase(server);
      let lost: string[];
      try {
        integrity.push(String(db.pragma("integrity_check", { simple: true })));
        const present = new Set<string>([
          ...(db.prepare("select email from newsletter_subscribers").all() as Array<{ email: string }>).map((r) => r.email),
          ...(db.prepare("select email from pitch_submissions").all() as Array<{ email: string }>).map((r) => r.email),
        ]);
        lost = committed.filter((w) => !present.has(w.email)).map((w) => `${w.table}:${w.email}`);
      } finally {
        db.close();
      }
      committedTotal += committed.length;
      lostTotal += lost.length;
      failedBefore += odd.filter((o) => o.startsWith("error")).length;
      unexpected += odd.filter((o) => !o.startsWith("error")).length;
      roundNotes.push(
        `round ${round}: ${committed.length} committed, ${cutOff} failed at the kill, ${lost.length} lost, restart ${seconds(restartMs)}${odd.length ? `; odd: ${odd.slice(0, 3).join(" | ")}` : ""}${lost.length ? `; lost: ${lost.slice(0, 3).join(", ")}` : ""}`,
      );
    }
  } finally {
    await server.stop();
  }
  const label = `kill -9 under 8 writers ×${rounds}`;
  t.check(`${label}: integrity_check ok`, integrity.length === rounds && integrity.every((r) => r === "ok"), integrity.join(", "));
  t.info(`${label}: writes answered 2xx`, committedTotal);
  t.count(`${label}: answered writes lost`, lostTotal, 0);
  t.count(`${label}: non-2xx answers before the kill`, unexpected, 0, "rate limits or errors while the server ran");
  t.count(`${label}: failed requests before the kill`, failedBefore, 0);
  t.count(`${label}: process exits`, server.unexpectedExits(), 0);
  for (const line of roundNotes) t.note(`writes: ${line}`);
}

// ─── 4. disk full in STORAGE_DIR ────────────────────────────────────────────

async function diskFull(ctx: Context, t: Tally) {
  const mountDir = path.join(ctx.tmpRoot, "faults-tmpfs");
  fs.mkdirSync(mountDir, { recursive: true });
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=8m", "tmpfs", mountDir], { stdio: "pipe" });
  } catch (error) {
    const why = ((error as { stderr?: Buffer }).stderr?.toString() || (error as Error).message).trim();
    t.info("disk full: check", "SKIPPED (not passed)");
    t.note(`disk-full check SKIPPED, not passed: could not mount an 8 MB tmpfs (${why}); it needs root (CAP_SYS_ADMIN).`);
    return;
  }
  let server: AppServer | null = null;
  try {
    server = await startServer(ctx, { name: "faults-disk", env: { STORAGE_DIR: mountDir } });
    const live = server;
    createAdmin(live, adminEmail("disk"), ADMIN.password);
    const cookie = await signIn(live, adminEmail("disk"), ADMIN.password);
    const small = (title: string) =>
      upload(live, cookie, multipartBody(lpFields(title), { name: "small.pdf", type: PDF, data: samplePdf(title, 200 * 1024) }), HANG_MS).finish();
    const clear = (o: UploadOutcome) => {
      if (o.kind !== "answer" || o.status < 400) return false;
      let message = "";
      try {
        message = String((JSON.parse(o.text) as { error?: unknown }).error ?? "");
      } catch {
        message = o.text;
      }
      // A message that names the cause, not the generic "Something went wrong" of an unknown error.
      return /space|storage|disk|full|capacity|room|quota|insufficient/i.test(message);
    };

    // (a) a 20 MB upload into 8 MB.
    ctx.progress("faults: 20 MB upload into an 8 MB STORAGE_DIR");
    const exitsBefore = live.unexpectedExits();
    const big = await upload(live, cookie, multipartBody(lpFields("Disk full"), { name: "twenty.pdf", type: PDF, data: samplePdf("Disk full", 20 * MB) }), HANG_MS).finish();
    t.check("disk full, 20 MB into 8 MB: answered (no hang, no crash)", big.kind === "answer" && live.running(), describe(big));
    t.info("disk full, 20 MB into 8 MB: the user sees", `${describe(big).slice(0, 120)} (${seconds(big.ms)})`);
    t.check("disk full, 20 MB into 8 MB: error names the cause", clear(big), `answered ${describe(big)}`);
    await waitUntil(() => incomingSize(live) < 0, 5_000);
    const afterA = auditStorage(live);
    t.count("disk full, 20 MB into 8 MB: files left in incoming/", afterA.incoming.length, 0, `${afterA.incoming.join(", ")} still there 5 s after the answer`);
    if (afterA.incoming.length > 0) t.note("disk full: the partial 20 MB upload still fills the disk, so the steps after it fail for that reason too.");
    t.count("disk full, 20 MB into 8 MB: document rows", afterA.rows, 0);
    const okA = await small("After the failure");
    t.count("disk full: small upload afterwards", okA.kind === "answer" ? okA.status : 0, 201, describe(okA));

    // (b) a small upload into a disk that is already full, then again once space is freed.
    const filler = path.join(mountDir, "filler");
    const fd = fs.openSync(filler, "w");
    try {
      const block = Buffer.alloc(MB);
      for (;;) fs.writeSync(fd, block);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
    } finally {
      fs.closeSync(fd);
    }
    const full = await small("Into a full disk");
    t.check("disk full, 200 KB into a full disk: answered", full.kind === "answer" && live.running(), describe(full));
    t.info("disk full, 200 KB into a full disk: the user sees", describe(full).slice(0, 120));
    t.check("disk full, 200 KB into a full disk: error names the cause", clear(full), `answered ${describe(full)}`);
    await waitUntil(() => incomingSize(live) < 0, 5_000);
    t.count("disk full, 200 KB into a full disk: files left in incoming/", auditStorage(live).incoming.length, 0);
    fs.rmSync(filler);
    const okB = await small("After freeing space");
    t.count("disk full: small upload after freeing space", okB.kind === "answer" ? okB.status : 0, 201, describe(okB));

    const health = await request(live.url, "GET", "/healthz");
    t.check("disk full: server still runs", health.status === 200 && live.running(), `healthz ${health.status}`);
    t.count("disk full: process exits", live.unexpectedExits() - exitsBefore, 0);
    const final = auditStorage(live);
    tallyAudit(t, "disk full", final);
    t.count("disk full: document rows (the two small uploads)", final.rows, 2);
  } finally {
    await server?.stop();
    try {
      execFileSync("umount", [mountDir], { stdio: "pipe" });
    } catch {
      try {
        execFileSync("umount", ["-l", mountDir], { stdio: "pipe" });
      } catch (error) {
        t.note(`could not unmount ${mountDir}: ${(error as Error).message}`);
      }
    }
  }
}
