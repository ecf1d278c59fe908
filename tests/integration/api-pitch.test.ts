import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { flushMailer } from "~/modules/mail/mail.server";
import { resetRateLimitsForTests } from "~/modules/http/rate-limit.server";
import { action, loader } from "~/routes/api/pitch";
import { allOutbox, allPitches, clearTables } from "../helpers/db";
import { validPitch } from "../helpers/fixtures";
import { callRoute, jsonRequest } from "../helpers/http";
import { TEST_FIRM_INBOX } from "../helpers/test-env";

const post = (body: unknown, options?: Parameters<typeof jsonRequest>[2]) =>
  callRoute(action, jsonRequest("/api/pitch", body, options));

beforeEach(() => {
  clearTables();
  resetRateLimitsForTests();
  vi.spyOn(console, "log").mockImplementation(() => {});
});
afterEach(async () => {
  await flushMailer();
  resetRateLimitsForTests();
  vi.restoreAllMocks();
});

describe("POST /api/pitch", () => {
  it("stores the pitch: 201 with { id, createdAt }, and queues both mails", async () => {
    const response = await post(validPitch({ stage: "Pre-Seed" }));
    expect(response.status).toBe(201);
    const body = (await response.json()) as { id: string; createdAt: string };
    expect(Object.keys(body).sort()).toEqual(["createdAt", "id"]);
    expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);

    const rows = allPitches();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: body.id, stage: "Pre-Seed", company: "Analytical Engines" });
    expect(allOutbox().map((m) => m.to).sort()).toEqual(["ada@analytical.example", TEST_FIRM_INBOX].sort());
  });

  it("stores no deck when deckUrl is absent or empty", async () => {
    const { deckUrl: _omit, ...noDeck } = validPitch();
    expect((await post(noDeck)).status).toBe(201);
    expect((await post(validPitch({ deckUrl: "" }))).status).toBe(201);
    expect(allPitches().map((p) => p.deckUrl)).toEqual([null, null]);
  });

  it("ignores a client-chosen id and createdAt", async () => {
    const response = await post({ ...validPitch(), id: "chosen-by-client", createdAt: "1999-01-01T00:00:00.000Z" });
    const body = (await response.json()) as { id: string; createdAt: string };
    expect(body.id).not.toBe("chosen-by-client");
    expect(body.createdAt).not.toBe("1999-01-01T00:00:00.000Z");
  });

  it.each([
    ["name", "", "Name is required"],
    ["email", "ada-at-example", "Invalid email address"],
    ["company", "   ", "Company is required"],
    ["stage", "Series C", "Please choose a stage"],
    ["deckUrl", "not a url", "Invalid URL"],
    ["deckUrl", "javascript:alert(1)", "Invalid URL"],
    ["message", "", "Message is required"],
    ["name", "n".repeat(201), "Must be at most 200 characters"],
    ["company", "c".repeat(201), "Must be at most 200 characters"],
    ["message", "m".repeat(5001), "Must be at most 5000 characters"],
  ])("answers 400 { error, fields.%s } for %j", async (key, value, message) => {
    const response = await post(validPitch({ [key]: value }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: message, fields: { [key]: [message] } });
    expect(allPitches()).toHaveLength(0);
    expect(allOutbox()).toHaveLength(0);
  });

  it("names every missing field", async () => {
    const response = await post({});
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; fields: Record<string, string[]> };
    expect(body.fields).toEqual({
      name: ["Name is required"],
      email: ["Invalid email address"],
      company: ["Company is required"],
      stage: ["Please choose a stage"],
      message: ["Message is required"],
    });
    expect(body.error).toBe("Name is required");
  });

  it.each(["name", "email", "company", "stage", "message"] as const)("answers 400 naming %s when it alone is missing", async (key) => {
    const body: Record<string, string> = validPitch();
    delete body[key];
    const response = await post(body);
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { fields: Record<string, string[]> };
    expect(Object.keys(answer.fields)).toEqual([key]);
  });

  it("answers 400 'Request body must be valid JSON' for malformed JSON", async () => {
    const response = await post('{"name": "Ada",');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Request body must be valid JSON" });
  });

  it.each([["[]"], ["7"], ["null"]])("answers 400 for the non-object body %s", async (raw) => {
    const response = await post(raw);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Request body must be a JSON object" });
  });

  it("answers 415 for a form-encoded body", async () => {
    const response = await post(new URLSearchParams(validPitch()).toString(), {
      contentType: "application/x-www-form-urlencoded",
    });
    expect(response.status).toBe(415);
    expect(allPitches()).toHaveLength(0);
  });

  it("answers 413 for a body over 16 KB", async () => {
    const response = await post(validPitch({ message: "m".repeat(17 * 1024) }));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: "Request body is too large" });
    expect(allPitches()).toHaveLength(0);
  });

  it("rate-limits: the 11th pitch from one address within the window gets 429 with Retry-After", async () => {
    for (let i = 1; i <= 10; i++) {
      expect((await post(validPitch({ email: `f${i}@startup.example` }))).status, `pitch ${i}`).toBe(201);
    }
    const limited = await post(validPitch({ email: "f11@startup.example" }));
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ error: "Too many pitch submissions. Please try again later." });
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(allPitches()).toHaveLength(10);
  });
});

describe("GET /api/pitch", () => {
  it("answers 405 with Allow: POST", async () => {
    const response = await callRoute(loader, new Request("http://localhost:3000/api/pitch"));
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("POST");
  });
});
