import fs from "node:fs";
import http, { type IncomingHttpHeaders } from "node:http";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { ServerBuild } from "react-router";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseEnv } from "~/modules/config/env.server";
import { resetRateLimitsForTests } from "~/modules/http/rate-limit.server";
import { log, setLogSinkForTests } from "~/modules/logging/log.server";
import * as validateTokenRoute from "~/routes/api/fund-access/validate-token";
import { createAppListener } from "../../server/app";
import { clearFundAccess, insertFundHolder } from "../helpers/funds";
import { fakeServerBuild } from "../helpers/server-build";
import { probeWatermark } from "~/modules/watermark/availability.server";

/**
 * The HTTP pipeline (server/app.ts createAppListener) on a real node:http
 * server, as an operator or a load balancer sees it: /healthz, /readyz,
 * x-request-id on every response, the request log line, and the cross-site
 * refusal event. The app behind it is a tiny ServerBuild: a catch-all
 * resource route that logs a line and answers JSON, plus the real
 * /api/fund-access/validate-token route (so a security event raised deep in
 * the app can be matched to the response's request id).
 */

type Line = Record<string, unknown> & { time: string; level: string; msg: string };
type Answer = { status: number; headers: IncomingHttpHeaders; body: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const isRoot = process.getuid?.() === 0;

/** A minimal build: root, a catch-all resource route, and the real validate-token route. */
function fakeBuild(): ServerBuild {
  const catchAll = {
    loader: ({ request }: { request: Request }) => {
      log("info", "inside the app", { path: new URL(request.url).pathname });
      return Response.json({ ok: true, method: "GET" });
    },
    action: ({ request }: { request: Request }) => {
      log("info", "inside the app", { path: new URL(request.url).pathname });
      return Response.json({ ok: true, method: request.method });
    },
  };
  return fakeServerBuild({
    "routes/validate-token": { path: "api/fund-access/validate-token", module: validateTokenRoute },
    "routes/catch-all": { path: "*", module: catchAll },
  });
}

type Started = { port: number; close: () => Promise<void>; ready: { value: boolean } };
const servers: Started[] = [];

/** createAppListener on a node:http server on a free port of 127.0.0.1. */
async function startServer(envOverrides: Record<string, string | undefined> = {}): Promise<Started> {
  const env = parseEnv({ ...process.env, LOG_LEVEL: "info", TRUST_PROXY: undefined, STORAGE_DIR: storageDir, ...envOverrides });
  const ready = { value: true };
  const listener = createAppListener({
    env,
    build: fakeBuild(),
    mode: "development",
    serveStatic: (_req, _res, next) => next(),
    isReady: () => ready.value,
  });
  const server = http.createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const started: Started = {
    port: (server.address() as AddressInfo).port,
    ready,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(started);
  return started;
}

/** Send exactly these headers (node adds only Host, Connection and Content-Length). */
function send(
  port: number,
  { method = "GET", path: requestPath = "/", headers = {}, body }: { method?: string; path?: string; headers?: http.OutgoingHttpHeaders; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path: requestPath, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** A request written byte for byte on a socket; answers the raw response head and body. */
function sendRaw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("end", () => resolve(Buffer.concat(chunks).toString("latin1")));
    socket.on("error", reject);
    socket.write(text);
  });
}

function requestIdOf(answer: Answer): string {
  const id = answer.headers["x-request-id"];
  expect(typeof id, "x-request-id header").toBe("string");
  return id as string;
}

let storageDir: string;
let tmpRoot: string;
let raw: string[] = [];

const lines = () => raw.map((text) => JSON.parse(text) as Line);

/** The request log line of a response (written when the response closes: waits for it). */
async function requestLine(requestId: string): Promise<Line> {
  for (let i = 0; i < 100; i++) {
    const found = lines().find((l) => l.msg === "request" && l.requestId === requestId);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no request line for ${requestId} in:\n${raw.join("\n")}`);
}

beforeAll(() => {
  tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), "server-operations-"));
});
afterAll(() => {
  fs.rmSync(tmpRoot, { recursive: true, force: true });
});
beforeEach(() => {
  storageDir = fs.mkdtempSync(path.join(tmpRoot, "storage-"));
  raw = [];
  setLogSinkForTests((line) => raw.push(line));
  resetRateLimitsForTests();
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  setLogSinkForTests(null);
  resetRateLimitsForTests();
});

describe("GET /healthz", () => {
  it("200 {status: ok}, JSON, not cached, with a request id", async () => {
    const { port } = await startServer();
    const answer = await send(port, { path: "/healthz" });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ status: "ok" });
    expect(answer.headers["content-type"]).toMatch(/^application\/json/);
    expect(answer.headers["cache-control"]).toBe("no-store");
    expect(requestIdOf(answer)).toMatch(UUID);
  });
});

describe("GET /readyz", () => {
  it("200 'ready' with every check true once started", async () => {
    const { port } = await startServer();
    const answer = await send(port, { path: "/readyz" });
    expect(answer.status).toBe(200);
    const body = JSON.parse(answer.body);
    expect({ status: body.status, checks: body.checks }).toEqual({ status: "ready", checks: { started: true, database: true, storage: true } });
    // Beside the checks, details that do not make it unready (modules/ops/readiness.server.ts): qpdf,
    // which the tests need, probed as server/start.ts does at start.
    await probeWatermark();
    expect((JSON.parse((await send(port, { path: "/readyz" })).body) as { watermark: string }).watermark).toBe("available");
    expect(answer.headers["cache-control"]).toBe("no-store");
    expect(requestIdOf(answer)).toMatch(UUID);
  });

  it("503 'not ready' while isReady() is false (starting or draining), 200 again once it is true", async () => {
    const server = await startServer();
    server.ready.value = false;
    const starting = await send(server.port, { path: "/readyz" });
    expect(starting.status).toBe(503);
    expect(JSON.parse(starting.body)).toMatchObject({ status: "not ready", checks: { started: false, database: true, storage: true } });
    // Liveness is not readiness: /healthz still answers 200.
    expect((await send(server.port, { path: "/healthz" })).status).toBe(200);

    server.ready.value = true;
    expect((await send(server.port, { path: "/readyz" })).status).toBe(200);
    server.ready.value = false;
    expect((await send(server.port, { path: "/readyz" })).status).toBe(503);
  });

  it("503 with storage: false when STORAGE_DIR does not exist", async () => {
    const { port } = await startServer({ STORAGE_DIR: path.join(tmpRoot, "missing", "uploads") });
    const answer = await send(port, { path: "/readyz" });
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body)).toMatchObject({ status: "not ready", checks: { started: true, database: true, storage: false } });
  });

  // Root ignores permission bits (access(W_OK) succeeds on a 0500 folder): the missing folder above covers root.
  it.skipIf(isRoot)("503 with storage: false when STORAGE_DIR is not writable (chmod 0500)", async () => {
    fs.chmodSync(storageDir, 0o500);
    try {
      const { port } = await startServer();
      const answer = await send(port, { path: "/readyz" });
      expect(answer.status).toBe(503);
      expect(JSON.parse(answer.body)).toMatchObject({ status: "not ready", checks: { storage: false } });
    } finally {
      fs.chmodSync(storageDir, 0o700);
    }
  });
});

describe("x-request-id", () => {
  it("every response has one, a UUID, different for every request (health, app, 404, refusals)", async () => {
    const { port } = await startServer();
    const answers = [
      ...(await Promise.all(Array.from({ length: 8 }, () => send(port, { path: "/healthz" })))),
      await send(port, { path: "/readyz" }),
      await send(port, { path: "/some/page" }),
      await send(port, { method: "POST", path: "/some/form", body: "a=1", headers: { "Content-Type": "application/x-www-form-urlencoded" } }),
      await send(port, { method: "POST", path: "/some/form", headers: { Origin: "https://evil.example" } }),
      await send(port, { method: "POST", path: "/some/form", headers: { "Content-Length": String(10 * 1024 * 1024) } }),
    ];
    expect(answers.map((a) => a.status)).toEqual([...Array(8).fill(200), 200, 200, 200, 403, 413]);
    const ids = answers.map(requestIdOf);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  describe("behind a trusted proxy (TRUST_PROXY=1)", () => {
    it.each(["proxy-request-0001", "a1B2c3D4", "0123456789abcdef.ghij_KLMN-op", "x".repeat(64), "5f0c3b4e-1f7a-4c5b-9d2e-8a6b7c8d9e0f"])(
      "a valid incoming X-Request-Id %j is kept, and the request log line carries it",
      async (incoming) => {
        const { port } = await startServer({ TRUST_PROXY: "1" });
        const answer = await send(port, { path: "/healthz", headers: { "X-Request-Id": incoming } });
        expect(requestIdOf(answer)).toBe(incoming);
        expect((await requestLine(incoming)).status).toBe(200);
      },
    );

    it.each([
      ["spaces", "has spaces in it"],
      ["a tab", "abcdefgh\tijklmnop"],
      ["URL-encoded CRLF and a header", "abcdefgh%0D%0ASet-Cookie:%20x=1"],
      ["a quote and angle brackets", "<script>\"x\"</script>"],
      ["65 characters (too long)", "y".repeat(65)],
      ["7 characters (too short)", "abcdefg"],
      ["non-ASCII", "réquest-id-1234"],
      ["a colon", "req:12345678"],
    ])("an invalid incoming X-Request-Id (%s) is replaced by a fresh UUID", async (_label, incoming) => {
      const { port } = await startServer({ TRUST_PROXY: "1" });
      const answer = await send(port, { path: "/healthz", headers: { "X-Request-Id": incoming } });
      const id = requestIdOf(answer);
      expect(id).toMatch(UUID);
      expect(raw.join("\n")).not.toContain(incoming.includes("<") ? "<script>" : incoming);
    });

    it("two X-Request-Id headers (joined with ', ') are replaced", async () => {
      const { port } = await startServer({ TRUST_PROXY: "1" });
      const answer = await send(port, { path: "/healthz", headers: { "X-Request-Id": ["first-id-0001", "second-id-0002"] } });
      expect(requestIdOf(answer)).toMatch(UUID);
    });

    it("CRLF in the request cannot put a header into the response: exactly one x-request-id, valid, nothing injected", async () => {
      const { port } = await startServer({ TRUST_PROXY: "1" });
      const head = await sendRaw(
        port,
        "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-Id: abcdefgh1234\r\nSet-Cookie: injected=1\r\nConnection: close\r\n\r\n",
      );
      const headerLines = head.split("\r\n\r\n")[0]!.split("\r\n");
      const ids = headerLines.filter((l) => /^x-request-id:/i.test(l));
      expect(ids).toEqual(["x-request-id: abcdefgh1234"]);
      expect(head.toLowerCase()).not.toContain("injected");
      // A bare LF inside the value is refused by node's parser before the app (400), never echoed.
      const bare = await sendRaw(port, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-Id: abcdefgh\nSet-Cookie: injected=2\r\nConnection: close\r\n\r\n");
      expect(bare).not.toMatch(/^x-request-id: abcdefgh/im);
      expect(bare.toLowerCase()).not.toContain("injected=2");
    });

    it("the request log line's ip is the last X-Forwarded-For hop", async () => {
      const { port } = await startServer({ TRUST_PROXY: "1" });
      const answer = await send(port, { path: "/some/page", headers: { "X-Forwarded-For": "10.0.0.1, 203.0.113.99" } });
      expect((await requestLine(requestIdOf(answer))).ip).toBe("203.0.113.99");
    });
  });

  describe("without TRUST_PROXY", () => {
    it("an incoming X-Request-Id, however valid, is replaced; X-Forwarded-For is not the ip", async () => {
      const { port } = await startServer();
      const incoming = "client-chosen-id-0001";
      const answer = await send(port, { path: "/some/page", headers: { "X-Request-Id": incoming, "X-Forwarded-For": "203.0.113.99" } });
      const id = requestIdOf(answer);
      expect(id).toMatch(UUID);
      expect(id).not.toBe(incoming);
      const line = await requestLine(id);
      expect(line.ip).toBe("127.0.0.1");
      expect(raw.join("\n")).not.toContain(incoming);
    });
  });
});

describe("the request log line", () => {
  it("one JSON line per response: method, path, status, ms, ip and the same requestId as the header", async () => {
    const { port } = await startServer();
    const answer = await send(port, { path: "/portfolio?page=2" });
    expect(answer.status).toBe(200);
    const id = requestIdOf(answer);
    const line = await requestLine(id);
    expect(line).toMatchObject({ level: "info", msg: "request", requestId: id, method: "GET", path: "/portfolio?page=2", status: 200, ip: "127.0.0.1" });
    expect(line.ms).toBeTypeOf("number");
    expect(line.ms as number).toBeGreaterThanOrEqual(0);
    expect(Object.keys(line).slice(0, 3)).toEqual(["time", "level", "msg"]);
    expect(lines().filter((l) => l.msg === "request" && l.requestId === id)).toHaveLength(1);
    // A line the app wrote while handling the request carries the same id.
    expect(lines().find((l) => l.msg === "inside the app")).toMatchObject({ requestId: id, path: "/portfolio" });
  });

  it("masks ?token= (and password, secret) in the path; the raw values appear in no line", async () => {
    const { port } = await startServer();
    const token = "Zm9yLXRlc3RzLW9ubHktbm90LWEtcmVhbC10b2tlbi0";
    const answer = await send(port, { path: `/fund-ii/documents?token=${token}&page=2&password=hunter2-secret-pw&client_secret=s3cr3t-value` });
    const line = await requestLine(requestIdOf(answer));
    expect(line.path).toBe("/fund-ii/documents?token=***&page=2&password=***&client_secret=***");
    const output = raw.join("\n");
    for (const secret of [token, "hunter2-secret-pw", "s3cr3t-value"]) expect(output).not.toContain(secret);
  });

  it("a server error (5xx) is logged at level error", async () => {
    const server = await startServer();
    server.ready.value = false;
    const answer = await send(server.port, { path: "/readyz" });
    expect(answer.status).toBe(503);
    expect(await requestLine(requestIdOf(answer))).toMatchObject({ level: "error", status: 503, path: "/readyz" });
  });

  it("a security event raised inside the app (fund.token_refused) carries the response's request id and the client address, never the token", async () => {
    const { port } = await startServer();
    const guess = "G".repeat(43);
    const answer = await send(port, {
      method: "POST",
      path: "/api/fund-access/validate-token",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token: guess }),
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ valid: false });
    const id = requestIdOf(answer);
    await requestLine(id);
    expect(lines().find((l) => l.event === "fund.token_refused")).toMatchObject({ level: "warn", requestId: id, ip: "127.0.0.1", fundId: "fund-ii", via: "api" });
    expect(raw.join("\n")).not.toContain(guess);
  });

  it("a fund.token_validated event carries the response's request id", async () => {
    clearFundAccess();
    const holder = await insertFundHolder("fund-ii");
    const { port } = await startServer();
    const answer = await send(port, {
      method: "POST",
      path: "/api/fund-access/validate-token",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token: holder.token }),
    });
    expect(JSON.parse(answer.body)).toEqual({ valid: true });
    const id = requestIdOf(answer);
    await requestLine(id);
    expect(raw.join("\n")).not.toContain(holder.token);
    expect(lines().find((l) => l.event === "fund.token_validated")).toMatchObject({ requestId: id });
  });
});

describe("cross-site refusal", () => {
  it.each([
    ["an Origin of another site", { Origin: "https://evil.example" }, { origin: "https://evil.example", secFetchSite: null }],
    ["Sec-Fetch-Site: cross-site", { "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" }, { secFetchSite: "cross-site" }],
    ["Sec-Fetch-Site: same-site", { "Sec-Fetch-Site": "same-site" }, { secFetchSite: "same-site", origin: null }],
  ])("a POST with %s → 403 and a request.cross_site_refused warn line with the request id", async (_label, headers, expected) => {
    const { port } = await startServer();
    const answer = await send(port, { method: "POST", path: "/api/newsletter", headers: { "Content-Type": "application/json", ...headers }, body: "{}" });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toEqual({ error: "Cross-site requests are not allowed." });
    const id = requestIdOf(answer);
    await requestLine(id);
    const events = lines().filter((l) => l.event === "request.cross_site_refused");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      level: "warn",
      msg: "request.cross_site_refused",
      requestId: id,
      ip: "127.0.0.1",
      method: "POST",
      path: "/api/newsletter",
      ...expected,
    });
    // The app never saw it.
    expect(lines().find((l) => l.msg === "inside the app")).toBeUndefined();
    expect(await requestLine(id)).toMatchObject({ status: 403, method: "POST" });
  });

  it("same-origin and header-less POSTs, and a cross-site GET, log no refusal", async () => {
    const { port } = await startServer();
    const sameOrigin = await send(port, { method: "POST", path: "/x", headers: { Origin: "http://localhost:3000" } });
    const sameHost = await send(port, { method: "POST", path: "/x", headers: { Origin: `http://127.0.0.1:${port}` } });
    const headerless = await send(port, { method: "POST", path: "/x" });
    const crossGet = await send(port, { path: "/x", headers: { "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" } });
    expect([sameOrigin, sameHost, headerless, crossGet].map((a) => a.status)).toEqual([200, 200, 200, 200]);
    for (const answer of [sameOrigin, sameHost, headerless, crossGet]) await requestLine(requestIdOf(answer));
    expect(lines().filter((l) => l.event === "request.cross_site_refused")).toEqual([]);
  });
});

describe("an answer that comes before the whole request body", () => {
  it("reaches the client, and the connection stays open until the client has sent the rest (no reset of an answer it has not read)", async () => {
    const { port } = await startServer();
    const boundary = "early-answer";
    const total = 4 * 1024 * 1024;
    const socket = net.connect(port, "127.0.0.1");
    await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    const received: Buffer[] = [];
    let ended = false;
    let writeError: Error | null = null;
    socket.on("data", (c: Buffer) => received.push(c));
    socket.on("end", () => (ended = true));
    socket.on("error", (error) => (writeError = error));
    // The catch-all action answers without reading the body; the client asked to close afterwards.
    socket.write(
      `POST /api/documents HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${total}\r\n\r\n`,
    );
    socket.write(Buffer.alloc(64 * 1024, 0x61));
    for (let i = 0; i < 100 && !Buffer.concat(received).includes("\r\n\r\n"); i++) await new Promise((r) => setTimeout(r, 20));
    const head = Buffer.concat(received).toString("latin1");
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    expect(head).toContain('{"ok":true,"method":"POST"}');
    // A moment later the connection is still open: the rest of the body can be sent.
    await new Promise((r) => setTimeout(r, 100));
    expect(ended, "the server closed the connection before the body was all sent").toBe(false);
    let sent = 64 * 1024;
    while (sent < total && !writeError) {
      const chunk = Buffer.alloc(Math.min(256 * 1024, total - sent), 0x61);
      sent += chunk.length;
      if (!socket.write(chunk)) await new Promise((r) => socket.once("drain", r));
    }
    for (let i = 0; i < 100 && !ended; i++) await new Promise((r) => setTimeout(r, 20));
    expect(writeError).toBeNull();
    expect(sent).toBe(total);
    expect(ended, "the server closes the connection once the body has been read").toBe(true);
    socket.destroy();
  });
});
