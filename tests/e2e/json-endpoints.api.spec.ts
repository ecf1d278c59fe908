import { randomBytes } from "node:crypto";
import { expect, test } from "./helpers/fixtures";
import { latestMailTo } from "./helpers/accounts";
import { subscribe } from "./helpers/email-lists";
import { expectJsonError, postChunked } from "./helpers/http";

/**
 * POST /api/newsletter and POST /api/pitch (SPEC.md §7): good input is stored;
 * bad input of every kind gets a 4xx with a clear `error` message, never a 500.
 */

const email = (label: string) => `${label}-${Date.now().toString(36)}-${randomBytes(4).toString("hex")}@example.com`;

const validPitch = () => ({
  name: "Ada Founder",
  email: email("pitch"),
  company: "Photon Forge",
  stage: "Seed",
  deckUrl: "https://example.com/deck.pdf",
  message: "We build photonic chips for data centres.",
});

type BadCase = { name: string; body: string; contentType?: string; status: number; message?: string | RegExp };

const malformed: BadCase[] = [
  { name: "malformed JSON", body: '{"email": "a@example.com"', status: 400, message: "Request body must be valid JSON" },
  { name: "not JSON at all", body: "email=a@example.com", status: 400, message: "Request body must be valid JSON" },
  { name: "an empty body", body: "", status: 400, message: "Request body must be valid JSON" },
  { name: "a JSON array", body: "[]", status: 400, message: "Request body must be a JSON object" },
  { name: "JSON null", body: "null", status: 400, message: "Request body must be a JSON object" },
  { name: "a JSON string", body: '"a@example.com"', status: 400, message: "Request body must be a JSON object" },
  {
    name: "a form content type",
    body: "email=a%40example.com",
    contentType: "application/x-www-form-urlencoded",
    status: 415,
    message: "Content-Type must be application/json",
  },
  { name: "a text content type", body: '{"email":"a@example.com"}', contentType: "text/plain", status: 415 },
  { name: "a 20 KB body", body: JSON.stringify({ email: "a@example.com", pad: "x".repeat(20 * 1024) }), status: 413 },
  { name: "a 100 KB body", body: JSON.stringify({ email: "a@example.com", pad: "x".repeat(100 * 1024) }), status: 413 },
];

for (const endpoint of ["/api/newsletter", "/api/pitch"] as const) {
  test.describe(`POST ${endpoint}: malformed requests`, () => {
    for (const c of malformed) {
      test(`${c.name} → ${c.status}`, async ({ request }) => {
        // A Buffer is sent as is (a string would be re-encoded as JSON by Playwright).
        const response = await request.post(endpoint, {
          data: Buffer.from(c.body),
          headers: { "Content-Type": c.contentType ?? "application/json" },
        });
        await expectJsonError(response, c.status, c.message);
      });
    }

    test("a body streamed without Content-Length is cut off at the limit → 413", async ({ baseURL, clientIp }) => {
      const result = await postChunked(
        baseURL!,
        endpoint,
        { "Content-Type": "application/json", "X-Forwarded-For": clientIp },
        200 * 1024,
      );
      expect(result.status).toBe(413);
      expect(JSON.parse(result.body)).toEqual({ error: expect.stringMatching(/too large/i) });
    });

    test("GET is not allowed → 405", async ({ request }) => {
      await expectJsonError(await request.get(endpoint), 405, "Method not allowed");
    });
  });
}

test.describe("POST /api/newsletter", () => {
  test("subscribes a valid address → 202 { email, status: 'pending' }, lower-cased, and mails a confirmation link", async ({ request }) => {
    const address = email("News");
    const response = await request.post("/api/newsletter", { data: { email: `  ${address.toUpperCase()} ` } });
    expect(response.status()).toBe(202);
    expect(await response.json()).toEqual({ email: address.toLowerCase(), status: "pending" });
    const mail = await latestMailTo(address.toLowerCase(), /^Confirm your .* newsletter subscription$/);
    expect(mail.text).toMatch(/\/newsletter\/confirm\?token=[A-Za-z0-9_-]{43}/);
  });

  test("a pending address subscribing again gets the very same answer as a new one (no enumeration)", async ({ request }) => {
    const pending = email("pending");
    await request.post("/api/newsletter", { data: { email: pending } });
    const again = await request.post("/api/newsletter", { data: { email: pending } });
    const fresh = await request.post("/api/newsletter", { data: { email: email("fresh") } });
    expect(again.status()).toBe(fresh.status());
    const strip = (body: { email: string }) => ({ ...body, email: "x" });
    expect(strip(await again.json())).toEqual(strip(await fresh.json()));
    const names = (headers: Record<string, string>) => Object.keys(headers).filter((h) => h !== "date" && h !== "x-request-id").sort();
    expect(names(again.headers())).toEqual(names(fresh.headers()));
  });

  test("a confirmed address → 409 'Email already subscribed' (any letter case)", async ({ request }) => {
    const address = email("dup");
    await subscribe(request, address);
    await expectJsonError(
      await request.post("/api/newsletter", { data: { email: address.toUpperCase() } }),
      409,
      "Email already subscribed",
    );
  });

  const badBodies: { name: string; data: unknown }[] = [
    { name: "missing email", data: {} },
    { name: "email is a number", data: { email: 42 } },
    { name: "email is null", data: { email: null } },
    { name: "email is an array", data: { email: ["a@example.com"] } },
    { name: "email is an object", data: { email: { address: "a@example.com" } } },
    { name: "email has no @", data: { email: "not-an-email" } },
    { name: "email has no domain dot", data: { email: "user@localhost" } },
    { name: "email is empty", data: { email: "" } },
    { name: "email is 300 characters", data: { email: `${"a".repeat(288)}@example.com` } },
  ];
  for (const c of badBodies) {
    test(`${c.name} → 400 'Invalid email address'`, async ({ request }) => {
      const body = await expectJsonError(
        await request.post("/api/newsletter", { data: c.data as Record<string, unknown> }),
        400,
        "Invalid email address",
      );
      expect(body.fields?.email).toContain("Invalid email address");
    });
  }
});

test.describe("POST /api/pitch", () => {
  test("stores a valid pitch → 201 with a new id; id and createdAt are never taken from the request", async ({
    request,
  }) => {
    const response = await request.post("/api/pitch", {
      data: { ...validPitch(), id: "attacker-chosen-id", createdAt: "2000-01-01T00:00:00.000Z" },
    });
    expect(response.status()).toBe(201);
    const body = (await response.json()) as { id: string; createdAt: string };
    expect(body.id).not.toBe("attacker-chosen-id");
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/i);
    expect(new Date(body.createdAt).getFullYear()).toBeGreaterThanOrEqual(2025);
  });

  test("deckUrl may be empty or absent", async ({ request }) => {
    expect((await request.post("/api/pitch", { data: { ...validPitch(), deckUrl: "" } })).status()).toBe(201);
    const { deckUrl: _omitted, ...withoutDeck } = validPitch();
    expect((await request.post("/api/pitch", { data: withoutDeck })).status()).toBe(201);
  });

  test("every stage of the fixed list is accepted", async ({ request }) => {
    for (const stage of ["Pre-Seed", "Series A", "Series B", "Other"]) {
      const response = await request.post("/api/pitch", { data: { ...validPitch(), stage } });
      expect(response.status(), stage).toBe(201);
    }
  });

  const cases: { name: string; patch: Record<string, unknown>; field: string; message: string | RegExp }[] = [
    { name: "missing name", patch: { name: undefined }, field: "name", message: "Name is required" },
    { name: "blank name", patch: { name: "   " }, field: "name", message: "Name is required" },
    { name: "name is a number", patch: { name: 7 }, field: "name", message: "Name is required" },
    { name: "missing company", patch: { company: undefined }, field: "company", message: "Company is required" },
    { name: "missing message", patch: { message: undefined }, field: "message", message: "Message is required" },
    { name: "message is an object", patch: { message: { text: "hi" } }, field: "message", message: "Message is required" },
    { name: "missing email", patch: { email: undefined }, field: "email", message: "Invalid email address" },
    { name: "invalid email", patch: { email: "founder@" }, field: "email", message: "Invalid email address" },
    { name: "email is a boolean", patch: { email: true }, field: "email", message: "Invalid email address" },
    { name: "missing stage", patch: { stage: undefined }, field: "stage", message: "Please choose a stage" },
    { name: "stage outside the list", patch: { stage: "Series Z" }, field: "stage", message: "Please choose a stage" },
    { name: "stage in the wrong case", patch: { stage: "seed" }, field: "stage", message: "Please choose a stage" },
    { name: "deckUrl is not a URL", patch: { deckUrl: "my deck" }, field: "deckUrl", message: "Invalid URL" },
    { name: "deckUrl is javascript:", patch: { deckUrl: "javascript:alert(1)" }, field: "deckUrl", message: "Invalid URL" },
    { name: "deckUrl is ftp:", patch: { deckUrl: "ftp://example.com/deck.pdf" }, field: "deckUrl", message: "Invalid URL" },
    { name: "deckUrl is a number", patch: { deckUrl: 12 }, field: "deckUrl", message: /./ },
    { name: "name over 200 characters", patch: { name: "n".repeat(201) }, field: "name", message: /at most 200/ },
    { name: "message over 5000 characters", patch: { message: "m".repeat(5001) }, field: "message", message: /at most 5000/ },
  ];
  for (const c of cases) {
    test(`${c.name} → 400 naming the field`, async ({ request }) => {
      const data: Record<string, unknown> = { ...validPitch(), ...c.patch };
      for (const key of Object.keys(data)) if (data[key] === undefined) delete data[key];
      const body = await expectJsonError(await request.post("/api/pitch", { data }), 400);
      const fieldMessages = body.fields?.[c.field] ?? [];
      expect(fieldMessages.length, `fields.${c.field} in ${JSON.stringify(body)}`).toBeGreaterThan(0);
      if (typeof c.message === "string") expect(fieldMessages).toContain(c.message);
      else expect(fieldMessages.join(" ")).toMatch(c.message);
    });
  }

  test("all fields missing → 400 listing every required field", async ({ request }) => {
    const body = await expectJsonError(await request.post("/api/pitch", { data: {} }), 400);
    expect(Object.keys(body.fields ?? {}).sort()).toEqual(["company", "email", "message", "name", "stage"]);
  });

  test("a body over 64 KB → 413", async ({ request }) => {
    const response = await request.post("/api/pitch", {
      data: Buffer.from(JSON.stringify({ ...validPitch(), message: "m".repeat(65 * 1024) })),
      headers: { "Content-Type": "application/json" },
    });
    expect(response.status()).toBe(413);
    expect(JSON.parse(await response.text())).toEqual({ error: expect.stringMatching(/too large/i) });
  });
});

test.describe("rate limits (per client address)", () => {
  // One fixed client address per test (a retry gets a fresh one: limits live for 15 minutes).
  test("newsletter: the 21st attempt in 15 minutes → 429 with a clear message and Retry-After", async ({
    request,
  }, testInfo) => {
    const ip = { "X-Forwarded-For": `192.0.${2 + testInfo.retry}.21` };
    for (let i = 1; i <= 20; i++) {
      const response = await request.post("/api/newsletter", { data: { email: email(`rl${i}`) }, headers: ip });
      expect(response.status(), `attempt ${i}`).toBe(202);
    }
    const limited = await request.post("/api/newsletter", { data: { email: email("rl21") }, headers: ip });
    await expectJsonError(limited, 429, "Too many subscription attempts. Please try again later.");
    expect(Number(limited.headers()["retry-after"])).toBeGreaterThan(0);

    // The no-JS form from the same address is limited too, and says so.
    const form = await request.post("/newsletter", {
      form: { email: email("rl22"), formId: "newsletter-page", redirectTo: "/newsletter" },
      headers: ip,
    });
    expect(form.status()).toBe(200);
    expect(await form.text()).toContain("Too many subscription attempts. Please try again later.");

    // Another client is not affected.
    const other = await request.post("/api/newsletter", {
      data: { email: email("rl-other") },
      headers: { "X-Forwarded-For": `192.0.${2 + testInfo.retry}.22` },
    });
    expect(other.status()).toBe(202);
  });

  test("pitch: the 11th submission in 15 minutes → 429 with a clear message and Retry-After (the no-JS form: back to the form with it)", async ({
    request,
  }, testInfo) => {
    const ip = { "X-Forwarded-For": `192.0.${2 + testInfo.retry}.11` };
    for (let i = 1; i <= 10; i++) {
      const response = await request.post("/api/pitch", { data: validPitch(), headers: ip });
      expect(response.status(), `submission ${i}`).toBe(201);
    }
    const limited = await request.post("/api/pitch", { data: validPitch(), headers: ip });
    await expectJsonError(limited, 429, "Too many pitch submissions. Please try again later.");
    expect(Number(limited.headers()["retry-after"])).toBeGreaterThan(0);

    // The no-JS pitch form from the same address goes back to the form (303, decision 010) and shows the same message there.
    const form = await request.post("/process", { form: validPitch(), headers: ip, maxRedirects: 0 });
    expect(form.status()).toBe(303);
    expect(Number(form.headers()["retry-after"])).toBeGreaterThan(0);
    const back = form.headers()["location"]!;
    expect(back).toMatch(/^\/process#/);
    const page = await request.get(back, { headers: ip });
    expect(await page.text()).toContain("Too many pitch submissions. Please try again later.");
  });
});
