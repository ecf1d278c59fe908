import { randomBytes } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import { MIME, samplePdf } from "../helpers/sample-files";
import { adminSession, approvedInvestorSession, newApiContext, type Session } from "./helpers/documents";
import { expect, test } from "./helpers/fixtures";
import { expectJsonError } from "./helpers/http";

/**
 * Issue 16 §2 over HTTP: POST /api/pitch as multipart/form-data with a PDF
 * deck (201; 413 over 25 MB; 400 under `deck` when it is not a PDF), and the
 * admin's GET /admin/pitches/{id}/deck (401/403 for others, the PDF inline for
 * an admin, every opening in the audit trail).
 */

let admin: Session;
let investor: Session;
let anonymous: APIRequestContext;

test.beforeAll(async () => {
  admin = await adminSession("deck-admin");
  investor = await approvedInvestorSession(admin, "deck-investor");
  anonymous = await newApiContext();
});
test.afterAll(async () => {
  await Promise.all([admin?.context.dispose(), investor?.context.dispose(), anonymous?.dispose()]);
});

const MB = 1024 * 1024;
const tag = () => randomBytes(3).toString("hex");
const fields = (company: string) => ({
  name: "Deck Founder",
  email: `deck-founder-${tag()}@example.com`,
  company,
  stage: "Seed",
  message: "Photonic interconnects.",
});

/** A founder's multipart pitch from a client address of its own (the pitch rate limit is per address). */
async function postPitch(multipart: Record<string, string | { name: string; mimeType: string; buffer: Buffer }>) {
  const founder = await newApiContext();
  try {
    const response = await founder.post("/api/pitch", { multipart });
    return { status: response.status(), headers: response.headers(), body: await response.text() };
  } finally {
    await founder.dispose();
  }
}

test("multipart with a PDF deck → 201 { id, createdAt }", async () => {
  const answer = await postPitch({ ...fields(`Deck Co ${tag()}`), deck: { name: "deck.pdf", mimeType: MIME.pdf, buffer: samplePdf("deck") } });
  expect(answer.status, answer.body).toBe(201);
  expect(Object.keys(JSON.parse(answer.body) as object).sort()).toEqual(["createdAt", "id"]);
});

test("multipart with a deck over 25 MB → 413 with the deck's message", async () => {
  const answer = await postPitch({ ...fields(`Big Co ${tag()}`), deck: { name: "deck.pdf", mimeType: MIME.pdf, buffer: samplePdf("big", 25 * MB + 1) } });
  expect(answer.status).toBe(413);
  expect(JSON.parse(answer.body)).toEqual({ error: "The deck must be at most 25 MB", fields: { deck: ["The deck must be at most 25 MB"] } });
});

test("multipart with a deck that is not a PDF → 400 under `deck`", async () => {
  const answer = await postPitch({
    ...fields(`Fake Co ${tag()}`),
    deck: { name: "deck.pdf", mimeType: MIME.pdf, buffer: Buffer.from("MZ\x90\x00 this is a program") },
  });
  expect(answer.status).toBe(400);
  expect(JSON.parse(answer.body)).toEqual({ error: "The deck must be a PDF file", fields: { deck: ["The deck must be a PDF file"] } });
});

test("JSON stays as it is (no deck, no spam-trap fields needed) → 201", async () => {
  const founder = await newApiContext();
  const response = await founder.post("/api/pitch", { data: fields(`Json Co ${tag()}`) });
  expect(response.status()).toBe(201);
  await founder.dispose();
});

test("a JSON body over 64 KB is still refused by the small limit → 413", async () => {
  const founder = await newApiContext();
  const response = await founder.post("/api/pitch", { data: { ...fields(`Huge Co ${tag()}`), message: "x".repeat(70 * 1024) } });
  expect(response.status()).toBe(413);
  await founder.dispose();
});

test("GET /admin/pitches/{id}/deck: 401 anonymous, 403 investor, the PDF inline for an admin, each opening in the audit trail", async () => {
  const company = `Opened Deck ${tag()}`;
  const pdf = samplePdf(`deck of ${company}`);
  const posted = await postPitch({ ...fields(company), deck: { name: "opened-deck.pdf", mimeType: MIME.pdf, buffer: pdf } });
  expect(posted.status, posted.body).toBe(201);
  const { id } = JSON.parse(posted.body) as { id: string };
  const path = `/admin/pitches/${id}/deck`;

  await expectJsonError(await anonymous.get(path), 401, "Authentication required");
  await expectJsonError(await investor.context.get(path), 403, "Admin access required");

  const opened = await admin.context.get(path);
  expect(opened.status()).toBe(200);
  expect(opened.headers()["content-type"]).toBe("application/pdf");
  expect(opened.headers()["content-disposition"]).toMatch(/^inline; filename="opened-deck\.pdf"/);
  expect(opened.headers()["cache-control"]).toBe("private, no-store");
  expect(Buffer.from(await opened.body()).equals(pdf)).toBe(true);

  const ranged = await admin.context.get(path, { headers: { Range: "bytes=0-9" } });
  expect(ranged.status()).toBe(206);
  expect((await ranged.body()).toString("latin1")).toBe(pdf.subarray(0, 10).toString("latin1"));

  await expectJsonError(await admin.context.get("/admin/pitches/no-such-pitch/deck"), 404, "Deck not found");

  // The audit trail's export lists both openings (the 200 and the range from byte 0) by this admin, about this pitch.
  const csv = await admin.context.get(`/admin/activity.csv?event=pitch.deck_opened&actor=${encodeURIComponent(admin.email)}`);
  expect(csv.status()).toBe(200);
  const rows = (await csv.text()).split(/\r?\n/).filter((line) => line.includes(company));
  expect(rows).toHaveLength(2);
  for (const row of rows) expect(row).toContain(admin.email);
});
