import type { IncomingMessage, ServerResponse } from "node:http";
import { STRICT_CSP } from "../app/modules/http/csp";

/**
 * Headers every response carries, static files and errors included. HTML
 * pages replace the strict CSP with their own (see app/entry.server.tsx).
 */
export function securityHeaders({ hsts }: { hsts: boolean }): Record<string, string> {
  const headers: Record<string, string> = {
    "content-security-policy": STRICT_CSP,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "strict-origin-when-cross-origin",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()",
  };
  if (hsts) headers["strict-transport-security"] = "max-age=63072000; includeSubDomains";
  return headers;
}

export function setSecurityHeaders(res: ServerResponse, headers: Record<string, string>) {
  for (const name in headers) res.setHeader(name, headers[name]!);
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuse state-changing requests from other sites (the rule of Go's
 * CrossOriginProtection): Sec-Fetch-Site must be same-origin or none; without
 * it, an Origin header must match the request's host (or APP_URL). Requests
 * with neither header (curl, server-to-server) are allowed.
 */
export function isCrossOriginRequest(req: IncomingMessage, appOrigin: string): boolean {
  if (SAFE_METHODS.has(req.method ?? "GET")) return false;
  const site = header(req, "sec-fetch-site");
  if (site) return site !== "same-origin" && site !== "none";
  const origin = header(req, "origin");
  if (!origin) return false;
  if (origin === appOrigin) return false;
  try {
    return new URL(origin).host !== header(req, "host");
  } catch {
    return true;
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The client's address: the socket's, or the last X-Forwarded-For hop when a trusted proxy sets it. */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = header(req, "x-forwarded-for");
    const last = forwarded?.split(",").map((s) => s.trim()).filter(Boolean).pop();
    if (last) return last;
  }
  return req.socket.remoteAddress ?? "unknown";
}

/** A request path fit for logs: secrets in the query (token, password) are masked. */
export function loggablePath(url: string | undefined): string {
  const raw = url ?? "/";
  const q = raw.indexOf("?");
  if (q === -1) return raw;
  const params = new URLSearchParams(raw.slice(q + 1));
  for (const key of [...params.keys()]) {
    if (/token|password|secret/i.test(key)) params.set(key, "***");
  }
  return `${raw.slice(0, q)}?${params.toString()}`;
}
