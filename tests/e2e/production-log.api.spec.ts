import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { request as playwrightRequest, type APIRequestContext, type APIResponse } from "@playwright/test";
import { expect, test } from "./helpers/fixtures";
import { runDir } from "./helpers/documents";
import { E2E_PORT } from "./helpers/origin";
import { MIME, samplePdf } from "../helpers/sample-files";
import { testTotpSecret } from "../support/totp";
import { postLogin } from "./helpers/accounts";

/**
 * The audit trail on a real production listener: the built server started as
 * `npm start` starts it (plain node on build/server/index.js, NODE_ENV=production,
 * LOG_LEVEL=info), on a port and data of its own, its output read line by line.
 * A failed sign-in, a registration, an approval and a document download each
 * leave their security event in that log, carrying the id the response sent
 * back as x-request-id and the client's address. The server sits behind a
 * proxy as in docs/deploy.md (TRUST_PROXY=1), so each request comes from an
 * address of its own and a line that names the wrong one is caught.
 */

const BUILD_DIR = path.resolve(process.env.BUILD_DIR ?? "build");
const PORT = E2E_PORT + 50;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const ADMIN = { email: "log-admin@example.com", name: "Log Admin", password: "log-admin-passphrase-1" };
const INVESTOR = { email: "log-investor@example.com", name: "Log Investor", password: "log-investor-passphrase-1" };

type Line = Record<string, unknown> & { msg: string };

// One server for the file, its events in order.
test.describe.configure({ mode: "serial" });

let server: ChildProcess;
let http: APIRequestContext;
const contexts: APIRequestContext[] = [];
const lines: Line[] = [];
let output = "";

test.beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(runDir(), "production-log-"));
  const env = {
    PATH: process.env.PATH ?? "",
    NODE_ENV: "production",
    PORT: String(PORT),
    HOST: "127.0.0.1",
    APP_URL: ORIGIN,
    SESSION_SECRET: "production-log-session-secret-0123456789abcdef",
    DATABASE_PATH: path.join(dir, "data.sqlite"),
    STORAGE_DIR: path.join(dir, "uploads"),
    LOG_LEVEL: "info",
    TRUST_PROXY: "1",
  };
  // The first admin, made as an operator would on the server: the compiled script.
  execFileSync(process.execPath, [path.join(BUILD_DIR, "server/admin-create.js"), "--email", ADMIN.email, "--name", ADMIN.name], {
    env: { ...env, ADMIN_PASSWORD: ADMIN.password, ADMIN_TOTP_SECRET: testTotpSecret(ADMIN.email) },
    stdio: "pipe",
  });

  server = spawn(process.execPath, [path.join(BUILD_DIR, "server/index.js")], { env, stdio: ["ignore", "pipe", "pipe"] });
  // Info lines go to stdout, warnings and errors to stderr (journald keeps both).
  for (const stream of [server.stdout!, server.stderr!]) {
    let pending = "";
    stream.on("data", (chunk: Buffer) => {
      output = (output + chunk.toString("utf8")).slice(-20_000);
      pending += chunk.toString("utf8");
      const parts = pending.split("\n");
      pending = parts.pop() ?? "";
      for (const part of parts) {
        try {
          lines.push(JSON.parse(part) as Line);
        } catch {
          /* not a log line */
        }
      }
    });
  }

  http = await playwrightRequest.newContext({ baseURL: ORIGIN, maxRedirects: 0 });
  await expect
    .poll(async () => {
      if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}):\n${output}`);
      return (await http.get("/healthz").catch(() => null))?.status();
    }, { timeout: 30_000 })
    .toBe(200);
});

test.afterAll(async () => {
  for (const context of [http, ...contexts]) await context?.dispose();
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
});

/** The answer's request id, and the one line of `event` the server wrote for it. */
async function eventFor(response: APIResponse, event: string): Promise<Line> {
  const requestId = response.headers()["x-request-id"];
  expect(requestId, "the answer carries x-request-id").toMatch(/^[0-9a-f-]{36}$/);
  await expect
    .poll(() => lines.filter((line) => line.event === event && line.requestId === requestId).length, {
      message: `one ${event} line with requestId ${requestId} in:\n${lines.map((l) => JSON.stringify(l)).join("\n")}`,
    })
    .toBe(1);
  return lines.find((line) => line.event === event && line.requestId === requestId)!;
}

test("the server started from the build, in production mode", () => {
  const listening = lines.find((line) => line.msg === `listening on ${ORIGIN}`);
  expect(listening?.mode).toBe("production");
});

test("a failed sign-in: auth.sign_in_failed with the request's id and address", async () => {
  const response = await http.post("/api/auth/login", {
    data: { email: ADMIN.email, password: "not-the-passphrase" },
    headers: { "X-Forwarded-For": "198.51.100.11" },
  });
  expect(response.status()).toBe(401);
  const line = await eventFor(response, "auth.sign_in_failed");
  expect(line).toMatchObject({ level: "warn", ip: "198.51.100.11", email: ADMIN.email });
});

test("a registration: auth.register with the request's id and address", async () => {
  const response = await http.post("/api/auth/register", {
    data: INVESTOR,
    headers: { "X-Forwarded-For": "198.51.100.12" },
  });
  expect(response.status(), await response.text()).toBe(201);
  const line = await eventFor(response, "auth.register");
  expect(line).toMatchObject({ ip: "198.51.100.12", email: INVESTOR.email, outcome: "pending review" });
});

test("an approval: user.status_changed with the request's id and the admin's address", async () => {
  const admin = await signedIn(ADMIN, "198.51.100.13");
  const pending = await admin.get("/api/auth/pending-users", { headers: { "X-Forwarded-For": "198.51.100.13" } });
  const investor = ((await pending.json()) as { id: string; email: string }[]).find((u) => u.email === INVESTOR.email);
  expect(investor, "the investor waits for approval").toBeTruthy();

  const response = await admin.patch(`/api/auth/users/${investor!.id}/status`, {
    data: { status: "approved" },
    headers: { "X-Forwarded-For": "198.51.100.14" },
  });
  expect(response.status(), await response.text()).toBe(200);
  const line = await eventFor(response, "user.status_changed");
  expect(line).toMatchObject({ ip: "198.51.100.14", userId: investor!.id, from: "pending", to: "approved" });
});

test("a document download: document.accessed with the request's id and the investor's address", async () => {
  const admin = await signedIn(ADMIN, "198.51.100.15");
  const upload = await admin.post("/api/documents", {
    multipart: {
      title: "Quarterly report",
      category: "reports",
      file: { name: "report.pdf", mimeType: MIME.pdf, buffer: samplePdf("Quarterly report") },
    },
    headers: { "X-Forwarded-For": "198.51.100.15" },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const { id } = (await upload.json()) as { id: string };

  const investor = await signedIn(INVESTOR, "198.51.100.16");
  const response = await investor.get(`/api/documents/${id}/download`, { headers: { "X-Forwarded-For": "198.51.100.16" } });
  expect(response.status()).toBe(200);
  const line = await eventFor(response, "document.accessed");
  expect(line).toMatchObject({ ip: "198.51.100.16", documentId: id, action: "download" });
});

/** A request context of its own, signed in through the JSON API from `ip` (it keeps the session cookie). */
async function signedIn(who: { email: string; password: string }, ip: string): Promise<APIRequestContext> {
  const context = await playwrightRequest.newContext({ baseURL: ORIGIN, maxRedirects: 0 });
  contexts.push(context);
  const response = await postLogin(context, who.email, who.password, { "X-Forwarded-For": ip });
  expect(response.status(), await response.text()).toBe(200);
  return context;
}
