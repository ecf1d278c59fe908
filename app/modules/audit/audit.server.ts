import { lt } from "drizzle-orm";
import { getDb, type Db } from "../../../db/client";
import { auditEvents } from "../../../db/schema";
import { now } from "../config/clock.server";
import { getEnv } from "../config/env.server";
import { currentRequest, log, logError, redact, securityEvent } from "../logging/log.server";
import type { AuditEventName, AuditTargetType } from "./events";

/**
 * The audit trail's writer (DESIGN.md §4): every security event and admin
 * action is logged as a line and stored as a row of `audit_events`, with the
 * request's id, client address and user agent. Pass the transaction that makes
 * the change, so the row and the change are written together (or neither).
 */

/** The signed-in user who acted; none for a visitor. */
export type AuditActor = { id: string; email: string };
/** What the event is about, and how a person recognizes it (an e-mail, a title). */
export type AuditTarget = { type: AuditTargetType; id?: string | null; label?: string | null };
export type AuditInput = {
  actor?: AuditActor | null;
  target?: AuditTarget | null;
  /** The log line's fields and the row's details (secret-looking fields are redacted). */
  details?: Record<string, unknown>;
};

type DbOrTx = Pick<Db, "insert">;

export function audit(db: DbOrTx, event: AuditEventName, input: AuditInput = {}): void {
  const details = input.details ?? {};
  securityEvent(event, details);
  const request = currentRequest();
  db.insert(auditEvents)
    .values({
      at: now(),
      actorId: input.actor?.id ?? null,
      actorEmail: input.actor?.email ?? null,
      event,
      targetType: input.target?.type ?? null,
      targetId: input.target?.id ?? null,
      targetLabel: input.target?.label ?? null,
      ip: request?.ip ?? null,
      userAgent: request?.userAgent ?? null,
      requestId: request?.requestId ?? null,
      details: JSON.stringify(redact(details)),
    })
    .run();
}

const DAY_MS = 86_400_000;

/** Delete the rows older than AUDIT_RETENTION_DAYS; returns how many went. The only delete of the trail. */
export function pruneAuditTrail(db: Db = getDb(), days = getEnv().AUDIT_RETENTION_DAYS): number {
  const cutoff = new Date(now().getTime() - days * DAY_MS);
  return db.delete(auditEvents).where(lt(auditEvents.at, cutoff)).run().changes;
}

/** Prune at start and then once a day; returns the stop function. */
export function startAuditRetention(): () => void {
  const run = () => {
    try {
      const removed = pruneAuditTrail();
      if (removed > 0) log("info", `Removed ${removed} audit event(s) past the retention period`);
    } catch (error) {
      logError(error, "audit retention failed");
    }
  };
  run();
  const timer = setInterval(run, DAY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
