import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { Readable } from "node:stream";
import compression from "compression";
import type { ServerBuild } from "react-router";
import { createRequestHandler } from "react-router";
import { BULK_UPLOAD_BODY_LIMIT, BULK_UPLOAD_PATH } from "../app/modules/bulk-upload/constants";
import type { Env } from "../app/modules/config/env.server";
import { auditRefusal } from "../app/modules/audit/audit.server";
import { addressKey } from "../app/modules/http/address-key.server";
import { cutText, log, logError, USER_AGENT_MAX, withRequestContext } from "../app/modules/logging/log.server";
import { getDb } from "../app/modules/db/connection.server";
import { AUDIENCE_BODY_BYTES } from "../app/modules/documents/constants";
import { PITCH_DECK_MAX_BYTES } from "../app/modules/pitches/constants";
import { VALUATIONS_BODY_BYTES, VALUATIONS_FORM_BYTES, VALUATIONS_PAGE_PATH } from "../app/modules/valuations/constants";
import { HISTORY_PAGE_BODY_BYTES, HISTORY_PAGE_PATH } from "../app/modules/history-import/constants";
import { STATEMENTS_PAGE_PATH } from "../app/modules/statements/constants";
import { readinessDetails } from "../app/modules/ops/readiness.server";
import { PageCache, negotiateEncoding, type CachedPage } from "./page-cache";
import { clientAddress, fromTrustedProxy, isCrossOriginRequest, isTrustedProxy, loggablePath, securityHeaders, setSecurityHeaders, type TrustedProxies } from "./security";

/** Largest request body for forms and JSON (uploads get their own, larger limits). */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

/**
 * Hard ceiling for the upload endpoints. The app itself refuses a file over
 * 50 MB while it streams (with the form's message); this only stops bodies
 * far beyond any valid upload.
 */
export const UPLOAD_BODY_LIMIT = 64 * 1024 * 1024;
export { BULK_UPLOAD_BODY_LIMIT };
/** A pitch with its deck (25 MB) and form fields; above the app's own check, which answers with the deck's message. */
export const PITCH_BODY_LIMIT = PITCH_DECK_MAX_BYTES + 7 * 1024 * 1024;
/** The upload paths and their ceilings; the bulk upload's is above its 1 GiB batch limit, which the app answers itself. */
const UPLOAD_PATHS = new Map<string, number>([
  ["/api/documents", UPLOAD_BODY_LIMIT],
  ["/admin/documents", UPLOAD_BODY_LIMIT],
  ["/api/fund-documents", UPLOAD_BODY_LIMIT],
  ["/admin/fund-documents", UPLOAD_BODY_LIMIT],
  [BULK_UPLOAD_PATH, BULK_UPLOAD_BODY_LIMIT],
  // The pitch form (multipart only when it carries a deck) and the API's multipart variant; JSON stays at 64 KB.
  ["/process", PITCH_BODY_LIMIT],
  ["/api/pitch", PITCH_BODY_LIMIT],
]);

/**
 * The capital accounts' import pages (issue 24 §7, issue 25): a file, or the previewed text sent back
 * to confirm. The valuations and the P&L: 8 MB and the form; a fund's history: two files, 32 MB together,
 * sent as a multipart upload (with an upload's long timeout).
 */
const IMPORT_PAGES: readonly (readonly [RegExp, number])[] = [
  [VALUATIONS_PAGE_PATH, VALUATIONS_FORM_BYTES],
  [STATEMENTS_PAGE_PATH, VALUATIONS_FORM_BYTES],
  [HISTORY_PAGE_PATH, HISTORY_PAGE_BODY_BYTES],
];

const isMultipart = (contentType: string | undefined) => (contentType ?? "").toLowerCase().startsWith("multipart/form-data");

/** An upload: a multipart body to an upload path (the only requests allowed a long body and the long timeout). */
export function isUpload(pathname: string, contentType: string | undefined): boolean {
  return isMultipart(contentType) && (UPLOAD_PATHS.has(pathname) || HISTORY_PAGE_PATH.test(pathname));
}

/**
 * The body limit of a request: the upload ceiling for a multipart body to an
 * upload path, the form and JSON limit for anything else (the documents page
 * also takes plain form posts, which never need more).
 */
export function bodyLimitFor(pathname: string, contentType: string | undefined): number {
  if (isUpload(pathname, contentType) && UPLOAD_PATHS.has(pathname)) return UPLOAD_PATHS.get(pathname)!;
  if (IMPORT_PATHS.has(pathname)) return IMPORT_BODY_LIMIT;
  for (const [page, limit] of IMPORT_PAGES) if (page.test(pathname)) return limit;
  return AUDIENCE_PATHS.test(pathname) ? AUDIENCE_BODY_BYTES : DEFAULT_BODY_LIMIT;
}

/** The capital accounts' imports (valuations; issue 24 §9): JSON or CSV bodies up to 8 MB. */
export const IMPORT_BODY_LIMIT = VALUATIONS_BODY_BYTES;
const IMPORT_PATHS = new Set(["/api/valuations", "/api/statements/import"]);

/**
 * How long a request other than an upload may take to send its body, from its
 * headers (which node's headersTimeout bounds to 30 s). A slower body is cut
 * (the socket is closed): a form or JSON body of 64 KB needs well under a second.
 */
export const BODY_TIMEOUT_MS = 30_000;
/** How long an upload may take in all (node's requestTimeout, server-wide): large files on slow links. */
export const UPLOAD_TIMEOUT_MS = 10 * 60_000;
/** Open connections per client address (an IPv6 /64 is one); more are closed as they open (decision 030). */
export const MAX_CONNECTIONS_PER_CLIENT = 64;

/** A document's audience change (PATCH /api/documents/{id}, the access page's form) may name up to 2,000 investors. */
const AUDIENCE_PATHS = /^\/(api\/documents\/[^/]+|admin\/documents\/[^/]+\/access)$/;

export type AppOptions = {
  env: Env;
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: "production" | "development";
  /** Serves static files; calls next() when the path is not a file. */
  serveStatic: (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
  /** Per-path body limit; defaults to bodyLimitFor. */
  bodyLimit?: (pathname: string, contentType: string | undefined) => number;
  /** For /readyz: false until start-up is done and again while draining. */
  isReady?: () => boolean;
  /** How long a body other than an upload may take (default BODY_TIMEOUT_MS). */
  bodyTimeoutMs?: number;
  /** Open connections per client address (default MAX_CONNECTIONS_PER_CLIENT); used by createAppServer. */
  maxConnectionsPerClient?: number;
};

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The HTTP pipeline in front of React Router: security headers, request log,
 * /healthz, static files, cross-site refusal, body limits, the public page
 * cache, compression, then the app.
 */
export function createAppListener(options: AppOptions): Listener & { pageCache: PageCache } {
  const { env, mode } = options;
  const handleRequest = createRequestHandler(options.build, mode);
  const appOrigin = new URL(env.APP_URL).origin;
  const pageCache = new PageCache();
  const cacheEnabled = mode === "production";
  const compress = compression({ threshold: 1024 });
  const bodyLimit = options.bodyLimit ?? bodyLimitFor;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? BODY_TIMEOUT_MS;
  const baseHeaders = securityHeaders({ hsts: env.SECURE_COOKIES });

  const listener: Listener = (req, res) => {
    const started = process.hrtime.bigint();
    // X-Forwarded-* and X-Request-Id count only from a proxy TRUST_PROXY names.
    const proxied = fromTrustedProxy(req, env.TRUST_PROXY);
    const requestId = requestIdFor(req, proxied);
    const ip = clientAddress(req, env.TRUST_PROXY);
    res.setHeader("x-request-id", requestId);
    if (env.LOG_LEVEL !== "silent") {
      res.on("close", () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const status = res.statusCode;
        withRequestContext({ requestId, ip }, () =>
          log(status >= 500 ? "error" : "info", "request", {
            method: req.method,
            path: cutText(loggablePath(req.url)),
            status,
            ms: Math.round(ms * 10) / 10,
            ip,
            ...(res.writableFinished ? {} : { aborted: true }),
          }),
        );
      });
    }

    // Fast path: a public page already rendered for an anonymous visitor.
    const cacheKey = cacheEnabled ? pageCache.keyFor(req) : null;
    if (cacheKey) {
      const hit = pageCache.get(cacheKey);
      if (hit) return sendCached(req, res, hit);
    }

    setSecurityHeaders(res, baseHeaders);
    const pathname = (req.url ?? "/").split("?")[0] ?? "/";
    // A body other than an upload's has BODY_TIMEOUT_MS to arrive; node's requestTimeout is the uploads' long one.
    if (!isUpload(pathname, req.headers["content-type"])) cutSlowBody(req, res, bodyTimeoutMs);
    if (pathname === "/healthz") return healthz(res);
    if (pathname === "/readyz") return readyz(res, options.isReady, env.STORAGE_DIR);

    const userAgent = req.headers["user-agent"]?.slice(0, USER_AGENT_MAX);
    withRequestContext({ requestId, ip, userAgent }, () => {
      compress(req as never, res as never, () => {
        options.serveStatic(req, res, () => {
          handleApp(req, res, pathname, cacheKey, ip, proxied).catch((error) => {
            logError(error, "request failed");
            if (!res.headersSent) sendPlain(res, 500, "Internal Server Error");
            else res.destroy();
          });
        });
      });
    });
  };

  async function handleApp(req: IncomingMessage, res: ServerResponse, pathname: string, cacheKey: string | null, ip: string, proxied: boolean) {
    if (isCrossOriginRequest(req, appOrigin)) {
      // Anyone can send these at will: aggregated per address and minute, values cut (decision 030).
      auditRefusal("request.cross_site_refused", {
        method: req.method,
        path: pathname,
        origin: req.headers.origin ?? null,
        secFetchSite: req.headers["sec-fetch-site"] ?? null,
      });
      req.resume();
      return sendError(res, pathname, 403, "Cross-site requests are not allowed.");
    }

    const limit = bodyLimit(pathname, req.headers["content-type"]);
    const declared = Number(req.headers["content-length"] ?? "0");
    if (declared > limit) {
      res.setHeader("Connection", "close");
      req.resume();
      return sendError(res, pathname, 413, "The request is too large.");
    }

    const body: BodyState = { tooLarge: false, drain: () => {} };
    const request = toRequest(req, res, limit, body, proxied);
    const response = await handleRequest(request, { clientAddress: ip });
    // The app may answer before reading the whole body (e.g. an upload refused mid-way because
    // the disk is full): read and discard the rest, so the client gets to see the answer. Only a
    // body of a declared length within the limit is drained; any other is left unread, as before.
    const early = !req.complete && !body.tooLarge && declared > 0 && declared <= limit;
    if (early) body.drain();

    if (body.tooLarge) {
      res.setHeader("Connection", "close");
      return sendError(res, pathname, 413, "The request is too large.");
    }

    if (cacheKey && response.status === 200 && !response.headers.has("set-cookie") && response.body) {
      const buffer = Buffer.from(await response.arrayBuffer());
      const page = pageCache.store(cacheKey, response.status, response.headers, buffer, baseHeaders);
      if (page) return sendCached(req, res, page, true);
      return sendResponse(req, res, new Response(buffer, response));
    }
    return sendResponse(req, res, response, early ? bodyRead(req, EARLY_ANSWER_HOLD_MS) : undefined);
  }

  return Object.assign(listener, { pageCache });
}

/** Close the connection of a request whose body has not all arrived `ms` after its headers. */
function cutSlowBody(req: IncomingMessage, res: ServerResponse, ms: number) {
  if (req.complete) return;
  const timer = setTimeout(() => {
    if (!req.complete) req.socket.destroy();
  }, ms);
  timer.unref();
  res.once("close", () => clearTimeout(timer));
}

/**
 * The node:http server of the site: the pipeline's listener, node's timeouts
 * (headers 30 s; requestTimeout the uploads' 10 minutes, the short body
 * timeout of every other request being the listener's), and a cap on open
 * connections per client address. A connection beyond the cap is closed as it
 * opens, before a byte is read (a client holding 64 connections is not a
 * browser); connections from a trusted proxy are not capped: they carry many
 * clients, and the proxy limits them.
 */
export function createAppServer(options: AppOptions): http.Server & { pageCache: PageCache } {
  const listener = createAppListener(options);
  const server = http.createServer(listener);
  server.headersTimeout = 30_000;
  server.requestTimeout = UPLOAD_TIMEOUT_MS;
  server.keepAliveTimeout = 5_000;
  limitConnections(server, options.env.TRUST_PROXY, options.maxConnectionsPerClient ?? MAX_CONNECTIONS_PER_CLIENT);
  return Object.assign(server, { pageCache: listener.pageCache });
}

function limitConnections(server: http.Server, trusted: TrustedProxies, max: number) {
  const open = new Map<string, number>();
  let refused = 0;
  let lastLogged = 0;
  server.on("connection", (socket: Socket) => {
    const peer = socket.remoteAddress;
    if (!peer || isTrustedProxy(peer, trusted)) return;
    const key = addressKey(peer);
    const count = (open.get(key) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      refused += 1;
      // One line a minute at most: a flood of connections does not become a flood of lines.
      if (Date.now() - lastLogged >= 60_000) {
        log("warn", "connections refused: too many open from one client", { client: key, open: max, refused });
        lastLogged = Date.now();
        refused = 0;
      }
      return;
    }
    open.set(key, count);
    socket.once("close", () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) open.delete(key);
      else open.set(key, left);
    });
  });
}

/** Liveness: 200 when the database answers a query. */
function healthz(res: ServerResponse) {
  try {
    getDb().$client.prepare("select 1").get();
    sendStatus(res, 200, { status: "ok" });
  } catch {
    sendStatus(res, 503, { status: "unavailable" });
  }
}

/**
 * Readiness: 200 once start-up finished (migrations, storage clean-up) and
 * while not draining; the database answers and the storage folder is writable.
 * Beside the checks, details that do not make it unready (modules/ops/readiness.server.ts).
 */
function readyz(res: ServerResponse, isReady: (() => boolean) | undefined, storageDir: string) {
  const checks: Record<string, boolean> = { started: isReady ? isReady() : true, database: false, storage: false };
  try {
    getDb().$client.prepare("select 1").get();
    checks.database = true;
  } catch {
    /* reported below */
  }
  try {
    fs.accessSync(storageDir, fs.constants.W_OK);
    checks.storage = true;
  } catch {
    /* reported below */
  }
  const ready = Object.values(checks).every(Boolean);
  sendStatus(res, ready ? 200 : 503, { status: ready ? "ready" : "not ready", checks, ...readinessDetails() });
}

function sendStatus(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
  res.end(JSON.stringify(body));
}

/** A request id: the trusted proxy's X-Request-Id when it looks like one, else a fresh UUID. */
function requestIdFor(req: IncomingMessage, fromProxy: boolean): string {
  const incoming = fromProxy ? req.headers["x-request-id"] : undefined;
  if (typeof incoming === "string" && /^[A-Za-z0-9._-]{8,64}$/.test(incoming)) return incoming;
  return randomUUID();
}

function sendPlain(res: ServerResponse, status: number, text: string) {
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" });
  res.end(text);
}

/** An error before the app ran: JSON for /api, a short page otherwise. */
function sendError(res: ServerResponse, pathname: string, status: number, message: string) {
  if (pathname.startsWith("/api/")) {
    res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
    res.end(JSON.stringify({ error: message }));
    return;
  }
  sendPlain(res, status, message);
}

function sendCached(req: IncomingMessage, res: ServerResponse, page: CachedPage, firstRender = false) {
  if (req.headers["if-none-match"] === page.etag) {
    // Not modified: the same headers (security ones included), without a body.
    const { "content-length": _length, ...headers } = page.variants.identity.headers;
    res.writeHead(304, headers);
    res.end();
    return;
  }
  const encoding = negotiateEncoding(req.headers["accept-encoding"]);
  const variant = page.variants[encoding ?? "identity"];
  res.writeHead(200, firstRender ? { ...variant.headers, "x-page-cache": "MISS" } : variant.headers);
  res.end(req.method === "HEAD" ? undefined : variant.body);
}

type BodyState = { tooLarge: boolean; drain: () => void };

/** Build a Fetch Request from Node's, counting body bytes against the limit as they stream. */
function toRequest(req: IncomingMessage, res: ServerResponse, limit: number, state: BodyState, fromProxy: boolean): Request {
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  }
  const forwardedProto = fromProxy ? headers.get("x-forwarded-proto") : null;
  const protocol = forwardedProto === "https" ? "https" : "http";
  const url = new URL(req.url ?? "/", `${protocol}://${headers.get("host") ?? "localhost"}`);
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    let received = 0;
    // Once the stream is closed, errored or cancelled, later chunks are
    // dropped: enqueue() on a finished stream throws, and inside a 'data'
    // listener that would crash the process.
    let finished = false;
    const finish = (action: () => void) => {
      if (finished) return;
      finished = true;
      try {
        action();
      } catch {
        /* already closed */
      }
    };
    init.body = new ReadableStream<Uint8Array>({
      start(stream) {
        state.drain = () => {
          finish(() => stream.close());
          req.resume();
        };
        req.on("data", (chunk: Buffer) => {
          if (finished) return;
          received += chunk.byteLength;
          if (received > limit) {
            state.tooLarge = true;
            req.pause();
            finish(() => stream.error(new Error("Request body too large")));
            return;
          }
          stream.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((stream.desiredSize ?? 1) <= 0) req.pause();
        });
        req.on("end", () => finish(() => stream.close()));
        req.on("error", (error) => finish(() => stream.error(error)));
        req.on("aborted", () => finish(() => stream.error(new Error("Client aborted the request"))));
      },
      pull() {
        req.resume();
      },
      cancel() {
        finished = true;
        req.resume();
      },
    });
    init.duplex = "half";
  }
  return new Request(url, init);
}

/** How long an answer sent before the whole request body arrived keeps the connection open for the rest. */
const EARLY_ANSWER_HOLD_MS = 30_000;

/** Settles when the request body has been read to its end (or broke off), or after `ms`. */
function bodyRead(req: IncomingMessage, ms: number): Promise<void> {
  if (req.complete) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      req.off("end", done);
      req.off("close", done);
      req.off("error", done);
      resolve();
    }
    req.on("end", done);
    req.on("close", done);
    req.on("error", done);
  });
}

/**
 * Send the app's answer. With `held`, the answer came before the request body
 * was all read: it is sent at once with its length, and the response ends only
 * once `held` settles. Closing the connection (the client asked for that, or
 * Node does after a refused body) with unread request bytes would reset it, and
 * the client could lose an answer it had already been sent.
 */
async function sendResponse(req: IncomingMessage, res: ServerResponse, response: Response, held?: Promise<void>) {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  // Dynamic answers (forms, JSON, personal pages) are never stored by browsers or proxies.
  if (!("cache-control" in headers)) headers["cache-control"] = "no-store";
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  if (held) {
    const buffer = Buffer.from(await response.arrayBuffer());
    res.setHeader("content-length", buffer.byteLength);
    res.writeHead(response.status);
    if (buffer.byteLength > 0) res.write(buffer);
    await held;
    res.end();
    return;
  }
  res.writeHead(response.status);
  if (!response.body || req.method === "HEAD") {
    res.end();
    return;
  }
  const stream = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream);
  await new Promise<void>((resolve) => {
    stream.on("error", () => {
      res.destroy();
      resolve();
    });
    res.on("close", () => {
      stream.destroy();
      resolve();
    });
    stream.pipe(res);
  });
}
