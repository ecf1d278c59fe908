import { createHash, timingSafeEqual } from "node:crypto";
import { and, count, desc, eq, or, sql } from "drizzle-orm";
import { getDb } from "~/modules/db/connection.server";
import { fundAccessUsers } from "../../../db/schema";
import { fundAccessMails } from "../../content/mail";
import { now } from "../config/clock.server";
import { getEnv } from "../config/env.server";
import { AppError } from "../http/app-error";
import { kickMailer, queueMail, recentMailCount } from "../mail/mail.server";
import type { LpUser } from "../auth/session.server";
import { hashToken, newToken } from "../auth/tokens.server";
import { fundAccessMessages } from "~/content/validation";
import type { FundId } from "./constants";
import type { FundAccessInput } from "./schema";
import { audit, type AuditTarget } from "../audit/audit.server";
import { findFundBySlug, fundBySlug, type Fund } from "../funds/funds.server";

/** A fund access request as the audit trail names it. */
function requestTarget(row: { id: string; email: string }): AuditTarget {
  return { type: "fund_access_request", id: row.id, label: row.email };
}

/**
 * Fund access (SPEC.md §4, DESIGN.md §4). Each request holds one access
 * token: 32 random bytes, base64url, stored only as its SHA-256. A fund's
 * access mode (its row in the funds table, decision 038) says how access comes:
 * "open" (Fund I) grants it at once (the token goes into an HttpOnly cookie);
 * "by_request" (Fund II) mails a link. Revoking a request stops its link and
 * cookies at once. See docs/decisions/012-fund-access.md.
 */

export type FundAccessRequest = typeof fundAccessUsers.$inferSelect;

/** SPEC.md §3 "Fund access request (read)". */
export type FundAccessRead = {
  id: string;
  name: string;
  email: string;
  fundId: FundId;
  accreditedConfirmation: boolean;
  createdAt: string;
};

export function toFundAccessRead(row: FundAccessRequest): FundAccessRead {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    fundId: row.fundId,
    accreditedConfirmation: row.accreditedConfirmation,
    createdAt: row.createdAt.toISOString(),
  };
}

/** At most this many access-link mails per address per day (a stranger cannot flood an inbox). */
const LINK_MAILS_PER_DAY = 5;
const DAY_MS = 24 * 60 * 60 * 1000;

function documentsUrl(fundId: FundId): string {
  return `${getEnv().APP_URL}/${fundId}/documents`;
}

/** Queue the access link mail; the link itself travels as a sealed mail secret. */
function queueLinkMail(db: Pick<ReturnType<typeof getDb>, "insert">, fund: Fund, row: { email: string; name: string; fundId: FundId }, token: string) {
  queueMail(db, {
    to: row.email,
    ...fundAccessMails.link(row, fund.name),
    secrets: { link: `${documentsUrl(row.fundId)}?token=${token}` },
  });
}

function queueWithdrawnMail(db: Pick<ReturnType<typeof getDb>, "insert">, fund: Fund, row: FundAccessRequest) {
  queueMail(db, { to: row.email, ...fundAccessMails.withdrawn(row, fund.name) });
}

/**
 * The holder's stored address asked again (Fund II): a fresh link goes to that address, beside
 * the one sent before, which keeps working (decision 012). Only its digest is kept, as the
 * second live token of the row; a later ask replaces it, its first use makes it the current one.
 */
function reissueLink(tx: Pick<ReturnType<typeof getDb>, "insert" | "update">, fund: Fund, row: FundAccessRequest) {
  const token = newToken();
  tx.update(fundAccessUsers).set({ reissuedTokenHash: hashToken(token) }).where(eq(fundAccessUsers.id, row.id)).run();
  queueMail(tx, {
    to: row.email,
    ...fundAccessMails.askedAgain(row, fund.name),
    secrets: { link: `${documentsUrl(row.fundId)}?token=${token}` },
  });
}

export type FundAccessOutcome = {
  fundId: FundId;
  /**
   * An open fund (Fund I): what the access cookie holds — the new request's
   * token, or a pass for a request that already existed (see accessPass). A
   * fund by request (Fund II): null (access comes by e-mail).
   */
  cookieValue: string | null;
};

/**
 * POST /api/fund-access/register and both sign-up forms. One row per e-mail
 * and fund. Anyone can type anyone's address (issue 21, finding L7), so a
 * request for an address and fund that already has a row changes nothing
 * stored — name, company, phone, confirmation and token stay — and breaks no
 * link or cookie of the holder's: a fund by request (Fund II) mails the holder's
 * stored address (at most 5 mails a day) a fresh link that works beside the one
 * sent before (reissueLink); an open fund (Fund I) lets the visitor in with a
 * pass for the row instead of a new token. A revoked request stays revoked. For
 * a fund by request the answer never tells whether the address was known; an
 * open fund, which grants access on the spot, has to say when access was
 * withdrawn. See decision 012.
 */
export function requestFundAccess(input: FundAccessInput): FundAccessOutcome {
  const db = getDb();
  const fund = fundBySlug(input.fundId, db);
  const byLink = fund.access === "by_request";
  const mailCapped =
    byLink && recentMailCount(db, input.email, fundAccessMails.subject(fund.name), new Date(now().getTime() - DAY_MS)) >= LINK_MAILS_PER_DAY;

  const cookieValue = db.transaction((tx): string | null => {
    const existing = tx
      .select()
      .from(fundAccessUsers)
      .where(and(eq(fundAccessUsers.email, input.email), eq(fundAccessUsers.fundId, input.fundId)))
      .get();
    const record = (outcome: string, row: { id: string } | undefined) =>
      audit(tx, byLink ? "fund.access_requested" : "fund.access_granted", {
        target: row ? requestTarget({ id: row.id, email: input.email }) : { type: "fund_access_request", label: input.email },
        details: { fundId: input.fundId, email: input.email, outcome },
      });
    if (existing?.revokedAt) {
      if (byLink && !mailCapped) queueWithdrawnMail(tx, fund, existing);
      record("withdrawn", existing);
      return null;
    }
    if (mailCapped) {
      record("daily mail cap", existing);
      return null;
    }
    if (existing) {
      if (byLink) {
        reissueLink(tx, fund, existing);
        record("asked again: fresh link to the holder", existing);
        return null;
      }
      record("granted again (request unchanged)", existing);
      return accessPass(existing);
    }
    const token = newToken();
    const row = tx
      .insert(fundAccessUsers)
      .values({
        email: input.email,
        fundId: input.fundId,
        name: input.name,
        company: input.company,
        phone: input.phone,
        accreditedConfirmation: input.accreditedConfirmation,
        accessTokenHash: hashToken(token),
      })
      .returning()
      .get();
    if (byLink) {
      queueLinkMail(tx, fund, row, token);
      record("link mailed", row);
      return null;
    }
    record("granted", row);
    return token;
  });
  kickMailer();

  if (byLink) return { fundId: input.fundId, cookieValue: null };
  if (cookieValue === null) throw new AppError("forbidden", fundAccessMessages.accessWithdrawn);
  return { fundId: input.fundId, cookieValue };
}

/**
 * A Fund I pass: what the access cookie holds for a visitor who signed up with
 * the address of an existing request (decision 012). It names the row and the
 * generation of its token (a digest of the stored digest), so it needs no
 * column, is no token (it opens nothing through a link or the validate
 * endpoint), and dies with every token change: revoking the request or an
 * admin's new link ends it, as they end the token. It is trusted only inside
 * the signed access cookie.
 */
const PASS_SHAPE = /^pass\.([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/;

function tokenGeneration(accessTokenHash: string): string {
  return createHash("sha256").update(`fund-access-pass:v1:${accessTokenHash}`).digest("base64url");
}

export function accessPass(row: { id: string; accessTokenHash: string }): string {
  return `pass.${row.id}.${tokenGeneration(row.accessTokenHash)}`;
}

/** The live request of an open fund (Fund I) a pass (from the signed cookie) stands for; null for anything else. */
function findAccessByPass(pass: string, fundId: FundId): FundAccessRequest | null {
  const match = PASS_SHAPE.exec(pass);
  if (!match || findFundBySlug(fundId)?.access !== "open") return null;
  const row = getDb().select().from(fundAccessUsers).where(eq(fundAccessUsers.id, match[1]!)).get();
  if (!row) return null;
  const same = timingSafeEqual(Buffer.from(tokenGeneration(row.accessTokenHash)), Buffer.from(match[2]!));
  return same && row.fundId === fundId && !row.revokedAt ? row : null;
}

/**
 * The live request behind a fund cookie's value: a token (findAccessByToken)
 * or, for Fund I, a pass (accessPass). Only for values read from the signed
 * cookie; links and the validate endpoint take tokens only.
 */
export function findAccessByCookieValue(value: unknown, fundId: FundId): FundAccessRequest | null {
  if (typeof value === "string" && value.startsWith("pass.")) return findAccessByPass(value, fundId);
  return findAccessByToken(value, fundId);
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The live request a token belongs to, for this fund; null for anything else
 * (malformed, unknown, another fund's, revoked). Lookup is by the token's
 * SHA-256; the stored and computed digests are then compared in constant time.
 */
export function findAccessByToken(token: unknown, fundId: FundId): FundAccessRequest | null {
  if (typeof token !== "string" || !TOKEN_SHAPE.test(token)) return null;
  const digest = hashToken(token);
  const row = getDb()
    .select()
    .from(fundAccessUsers)
    .where(or(eq(fundAccessUsers.accessTokenHash, digest), eq(fundAccessUsers.reissuedTokenHash, digest)))
    .get();
  if (!row) return null;
  const stored = row.accessTokenHash === digest ? row.accessTokenHash : row.reissuedTokenHash;
  const same = !!stored && timingSafeEqual(Buffer.from(stored, "hex"), Buffer.from(digest, "hex"));
  return same && row.fundId === fundId && !row.revokedAt ? row : null;
}

/**
 * A reissued link was used: it becomes the row's current token (the cookie will hold it), so
 * a later ask from anyone, which replaces only the reissued digest, cannot end this access.
 */
function adoptReissuedToken(row: FundAccessRequest, token: string): FundAccessRequest {
  const digest = hashToken(token);
  if (row.reissuedTokenHash !== digest) return row;
  return (
    getDb()
      .update(fundAccessUsers)
      .set({ accessTokenHash: digest, reissuedTokenHash: null })
      .where(and(eq(fundAccessUsers.id, row.id), eq(fundAccessUsers.reissuedTokenHash, digest)))
      .returning()
      .get() ?? row
  );
}

/**
 * A token presented in a link or to the validate endpoint (not the cookie
 * checks of every page): findAccessByToken, with the outcome logged as a
 * security event (the request id, never the token).
 */
export function checkFundToken(token: unknown, fundId: FundId, via: "link" | "api"): FundAccessRequest | null {
  const found = findAccessByToken(token, fundId);
  const request = found && typeof token === "string" ? adoptReissuedToken(found, token) : found;
  if (request) {
    audit(getDb(), "fund.token_validated", {
      target: requestTarget(request),
      details: { fundId, accessRequestId: request.id, email: request.email, via },
    });
  } else {
    audit(getDb(), "fund.token_refused", { details: { fundId, via } });
  }
  return request;
}

/** POST /api/fund-access/validate-token: { valid } for a Fund II token. */
export function validateFundToken(token: string): { valid: boolean; request: FundAccessRequest | null } {
  const request = checkFundToken(token, "fund-ii", "api");
  return { valid: request !== null, request };
}

/**
 * Newest first; ties (the same millisecond) by insertion order, newest first,
 * so every page is deterministic. Walks fund_access_users_created_at_idx
 * (created_at, then the rowid): no sorting.
 */
const newestFirst = [desc(fundAccessUsers.createdAt), desc(sql`rowid`)];

/** GET /api/fund-access/requests: every request, newest first. */
export function listFundAccessRequests(): FundAccessRequest[] {
  return getDb().select().from(fundAccessUsers).orderBy(...newestFirst).all();
}

/** The largest window listFundAccessRequestsPage answers (a bigger limit is cut down to this). */
export const MAX_REQUEST_PAGE_LIMIT = 1000;

/**
 * The admin dashboard's list: one window of the requests, in
 * listFundAccessRequests' order, and how many there are in all. `offset` and
 * `limit` are cut to whole numbers, `limit` to at most MAX_REQUEST_PAGE_LIMIT.
 * Only the window's rows are read (the created_at index), so the cost barely
 * grows with the list (a deep offset walks the index up to it).
 */
export function listFundAccessRequestsPage(page: { offset: number; limit: number }): { requests: FundAccessRequest[]; total: number } {
  const db = getDb();
  const offset = wholeNumber(page.offset, Number.MAX_SAFE_INTEGER);
  const limit = wholeNumber(page.limit, MAX_REQUEST_PAGE_LIMIT);
  const requests =
    limit === 0
      ? []
      : db
          .select()
          .from(fundAccessUsers)
          .orderBy(...newestFirst)
          .limit(limit)
          .offset(offset)
          .all();
  const total = db.select({ n: count() }).from(fundAccessUsers).get()?.n ?? 0;
  return { requests, total };
}

function wholeNumber(value: number, max: number): number {
  if (Number.isNaN(value) || value <= 0) return 0;
  return Math.min(Math.floor(value), max);
}

/** One request by its id (the dashboard's confirm step); undefined for an unknown or malformed id. */
export function findFundAccessRequest(id: string): FundAccessRequest | undefined {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  return getDb().select().from(fundAccessUsers).where(eq(fundAccessUsers.id, id)).get();
}

function getRequest(id: string): FundAccessRequest {
  const row = findFundAccessRequest(id);
  if (!row) throw new AppError("not_found", fundAccessMessages.requestNotFound);
  return row;
}

/** Admin: stop a request's link and cookies at once. */
export function revokeFundAccess(admin: LpUser, id: string): FundAccessRequest {
  const row = getRequest(id);
  return getDb().transaction((tx) => {
    const revoked = tx
      .update(fundAccessUsers)
      .set({ revokedAt: row.revokedAt ?? now(), accessTokenHash: hashToken(newToken()), reissuedTokenHash: null })
      .where(eq(fundAccessUsers.id, row.id))
      .returning()
      .get();
    audit(tx, "fund.access_revoked", {
      actor: { id: admin.id, email: admin.email },
      target: requestTarget(row),
      details: { actorId: admin.id, accessRequestId: row.id, fundId: row.fundId, email: row.email },
    });
    return revoked;
  });
}

/** Admin: restore access if revoked and e-mail a fresh link (older links stop working). */
export function resendFundAccessLink(admin: LpUser, id: string): FundAccessRequest {
  const row = getRequest(id);
  const token = newToken();
  const db = getDb();
  const updated = db.transaction((tx) => {
    const next = tx
      .update(fundAccessUsers)
      .set({ revokedAt: null, accessTokenHash: hashToken(token), reissuedTokenHash: null })
      .where(eq(fundAccessUsers.id, row.id))
      .returning()
      .get();
    queueLinkMail(tx, fundBySlug(next.fundId, tx), next, token);
    audit(tx, "fund.link_resent", {
      actor: { id: admin.id, email: admin.email },
      target: requestTarget(row),
      details: { actorId: admin.id, accessRequestId: row.id, fundId: row.fundId, email: row.email, wasRevoked: !!row.revokedAt },
    });
    return next;
  });
  kickMailer();
  return updated;
}
