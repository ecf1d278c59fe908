import http from "node:http";
import { expect, type APIResponse } from "@playwright/test";

/** The headers every response must carry (DESIGN.md §4), static files and errors included. */
export function expectSecurityHeaders(response: APIResponse, what: string) {
  const headers = response.headers();
  const csp = headers["content-security-policy"] ?? "";
  expect(csp, `${what}: Content-Security-Policy`).not.toBe("");
  for (const directive of ["frame-ancestors 'none'", "object-src 'none'", "base-uri 'none'"]) {
    expect(csp, `${what}: CSP has ${directive}`).toContain(directive);
  }
  expect(headers["x-content-type-options"], `${what}: X-Content-Type-Options`).toBe("nosniff");
  expect(headers["x-frame-options"], `${what}: X-Frame-Options`).toMatch(/^(DENY|SAMEORIGIN)$/i);
  expect(headers["referrer-policy"], `${what}: Referrer-Policy`).toMatch(
    /^(no-referrer|same-origin|strict-origin|strict-origin-when-cross-origin)$/,
  );
}

/** A 4xx JSON answer with a non-empty `error` message; returns the parsed body. */
export async function expectJsonError(
  response: APIResponse,
  status: number,
  message?: string | RegExp,
): Promise<{ error: string; fields?: Record<string, string[]> }> {
  const text = await response.text();
  expect(response.status(), `status (body: ${text.slice(0, 200)})`).toBe(status);
  expect(response.headers()["content-type"]).toMatch(/^application\/json/);
  const body = JSON.parse(text) as { error?: unknown; fields?: Record<string, string[]> };
  expect(typeof body.error).toBe("string");
  expect((body.error as string).length).toBeGreaterThan(0);
  if (message !== undefined) {
    if (typeof message === "string") expect(body.error).toBe(message);
    else expect(body.error).toMatch(message);
  }
  return body as { error: string; fields?: Record<string, string[]> };
}

/**
 * POST a body with Transfer-Encoding: chunked (no Content-Length), so only a
 * limit enforced while streaming can stop it. Resolves with the status and body.
 */
export function postChunked(
  baseURL: string,
  path: string,
  headers: Record<string, string>,
  totalBytes: number,
): Promise<{ status: number; body: string }> {
  const url = new URL(path, baseURL);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: { ...headers, "Transfer-Encoding": "chunked" },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    // The server may answer and close before the whole body is sent.
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE" && error.code !== "ECONNRESET") reject(error);
    });
    const chunk = Buffer.alloc(8 * 1024, "a");
    let sent = 0;
    req.write('{"email":"');
    const pump = () => {
      while (sent < totalBytes) {
        sent += chunk.byteLength;
        if (!req.write(chunk)) {
          req.once("drain", pump);
          return;
        }
      }
      req.end('@example.com"}');
    };
    pump();
  });
}
