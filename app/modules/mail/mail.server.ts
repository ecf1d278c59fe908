import { and, asc, count, eq, gte, lte } from "drizzle-orm";
import nodemailer, { type Transporter } from "nodemailer";
import { getDb, type Db } from "../../../db/client";
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
 * see mail-secrets.server.ts.
 */
export type OutgoingMail = {
  to: string;
  subject: string;
  /** May refer to `secrets` as {{name}}. */
  text: string;
  secrets?: MailSecrets;
};

type DbOrTx = Pick<Db, "insert">;

/** Header values never carry line breaks (no header injection through names). */
function singleLine(value: string): string {
  return value.replace(/[\r\n\u2028\u2029]+/g, " ").trim();
}

/** Queue a mail in the same transaction as the row it is about. */
export function queueMail(db: DbOrTx, mail: OutgoingMail) {
  db.insert(emailOutbox)
    .values({
      to: singleLine(mail.to),
      subject: singleLine(mail.subject),
      text: mail.text,
      secretsEnc: mail.secrets ? sealSecrets(mail.secrets) : null,
      nextAttemptAt: new Date(),
    })
    .run();
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
}));

function transport(): Transporter | null {
  if (mailer.transport === undefined) {
    const url = getEnv().SMTP_URL;
    mailer.transport = url ? nodemailer.createTransport(url) : null;
  }
  return mailer.transport;
}

/** For tests: use this transport (or none) instead of SMTP_URL's. */
export function setMailTransportForTests(value: Transporter | null | undefined) {
  mailer.transport = value;
}

const BATCH = 50;

/**
 * Deliver every due mail once, in batches of 50 until none is due (a failed
 * send moves its next attempt into the future). Returns how many left the outbox.
 */
export async function deliverDueMail(db: Db = getDb(), now = new Date()): Promise<number> {
  let delivered = 0;
  for (;;) {
    const batch = await deliverBatch(db, now);
    delivered += batch.delivered;
    if (batch.fetched < BATCH) return delivered;
  }
}

async function deliverBatch(db: Db, now: Date): Promise<{ fetched: number; delivered: number }> {
  const due = db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.status, "pending"), lte(emailOutbox.nextAttemptAt, now)))
    .orderBy(asc(emailOutbox.createdAt))
    .limit(BATCH)
    .all();
  let delivered = 0;
  const smtp = transport();
  for (const mail of due) {
    let text = mail.text;
    try {
      if (mail.secretsEnc) text = fillSecrets(mail.text, openSecrets(mail.secretsEnc));
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
      const shown = getEnv().NODE_ENV === "production" ? mail.text : text;
      console.log(JSON.stringify({ level: "info", msg: "mail (no SMTP_URL; logged, not sent)", to: mail.to, subject: mail.subject, text: shown }));
      db.update(emailOutbox)
        .set({ status: "logged", sentAt: new Date(), attempts: mail.attempts + 1, secretsEnc: null })
        .where(eq(emailOutbox.id, mail.id))
        .run();
      delivered++;
      continue;
    }
    try {
      await smtp.sendMail({ from: getEnv().MAIL_FROM, to: mail.to, subject: mail.subject, text });
      db.update(emailOutbox)
        .set({ status: "sent", sentAt: new Date(), attempts: mail.attempts + 1, lastError: null, secretsEnc: null })
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
      void deliverDueMail()
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
  return () => clearInterval(timer);
}

/** Wait for a delivery run in progress (graceful shutdown, tests). */
export async function flushMailer() {
  // Follow-up runs (kicks during a run) count too.
  while (mailer.running) await mailer.running;
}
