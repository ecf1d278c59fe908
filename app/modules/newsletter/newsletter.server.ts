import { and, eq, isNull, lt, or, type SQL } from "drizzle-orm";
import { getDb, type Db } from "~/modules/db/connection.server";
import { newsletterSubscribers } from "../../../db/schema";
import { newsletterConsent, newsletterMails } from "~/content/newsletter";
import { ALREADY_SUBSCRIBED } from "~/content/validation";
import { audit } from "../audit/audit.server";
import { hashToken, newToken } from "../auth/tokens.server";
import { now } from "../config/clock.server";
import { getEnv } from "../config/env.server";
import { AppError } from "../http/app-error";
import { kickMailer, queueMail, recentMailCount } from "../mail/mail.server";
import { idFromSignedToken, signedId } from "../mail/signed-id.server";
import { CONFIRM_PATH, NEWSLETTER_UNSUBSCRIBE_PATH } from "./paths";
import { ConfirmToken, type NewsletterInput } from "./schema";

/**
 * The newsletter with double opt-in (issue 16):
 *
 * - Subscribing stores a new address as 'pending' and mails a confirmation
 *   link (32 random bytes; only its SHA-256 is kept; valid 7 days). A pending
 *   or unsubscribed address gets the very same answer and a fresh link (the
 *   old one stops working), at most 3 confirmation mails per address in any
 *   24 hours; past that the answer is still the same and nothing is sent. The
 *   answer never says which of the three it was. An unsubscribed address stays
 *   'unsubscribed' until the new link is confirmed. A confirmed address is
 *   SPEC's duplicate (409).
 * - Confirming (a POST: mail scanners prefetch GETs) records the consent: time,
 *   client address, the sign-up page and the sign-up text with its version.
 * - Unsubscribing uses a signed link per subscriber (mail/signed-id.server.ts),
 *   also as RFC 8058 one-click; again is harmless.
 * - Pending addresses whose last link went out over 30 days ago are deleted
 *   daily (purge.server.ts); confirmed and unsubscribed rows are never purged.
 */

export const CONFIRM_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const CONFIRM_MAILS_PER_DAY = 3;
const DAY_MS = 24 * 60 * 60 * 1000;
export const PENDING_RETENTION_MS = 30 * DAY_MS;
const UNSUBSCRIBE_PURPOSE = "newsletter-unsubscribe";

export type SubscriberStatus = "pending" | "confirmed" | "unsubscribed";

/** What a subscribe answers for a new, pending or unsubscribed address alike: nothing that tells them apart. */
export type SubscribeAnswer = { email: string; status: "pending" };

/** The sign-up page kept for the consent record: a local path (no query, at most 200 characters); else the fallback. */
export function consentPageOf(value: unknown, fallback = "/newsletter"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return fallback;
  try {
    const url = new URL(value, "http://local.invalid");
    if (url.origin !== "http://local.invalid" || url.pathname.startsWith("//")) return fallback;
    return url.pathname.slice(0, 200);
  } catch {
    return fallback;
  }
}

function confirmUrl(token: string): string {
  return `${getEnv().APP_URL}${CONFIRM_PATH}?token=${token}`;
}

/**
 * Subscribe an address (the form and POST /api/newsletter alike). `page` is
 * where the visitor signed up (consentPageOf). A confirmed address is a
 * conflict (SPEC's duplicate answer); every other case answers the same.
 */
export function subscribeToNewsletter(input: NewsletterInput, page: string, db: Db = getDb()): SubscribeAnswer {
  const email = input.email;
  const sent = db.transaction((tx) => {
    const row = tx.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)).get();
    if (row?.status === "confirmed") throw new AppError("conflict", ALREADY_SUBSCRIBED);
    const at = now();
    if (row && recentMailCount(tx, email, newsletterMails.confirmSubject, new Date(at.getTime() - DAY_MS)) >= CONFIRM_MAILS_PER_DAY) {
      return false;
    }
    const token = newToken();
    const link = {
      confirmTokenHash: hashToken(token),
      confirmExpiresAt: new Date(at.getTime() + CONFIRM_TTL_MS),
      confirmSentAt: at,
      consentPage: page,
    };
    if (row) {
      // Pending or unsubscribed: a fresh link replaces the old one; the status stays until it is confirmed.
      tx.update(newsletterSubscribers).set(link).where(eq(newsletterSubscribers.id, row.id)).run();
    } else {
      const inserted = tx
        .insert(newsletterSubscribers)
        .values({ email, status: "pending", ...link })
        .onConflictDoNothing({ target: newsletterSubscribers.email })
        .returning({ id: newsletterSubscribers.id })
        .get();
      // Another process stored it a moment ago: its link is on the way.
      if (!inserted) return false;
    }
    queueMail(tx, { to: email, ...newsletterMails.confirm(), secrets: { link: confirmUrl(token) } });
    return true;
  });
  if (sent) kickMailer();
  return { email, status: "pending" };
}

/** The row a confirmation token opens now (right shape, known hash, not expired), or undefined. */
function rowForConfirmToken(token: unknown, db: Pick<Db, "select">) {
  const parsed = ConfirmToken.safeParse(token);
  if (!parsed.success) return undefined;
  const row = db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.confirmTokenHash, hashToken(parsed.data))).get();
  if (!row || !row.confirmExpiresAt || row.confirmExpiresAt.getTime() <= now().getTime()) return undefined;
  return row;
}

/** Whether a confirmation link can still be used (the page's GET; changes nothing). */
export function isConfirmTokenValid(token: unknown, db: Db = getDb()): boolean {
  return rowForConfirmToken(token, db) !== undefined;
}

/**
 * Confirm a subscription with its link's token: 'confirmed', the consent
 * recorded, the token spent. False for an unknown, tampered, expired or used
 * token (nothing changes).
 */
export function confirmSubscription(token: unknown, clientAddress: string, db: Db = getDb()): boolean {
  return db.transaction((tx) => {
    const row = rowForConfirmToken(token, tx);
    if (!row) return false;
    const at = now();
    tx.update(newsletterSubscribers)
      .set({
        status: "confirmed",
        confirmedAt: at,
        consentIp: clientAddress.slice(0, 100),
        consentText: newsletterConsent.text,
        consentVersion: newsletterConsent.version,
        confirmTokenHash: null,
        confirmExpiresAt: null,
        unsubscribedAt: null,
      })
      .where(and(eq(newsletterSubscribers.id, row.id), eq(newsletterSubscribers.confirmTokenHash, row.confirmTokenHash ?? "")))
      .run();
    audit(tx, "newsletter.confirmed", {
      target: { type: "newsletter_subscriber", id: row.id, label: row.email },
      details: { subscriberId: row.id, email: row.email, from: row.status, page: row.consentPage, consentVersion: newsletterConsent.version },
    });
    return true;
  });
}

export function newsletterUnsubscribeToken(subscriberId: string): string {
  return signedId(UNSUBSCRIBE_PURPOSE, subscriberId);
}

/** A subscriber's unsubscribe link (the admin's CSV export gives it to the firm's mailing tool). */
export function newsletterUnsubscribeUrl(subscriberId: string): string {
  return `${getEnv().APP_URL}${NEWSLETTER_UNSUBSCRIBE_PATH}?token=${newsletterUnsubscribeToken(subscriberId)}`;
}

function rowForUnsubscribeToken(token: unknown, db: Pick<Db, "select">) {
  const id = idFromSignedToken(UNSUBSCRIBE_PURPOSE, token);
  if (!id) return undefined;
  return db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.id, id)).get();
}

/** Whether an unsubscribe link names a subscriber this server signed for (the page's GET; changes nothing). */
export function isNewsletterUnsubscribeTokenValid(token: unknown, db: Db = getDb()): boolean {
  return rowForUnsubscribeToken(token, db) !== undefined;
}

/**
 * The unsubscribe link's POST (page button or RFC 8058 one-click): the
 * subscriber becomes 'unsubscribed' (kept so that no import brings the address
 * back) and any pending confirmation link stops working. Already unsubscribed:
 * true, nothing changes. False for a token this server did not sign or a row
 * that is gone.
 */
export function unsubscribeFromNewsletter(token: unknown, db: Db = getDb()): boolean {
  return db.transaction((tx) => {
    const row = rowForUnsubscribeToken(token, tx);
    if (!row) return false;
    if (row.status === "unsubscribed") return true;
    tx.update(newsletterSubscribers)
      .set({ status: "unsubscribed", unsubscribedAt: now(), confirmTokenHash: null, confirmExpiresAt: null })
      .where(eq(newsletterSubscribers.id, row.id))
      .run();
    audit(tx, "newsletter.unsubscribed", {
      target: { type: "newsletter_subscriber", id: row.id, label: row.email },
      details: { subscriberId: row.id, email: row.email, from: row.status },
    });
    return true;
  });
}

/** Pending rows whose last link went out over 30 days ago (or, with no link on record, that were stored then). */
function stalePending(at: Date): SQL | undefined {
  const cutoff = new Date(at.getTime() - PENDING_RETENTION_MS);
  return and(
    eq(newsletterSubscribers.status, "pending"),
    or(lt(newsletterSubscribers.confirmSentAt, cutoff), and(isNull(newsletterSubscribers.confirmSentAt), lt(newsletterSubscribers.createdAt, cutoff))),
  );
}

/** Delete the unconfirmed addresses past 30 days; returns how many went. Never touches confirmed or unsubscribed rows. */
export function purgeUnconfirmedSubscribers(db: Db = getDb(), at: Date = now()): number {
  return db.delete(newsletterSubscribers).where(stalePending(at)).run().changes;
}
