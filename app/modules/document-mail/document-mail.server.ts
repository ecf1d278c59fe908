import { and, eq, gt, inArray, ne, sql } from "drizzle-orm";
import { getDb, type Db } from "~/modules/db/connection.server";
import { documentReminders, lpUsers, type documents } from "../../../db/schema";
import { documentMailCopy, documentMails, type MailedDocument } from "../../content/document-mail";
import { audit, type AuditActor } from "../audit/audit.server";
import type { LpUser } from "../auth/session.server";
import { getEnv } from "../config/env.server";
import { publicDate } from "../dates/format";
import { addressees } from "../documents/addressees.server";
import { categoryLabel } from "../documents/constants";
import { AppError } from "../http/app-error";
import { queueMails, type OutgoingMail } from "../mail/mail.server";
import type { DocumentMailPreference } from "./schema";
import { unsubscribeUrl, userIdFromUnsubscribeToken } from "./token.server";

/**
 * New-document e-mails (issue 15 §2, §4): the notice of each new LP document
 * to the investors it is addressed to, the reminder an admin sends, the
 * investor's preference (each, weekly, none) and the one-click unsubscribe.
 * The weekly digest is in digest.server.ts. Every such mail carries
 * List-Unsubscribe (RFC 8058 one-click); its link is a mail secret, so the
 * outbox never holds it. Queue functions take the caller's transaction; the
 * caller kicks the mailer after the commit.
 */

type Tx = Pick<Db, "select" | "insert" | "update">;
export type LpDocument = typeof documents.$inferSelect;
type Recipient = Pick<LpUser, "id" | "email" | "name">;

/** Who receives document mail at all: approved investors. Admins never do; pending and rejected accounts neither. */
export const isInvestor = and(eq(lpUsers.status, "approved"), eq(lpUsers.isAdmin, false));

export const recipientColumns = { id: lpUsers.id, email: lpUsers.email, name: lpUsers.name };

/** A document as the mails name it. */
export function mailedDocument(doc: Pick<LpDocument, "title" | "category" | "createdAt">): MailedDocument {
  return { title: doc.title, category: categoryLabel(doc.category), date: publicDate(doc.createdAt) };
}

/** The List-Unsubscribe pair (RFC 2369, RFC 8058) and the link they and the text name, sealed as a mail secret. */
const LIST_UNSUBSCRIBE = {
  "List-Unsubscribe": "<{{unsubscribe}}>",
  "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
} as const;

/** A mail to many, to one investor: the text and subject, the unsubscribe link and headers. */
export function mailToInvestor(to: Recipient, mail: { subject: string; text: string }): OutgoingMail {
  return { to: to.email, ...mail, secrets: { unsubscribe: unsubscribeUrl(to.id) }, headers: { ...LIST_UNSUBSCRIBE } };
}

/**
 * Queue the new-document notice to every investor the document is addressed
 * to who wants each new document: audience 'all' is every approved investor,
 * 'selected' its addressees (decision 025's rule, `addressees`: the chosen
 * investors and the current members of the chosen entities), each person once
 * however often they are addressed, approved investors only. Call it in the
 * publishing transaction, after the document and its recipients are inserted.
 * One SELECT, then multi-row INSERTs. Returns how many were queued.
 */
export function queueNewDocumentMails(tx: Tx, doc: LpDocument, options: { except?: ReadonlySet<string> } = {}): number {
  const wanted = and(isInvestor, eq(lpUsers.documentMail, "each"));
  const people =
    doc.audience === "all"
      ? tx.select(recipientColumns).from(lpUsers).where(wanted).all()
      : // CROSS JOIN: SQLite walks the addressees and looks each account up, never every account.
        tx
          .select(recipientColumns)
          .from(sql`(${addressees("user", { documentId: doc.id })}) as addressed`)
          .crossJoin(lpUsers)
          .where(and(sql`${lpUsers.id} = addressed.user_id`, wanted))
          .all();
  const facts = mailedDocument(doc);
  const appUrl = getEnv().APP_URL;
  const told = people.filter((person) => !options.except?.has(person.email));
  queueMails(
    tx,
    told.map((person) => ({ ...mailToInvestor(person, documentMails.newDocument(person, facts, appUrl)), documentId: doc.id })),
  );
  return told.length;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Ids per IN (…) list: far below SQLite's bound-parameter limit however many investors are named. */
const IN_CHUNK = 500;

function chunks<T>(items: readonly T[], size = IN_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Remind these investors of a document (the caller picks those who have not
 * opened it). Each approved investor who has not turned new-document e-mails
 * off gets "A document is waiting for you", unless a reminder about this
 * document went to them in the last 24 hours; the others count as skipped.
 * Records the sending time per (document, investor) and writes one
 * `document.reminders_sent` audit row, all in the caller's transaction.
 */
export function queueDocumentReminders(
  tx: Tx,
  admin: AuditActor,
  doc: Pick<LpDocument, "id" | "title" | "category" | "createdAt">,
  userIds: readonly string[],
  now: Date,
): { queued: number; skipped: number } {
  const named = [...new Set(userIds)];
  const recent = new Set<string>();
  const people: Recipient[] = [];
  for (const ids of chunks(named)) {
    for (const row of tx
      .select({ userId: documentReminders.userId })
      .from(documentReminders)
      .where(and(eq(documentReminders.documentId, doc.id), inArray(documentReminders.userId, ids), gt(documentReminders.sentAt, new Date(now.getTime() - DAY_MS))))
      .all()) {
      recent.add(row.userId);
    }
    people.push(...tx.select(recipientColumns).from(lpUsers).where(and(inArray(lpUsers.id, ids), isInvestor, ne(lpUsers.documentMail, "none"))).all());
  }
  const due = people.filter((person) => !recent.has(person.id));
  const facts = mailedDocument(doc);
  const appUrl = getEnv().APP_URL;
  queueMails(
    tx,
    due.map((person) => ({ ...mailToInvestor(person, documentMails.reminder(person, facts, appUrl)), documentId: doc.id })),
  );
  for (const batch of chunks(due)) {
    tx.insert(documentReminders)
      .values(batch.map((person) => ({ documentId: doc.id, userId: person.id, sentAt: now })))
      .onConflictDoUpdate({ target: [documentReminders.documentId, documentReminders.userId], set: { sentAt: sql`excluded.sent_at` } })
      .run();
  }
  const result = { queued: due.length, skipped: named.length - due.length };
  audit(tx, "document.reminders_sent", { actor: admin, target: { type: "document", id: doc.id, label: doc.title }, details: result });
  return result;
}

/**
 * Set an investor's new-document e-mail preference, from the account page or
 * an unsubscribe link, with its `user.document_mail_changed` audit row in the
 * same transaction. Nothing is written when it is unchanged; returns whether
 * it changed. Admins receive no document mail, so they have no preference to set.
 */
export function setDocumentMailPreference(
  user: Pick<LpUser, "id" | "email" | "isAdmin">,
  preference: DocumentMailPreference,
  via: "account" | "unsubscribe",
  db: Db = getDb(),
): boolean {
  if (user.isAdmin && via === "account") throw new AppError("forbidden", documentMailCopy.adminsGetNone);
  return db.transaction((tx) => {
    const row = tx.select({ documentMail: lpUsers.documentMail }).from(lpUsers).where(eq(lpUsers.id, user.id)).get();
    if (!row || row.documentMail === preference) return false;
    tx.update(lpUsers).set({ documentMail: preference }).where(eq(lpUsers.id, user.id)).run();
    audit(tx, "user.document_mail_changed", {
      // An unsubscribe link is used without signing in: the holder of the link is not named as the actor.
      actor: via === "account" ? { id: user.id, email: user.email } : null,
      target: { type: "user", id: user.id, label: user.email },
      details: { userId: user.id, from: row.documentMail, to: preference, via },
    });
    return true;
  });
}

/**
 * The one-click unsubscribe: a valid token turns its investor's new-document
 * e-mails off (again: a replay changes nothing). Returns false when the token
 * is not one this server signed, or its account is gone; then nothing changes.
 */
export function unsubscribeWithToken(token: unknown, db: Db = getDb()): boolean {
  const userId = userIdFromUnsubscribeToken(token);
  if (!userId) return false;
  const user = db.select({ id: lpUsers.id, email: lpUsers.email, isAdmin: lpUsers.isAdmin }).from(lpUsers).where(eq(lpUsers.id, userId)).get();
  if (!user) return false;
  setDocumentMailPreference(user, "none", "unsubscribe", db);
  return true;
}

/** Whether an unsubscribe token is valid for an existing account (the page's GET). */
export function isUnsubscribeTokenValid(token: unknown, db: Db = getDb()): boolean {
  const userId = userIdFromUnsubscribeToken(token);
  return !!userId && !!db.select({ id: lpUsers.id }).from(lpUsers).where(eq(lpUsers.id, userId)).get();
}
