import { afterEach, describe, expect, it, vi } from "vitest";
import {
  currentRequestId,
  log,
  logError,
  redact,
  securityEvent,
  setLogSinkForTests,
  withRequestContext,
  type SecurityEventName,
} from "~/modules/logging/log.server";

/**
 * app/modules/logging/log.server.ts as an operator reads it: every entry is
 * one JSON object on one line (info on stdout, warn/error on stderr), lines
 * written while a request is handled carry its id, secret-named fields never
 * show their value, errors keep their stack, LOG_LEVEL=silent keeps the
 * console quiet, and security events carry `event` and the client address.
 */

type Line = Record<string, unknown> & { time: string; level: string; msg: string };

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CONTEXT = { requestId: "req-0123456789", ip: "198.51.100.23" };

/** Capture what log() prints: console.log (stdout) and console.error (stderr), with LOG_LEVEL=info. */
function captureConsole() {
  vi.stubEnv("LOG_LEVEL", "info");
  const out = vi.spyOn(console, "log").mockImplementation(() => {});
  const err = vi.spyOn(console, "error").mockImplementation(() => {});
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  const info = vi.spyOn(console, "info").mockImplementation(() => {});
  return {
    stdout: () => out.mock.calls,
    stderr: () => err.mock.calls,
    /** Every console call of any kind. */
    total: () => out.mock.calls.length + err.mock.calls.length + warn.mock.calls.length + info.mock.calls.length,
  };
}

/** Capture what reaches the test sink, parsed, keeping the raw text too. */
function captureSink() {
  const raw: string[] = [];
  setLogSinkForTests((line) => raw.push(line));
  return { raw, lines: () => raw.map((text) => JSON.parse(text) as Line) };
}

/** A single console argument that is a string holding exactly one JSON object on one line. */
function parseOneLine(args: unknown[]): Line {
  expect(args).toHaveLength(1);
  const [text] = args;
  expect(typeof text).toBe("string");
  expect(text as string).not.toMatch(/[\r\n]/);
  const parsed = JSON.parse(text as string) as unknown;
  expect(parsed).toBeTypeOf("object");
  expect(Array.isArray(parsed)).toBe(false);
  return parsed as Line;
}

afterEach(() => {
  setLogSinkForTests(null);
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe("a log line", () => {
  it("is one JSON object on one line with time (ISO), level and msg, then the fields", () => {
    const console = captureConsole();
    log("info", "hello operator", { count: 3, note: "two\nlines" });
    expect(console.stdout()).toHaveLength(1);
    expect(console.stderr()).toHaveLength(0);
    const line = parseOneLine(console.stdout()[0]!);
    expect(line).toEqual({ time: expect.stringMatching(ISO_TIME), level: "info", msg: "hello operator", count: 3, note: "two\nlines" });
    expect(Math.abs(Date.parse(line.time) - Date.now())).toBeLessThan(5_000);
    // The keys an operator greps for come first.
    expect(Object.keys(line).slice(0, 3)).toEqual(["time", "level", "msg"]);
  });

  it("warn and error go to stderr, info to stdout", () => {
    const console = captureConsole();
    log("warn", "careful");
    log("error", "broken");
    log("info", "fine");
    expect(console.stderr().map((args) => parseOneLine(args).level)).toEqual(["warn", "error"]);
    expect(console.stdout().map((args) => parseOneLine(args).level)).toEqual(["info"]);
  });

  it("has no requestId outside a request", () => {
    const sink = captureSink();
    log("info", "at start");
    expect(sink.lines()[0]).not.toHaveProperty("requestId");
    expect(currentRequestId()).toBeUndefined();
  });
});

describe("withRequestContext", () => {
  it("every line inside carries the request id, across awaits and timers; none after", async () => {
    const sink = captureSink();
    await withRequestContext(CONTEXT, async () => {
      log("info", "first");
      await new Promise((resolve) => setTimeout(resolve, 5));
      log("warn", "after a timer");
      await Promise.resolve();
      logError(new Error("boom"), "after a microtask");
      expect(currentRequestId()).toBe(CONTEXT.requestId);
    });
    log("info", "outside");
    const lines = sink.lines();
    expect(lines.map((l) => [l.msg, l.requestId])).toEqual([
      ["first", CONTEXT.requestId],
      ["after a timer", CONTEXT.requestId],
      ["after a microtask", CONTEXT.requestId],
      ["outside", undefined],
    ]);
  });

  it("two requests handled at the same time keep their own ids", async () => {
    const sink = captureSink();
    const handle = (requestId: string, delay: number) =>
      withRequestContext({ requestId, ip: "192.0.2.1" }, async () => {
        log("info", `start ${requestId}`);
        await new Promise((resolve) => setTimeout(resolve, delay));
        log("info", `end ${requestId}`);
      });
    await Promise.all([handle("request-aaaa", 15), handle("request-bbbb", 1)]);
    for (const line of sink.lines()) expect(line.msg.endsWith(line.requestId as string)).toBe(true);
    expect(sink.lines()).toHaveLength(4);
  });

  it("returns what the function returns", () => {
    expect(withRequestContext(CONTEXT, () => 42)).toBe(42);
  });
});

describe("redaction", () => {
  const SECRETS = {
    password: "hunter2-password-value",
    token: "raw-token-value-0123456789",
    secret: "the-session-secret-value",
    cookie: "lr_session=cookie-value-abc",
    passwordHash: "$2b$12$hash-value-xyz",
    link: "http://localhost:3000/fund-ii/documents?token=link-token-value",
  };

  it.each(Object.entries(SECRETS))("a field named %s is written as \"[redacted]\"", (name, value) => {
    const sink = captureSink();
    log("info", "with a secret", { [name]: value, email: "lp@fund.example" });
    const [line] = sink.lines();
    expect(line?.[name]).toBe("[redacted]");
    expect(line?.email).toBe("lp@fund.example");
    expect(sink.raw.join("\n")).not.toContain(value);
  });

  it("names are matched whatever their case or prefix (accessToken, Authorization, SESSION_SECRET, setCookie, tokenHash)", () => {
    const fields = {
      accessToken: "v1-access-token",
      Authorization: "Bearer v2-bearer",
      SESSION_SECRET: "v3-session-secret",
      setCookie: "v4-set-cookie",
      tokenHash: "v5-token-hash",
      newPassword: "v6-new-password",
    };
    expect(redact(fields)).toEqual(Object.fromEntries(Object.keys(fields).map((k) => [k, "[redacted]"])));
  });

  it("nested objects are redacted by name too, at any depth, other values kept", () => {
    const sink = captureSink();
    const when = new Date("2026-11-21T10:00:00.000Z");
    log("info", "nested", {
      user: { id: "u1", email: "lp@fund.example", passwordHash: SECRETS.passwordHash, session: { cookie: SECRETS.cookie, when } },
      request: { headers: { authorization: "Bearer deep-bearer-value", accept: "text/html" } },
      mail: { to: "lp@fund.example", link: SECRETS.link },
      ids: ["a", "b"],
    });
    const [line] = sink.lines();
    expect(line).toMatchObject({
      user: { id: "u1", email: "lp@fund.example", passwordHash: "[redacted]", session: { cookie: "[redacted]", when: when.toISOString() } },
      request: { headers: { authorization: "[redacted]", accept: "text/html" } },
      mail: { to: "lp@fund.example", link: "[redacted]" },
      ids: ["a", "b"],
    });
    const raw = sink.raw.join("\n");
    for (const value of [SECRETS.passwordHash, SECRETS.cookie, SECRETS.link, "deep-bearer-value"]) expect(raw).not.toContain(value);
  });

  it("a whole object under a secret name is replaced, not walked", () => {
    expect(redact({ token: { raw: "abc", hash: "def" } })).toEqual({ token: "[redacted]" });
  });

  it("only a field named exactly `link` is a link: linkSent, links counted, deepLinked are kept", () => {
    expect(redact({ linkSent: true, deepLinked: "no", link: "x" })).toEqual({ linkSent: true, deepLinked: "no", link: "[redacted]" });
  });

  it("does not change the object it was given", () => {
    const fields = { password: "p", nested: { token: "t" } };
    redact(fields);
    expect(fields).toEqual({ password: "p", nested: { token: "t" } });
  });

  it("security events are redacted the same way", () => {
    const sink = captureSink();
    securityEvent("auth.sign_in", { userId: "u1", password: SECRETS.password, token: SECRETS.token });
    expect(sink.lines()[0]).toMatchObject({ event: "auth.sign_in", userId: "u1", password: "[redacted]", token: "[redacted]" });
    expect(sink.raw.join("\n")).not.toContain(SECRETS.password);
    expect(sink.raw.join("\n")).not.toContain(SECRETS.token);
  });
});

describe("logError", () => {
  class MailError extends Error {
    override name = "MailError";
  }

  it("writes level error with the error's name, message and stack, and the given msg and fields", () => {
    const sink = captureSink();
    const error = new MailError("connect ECONNREFUSED 127.0.0.1:587");
    withRequestContext(CONTEXT, () => logError(error, "mail failed", { mailId: "m1" }));
    const [line] = sink.lines();
    expect(line).toMatchObject({
      level: "error",
      msg: "mail failed",
      requestId: CONTEXT.requestId,
      mailId: "m1",
      error: { name: "MailError", message: "connect ECONNREFUSED 127.0.0.1:587" },
    });
    const stack = (line?.error as { stack?: string }).stack ?? "";
    expect(stack).toBe(error.stack);
    expect(stack).toContain("log.test.ts");
    // Still one line: the stack's newlines are escaped inside the JSON string.
    expect(sink.raw[0]).not.toMatch(/\n/);
  });

  it("defaults msg to 'unexpected error'; a thrown non-Error keeps its text", () => {
    const sink = captureSink();
    logError("plain string thrown");
    logError(404);
    expect(sink.lines()).toEqual([
      expect.objectContaining({ level: "error", msg: "unexpected error", error: { message: "plain string thrown" } }),
      expect.objectContaining({ level: "error", msg: "unexpected error", error: { message: "404" } }),
    ]);
  });

  it("goes to stderr", () => {
    const console = captureConsole();
    logError(new TypeError("x is undefined"));
    expect(console.stdout()).toHaveLength(0);
    expect(parseOneLine(console.stderr()[0]!).error).toMatchObject({ name: "TypeError", message: "x is undefined" });
  });
});

describe("LOG_LEVEL=silent", () => {
  it("prints nothing to the console at any level", () => {
    const console = captureConsole();
    vi.stubEnv("LOG_LEVEL", "silent");
    log("info", "i");
    log("warn", "w");
    log("error", "e");
    logError(new Error("boom"));
    withRequestContext(CONTEXT, () => securityEvent("auth.sign_in_failed", { email: "x@example.test" }));
    expect(console.total()).toBe(0);
  });

  it("a test sink still receives every line (and the console stays quiet)", () => {
    const console = captureConsole();
    vi.stubEnv("LOG_LEVEL", "silent");
    const sink = captureSink();
    log("info", "i");
    logError(new Error("boom"));
    withRequestContext(CONTEXT, () => securityEvent("request.rate_limited", { bucket: "login" }));
    expect(sink.lines().map((l) => l.msg)).toEqual(["i", "unexpected error", "request.rate_limited"]);
    expect(console.total()).toBe(0);
  });

  it("a sink replaces the console even when logging is on; null puts the console back", () => {
    const console = captureConsole();
    const sink = captureSink();
    log("info", "to the sink");
    expect(console.total()).toBe(0);
    setLogSinkForTests(null);
    log("info", "to stdout");
    expect(sink.raw).toHaveLength(1);
    expect(console.stdout()).toHaveLength(1);
  });
});

describe("securityEvent", () => {
  const FAILURES: SecurityEventName[] = ["auth.sign_in_failed", "fund.token_refused", "request.cross_site_refused", "request.rate_limited"];
  const OTHERS: SecurityEventName[] = [
    "auth.sign_in",
    "auth.sign_out",
    "auth.register",
    "auth.password_reset_requested",
    "auth.password_reset",
    "user.status_changed",
    "document.uploaded",
    "document.deleted",
    "fund.access_granted",
    "fund.access_requested",
    "fund.token_validated",
    "fund.access_revoked",
    "fund.link_resent",
  ];

  it.each(FAILURES)("%s is a warn line (stderr) with event, ip and requestId from the request", (event) => {
    const console = captureConsole();
    withRequestContext(CONTEXT, () => securityEvent(event, { email: "x@example.test" }));
    expect(console.stdout()).toHaveLength(0);
    const line = parseOneLine(console.stderr()[0]!);
    expect(line).toMatchObject({ level: "warn", msg: event, event, ip: CONTEXT.ip, requestId: CONTEXT.requestId, email: "x@example.test" });
  });

  it.each(OTHERS)("%s is an info line with event, ip and requestId", (event) => {
    const sink = captureSink();
    withRequestContext(CONTEXT, () => securityEvent(event, { userId: "u1" }));
    expect(sink.lines()).toEqual([
      { time: expect.stringMatching(ISO_TIME), level: "info", msg: event, requestId: CONTEXT.requestId, event, ip: CONTEXT.ip, userId: "u1" },
    ]);
  });

  it("outside a request there is no ip and no requestId", () => {
    const sink = captureSink();
    securityEvent("auth.sign_in", { userId: "u1" });
    const [line] = sink.lines();
    expect(line).toMatchObject({ event: "auth.sign_in", userId: "u1" });
    expect(line).not.toHaveProperty("ip");
    expect(line).not.toHaveProperty("requestId");
  });

  it("a field cannot replace the line's time, level, msg or requestId", () => {
    const sink = captureSink();
    withRequestContext(CONTEXT, () =>
      securityEvent("fund.token_validated", { requestId: "row-id-of-the-access-request", level: "debug", msg: "x", time: "then" }),
    );
    expect(sink.lines()[0]).toMatchObject({
      requestId: CONTEXT.requestId,
      level: "info",
      msg: "fund.token_validated",
      time: expect.stringMatching(ISO_TIME),
    });
  });
});
