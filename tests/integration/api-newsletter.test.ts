import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resetRateLimitsForTests } from "~/modules/http/rate-limit.server";
import { action, loader } from "~/routes/api/newsletter";
import { allSubscribers, clearTables } from "../helpers/db";
import { confirmedSubscriber } from "../helpers/newsletter";
import { callRoute, jsonRequest } from "../helpers/http";

const post = (body: unknown, options?: Parameters<typeof jsonRequest>[2], clientAddress?: string) =>
  callRoute(action, jsonRequest("/api/newsletter", body, options), clientAddress);

beforeEach(() => {
  clearTables();
  resetRateLimitsForTests();
});
afterEach(() => resetRateLimitsForTests());

describe("POST /api/newsletter", () => {
  it("subscribes: 202 { email, status: 'pending' } and the address stored lower-cased, pending", async () => {
    const response = await post({ email: "  Marie.Curie@Radium.EXAMPLE " });
    expect(response.status).toBe(202);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ email: "marie.curie@radium.example", status: "pending" });
    expect(allSubscribers()).toEqual([expect.objectContaining({ email: "marie.curie@radium.example", status: "pending", consentPage: "/api/newsletter" })]);
  });

  it("answers a pending address that subscribes again exactly like a new one (status, headers, body)", async () => {
    const first = await post({ email: "same@lumenridge.example" });
    const again = await post({ email: "same@lumenridge.example" });
    expect(again.status).toBe(first.status);
    expect([...again.headers.entries()]).toEqual([...first.headers.entries()]);
    expect(await again.json()).toEqual(await first.json());
  });

  it("accepts a charset in the content type", async () => {
    const response = await post({ email: "a@b.example" }, { contentType: "application/json; charset=utf-8" });
    expect(response.status).toBe(202);
  });

  it.each([
    ["malformed", { email: "not-an-email" }],
    ["empty", { email: "" }],
    ["a number", { email: 12 }],
    ["missing", {}],
    ["longer than 254 characters", { email: `${"a".repeat(250)}@b.example` }],
  ])("answers 400 { error, fields.email } when the email is %s", async (_label, body) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: "Invalid email address",
      fields: { email: ["Invalid email address"] },
    });
    expect(allSubscribers()).toHaveLength(0);
  });

  it("answers 409 { error: 'Email already subscribed' } for a confirmed address", async () => {
    confirmedSubscriber("dup@lumenridge.example");
    const response = await post({ email: "DUP@lumenridge.example " });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ error: "Email already subscribed" });
    expect(allSubscribers()).toHaveLength(1);
  });

  it.each(["{", "{'email': 'a@b.example'}", "email=a@b.example", ""])(
    "answers 400 'Request body must be valid JSON' for the body %j",
    async (raw) => {
      const response = await post(raw);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: "Request body must be valid JSON" });
    },
  );

  it.each([["[]"], ['["a@b.example"]'], ["42"], ["null"], ['"a@b.example"'], ["true"]])(
    "answers 400 for the non-object JSON body %s",
    async (raw) => {
      const response = await post(raw);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: "Request body must be a JSON object" });
      expect(allSubscribers()).toHaveLength(0);
    },
  );

  it.each(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonp"])(
    "answers 415 for Content-Type %s",
    async (contentType) => {
      const response = await post({ email: "a@b.example" }, { contentType });
      expect(response.status).toBe(415);
      expect(await response.json()).toEqual({ error: "Content-Type must be application/json" });
      expect(allSubscribers()).toHaveLength(0);
    },
  );

  it("answers 415 when there is no Content-Type", async () => {
    const request = new Request("http://localhost:3000/api/newsletter", {
      method: "POST",
      body: new Blob(['{"email":"a@b.example"}']),
    });
    expect(request.headers.get("content-type")).toBeNull();
    const response = await callRoute(action, request);
    expect(response.status).toBe(415);
  });

  it("answers 413 for a body over 16 KB (streamed, without Content-Length)", async () => {
    const response = await post({ email: "a@b.example", padding: "x".repeat(16 * 1024) });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: "Request body is too large" });
    expect(allSubscribers()).toHaveLength(0);
  });

  it("answers 413 up front when Content-Length declares more than 16 KB", async () => {
    const response = await post({ email: "a@b.example" }, { headers: { "Content-Length": String(16 * 1024 + 1) } });
    expect(response.status).toBe(413);
  });

  it("accepts a body of exactly 16 KB", async () => {
    const prefix = '{"email":"edge@b.example","padding":"';
    const suffix = '"}';
    const raw = prefix + "x".repeat(16 * 1024 - prefix.length - suffix.length) + suffix;
    expect(new TextEncoder().encode(raw).byteLength).toBe(16 * 1024);
    expect((await post(raw)).status).toBe(202);
  });

  it("answers 405 to other methods on the action", async () => {
    const request = new Request("http://localhost:3000/api/newsletter", {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "a@b.example" }),
    });
    const response = await callRoute(action, request);
    expect(response.status).toBe(405);
    expect(allSubscribers()).toHaveLength(0);
  });

  it("rate-limits: the 21st request from one address within the window gets 429 with Retry-After", async () => {
    for (let i = 1; i <= 20; i++) {
      const response = await post({ email: `reader${i}@lumenridge.example` });
      expect(response.status, `request ${i}`).toBe(202);
    }
    const limited = await post({ email: "reader21@lumenridge.example" });
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ error: "Too many subscription attempts. Please try again later." });
    const retryAfter = Number(limited.headers.get("Retry-After"));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(allSubscribers()).toHaveLength(20);

    // Another client is not affected.
    expect((await post({ email: "reader22@lumenridge.example" }, undefined, "198.51.100.99")).status).toBe(202);
  });
});

describe("GET /api/newsletter", () => {
  it("answers 405 with Allow: POST", async () => {
    const response = await callRoute(loader, new Request("http://localhost:3000/api/newsletter"));
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("POST");
    expect(await response.json()).toEqual({ error: "Method not allowed" });
  });
});
