import { randomUUID } from "node:crypto";
import { desc, eq, gt } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/modules/db/connection.server";
import { auditEvents, documentRecipients, lpUsers } from "../../db/schema";
import { uploadMessages } from "~/content/validation";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { storageRoot } from "~/modules/storage/storage.server";
import { action as documentAction } from "~/routes/api/document";
import { loader as fileLoader } from "~/routes/api/document-file";
import { action as uploadAction, loader as listLoader } from "~/routes/api/documents";
import { action as statusAction } from "~/routes/api/auth/user-status";
import { loader as dashboardLoader } from "~/routes/lp/dashboard";
import {
  allAccessLog,
  allDocuments,
  bodyBytes,
  clearDocuments,
  documentRow,
  filesUnder,
  insertDocument,
  rawMultipartRequest,
  storedFiles,
  type RawPart,
} from "../helpers/documents";
import { MIME, sampleOoxml, samplePdf } from "../helpers/sample-files";
import { ORIGIN, apiRequest, callRouteWith, clearAccountTables, insertAdmin, insertUser, sessionCookieFor, userById } from "../helpers/users";

/**
 * LP documents with an audience (all approved investors, or chosen ones) and
 * a watermark switch, through every route an investor reads them by (the JSON
 * list, view, download, the /lp/dashboard loader) and the admin's upload and
 * PATCH: a document not addressed to an investor answers exactly what an
 * unknown id answers, and is absent from their lists.
 */

type DocJson = { id: string; audience: "all" | "selected"; watermark: boolean; recipientIds?: string[] };
type ErrorJson = { error: string; fields?: Record<string, string[]> };

const PDF = samplePdf("Audience test", 3000);

let admin: LpUser;
let investorA: LpUser;
let investorB: LpUser;
let pendingUser: LpUser;
let rejectedUser: LpUser;
let otherAdmin: LpUser;
const cookie = { admin: "", a: "", b: "" };

beforeAll(async () => {
  clearAccountTables();
  admin = await insertAdmin({ email: "admin@lumenridge.example", name: "Ada Admin" });
  otherAdmin = await insertAdmin({ email: "admin2@lumenridge.example", name: "Otto Admin" });
  investorA = await insertUser({ email: "a@fund.example", name: "Alice Investor", status: "approved" });
  investorB = await insertUser({ email: "b@fund.example", name: "Bob Investor", status: "approved" });
  pendingUser = await insertUser({ email: "pending@fund.example", status: "pending" });
  rejectedUser = await insertUser({ email: "rejected@fund.example", status: "rejected" });
  cookie.admin = await sessionCookieFor(admin);
  cookie.a = await sessionCookieFor(investorA);
  cookie.b = await sessionCookieFor(investorB);
});

let forAll: ReturnType<typeof insertDocument>;
/** The audit trail is append-only: each test reads the rows after this id. */
let auditMark = 0;
const newAuditRows = () => getDb().select().from(auditEvents).where(gt(auditEvents.id, auditMark)).all();
let forA: ReturnType<typeof insertDocument>;

beforeEach(() => {
  clearDocuments();
  auditMark = getDb().select({ id: auditEvents.id }).from(auditEvents).orderBy(desc(auditEvents.id)).limit(1).get()?.id ?? 0;
  forAll = insertDocument(PDF, { title: "For everyone", createdAt: new Date("2026-10-01T09:00:00.000Z") });
  forA = addressed([investorA.id], { title: "For Alice", fileName: "alice.pdf", createdAt: new Date("2026-11-01T09:00:00.000Z") });
});

/** A stored 'selected' document and its recipient rows. */
function addressed(userIds: string[], overrides: Parameters<typeof insertDocument>[1] = {}) {
  const row = insertDocument(PDF, { audience: "selected", ...overrides });
  for (const userId of userIds) getDb().insert(documentRecipients).values({ documentId: row.id, userId }).run();
  return row;
}

function recipientRows(documentId: string): string[] {
  return getDb()
    .select()
    .from(documentRecipients)
    .where(eq(documentRecipients.documentId, documentId))
    .all()
    .map((r) => r.userId)
    .sort();
}

// ─── requests ───────────────────────────────────────────────────────────────

const list = (who: string | null) => callRouteWith(listLoader, apiRequest("GET", "/api/documents", { cookie: who ?? undefined }));

async function listedIds(who: string): Promise<string[]> {
  const response = await list(who);
  expect(response.status).toBe(200);
  return ((await response.json()) as DocJson[]).map((d) => d.id);
}

type FileKind = "view" | "download";

function file(id: string, kind: FileKind, who: string | null, { method = "GET", headers = {} }: { method?: string; headers?: Record<string, string> } = {}) {
  const h = new Headers(headers);
  if (who) h.set("Cookie", who);
  return callRouteWith(fileLoader, new Request(`${ORIGIN}/api/documents/${encodeURIComponent(id)}/${kind}`, { method, headers: h }), {
    params: { id },
  });
}

const patch = (id: string, json: unknown, who: string | null = cookie.admin) =>
  callRouteWith(documentAction, apiRequest("PATCH", `/api/documents/${encodeURIComponent(id)}`, { cookie: who ?? undefined, json }), {
    params: { id },
  });

/** POST /api/documents with text fields (repeated names allowed, in order) and a file. */
function upload(fields: Array<[string, string]>, fileBytes: Uint8Array = PDF, fileName = "report.pdf", type: string = MIME.pdf, who = cookie.admin) {
  const parts: RawPart[] = [
    { name: "title", value: "Side letter" },
    { name: "category", value: "reports" },
    ...fields.map(([name, value]) => ({ name, value })),
    { name: "file", filename: fileName, type, bytes: fileBytes },
  ];
  return callRouteWith(uploadAction, rawMultipartRequest("/api/documents", parts, { cookie: who }));
}

async function dashboardIds(who: string): Promise<string[]> {
  const data = await dashboardLoader({
    request: new Request(`${ORIGIN}/lp/dashboard`, { headers: { Cookie: who } }),
    params: {},
    context: { clientAddress: "203.0.113.7" },
  } as never);
  expect(data.failed).toBe(false);
  return data.documents.map((d) => d.id);
}

/** Everything an answer says, but the body as text: what must not differ between a hidden and an unknown id. */
async function fingerprint(response: Response) {
  const headers = [...response.headers.entries()].sort(([a], [b]) => a.localeCompare(b));
  return { status: response.status, headers, body: await response.text() };
}

// ─── reads ──────────────────────────────────────────────────────────────────

describe("GET /api/documents: each investor lists what is addressed to them", () => {
  it("investor A lists the document for everyone and A's own; B lists only the one for everyone", async () => {
    expect(await listedIds(cookie.a)).toEqual([forA.id, forAll.id]);
    expect(await listedIds(cookie.b)).toEqual([forAll.id]);
  });

  it("a document addressed to A and B is listed for both", async () => {
    const both = addressed([investorA.id, investorB.id], { createdAt: new Date("2026-12-01T09:00:00.000Z") });
    expect(await listedIds(cookie.a)).toEqual([both.id, forA.id, forAll.id]);
    expect(await listedIds(cookie.b)).toEqual([both.id, forAll.id]);
  });

  it("investors get audience and watermark but no recipientIds; the admin gets everything with recipientIds", async () => {
    const forB = addressed([investorB.id], { watermark: true, createdAt: new Date("2026-12-01T09:00:00.000Z") });
    const asA = (await (await list(cookie.a)).json()) as DocJson[];
    for (const doc of asA) expect(doc).not.toHaveProperty("recipientIds");
    expect(asA.map((d) => [d.id, d.audience, d.watermark])).toEqual([
      [forA.id, "selected", false],
      [forAll.id, "all", false],
    ]);
    const asAdmin = (await (await list(cookie.admin)).json()) as DocJson[];
    expect(asAdmin.map((d) => [d.id, d.audience, d.watermark, d.recipientIds])).toEqual([
      [forB.id, "selected", true, [investorB.id]],
      [forA.id, "selected", false, [investorA.id]],
      [forAll.id, "all", false, []],
    ]);
  });

  it("the investor list does not mention another investor's document anywhere in its body", async () => {
    const text = await (await list(cookie.b)).text();
    expect(text).not.toContain(forA.id);
    expect(text).not.toContain("For Alice");
  });
});

describe("GET /lp/dashboard (loader data)", () => {
  it("A's dashboard holds the document for everyone and A's; B's only the one for everyone; the admin's all", async () => {
    expect(await dashboardIds(cookie.a)).toEqual([forA.id, forAll.id]);
    expect(await dashboardIds(cookie.b)).toEqual([forAll.id]);
    const other = addressed([investorB.id], { createdAt: new Date("2026-12-01T09:00:00.000Z") });
    expect(await dashboardIds(cookie.admin)).toEqual([other.id, forA.id, forAll.id]);
  });
});

describe("view and download: another investor's document answers the unknown id's 404", () => {
  it.each<FileKind>(["view", "download"])("%s: A gets the file, B gets exactly what an unknown uuid gets", async (kind) => {
    const asA = await file(forA.id, kind, cookie.a);
    expect(asA.status).toBe(200);
    expect((await bodyBytes(asA)).equals(PDF)).toBe(true);

    const hidden = await fingerprint(await file(forA.id, kind, cookie.b));
    const unknown = await fingerprint(await file(randomUUID(), kind, cookie.b));
    expect(hidden.status).toBe(404);
    expect(JSON.parse(hidden.body)).toEqual({ error: uploadMessages.documentNotFound });
    expect(hidden).toEqual(unknown);
    // A malformed id is unknown too.
    expect(await fingerprint(await file("not-a-uuid", kind, cookie.b))).toEqual(unknown);
  });

  it.each<FileKind>(["view", "download"])("%s: HEAD, Range, If-None-Match and If-Range of the real ETag still answer B 404", async (kind) => {
    const etag = (await file(forA.id, kind, cookie.a, { method: "HEAD" })).headers.get("ETag");
    expect(etag).toMatch(/^"[^"]+"$/);
    // A's conditional request works (304), so the ETag is the real one.
    expect((await file(forA.id, kind, cookie.a, { headers: { "If-None-Match": etag! } })).status).toBe(304);

    const variants: Array<{ method?: string; headers?: Record<string, string> }> = [
      { method: "HEAD" },
      { headers: { Range: "bytes=0-99" } },
      { headers: { Range: "bytes=100-" } },
      { headers: { Range: "bytes=-10" } },
      { headers: { Range: "bytes=999999-" } },
      { headers: { "If-None-Match": etag! } },
      { headers: { "If-None-Match": "*" } },
      { headers: { "If-Modified-Since": new Date(Date.now() + 86_400_000).toUTCString() } },
      { headers: { Range: "bytes=0-99", "If-Range": etag! } },
    ];
    for (const variant of variants) {
      const hidden = await fingerprint(await file(forA.id, kind, cookie.b, variant));
      const unknown = await fingerprint(await file(randomUUID(), kind, cookie.b, variant));
      expect(hidden.status, JSON.stringify(variant)).toBe(404);
      expect(hidden, JSON.stringify(variant)).toEqual(unknown);
      expect(hidden.headers.map(([name]) => name)).not.toContain("etag");
    }
  });

  it("the admin reads every document; B's 404s leave nothing in the access log", async () => {
    expect((await file(forA.id, "view", cookie.admin)).status).toBe(200);
    expect((await file(forA.id, "download", cookie.b)).status).toBe(404);
    expect((await file(forA.id, "view", cookie.b, { headers: { Range: "bytes=0-" } })).status).toBe(404);
    expect(allAccessLog().map((r) => r.actorId)).toEqual([admin.id]);
  });
});

// ─── upload ─────────────────────────────────────────────────────────────────

describe("POST /api/documents: audience, recipientIds and watermark", () => {
  beforeEach(() => clearDocuments());

  const expectNothingStored = () => {
    expect(allDocuments()).toEqual([]);
    expect(getDb().select().from(documentRecipients).all()).toEqual([]);
    expect(storedFiles()).toEqual([]);
  };

  it("audience=selected with A → 201 with recipientIds [A]; A lists and reads it, B does not", async () => {
    const response = await upload([
      ["audience", "selected"],
      ["recipientIds", investorA.id],
    ]);
    expect(response.status).toBe(201);
    const body = (await response.json()) as DocJson;
    expect(body).toMatchObject({ audience: "selected", watermark: false, recipientIds: [investorA.id] });
    expect(recipientRows(body.id)).toEqual([investorA.id]);
    expect(await listedIds(cookie.a)).toEqual([body.id]);
    expect(await listedIds(cookie.b)).toEqual([]);
    expect((await file(body.id, "download", cookie.a)).status).toBe(200);
    expect((await file(body.id, "download", cookie.b)).status).toBe(404);
  });

  it("no audience field: for everyone (audience all, no recipients)", async () => {
    const response = await upload([]);
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ audience: "all", watermark: false, recipientIds: [] });
  });

  it("repeated and duplicated recipientIds are de-duplicated", async () => {
    const response = await upload([
      ["audience", "selected"],
      ["recipientIds", investorA.id],
      ["recipientIds", investorB.id],
      ["recipientIds", investorA.id],
      ["recipientIds", ` ${investorB.id} `],
    ]);
    expect(response.status).toBe(201);
    const body = (await response.json()) as DocJson;
    expect([...body.recipientIds!].sort()).toEqual([investorA.id, investorB.id].sort());
    expect(recipientRows(body.id)).toEqual([investorA.id, investorB.id].sort());
  });

  it("audience=all ignores recipientIds (nobody is recorded as a recipient)", async () => {
    const response = await upload([
      ["audience", "all"],
      ["recipientIds", investorA.id],
    ]);
    expect(response.status).toBe(201);
    const body = (await response.json()) as DocJson;
    expect(body.recipientIds).toEqual([]);
    expect(recipientRows(body.id)).toEqual([]);
  });

  it.each([
    ["an unknown id", () => randomUUID()],
    ["a pending investor", () => pendingUser.id],
    ["a rejected investor", () => rejectedUser.id],
    ["an admin", () => otherAdmin.id],
    ["a malformed id", () => "not-a-user"],
  ])("a recipient who is %s → 400 with fields.recipientIds, nothing stored", async (_label, id) => {
    const response = await upload([
      ["audience", "selected"],
      ["recipientIds", investorA.id],
      ["recipientIds", id()],
    ]);
    expect(response.status).toBe(400);
    const body = (await response.json()) as ErrorJson;
    expect(body.fields?.recipientIds).toEqual([uploadMessages.recipientsInvalid(1)]);
    expectNothingStored();
  });

  it("audience=selected without recipients (none, or only blanks) → 400 with fields.recipientIds", async () => {
    for (const fields of [[["audience", "selected"]], [["audience", "selected"], ["recipientIds", ""], ["recipientIds", "  "]]] as Array<Array<[string, string]>>) {
      const response = await upload(fields);
      expect(response.status).toBe(400);
      expect(((await response.json()) as ErrorJson).fields?.recipientIds).toEqual([uploadMessages.recipientsRequired]);
    }
    expectNothingStored();
  });

  it("audience=bogus → 400 with fields.audience", async () => {
    const response = await upload([["audience", "bogus"]]);
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorJson).fields?.audience).toEqual([uploadMessages.audienceInvalid]);
    expectNothingStored();
  });

  it("watermark=yes → 400 with fields.watermark", async () => {
    const response = await upload([["watermark", "yes"]]);
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorJson).fields?.watermark).toEqual([uploadMessages.watermarkInvalid]);
    expectNothingStored();
  });

  it("watermark=on with a PDF → 201 with watermark true", async () => {
    const response = await upload([["watermark", "on"]]);
    expect(response.status).toBe(201);
    const body = (await response.json()) as DocJson;
    expect(body.watermark).toBe(true);
    expect(documentRow(body.id)?.watermark).toBe(true);
  });

  it("watermark=on with a .docx → 400 with fields.watermark; no row, no stored file, nothing left in incoming/", async () => {
    const docx = await sampleOoxml("docx");
    const response = await upload([["watermark", "on"]], docx, "memo.docx", MIME.docx);
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorJson).fields?.watermark).toEqual([uploadMessages.watermarkPdfOnly]);
    expectNothingStored();
    expect(filesUnder(`${storageRoot()}/incoming`)).toEqual([]);
  });

  it("a non-admin cannot upload (401 signed out, 403 investor)", async () => {
    const parts: RawPart[] = [{ name: "title", value: "x" }, { name: "category", value: "reports" }, { name: "file", filename: "a.pdf", type: MIME.pdf, bytes: PDF }];
    expect((await callRouteWith(uploadAction, rawMultipartRequest("/api/documents", parts))).status).toBe(401);
    expect((await callRouteWith(uploadAction, rawMultipartRequest("/api/documents", parts, { cookie: cookie.a }))).status).toBe(403);
    expectNothingStored();
  });
});

// ─── PATCH ──────────────────────────────────────────────────────────────────

describe("PATCH /api/documents/{id}", () => {
  async function canRead(who: string, id: string): Promise<boolean[]> {
    return [
      (await listedIds(who)).includes(id),
      (await dashboardIds(who)).includes(id),
      (await file(id, "view", who)).status === 200,
      (await file(id, "download", who)).status === 200,
    ];
  }
  const YES = [true, true, true, true];
  const NO = [false, false, false, false];

  it("all → selected [A] removes B's access at once (list, dashboard, view, download); back to all restores it", async () => {
    expect(await canRead(cookie.b, forAll.id)).toEqual(YES);

    const narrowed = await patch(forAll.id, { audience: "selected", recipientIds: [investorA.id] });
    expect(narrowed.status).toBe(200);
    expect(await narrowed.json()).toMatchObject({ id: forAll.id, audience: "selected", watermark: false, recipientIds: [investorA.id] });
    expect(recipientRows(forAll.id)).toEqual([investorA.id]);
    expect(await canRead(cookie.b, forAll.id)).toEqual(NO);
    expect(await canRead(cookie.a, forAll.id)).toEqual(YES);
    // B's 404 is still the unknown id's.
    expect(await fingerprint(await file(forAll.id, "download", cookie.b))).toEqual(await fingerprint(await file(randomUUID(), "download", cookie.b)));

    const widened = await patch(forAll.id, { audience: "all" });
    expect(widened.status).toBe(200);
    expect(await widened.json()).toMatchObject({ audience: "all", recipientIds: [] });
    expect(recipientRows(forAll.id)).toEqual([]);
    expect(await canRead(cookie.b, forAll.id)).toEqual(YES);
  });

  it("selected [A] → selected [B] moves the document from A to B", async () => {
    const response = await patch(forA.id, { audience: "selected", recipientIds: [investorB.id] });
    expect(response.status).toBe(200);
    expect(await canRead(cookie.a, forA.id)).toEqual(NO);
    expect(await canRead(cookie.b, forA.id)).toEqual(YES);
  });

  it("records document.audience_changed with the admin, the document, the new values and the old", async () => {
    expect((await patch(forAll.id, { audience: "selected", recipientIds: [investorA.id, investorB.id], watermark: true })).status).toBe(200);
    const rows = newAuditRows().filter((r) => r.event === "document.audience_changed");
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row).toMatchObject({ actorId: admin.id, actorEmail: admin.email, targetType: "document", targetId: forAll.id, targetLabel: "For everyone" });
    expect(JSON.parse(row.details)).toMatchObject({
      documentId: forAll.id,
      audience: "selected",
      recipients: 2,
      watermark: true,
      was: { audience: "all", watermark: false },
    });
    expect(documentRow(forAll.id)).toMatchObject({ audience: "selected", watermark: true });
  });

  it("watermark: true on a PDF is stored; on a .docx → 400 with fields.watermark and nothing changes", async () => {
    expect((await patch(forAll.id, { audience: "all", watermark: true })).status).toBe(200);
    expect(documentRow(forAll.id)?.watermark).toBe(true);

    const docx = insertDocument(await sampleOoxml("docx"), { fileName: "memo.docx", mimeType: MIME.docx });
    const response = await patch(docx.id, { audience: "selected", recipientIds: [investorA.id], watermark: true });
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorJson).fields?.watermark).toEqual([uploadMessages.watermarkPdfOnly]);
    expect(documentRow(docx.id)).toMatchObject({ audience: "all", watermark: false });
    expect(recipientRows(docx.id)).toEqual([]);
    expect(newAuditRows().filter((r) => r.targetId === docx.id)).toEqual([]);
  });

  it.each([
    ["an unknown recipient", () => ({ audience: "selected", recipientIds: [investorB.id, randomUUID()] }), "recipientIds", uploadMessages.recipientsInvalid(1)],
    ["a pending recipient", () => ({ audience: "selected", recipientIds: [pendingUser.id] }), "recipientIds", uploadMessages.recipientsInvalid(1)],
    ["a rejected recipient", () => ({ audience: "selected", recipientIds: [rejectedUser.id] }), "recipientIds", uploadMessages.recipientsInvalid(1)],
    ["an admin recipient", () => ({ audience: "selected", recipientIds: [otherAdmin.id] }), "recipientIds", uploadMessages.recipientsInvalid(1)],
    ["'selected' without recipients", () => ({ audience: "selected", recipientIds: [] }), "recipientIds", uploadMessages.recipientsRequired],
    ["audience bogus", () => ({ audience: "bogus" }), "audience", uploadMessages.audienceInvalid],
    ["watermark 'yes'", () => ({ audience: "all", watermark: "yes" }), "watermark", uploadMessages.watermarkInvalid],
  ])("%s → 400 with that field, and the document, its recipients and the audit trail are unchanged", async (_label, body, field, message) => {
    const response = await patch(forA.id, body());
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorJson).fields?.[field]).toEqual([message]);
    expect(documentRow(forA.id)).toMatchObject({ audience: "selected", watermark: false });
    expect(recipientRows(forA.id)).toEqual([investorA.id]);
    expect(newAuditRows()).toEqual([]);
  });

  it("duplicated recipientIds are stored once", async () => {
    const response = await patch(forAll.id, { audience: "selected", recipientIds: [investorA.id, investorA.id, investorB.id] });
    expect(response.status).toBe(200);
    expect(recipientRows(forAll.id)).toEqual([investorA.id, investorB.id].sort());
  });

  it("an unknown or malformed id → 404 (the DELETE route's answer), whatever the body", async () => {
    for (const id of [randomUUID(), "not-a-uuid"]) {
      const response = await patch(id, { audience: "all" });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: uploadMessages.documentNotFound });
      expect((await patch(id, { audience: "bogus" })).status).toBe(404);
    }
  });

  it("a non-admin cannot change an audience: 401 signed out, 403 as an investor (even a recipient); nothing changes", async () => {
    expect((await patch(forA.id, { audience: "all" }, null)).status).toBe(401);
    expect((await patch(forA.id, { audience: "all" }, cookie.a)).status).toBe(403);
    expect((await patch(forA.id, { audience: "selected", recipientIds: [investorB.id] }, cookie.b)).status).toBe(403);
    expect(documentRow(forA.id)).toMatchObject({ audience: "selected" });
    expect(recipientRows(forA.id)).toEqual([investorA.id]);
    expect(newAuditRows()).toEqual([]);
  });

  // A PATCH names only what changes: a missing audience must not widen a document to every investor.
  it("PATCH without audience keeps the audience", async () => {
    const response = await patch(forA.id, { watermark: true });
    expect(response.status).toBe(200);
    expect(documentRow(forA.id)).toMatchObject({ audience: "selected", watermark: true });
    expect(await listedIds(cookie.b)).not.toContain(forA.id);
  });

  // Likewise changing only the recipients of a stamped PDF keeps its stamp.
  it("PATCH without watermark keeps the watermark", async () => {
    expect((await patch(forAll.id, { audience: "all", watermark: true })).status).toBe(200);
    const response = await patch(forAll.id, { audience: "selected", recipientIds: [investorA.id] });
    expect(response.status).toBe(200);
    expect(documentRow(forAll.id)).toMatchObject({ audience: "selected", watermark: true });
  });

  it("a chosen investor suspended since keeps their place when the document changes otherwise; adding a suspended one is refused", async () => {
    const dave = await insertUser({ email: `dave-${randomUUID()}@fund.example`, status: "approved" });
    const doc = addressed([dave.id, investorA.id]);
    getDb().update(lpUsers).set({ status: "rejected" }).where(eq(lpUsers.id, dave.id)).run();
    expect((await patch(doc.id, { watermark: true })).status).toBe(200);
    const kept = getDb().select().from(documentRecipients).where(eq(documentRecipients.documentId, doc.id)).all().map((r) => r.userId).sort();
    expect(kept).toEqual([dave.id, investorA.id].sort());
    expect((await patch(doc.id, { recipientIds: [investorA.id, dave.id, rejectedUser.id] })).status).toBe(400);
  });

  it.each([{ audience: "" }, { audience: null }, { watermark: "" }, { watermark: "on" }, { recipientIds: "x" }])(
    "PATCH %j is 400 and changes nothing (a blank is never 'the default')",
    async (body) => {
      const response = await patch(forA.id, body);
      expect(response.status).toBe(400);
      expect(documentRow(forA.id)).toMatchObject({ audience: "selected", watermark: false });
      expect(await listedIds(cookie.b)).not.toContain(forA.id);
    },
  );
});

// ─── recipients who lose their standing ─────────────────────────────────────

describe("recipients whose account changes", () => {
  it("a recipient rejected by an admin loses the document at once: their session ends (401), and a surviving session is refused (403)", async () => {
    const carol = await insertUser({ email: `carol-${randomUUID()}@fund.example`, status: "approved" });
    const carolCookie = await sessionCookieFor(carol);
    const doc = addressed([carol.id]);
    expect((await file(doc.id, "download", carolCookie)).status).toBe(200);

    const changed = await callRouteWith(
      statusAction,
      apiRequest("PATCH", `/api/auth/users/${carol.id}/status`, { cookie: cookie.admin, json: { status: "rejected" } }),
      { params: { id: carol.id } },
    );
    expect(changed.status).toBe(200);
    expect(userById(carol.id).status).toBe("rejected");

    expect((await list(carolCookie)).status).toBe(401);
    expect((await file(doc.id, "view", carolCookie)).status).toBe(401);
    expect((await file(doc.id, "download", carolCookie)).status).toBe(401);

    // A session made after the change (as if one had survived it) is still refused by the guard.
    const lateCookie = await sessionCookieFor(userById(carol.id));
    expect((await list(lateCookie)).status).toBe(403);
    for (const kind of ["view", "download"] as const) {
      const response = await file(doc.id, kind, lateCookie);
      expect(response.status).toBe(403);
      expect(await response.text()).not.toContain("%PDF");
    }
    await expect(
      dashboardLoader({ request: new Request(`${ORIGIN}/lp/dashboard`, { headers: { Cookie: lateCookie } }), params: {}, context: {} } as never),
    ).rejects.toSatisfy((thrown: unknown) => thrown instanceof Response && thrown.status === 302 && thrown.headers.get("Location") === "/lp/login");
  });

  it("deleting a recipient's account removes their recipient rows (ON DELETE CASCADE); a document left without recipients is read by admins only", async () => {
    const dave = await insertUser({ email: `dave-${randomUUID()}@fund.example`, status: "approved" });
    const shared = addressed([dave.id, investorA.id]);
    const onlyDave = addressed([dave.id]);
    expect(recipientRows(shared.id)).toEqual([dave.id, investorA.id].sort());

    getDb().delete(lpUsers).where(eq(lpUsers.id, dave.id)).run();

    expect(getDb().select().from(documentRecipients).where(eq(documentRecipients.userId, dave.id)).all()).toEqual([]);
    expect(recipientRows(shared.id)).toEqual([investorA.id]);
    expect(recipientRows(onlyDave.id)).toEqual([]);
    expect(documentRow(onlyDave.id)).toMatchObject({ audience: "selected" });
    const asAdmin = (await (await list(cookie.admin)).json()) as DocJson[];
    expect(asAdmin.find((d) => d.id === shared.id)?.recipientIds).toEqual([investorA.id]);
    expect(asAdmin.find((d) => d.id === onlyDave.id)?.recipientIds).toEqual([]);
    for (const who of [cookie.a, cookie.b]) {
      expect(await listedIds(who)).not.toContain(onlyDave.id);
      expect((await file(onlyDave.id, "download", who)).status).toBe(404);
    }
    expect(await listedIds(cookie.a)).toContain(shared.id);
    expect((await file(onlyDave.id, "download", cookie.admin)).status).toBe(200);
  });
});
