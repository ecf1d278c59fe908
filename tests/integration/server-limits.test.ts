import fs from "node:fs";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { ServerBuild } from "react-router";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseEnv } from "~/modules/config/env.server";
import { resetRateLimitsForTests } from "~/modules/http/rate-limit.server";
import { setLogSinkForTests } from "~/modules/logging/log.server";
import { createAppListener, createAppServer, type AppOptions } from "../../server/app";
import { fakeServerBuild } from "../helpers/server-build";

/**
 * The HTTP server's own limits, on a real node:http server: a request body
 * that trickles in is cut after the short timeout on a form or JSON path but
 * not on an upload path (L8); open connections per client address are capped
 * (L8); X-Forwarded-For, X-Forwarded-Proto and X-Request-Id count only from a
 * peer named in TRUST_PROXY (L9). The app behind it is a catch-all route that
 * reads the whole body and answers what it was given.
 */

type Echo = { url: string; clientAddress: string; bytes: number };

function fakeBuild(): ServerBuild {
  const echo = async ({ request, context }: { request: Request; context: { clientAddress: string } }) => {
    const bytes = request.body ? (await request.arrayBuffer()).byteLength : 0;
    return Response.json({ url: request.url, clientAddress: context.clientAddress, bytes } satisfies Echo);
  };
  return fakeServerBuild({ "routes/echo": { path: "*", module: { loader: echo, action: echo } } });
}

let tmpRoot: string;
const closers: Array<() => Promise<void>> = [];

beforeAll(() => {
  tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), "server-limits-"));
});
afterAll(() => {
  fs.rmSync(tmpRoot, { recursive: true, force: true });
});
beforeEach(() => {
  setLogSinkForTests(() => {});
  resetRateLimitsForTests();
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  setLogSinkForTests(null);
});

function appOptions(envOverrides: Record<string, string | undefined>, extra: Partial<AppOptions> = {}): AppOptions {
  const env = parseEnv({ ...process.env, LOG_LEVEL: "info", TRUST_PROXY: undefined, STORAGE_DIR: tmpRoot, ...envOverrides });
  return { env, build: fakeBuild(), mode: "development", serveStatic: (_req, _res, next) => next(), ...extra };
}

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return (server.address() as AddressInfo).port;
}

/** The pipeline's listener alone on a plain node:http server. */
async function startListener(envOverrides: Record<string, string | undefined> = {}, extra: Partial<AppOptions> = {}): Promise<number> {
  return listen(http.createServer(createAppListener(appOptions(envOverrides, extra))));
}

function get(port: number, requestPath: string, headers: http.OutgoingHttpHeaders = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; json: Echo }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: requestPath, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, json: JSON.parse(Buffer.concat(chunks).toString("utf8")) as Echo }));
    });
    req.on("error", reject);
    req.end();
  });
}

type Slow = { socket: net.Socket; closed: () => boolean; received: () => string; closedAfter: () => number };

/** Headers announcing a body of `length` bytes, then one byte of it, then nothing. */
async function slowBody(port: number, requestPath: string, contentType: string, length = 1000): Promise<Slow> {
  const socket = net.connect(port, "127.0.0.1");
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  const started = Date.now();
  let closedAt = 0;
  const chunks: Buffer[] = [];
  socket.on("data", (c: Buffer) => chunks.push(c));
  socket.on("error", () => {});
  socket.on("close", () => (closedAt = Date.now()));
  socket.write(`POST ${requestPath} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: ${contentType}\r\nContent-Length: ${length}\r\n\r\nx`);
  closers.push(async () => void socket.destroy());
  return {
    socket,
    closed: () => closedAt !== 0,
    received: () => Buffer.concat(chunks).toString("latin1"),
    closedAfter: () => closedAt - started,
  };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(done: () => boolean, ms: number) {
  const until = Date.now() + ms;
  while (!done() && Date.now() < until) await wait(20);
}

describe("a request body that trickles in (L8)", () => {
  const SHORT_MS = 300;

  it.each([
    ["a form post", "/lp/login", "application/x-www-form-urlencoded"],
    ["a JSON post", "/api/newsletter", "application/json"],
    ["a multipart post to a path that takes no upload", "/newsletter", "multipart/form-data; boundary=x"],
    ["a form post (no deck) to the pitch form", "/process", "application/x-www-form-urlencoded"],
  ])("%s is cut once the short timeout has passed without the whole body", async (_label, requestPath, contentType) => {
    const port = await startListener({}, { bodyTimeoutMs: SHORT_MS });
    const slow = await slowBody(port, requestPath, contentType);
    await waitUntil(slow.closed, SHORT_MS + 5_000);
    expect(slow.closed(), "the connection is still open").toBe(true);
    expect(slow.closedAfter()).toBeGreaterThanOrEqual(SHORT_MS - 50);
  });

  it.each([
    ["a document upload", "/api/documents"],
    ["a bulk upload", "/admin/documents/bulk"],
    ["a pitch with its deck", "/process"],
    ["a pitch with its deck (API)", "/api/pitch"],
  ])("%s (multipart to an upload path) keeps its long timeout", async (_label, requestPath) => {
    const port = await startListener({}, { bodyTimeoutMs: SHORT_MS });
    const slow = await slowBody(port, requestPath, "multipart/form-data; boundary=x");
    await wait(SHORT_MS * 4);
    expect(slow.closed(), "an upload was cut by the short timeout").toBe(false);
  });

  it("a body that arrives in time is answered as usual", async () => {
    const port = await startListener({}, { bodyTimeoutMs: SHORT_MS });
    const slow = await slowBody(port, "/api/newsletter", "application/json", 3);
    await wait(50);
    slow.socket.write("{}");
    await waitUntil(() => slow.received().includes("\r\n\r\n{"), 2_000);
    expect(slow.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(slow.received()).toContain('"bytes":3');
    await wait(SHORT_MS * 2);
    // The answered request's timer is gone: the kept-alive connection is not cut.
    expect(slow.closed()).toBe(false);
  });
});

describe("open connections per client address (L8)", () => {
  async function openSockets(port: number, count: number): Promise<Array<{ socket: net.Socket; closed: () => boolean }>> {
    const out = [];
    for (let i = 0; i < count; i++) {
      const socket = net.connect(port, "127.0.0.1");
      await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
      let closed = false;
      socket.on("close", () => (closed = true));
      socket.on("error", () => {});
      closers.push(async () => void socket.destroy());
      out.push({ socket, closed: () => closed });
    }
    return out;
  }

  it("beyond the cap, a client's new connections are closed at once; one closing makes room again", async () => {
    const port = await listen(createAppServer(appOptions({}, { maxConnectionsPerClient: 4 })));
    const open = await openSockets(port, 4);
    const extra = await openSockets(port, 2);
    await waitUntil(() => extra.every((s) => s.closed()), 2_000);
    expect(extra.map((s) => s.closed())).toEqual([true, true]);
    await wait(100);
    expect(open.map((s) => s.closed())).toEqual([false, false, false, false]);

    open[0]!.socket.destroy();
    await wait(100);
    const again = await openSockets(port, 1);
    await wait(100);
    expect(again[0]!.closed()).toBe(false);
  });

  it("the connections within the cap are served", async () => {
    const port = await listen(createAppServer(appOptions({}, { maxConnectionsPerClient: 4 })));
    const answers = await Promise.all(Array.from({ length: 4 }, () => get(port, "/x")));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
  });
});

describe("TRUST_PROXY names the proxies whose X-Forwarded-* headers count (L9)", () => {
  const forwarded = { "X-Forwarded-For": "203.0.113.50", "X-Forwarded-Proto": "https", "X-Request-Id": "proxy-request-0001" };

  it.each(["192.0.2.1", "10.0.0.0/8", "192.0.2.1, 2001:db8::/32"])(
    "a peer not in TRUST_PROXY=%j cannot set the client address, the scheme or the request id",
    async (list) => {
      const port = await startListener({ TRUST_PROXY: list });
      const answer = await get(port, "/page", forwarded);
      expect(answer.json.clientAddress).toBe("127.0.0.1");
      expect(answer.json.url).toMatch(/^http:\/\//);
      expect(answer.headers["x-request-id"]).not.toBe("proxy-request-0001");
    },
  );

  it.each(["1", "true", "127.0.0.1", "127.0.0.0/8, ::1"])("a peer in TRUST_PROXY=%j sets them", async (list) => {
    const port = await startListener({ TRUST_PROXY: list });
    const answer = await get(port, "/page", forwarded);
    expect(answer.json.clientAddress).toBe("203.0.113.50");
    expect(answer.json.url).toMatch(/^https:\/\//);
    expect(answer.headers["x-request-id"]).toBe("proxy-request-0001");
  });

  it("the client is the right-most hop that is not a trusted proxy", async () => {
    const port = await startListener({ TRUST_PROXY: "127.0.0.0/8, 10.0.0.0/8" });
    // A forged first hop, the client, then two proxies of ours.
    const answer = await get(port, "/page", { "X-Forwarded-For": "198.51.100.1, 203.0.113.60, 10.1.2.3, 127.0.0.9" });
    expect(answer.json.clientAddress).toBe("203.0.113.60");
  });

  it("TRUST_PROXY=1 trusts loopback only: a hop from elsewhere is the client, however the header goes on", async () => {
    const port = await startListener({ TRUST_PROXY: "1" });
    const answer = await get(port, "/page", { "X-Forwarded-For": "203.0.113.61, 10.1.2.3" });
    expect(answer.json.clientAddress).toBe("10.1.2.3");
  });

  it("off (TRUST_PROXY unset or 0): the socket's address, whatever the headers say", async () => {
    for (const value of [undefined, "0", "false"]) {
      const port = await startListener({ TRUST_PROXY: value });
      const answer = await get(port, "/page", forwarded);
      expect(answer.json.clientAddress).toBe("127.0.0.1");
      expect(answer.json.url).toMatch(/^http:\/\//);
    }
  });
});
