import { lt } from "drizzle-orm";
import { getDb, type Db } from "~/modules/db/connection.server";
import { auditEvents } from "../../../db/schema";
import { now } from "../config/clock.server";
import { getEnv } from "../config/env.server";
import { addressKey } from "../http/address-key.server";
import { repeatEvery } from "../jobs/repeat.server";
import { cutText, currentRequest, log, logError, LOGGED_TEXT_MAX, redact, securityEvent } from "../logging/log.server";
import type { AuditEventName, AuditTargetType } from "./events";

/**
 * The audit trail's writer (DESIGN.md §4): every security event and admin
 * action is logged as a line and stored as a row of `audit_events`, with the
 * request's id, client address and user agent. Pass the transaction that makes
 * the change, so the row and the change are written together (or neither).
 *
 * What a stranger can make it store is bounded (decision 030): every string
 * detail is cut at AUDIT_DETAIL_MAX characters, and the refusals anyone can
 * cause at will (auditRefusal: cross-site posts, 429s) are aggregated per
 * address and minute, within an hourly budget of rows.
 */

/** The signed-in user who acted; none for a visitor. */
export type AuditActor = { id: string; email: string };
/** What the event is about, and how a person recognizes it (an e-mail, a title). */
export type AuditTarget = { type: AuditTargetType; id?: string | null; label?: string | null };
export type AuditInput = {
  actor?: AuditActor | null;
  target?: AuditTarget | null;
  /** The log line's fields and the row's details (secret-looking fields are redacted, strings cut). */
  details?: Record<string, unknown>;
};

type DbOrTx = Pick<Db, "insert">;
/** Where a row says the event came from: the request's, unless given (an aggregated row). */
type RowOrigin = { at: Date; ip: string | null; userAgent: string | null; requestId: string | null };

/** The longest string kept in an event's details, in its row and its log line. */
export const AUDIT_DETAIL_MAX = LOGGED_TEXT_MAX;

type Details = Record<string, unknown>;

/** A copy of `details` with every string (nested ones too) cut at AUDIT_DETAIL_MAX. */
function cutDetails(details: Details): Details {
  const cut = (value: unknown): unknown => {
    if (typeof value === "string") return cutText(value, AUDIT_DETAIL_MAX);
    if (Array.isArray(value)) return value.map(cut);
    if (value && typeof value === "object" && !(value instanceof Date)) {
      return Object.fromEntries(Object.entries(value as Details).map(([key, inner]) => [key, cut(inner)]));
    }
    return value;
  };
  return cut(details) as Details;
}

function requestOrigin(): RowOrigin {
  const request = currentRequest();
  return { at: now(), ip: request?.ip ?? null, userAgent: request?.userAgent ?? null, requestId: request?.requestId ?? null };
}

function insertRow(db: DbOrTx, event: AuditEventName, input: AuditInput, details: Details, origin: RowOrigin): void {
  db.insert(auditEvents)
    .values({
      at: origin.at,
      actorId: input.actor?.id ?? null,
      actorEmail: input.actor?.email ?? null,
      event,
      targetType: input.target?.type ?? null,
      targetId: input.target?.id ?? null,
      targetLabel: input.target?.label ?? null,
      ip: origin.ip,
      userAgent: origin.userAgent,
      requestId: origin.requestId,
      details: JSON.stringify(redact(details)),
    })
    .run();
}

export function audit(db: DbOrTx, event: AuditEventName, input: AuditInput = {}): void {
  const details = cutDetails(input.details ?? {});
  securityEvent(event, details);
  insertRow(db, event, input, details, requestOrigin());
}

// ─── refusals anyone can cause: aggregated ──────────────────────────────────

/** The events a stranger can cause at will, as often as they like. */
export type RefusalEvent = Extract<AuditEventName, "request.cross_site_refused" | "request.rate_limited">;

/**
 * Rows of refusals (first ones and minute counts) written in an hour, in all;
 * beyond it, refusals go to the log only and one `audit.flood_budget_reached`
 * row says so. 300 rows of at most ~1.5 KB: under 0.5 MB an hour.
 */
export const AUDIT_FLOOD_ROWS_PER_HOUR = 300;
/** Addresses held at once; refusals from more addresses share one group (memory stays bounded). */
const HELD_GROUPS_MAX = 10_000;
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

type Held = { event: RefusalEvent; address: string | null; groupBy: Record<string, string>; minute: number; count: number };

const held = new Map<string, Held>();
let heldMinute = -1;
let minuteTimer: NodeJS.Timeout | null = null;
let budget = { hour: -1, rows: 0, reached: false, loggedOnly: 0 };

/**
 * Record a refusal a stranger can cause at will (decision 030). The log line
 * is written each time (cut). The audit row is aggregated per event, client
 * address (an IPv6 /64 is one) and `groupBy` (e.g. the rate limit's bucket),
 * per clock minute: the first of the minute is a row at once (with the
 * request's id, address and user agent, so an attack shows at once), the
 * others are counted in memory and written as one row with `count` when the
 * minute closes (a timer) or the server stops (flushAuditFloods).
 */
export function auditRefusal(event: RefusalEvent, details: Details, groupBy: Record<string, string> = {}): void {
  const cut = cutDetails(details);
  securityEvent(event, cut);
  try {
    const origin = requestOrigin();
    const minute = Math.floor(origin.at.getTime() / MINUTE_MS);
    if (minute !== heldMinute) closeMinutesBefore(minute);
    const address = addressKey(origin.ip ?? "unknown");
    const key = JSON.stringify([event, address, groupBy]);
    const found = held.get(key);
    if (found) {
      found.count += 1;
      return;
    }
    if (held.size >= HELD_GROUPS_MAX) {
      // Too many addresses this minute: the rest are counted together, written at the minute's close.
      const overflowKey = JSON.stringify([event, null, groupBy]);
      const overflow = held.get(overflowKey);
      if (overflow) overflow.count += 1;
      else held.set(overflowKey, { event, address: null, groupBy, minute, count: 1 });
      return;
    }
    held.set(key, { event, address, groupBy, minute, count: 0 });
    scheduleMinuteClose();
    if (withinBudget(origin.at, 1)) insertRow(getDb(), event, {}, cut, origin);
  } catch (error) {
    // A refusal must answer its 403 or 429 even when the trail cannot be written.
    logError(error, "audit: a refusal could not be recorded", { event });
  }
}

/** Whether one more refusal row fits this hour's budget; the first one that does not writes the budget's own row. */
function withinBudget(at: Date, refusals: number): boolean {
  const hour = Math.floor(at.getTime() / HOUR_MS);
  if (hour !== budget.hour) {
    if (budget.loggedOnly > 0) {
      log("warn", "audit: refusals kept in the log only (hourly budget reached)", { refusals: budget.loggedOnly, hour: new Date(budget.hour * HOUR_MS).toISOString() });
    }
    budget = { hour, rows: 0, reached: false, loggedOnly: 0 };
  }
  if (budget.rows < AUDIT_FLOOD_ROWS_PER_HOUR) {
    budget.rows += 1;
    return true;
  }
  budget.loggedOnly += refusals;
  if (!budget.reached) {
    budget.reached = true;
    const until = new Date((hour + 1) * HOUR_MS).toISOString();
    insertRow(getDb(), "audit.flood_budget_reached", {}, { rowsPerHour: AUDIT_FLOOD_ROWS_PER_HOUR, until }, { at, ip: null, userAgent: null, requestId: null });
    log("warn", "audit: refusal rows over the hourly budget; more go to the log only", { rowsPerHour: AUDIT_FLOOD_ROWS_PER_HOUR, until });
  }
  return false;
}

/** One row for a held group's further refusals of its minute (none when it had none). */
function writeHeld(group: Held): void {
  if (group.count === 0) return;
  const end = (group.minute + 1) * MINUTE_MS;
  const at = new Date(Math.min(now().getTime(), end - 1));
  if (!withinBudget(at, group.count)) return;
  const details = {
    count: group.count,
    from: new Date(group.minute * MINUTE_MS).toISOString(),
    to: new Date(end).toISOString(),
    ...group.groupBy,
    ...(group.address === null ? { addresses: `more than ${HELD_GROUPS_MAX}` } : {}),
  };
  insertRow(getDb(), group.event, {}, details, { at, ip: group.address, userAgent: null, requestId: null });
}

/** Write and forget the groups of minutes before `minute`. */
function closeMinutesBefore(minute: number): void {
  for (const [key, group] of held) {
    if (group.minute >= minute) continue;
    held.delete(key);
    writeHeld(group);
  }
  heldMinute = minute;
}

function scheduleMinuteClose(): void {
  if (minuteTimer) return;
  const wait = MINUTE_MS - (now().getTime() % MINUTE_MS) + 50;
  minuteTimer = setTimeout(() => {
    minuteTimer = null;
    try {
      closeMinutesBefore(Math.floor(now().getTime() / MINUTE_MS));
    } catch (error) {
      logError(error, "audit: the minute's refusals could not be written");
    }
    if (held.size > 0) scheduleMinuteClose();
  }, wait);
  minuteTimer.unref();
}

/**
 * Write every count still held (the server's graceful stop calls this before
 * closing the database) and stop the minute timer.
 */
export function flushAuditFloods(): void {
  if (minuteTimer) clearTimeout(minuteTimer);
  minuteTimer = null;
  const groups = [...held.values()];
  held.clear();
  heldMinute = -1;
  for (const group of groups) {
    try {
      writeHeld(group);
    } catch (error) {
      logError(error, "audit: held refusals could not be written", { event: group.event, count: group.count });
    }
  }
}

// ─── retention ──────────────────────────────────────────────────────────────

const DAY_MS = 86_400_000;

/** Delete the rows older than AUDIT_RETENTION_DAYS; returns how many went. The only delete of the trail. */
export function pruneAuditTrail(db: Db = getDb(), days = getEnv().AUDIT_RETENTION_DAYS): number {
  const cutoff = new Date(now().getTime() - days * DAY_MS);
  return db.delete(auditEvents).where(lt(auditEvents.at, cutoff)).run().changes;
}

/** Prune at start and then once a day; returns the stop function. */
export function startAuditRetention(): () => void {
  return repeatEvery(DAY_MS, "audit retention failed", () => {
    const removed = pruneAuditTrail();
    if (removed > 0) log("info", `Removed ${removed} audit event(s) past the retention period`);
  });
}
