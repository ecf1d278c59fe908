import { randomBytes } from "node:crypto";
import { adminSession, approvedInvestorSession, newApiContext, randomClientIp, type Session } from "./helpers/documents";
import { expect, test } from "./helpers/fixtures";
import { expectJsonError } from "./helpers/http";
import { insertPitchRow, mailWithHeaders, type PitchRow } from "./helpers/pitches";

/**
 * The pitch inbox's JSON (issue 16), admin only: GET /api/pitches with its filters and
 * paging, PATCH /api/pitches/{id} (status, owner) and POST /api/pitches/{id}/replies
 * (mailed to the founder with Reply-To the firm's inbox; the first reply stops the
 * clock). The run's server is shared, so each test finds its own pitches by a random
 * tag in their company names (the search) and never counts the whole list.
 */

const FIRM_INBOX = "hello@lumenridge.example";

let admin: Session;
let otherAdminId = "";
let investor: Session;

test.beforeAll(async () => {
  admin = await adminSession("pitch-api-admin");
  const other = await adminSession("pitch-api-owner");
  const me = (await (await other.context.get("/api/auth/user")).json()) as { user?: { id: string }; id?: string };
  otherAdminId = me.user?.id ?? me.id ?? "";
  expect(otherAdminId).not.toBe("");
  await other.context.dispose();
  investor = await approvedInvestorSession(admin, "pitch-api-investor");
});
test.afterAll(async () => {
  await admin?.context.dispose();
  await investor?.context.dispose();
});

const tag = () => `Tag${randomBytes(5).toString("hex")}`;

async function list(query: string): Promise<{ pitches: PitchRow[]; page: number; pageSize: number; total: number }> {
  const response = await admin.context.get(`/api/pitches${query}`);
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as { pitches: PitchRow[]; page: number; pageSize: number; total: number };
}

test("only admins may read or change pitches: 401 signed out, 403 for an investor", async () => {
  const id = insertPitchRow({ company: `${tag()} Auth` });
  const anonymous = await newApiContext(randomClientIp());
  try {
    await expectJsonError(await anonymous.get("/api/pitches"), 401);
    await expectJsonError(await anonymous.patch(`/api/pitches/${id}`, { data: { status: "passed" } }), 401);
    await expectJsonError(await anonymous.post(`/api/pitches/${id}/replies`, { data: { subject: "Hi", body: "Hello" } }), 401);
  } finally {
    await anonymous.dispose();
  }
  await expectJsonError(await investor.context.get("/api/pitches"), 403);
  await expectJsonError(await investor.context.patch(`/api/pitches/${id}`, { data: { status: "passed" } }), 403);
  await expectJsonError(await investor.context.post(`/api/pitches/${id}/replies`, { data: { subject: "Hi", body: "Hello" } }), 403);
});

test("GET /api/pitches: rows newest first, each filter, paging and the total", async () => {
  const t = tag();
  const old = insertPitchRow({ company: `${t} Old`, daysAgo: 30, stage: "Series A" });
  const mid = insertPitchRow({ company: `${t} Mid`, daysAgo: 2, status: "in_review" });
  const fresh = insertPitchRow({ company: `${t} Fresh`, email: `${t.toLowerCase()}@founder.example` });

  const all = await list(`?q=${t}`);
  expect(all).toMatchObject({ page: 1, pageSize: 25, total: 3 });
  expect(all.pitches.map((p) => p.id)).toEqual([fresh, mid, old]);
  const row = all.pitches[2]!;
  expect(Object.keys(row).sort()).toEqual(["answeredAt", "company", "createdAt", "dueAt", "email", "id", "name", "ownerId", "stage", "status"]);
  expect(row).toMatchObject({ company: `${t} Old`, stage: "Series A", status: "new", ownerId: null, answeredAt: null });
  expect(new Date(row.createdAt).toISOString()).toBe(row.createdAt);
  expect(new Date(row.dueAt).getTime()).toBeGreaterThan(new Date(row.createdAt).getTime());

  expect((await list(`?q=${t}&overdue=1`)).pitches.map((p) => p.id)).toEqual([old]);
  expect((await list(`?q=${t}&overdue=true&status=new`)).pitches.map((p) => p.id)).toEqual([old]);
  expect((await list(`?q=${t}&status=in_review`)).pitches.map((p) => p.id)).toEqual([mid]);
  expect((await list(`?q=${t}&stage=Series+A`)).pitches.map((p) => p.id)).toEqual([old]);
  expect((await list(`?q=${t}&owner=none`)).total).toBe(3);
  expect((await list(`?q=${t.toUpperCase()}%40FOUNDER`)).pitches.map((p) => p.id)).toEqual([fresh]);
  const past = await list(`?q=${t}&page=2`);
  expect(past).toMatchObject({ page: 2, total: 3, pitches: [] });

  // Ownership comes through PATCH and shows in the owner filter.
  expect((await admin.context.patch(`/api/pitches/${mid}`, { data: { ownerId: otherAdminId } })).status()).toBe(200);
  expect((await list(`?q=${t}&owner=${otherAdminId}`)).pitches.map((p) => p.id)).toEqual([mid]);
  expect((await list(`?q=${t}&owner=none`)).pitches.map((p) => p.id)).toEqual([fresh, old]);
});

test("GET /api/pitches: bad parameters answer 400 with a message per field", async () => {
  const body = await expectJsonError(await admin.context.get("/api/pitches?status=open&stage=Series+Z&overdue=maybe&page=0"), 400);
  expect(Object.keys(body.fields ?? {}).sort()).toEqual(["overdue", "page", "stage", "status"]);
  const owner = await expectJsonError(await admin.context.get("/api/pitches?owner=not-an-admin"), 400);
  expect(owner.fields?.owner?.length).toBe(1);
  const q = await expectJsonError(await admin.context.get(`/api/pitches?q=${"x".repeat(101)}`), 400);
  expect(q.fields?.q?.length).toBe(1);
});

test("PATCH /api/pitches/{id}: status and owner; 400 for bad fields or an empty body; 404 for an unknown id", async () => {
  const id = insertPitchRow({ company: `${tag()} Patch` });
  const changed = await admin.context.patch(`/api/pitches/${id}`, { data: { status: "partner_call", ownerId: otherAdminId } });
  expect(changed.status()).toBe(200);
  expect(await changed.json()).toMatchObject({ id, status: "partner_call", ownerId: otherAdminId });
  // Any move is allowed, back to New included; null owner is nobody.
  const back = await admin.context.patch(`/api/pitches/${id}`, { data: { status: "new", ownerId: null } });
  expect(await back.json()).toMatchObject({ id, status: "new", ownerId: null });

  const notAdmin = await expectJsonError(await admin.context.patch(`/api/pitches/${id}`, { data: { ownerId: "someone-else" } }), 400);
  expect(notAdmin.fields?.ownerId?.length).toBe(1);
  const badStatus = await expectJsonError(await admin.context.patch(`/api/pitches/${id}`, { data: { status: "won" } }), 400);
  expect(badStatus.fields?.status?.length).toBe(1);
  await expectJsonError(await admin.context.patch(`/api/pitches/${id}`, { data: {} }), 400);
  await expectJsonError(await admin.context.patch(`/api/pitches/${id}`, { data: "not json", headers: { "Content-Type": "application/json" } }), 400);
  await expectJsonError(await admin.context.patch("/api/pitches/00000000-0000-4000-8000-000000000000", { data: { status: "passed" } }), 404);
  await expectJsonError(await admin.context.post(`/api/pitches/${id}`, { data: { status: "passed" } }), 405);
});

test("POST /api/pitches/{id}/replies: 201, mailed with Reply-To the firm's inbox, and the clock stops", async () => {
  const t = tag();
  const email = `${t.toLowerCase()}@founder.example`;
  const id = insertPitchRow({ company: `${t} Reply`, email, daysAgo: 30 });
  expect((await list(`?q=${t}&overdue=1`)).total).toBe(1);

  const subject = `Your pitch ${t}`;
  const created = await admin.context.post(`/api/pitches/${id}/replies`, { data: { subject, body: "Dear founder,\nthank you." } });
  expect(created.status(), await created.text()).toBe(201);
  const reply = (await created.json()) as { id: number; pitchId: string; subject: string; body: string; sentAt: string };
  expect(reply).toEqual({ id: expect.any(Number), pitchId: id, subject, body: "Dear founder,\nthank you.", sentAt: expect.any(String) });

  const [row] = (await list(`?q=${t}`)).pitches;
  expect(row?.answeredAt).toBe(reply.sentAt);
  expect((await list(`?q=${t}&overdue=1`)).total).toBe(0);
  const mail = await mailWithHeaders(email, new RegExp(subject));
  expect(mail.headers["reply-to"]).toBe(FIRM_INBOX);
  expect(mail.text).toContain("thank you.");

  // A second reply keeps the first answer's time.
  expect((await admin.context.post(`/api/pitches/${id}/replies`, { data: { subject: "More", body: "One more thing." } })).status()).toBe(201);
  expect((await list(`?q=${t}`)).pitches[0]?.answeredAt).toBe(reply.sentAt);
});

test("POST /api/pitches/{id}/replies: 400 for a bad subject or body, 404 for an unknown id", async () => {
  const id = insertPitchRow({ company: `${tag()} Bad reply` });
  const both = await expectJsonError(await admin.context.post(`/api/pitches/${id}/replies`, { data: { subject: "Two\nlines", body: "  " } }), 400);
  expect(Object.keys(both.fields ?? {}).sort()).toEqual(["body", "subject"]);
  await expectJsonError(await admin.context.post(`/api/pitches/${id}/replies`, { data: { subject: "x".repeat(201), body: "ok" } }), 400);
  await expectJsonError(await admin.context.post(`/api/pitches/${id}/replies`, { data: { subject: "ok", body: "x".repeat(10_001) } }), 400);
  await expectJsonError(await admin.context.post(`/api/pitches/${id}/replies`, { data: { body: "ok" } }), 400);
  await expectJsonError(await admin.context.post("/api/pitches/00000000-0000-4000-8000-000000000000/replies", { data: { subject: "ok", body: "ok" } }), 404);
  const [row] = (await list(`?status=new&q=${encodeURIComponent("Bad reply")}`)).pitches.filter((p) => p.id === id);
  expect(row?.answeredAt).toBeNull();
});
