import { AsyncLocalStorage } from "node:async_hooks";
import type { AuditEventName } from "../audit/events";
import { processWide } from "../config/process-wide.server";

/**
 * Structured logs: one JSON object per line on stdout,
 * `{ time, level, msg, requestId?, event?, ... }`.
 *
 * - Every line written while a request is handled carries its request id
 *   (server/app.ts runs the handler inside `withRequestContext`).
 * - Security events (`securityEvent`) carry `event` with a fixed name, the
 *   client address, and ids; never a password, token, cookie or hash: fields
 *   whose names say so are replaced by "[redacted]" before writing.
 * - LOG_LEVEL=silent turns logging off (tests and benchmarks).
 */

export type LogLevel = "info" | "warn" | "error";
type Fields = Record<string, unknown>;
/** The longest user agent kept (longer ones are cut). */
export const USER_AGENT_MAX = 512;
/**
 * The longest header or path value kept in a log line or audit row of the
 * events a stranger can cause (a refused post's Origin, a request's path):
 * longer ones are cut and end in "…" (decision 030).
 */
export const LOGGED_TEXT_MAX = 200;

/** `value` cut at `max` characters, with "…" when something was cut. */
export function cutText(value: string, max = LOGGED_TEXT_MAX): string {
  return value.length > max ? `${value.slice(0, max)}…` : value;
}

/** What every line and audit row written during a request knows about it. */
export type RequestContext = { requestId: string; ip: string; userAgent?: string };

const requestContext = processWide("log.requestContext", () => new AsyncLocalStorage<RequestContext>());

/** Run `fn` with a request id (and client address, user agent) that every log line and audit row inside it carries. */
export function withRequestContext<T>(context: RequestContext, fn: () => T): T {
  return requestContext.run(context, fn);
}

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}

/** The request being handled, if any (scripts and timers have none). */
export function currentRequest(): RequestContext | undefined {
  return requestContext.getStore();
}

const SECRET_FIELD = /token|password|secret|cookie|authorization|hash|^link$/i;

/** Copy of `fields` with secret-looking values replaced (nested objects and arrays too). */
export function redact(fields: Fields): Fields {
  const out: Fields = {};
  for (const [key, value] of Object.entries(fields)) {
    out[key] = SECRET_FIELD.test(key) ? "[redacted]" : redactValue(value);
  }
  return out;
}

function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (value && typeof value === "object" && !(value instanceof Date)) return redact(value as Fields);
  return value;
}

/** Keys every line owns; a caller's field of the same name is dropped rather than overwrite them. */
const RESERVED = ["time", "level", "msg", "requestId"] as const;

type Sink = (line: string) => void;
let testSink: Sink | null = null;

/** For tests: receive every log line (whatever LOG_LEVEL says); null restores stdout. */
export function setLogSinkForTests(sink: Sink | null) {
  testSink = sink;
}

function silent(): boolean {
  return process.env.LOG_LEVEL === "silent";
}

export function log(level: LogLevel, msg: string, fields: Fields = {}): void {
  const sink = testSink;
  if (!sink && silent()) return;
  const store = requestContext.getStore();
  const own = redact(fields);
  for (const key of RESERVED) delete own[key];
  const line = JSON.stringify({
    time: new Date().toISOString(),
    level,
    msg,
    ...(store ? { requestId: store.requestId } : {}),
    ...own,
  });
  if (sink) sink(line);
  else if (level === "info") console.log(line);
  else console.error(line);
}

/** An unexpected error, with its stack, as one JSON line. */
export function logError(error: unknown, msg = "unexpected error", fields: Fields = {}): void {
  const detail =
    error instanceof Error
      ? { name: error.name, message: error.message, stack: error.stack }
      : { message: String(error) };
  log("error", msg, { ...fields, error: detail });
}

/** The security events we log: one list, shared with the audit trail (modules/audit/events.ts). */
export type SecurityEventName = AuditEventName;

const WARN_EVENTS = new Set<SecurityEventName>([
  "auth.sign_in_failed",
  "auth.two_factor_failed",
  "fund.token_refused",
  "request.cross_site_refused",
  "request.rate_limited",
]);

/** Log a security event: who (ids, e-mail), what, from where (the request's client address). */
export function securityEvent(event: SecurityEventName, fields: Fields = {}): void {
  const ip = requestContext.getStore()?.ip;
  log(WARN_EVENTS.has(event) ? "warn" : "info", event, { event, ...(ip ? { ip } : {}), ...fields });
}
