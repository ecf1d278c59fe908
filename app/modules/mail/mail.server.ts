import { and, asc, count, eq, gt, gte, lte, min, sql } from "drizzle-orm";
import nodemailer, { type Transporter } from "nodemailer";
import { getDb, type Db } from "~/modules/db/connection.server";
import { emailOutbox } from "../../../db/schema";
import { getEnv } from "../config/env.server";
import { processWide } from "../config/process-wide.server";
import { fillSecrets, openSecrets, sealSecrets, type MailSecrets } from "./mail-secrets.server";
import { log, logError } from "../logging/log.server";

/**
 * Mail goes through the outbox table: the business row and its mails are
 * committed together, then delivered. A failed send stays `pending` and is
 * retried with backoff, so an SMTP outage never fails or loses a request.
 * Without SMTP_URL, mails are written to the log and marked `logged`.
 * Secrets (access links) are kept encrypted until sending and then erased;
 * see mail-secrets.server.ts. Delivery keeps to MAIL_RATE_PER_MINUTE: a run
 * stops when the last minute's budget is spent and wakes when room frees up,
 * so a publish to hundreds of investors trickles out in the order it was queued.
 */
export type OutgoingMail = {
  to: string;
  subject: string;
  /** May refer to `secrets` as {{name}}. */
  text: string;
  secrets?: MailSecrets;
  /**
   * Extra headers (List-Unsubscribe and List-Unsubscribe-Post on mail sent to
   * many); values are kept on one line and may refer to `secrets` as {{name}} too.
   */
  headers?: Record<string, string>;
  /** The LP document the mail is about: dropped while pending if the document goes or its audience changes. */
  documentId?: string;
};

type DbOrTx = Pick<Db, "insert">;

/** Header values never carry line breaks (no header injection through names). */
function singleLine(value: string): string {
  return value.replace(/[\r\n\u2028\u2029]+/g, " ").trim();
}

/** A header name as RFC 5322 allows it (printable ASCII but the colon); anything else is a bug in the caller. */
const HEADER_NAME = /^[!-9;-~]+$/;

function headersJson(headers: Record<string, string> | undefined): string | null {
  if (!headers) return null;
  const entries = Object.entries(headers).map(([name, value]) => {
    if (!HEADER_NAME.test(name)) throw new Error(`invalid mail header name: ${JSON.stringify(name)}`);
    return [name, singleLine(value)] as const;
  });
  return entries.length ? JSON.stringify(Object.fromEntries(entries)) : null;
}

function readHeaders(json: string | null): Record<string, string> | undefined {
  if (!json) return undefined;
  return JSON.parse(json) as Record<string, string>;
}

/** Rows per INSERT when queueing many mails (well below SQLite's bound-parameter limit). */
const INSERT_CHUNK = 200;

/** Queue a mail in the same transaction as the row it is about. */
export function queueMail(db: DbOrTx, mail: OutgoingMail) {
  queueMails(db, [mail]);
}

/** Queue many mails (a notice to every investor) in a few multi-row INSERTs, in the caller's transaction. */
export function queueMails(db: DbOrTx, mails: readonly OutgoingMail[]) {
  const nextAttemptAt = new Date();
  for (let start = 0; start < mails.length; start += INSERT_CHUNK) {
    db.insert(emailOutbox)
      .values(
        mails.slice(start, start + INSERT_CHUNK).map((mail) => ({
          to: singleLine(mail.to),
          subject: singleLine(mail.subject),
          text: mail.text,
          secretsEnc: mail.secrets ? sealSecrets(mail.secrets) : null,
          headers: headersJson(mail.headers),
          documentId: mail.documentId ?? null,
          nextAttemptAt,
        })),
      )
      .run();
  }
}

/**
 * Drop the mails about a document that are still waiting to be sent (it was
 * deleted, or its audience changed), and answer to whom its mails already went.
 */
export function dropPendingDocumentMail(db: Pick<Db, "select" | "delete">, documentId: string): { alreadySentTo: Set<string> } {
  db.delete(emailOutbox)
    .where(and(eq(emailOutbox.documentId, documentId), eq(emailOutbox.status, "pending")))
    .run();
  const sent = db.select({ to: emailOutbox.to }).from(emailOutbox).where(eq(emailOutbox.documentId, documentId)).all();
  return { alreadySentTo: new Set(sent.map((m) => m.to)) };
}

/**
 * How many mails with this subject went to this address since `since`: lets
 * mails that strangers can trigger (acknowledgements, reset links) be capped
 * per recipient, so the site cannot be used to flood someone's inbox.
 */
export function recentMailCount(db: Pick<Db, "select">, to: string, subject: string, since: Date): number {
  const row = db
    .select({ n: count() })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.to, singleLine(to)), eq(emailOutbox.subject, singleLine(subject)), gte(emailOutbox.createdAt, since)))
    .get();
  return row?.n ?? 0;
}

/** recentMailCount for mails whose subject starts with `prefix` (a subject that names someone, e.g. a new request's). */
export function recentMailCountWithPrefix(db: Pick<Db, "select">, to: string, prefix: string, since: Date): number {
  const start = singleLine(prefix);
  const row = db
    .select({ n: count() })
    .from(emailOutbox)
    .where(
      and(
        eq(emailOutbox.to, singleLine(to)),
        sql`substr(${emailOutbox.subject}, 1, ${start.length}) = ${start}`,
        gte(emailOutbox.createdAt, since),
      ),
    )
    .get();
  return row?.n ?? 0;
}

const MAX_BACKOFF_MS = 60 * 60 * 1000;

export function backoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, 30_000 * 2 ** Math.max(0, attempts - 1));
}

/**
 * The outbox's delivery state: the SMTP transport (made on first use), the run
 * in progress, and whether a kick arrived during it.
 */
const mailer = processWide("mail.state", () => ({
  transport: undefined as Transporter | null | undefined,
  running: null as Promise<number> | null,
  again: false,
  /** The kick set for when the send rate has room again (see deliverDue). */
  wake: null as { at: number; timer: NodeJS.Timeout } | null,
}));

function transport(): Transporter | null {
  if (mailer.transport === undefined) {
    const url = getEnv().SMTP_URL;
    // One pooled connection, reused for up to 100 messages: a publish to many
    // investors does not open a connection (and say EHLO) per mail. The URL's own
    // parameters win over these.
    mailer.transport = url ? nodemailer.createTransport({ url, pool: true, maxConnections: 1, maxMessages: 100 }) : null;
  }
  return mailer.transport;
}

/** For tests: use this transport (or none) instead of SMTP_URL's. */
export function setMailTransportForTests(value: Transporter | null | undefined) {
  mailer.transport = value;
}

const BATCH = 50;
/** How long a mail being sent stays claimed by the process sending it. */
const CLAIM_MS = 5 * 60_000;
const RATE_WINDOW_MS = 60_000;

/**
 * Deliver every due mail once, in batches of 50 until none is due (a failed
 * send moves its next attempt into the future) or the send rate's budget is
 * spent. Returns how many left the outbox.
 */
export async function deliverDueMail(db: Db = getDb(), now = new Date()): Promise<number> {
  return (await deliverDue(db, now)).delivered;
}

/**
 * The mails sent (or logged) in the minute before `at`, and the oldest of
 * them: a range of email_outbox_sent_at_idx. The unary + keeps SQLite from
 * walking the status index instead (every mail ever sent) for the status test.
 */
function sentInLastMinute(db: Db, at: Date): { sent: number; oldest: Date | null } {
  const row = db
    .select({ sent: count(), oldest: min(emailOutbox.sentAt) })
    .from(emailOutbox)
    .where(and(gt(emailOutbox.sentAt, new Date(at.getTime() - RATE_WINDOW_MS)), sql`+${emailOutbox.status} in ('sent', 'logged')`))
    .get();
  return { sent: row?.sent ?? 0, oldest: row?.oldest ?? null };
}

function anyDue(db: Db, now: Date): boolean {
  return !!db
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.status, "pending"), lte(emailOutbox.nextAttemptAt, now)))
    .limit(1)
    .get();
}

/**
 * One delivery run. `now` decides what is due and the backoff (as before); the
 * run's clock starts at `now` and follows real time, and stamps `sent_at`,
 * which the rate counts. When the budget is spent with mail still due, the
 * answer says when the oldest send of the window leaves it.
 */
async function deliverDue(db: Db, now: Date): Promise<{ delivered: number; wakeAt: Date | null }> {
  const started = Date.now();
  const clock = () => new Date(now.getTime() + (Date.now() - started));
  const rate = getEnv().MAIL_RATE_PER_MINUTE;
  let delivered = 0;
  for (;;) {
    const at = clock();
    const window = sentInLastMinute(db, at);
    const room = rate - window.sent;
    if (room <= 0) {
      if (!anyDue(db, now)) return { delivered, wakeAt: null };
      const leaves = (window.oldest ?? at).getTime() + RATE_WINDOW_MS;
      return { delivered, wakeAt: new Date(Math.max(leaves, at.getTime()) + 1) };
    }
    const limit = Math.min(BATCH, room);
    const batch = await deliverBatch(db, now, clock, limit);
    delivered += batch.delivered;
    if (batch.fetched < limit) return { delivered, wakeAt: null };
  }
}

async function deliverBatch(db: Db, now: Date, clock: () => Date, limit: number): Promise<{ fetched: number; delivered: number }> {
  const due = db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.status, "pending"), lte(emailOutbox.nextAttemptAt, now)))
    .orderBy(asc(emailOutbox.createdAt))
    .limit(limit)
    .all();
  let delivered = 0;
  const smtp = transport();
  for (const mail of due) {
    // Claim the mail before sending it: another process (two servers on one database)
    // that read the same row finds its attempt time moved and skips it. A process that
    // dies mid-send leaves the mail to be tried again once the claim lapses.
    const claimed = db
      .update(emailOutbox)
      .set({ nextAttemptAt: new Date(Math.max(now.getTime(), clock().getTime()) + CLAIM_MS) })
      .where(and(eq(emailOutbox.id, mail.id), eq(emailOutbox.status, "pending"), eq(emailOutbox.nextAttemptAt, mail.nextAttemptAt)))
      .run();
    if (claimed.changes === 0) continue;
    let text = mail.text;
    let headers = readHeaders(mail.headers);
    try {
      if (mail.secretsEnc) {
        const secrets = openSecrets(mail.secretsEnc);
        text = fillSecrets(mail.text, secrets);
        if (headers) headers = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, fillSecrets(value, secrets)]));
      }
    } catch {
      // Sealed under another SESSION_SECRET: it can never be sent; keep it out of the queue.
      log("error", "mail secrets unreadable; mail dropped", { mailId: mail.id });
      db.update(emailOutbox)
        .set({ status: "logged", secretsEnc: null, lastError: "secrets unreadable (SESSION_SECRET changed?)" })
        .where(eq(emailOutbox.id, mail.id))
        .run();
      continue;
    }
    if (!smtp) {
      // No SMTP (development): the log is the inbox, so a newcomer can follow the link. In
      // production the secrets stay out of the log.
      const production = getEnv().NODE_ENV === "production";
      const shown = production ? mail.text : text;
      const shownHeaders = production ? readHeaders(mail.headers) : headers;
      console.log(
        JSON.stringify({
          level: "info",
          msg: "mail (no SMTP_URL; logged, not sent)",
          to: mail.to,
          subject: mail.subject,
          ...(shownHeaders ? { headers: shownHeaders } : {}),
          text: shown,
        }),
      );
      db.update(emailOutbox)
        .set({ status: "logged", sentAt: clock(), attempts: mail.attempts + 1, secretsEnc: null })
        .where(eq(emailOutbox.id, mail.id))
        .run();
      delivered++;
      continue;
    }
    try {
      await smtp.sendMail({ from: getEnv().MAIL_FROM, to: mail.to, subject: mail.subject, text, ...(headers ? { headers } : {}) });
      db.update(emailOutbox)
        .set({ status: "sent", sentAt: clock(), attempts: mail.attempts + 1, lastError: null, secretsEnc: null })
        .where(eq(emailOutbox.id, mail.id))
        .run();
      delivered++;
    } catch (error) {
      const attempts = mail.attempts + 1;
      db.update(emailOutbox)
        .set({
          attempts,
          lastError: error instanceof Error ? error.message.slice(0, 500) : String(error),
          nextAttemptAt: new Date(now.getTime() + backoffMs(attempts)),
        })
        .where(eq(emailOutbox.id, mail.id))
        .run();
      log("warn", "mail send failed; will retry", { mailId: mail.id, attempts });
    }
  }
  return { fetched: due.length, delivered };
}

/**
 * Kick the mailer at `at` (the send rate has room again then). An earlier
 * wake-up already set stands; the timer does not keep the process alive.
 */
function wakeAt(at: Date) {
  const when = at.getTime();
  if (mailer.wake && mailer.wake.at <= when) return;
  cancelMailWake();
  const timer = setTimeout(() => {
    mailer.wake = null;
    kickMailer();
  }, Math.max(0, when - Date.now()));
  timer.unref();
  mailer.wake = { at: when, timer };
}

/** When the mailer will wake for rate-limited mail (null: no wake-up set). */
export function mailWakeAt(): Date | null {
  return mailer.wake ? new Date(mailer.wake.at) : null;
}

/** Drop the rate wake-up (shutdown, tests). */
export function cancelMailWake() {
  if (mailer.wake) clearTimeout(mailer.wake.timer);
  mailer.wake = null;
}

/**
 * Ask for a delivery run soon (after the current request has answered). A
 * kick during a run asks for one more run right after it, so a mail queued
 * meanwhile is not left for the interval worker.
 */
export function kickMailer() {
  if (mailer.running) {
    mailer.again = true;
    return;
  }
  mailer.again = false;
  mailer.running = new Promise<number>((resolve) => {
    setImmediate(() => {
      void deliverDue(getDb(), new Date())
        .then(({ delivered, wakeAt: at }) => {
          if (at) wakeAt(at);
          return delivered;
        })
        .catch((error) => {
          logError(error);
          return 0;
        })
        .then(resolve)
        .finally(() => {
          mailer.running = null;
          if (mailer.again) kickMailer();
        });
    });
  });
}

/** Retry due mail on an interval; returns a stop function. */
export function startMailWorker(intervalMs = 30_000): () => void {
  const timer = setInterval(kickMailer, intervalMs);
  timer.unref();
  kickMailer();
  return () => {
    clearInterval(timer);
    cancelMailWake();
  };
}

/** Wait for a delivery run in progress (graceful shutdown, tests). */
export async function flushMailer() {
  // Follow-up runs (kicks during a run) count too.
  while (mailer.running) await mailer.running;
}
