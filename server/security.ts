import type { IncomingMessage, ServerResponse } from "node:http";
import proxyaddr from "proxy-addr";
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

/** TRUST_PROXY as parsed by the environment: the proxies' addresses and CIDR ranges ([] for none). */
export type TrustedProxies = readonly string[];

const compiled = new WeakMap<TrustedProxies, (address: string, hop: number) => boolean>();

function trustOf(trusted: TrustedProxies) {
  let trust = compiled.get(trusted);
  if (!trust) {
    trust = proxyaddr.compile([...trusted]);
    compiled.set(trusted, trust);
  }
  return trust;
}

/** Whether a socket's peer is one of the trusted proxies. */
export function isTrustedProxy(peer: string | undefined, trusted: TrustedProxies): boolean {
  return trusted.length > 0 && peer !== undefined && trustOf(trusted)(peer, 0);
}

/** Whether the request came straight from a trusted proxy (only then do its X-Forwarded-* and X-Request-Id count). */
export function fromTrustedProxy(req: IncomingMessage, trusted: TrustedProxies): boolean {
  return isTrustedProxy(req.socket.remoteAddress, trusted);
}

/**
 * The client's address: the socket's; behind trusted proxies, the right-most
 * X-Forwarded-For hop that is not one of them (proxy-addr's rule, as in
 * Express), so a hop a client wrote itself never counts. Full, as given: logs
 * and audit rows keep it; rate limits group it (app/modules/http/address-key.server.ts).
 */
export function clientAddress(req: IncomingMessage, trusted: TrustedProxies): string {
  const peer = req.socket.remoteAddress;
  if (!peer) return "unknown";
  if (!fromTrustedProxy(req, trusted)) return peer;
  return proxyaddr(req, trustOf(trusted)) || peer;
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
