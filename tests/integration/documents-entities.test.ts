import { randomUUID } from "node:crypto";
import { and, desc, eq, gt } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/modules/db/connection.server";
import { auditEvents, documentRecipientEntities, documentRecipients, emailOutbox, lpUsers, scheduledRuns } from "../../db/schema";
import { recipientEntityMessages } from "~/content/documents";
import { uploadMessages } from "~/content/validation";
import { runDocumentDigest } from "~/modules/document-mail/digest.server";
import type { DocumentMailPreference } from "~/modules/document-mail/schema";
import { flushMailer } from "~/modules/mail/mail.server";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { action as accessAction, loader as accessLoader } from "~/routes/admin/document-access";
import { action as documentAction } from "~/routes/api/document";
import { loader as fileLoader } from "~/routes/api/document-file";
import { action as uploadAction, loader as listLoader } from "~/routes/api/documents";
import { action as entitiesPost } from "~/routes/api/entities";
import { action as memberDelete } from "~/routes/api/entity-member";
import { action as membersPost } from "~/routes/api/entity-members";
import { loader as dashboardLoader } from "~/routes/lp/dashboard";
import { allDocuments, bodyBytes, clearDocuments, documentRow, insertDocument, rawMultipartRequest, storedFiles, type RawPart } from "../helpers/documents";
import { expectData } from "../helpers/http";
import { MIME, samplePdf } from "../helpers/sample-files";
import { ORIGIN, apiRequest, callRouteWith, clearAccountTables, insertAdmin, insertUser, sessionCookieFor } from "../helpers/users";

/**
 * LP documents addressed to entities (issue 24 §2), against a real SQLite
 * file: a 'selected' document reaches its chosen investors and every current
 * member of its chosen entities, through the one access rule of decision 025
 * (list, dashboard, view, download, read status, reminders, new-document mails
 * and the weekly digest). Removing a member takes the document away at their
 * next request; an outsider's answer is the unknown id's.
 */

type DocJson = { id: string; audience: "all" | "selected"; watermark: boolean; recipientIds?: string[]; recipientEntityIds?: string[] };
type ErrorJson = { error: string; fields?: Record<string, string[]> };

const PDF = samplePdf("Entity documents test", 2500);

let admin: LpUser;
let alice: LpUser;
let bob: LpUser;
let carol: LpUser;
let dave: LpUser;
let erin: LpUser;
const cookie = { admin: "", alice: "", bob: "", carol: "", dave: "" };

beforeAll(async () => {
  clearAccountTables();
  admin = await insertAdmin({ email: "admin@lumenridge.example", name: "Ada Admin" });
  alice = await insertUser({ email: "alice@fund.example", name: "Alice Owner", status: "approved" });
  bob = await insertUser({ email: "bob@fund.example", name: "Bob Viewer", status: "approved" });
  carol = await insertUser({ email: "carol@fund.example", name: "Carol Outsider", status: "approved" });
  dave = await insertUser({ email: "dave@fund.example", name: "Dave Twice", status: "approved" });
  erin = await insertUser({ email: "erin@fund.example", name: "Erin Quiet", status: "approved" });
  cookie.admin = await sessionCookieFor(admin);
  cookie.alice = await sessionCookieFor(alice);
  cookie.bob = await sessionCookieFor(bob);
  cookie.carol = await sessionCookieFor(carol);
  cookie.dave = await sessionCookieFor(dave);
});

beforeEach(() => {
  clearDocuments();
  getDb().delete(emailOutbox).run();
  getDb().update(lpUsers).set({ documentMail: "each" }).run();
});

// ─── requests ───────────────────────────────────────────────────────────────

/** A new entity made through POST /api/entities; the first member is its owner, the others viewers. */
async function newEntity(name: string, members: LpUser[]): Promise<string> {
  const body = { name, kind: "trust", members: members.map((m, i) => ({ userId: m.id, role: i === 0 ? "owner" : "viewer" })) };
  const response = await callRouteWith(entitiesPost as never, apiRequest("POST", "/api/entities", { cookie: cookie.admin, json: body }));
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

const removeMember = (entityId: string, userId: string) =>
  callRouteWith(memberDelete as never, apiRequest("DELETE", `/api/entities/${entityId}/members/${userId}`, { cookie: cookie.admin }), {
    params: { id: entityId, userId },
  });

const addMember = (entityId: string, userId: string) =>
  callRouteWith(membersPost as never, apiRequest("POST", `/api/entities/${entityId}/members`, { cookie: cookie.admin, json: { userId, role: "viewer" } }), {
    params: { id: entityId },
  });

/** POST /api/documents with text fields (repeated names allowed, in order) and a PDF. */
function upload(title: string, fields: Array<[string, string]>) {
  const parts: RawPart[] = [
    { name: "title", value: title },
    { name: "category", value: "reports" },
    ...fields.map(([name, value]) => ({ name, value })),
    { name: "file", filename: "statement.pdf", type: MIME.pdf, bytes: PDF },
  ];
  return callRouteWith(uploadAction, rawMultipartRequest("/api/documents", parts, { cookie: cookie.admin }));
}

async function published(title: string, fields: Array<[string, string]>): Promise<DocJson> {
  const response = await upload(title, fields);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as DocJson;
}

const patch = (id: string, json: unknown) =>
  callRouteWith(documentAction, apiRequest("PATCH", `/api/documents/${encodeURIComponent(id)}`, { cookie: cookie.admin, json }), { params: { id } });

const list = (who: string) => callRouteWith(listLoader, apiRequest("GET", "/api/documents", { cookie: who }));

async function listedIds(who: string): Promise<string[]> {
  const response = await list(who);
  expect(response.status).toBe(200);
  return ((await response.json()) as DocJson[]).map((d) => d.id);
}

function file(id: string, kind: "view" | "download", who: string) {
  return callRouteWith(fileLoader, new Request(`${ORIGIN}/api/documents/${encodeURIComponent(id)}/${kind}`, { headers: { Cookie: who } }), { params: { id } });
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

/** Listed in the JSON list, on the dashboard, viewable, downloadable. */
async function reads(who: string, id: string): Promise<boolean[]> {
  return [
    (await listedIds(who)).includes(id),
    (await dashboardIds(who)).includes(id),
    (await file(id, "view", who)).status === 200,
    (await file(id, "download", who)).status === 200,
  ];
}
const YES = [true, true, true, true];
const NO = [false, false, false, false];

/** Everything an answer says: what must not differ between a hidden and an unknown id. */
async function fingerprint(response: Response) {
  const headers = [...response.headers.entries()].sort(([a], [b]) => a.localeCompare(b));
  return { status: response.status, headers, body: await response.text() };
}

/** The access page's read status of a document, as the admin sees it. */
async function readStatus(id: string): Promise<{ openedBy: string; emails: string[] }> {
  const page = (await callRouteWith(accessLoader as never, new Request(`${ORIGIN}/admin/documents/${id}/access`, { headers: { Cookie: cookie.admin } }), {
    params: { id },
  })) as unknown as { read: { openedBy: string; rows: Array<{ email: string }> } };
  return { openedBy: page.read.openedBy, emails: page.read.rows.map((r) => r.email) };
}

/** The access page's form posts (no JavaScript): the reminder and the audience. */
function accessPost(id: string, fields: Array<[string, string]>) {
  const form = new URLSearchParams([...fields, ["documentId", id], ["_enhanced", "1"]]);
  return callRouteWith(accessAction as never, new Request(`${ORIGIN}/admin/documents/${id}/access`, { method: "POST", headers: { Cookie: cookie.admin }, body: form }), {
    params: { id },
  }) as unknown;
}

/** The new-document notices queued about one document, to whom (sorted). */
const noticesOf = (documentId: string) =>
  getDb()
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.documentId, documentId))
    .all()
    .map((m) => m.to)
    .sort();

function setPreference(user: LpUser, documentMail: DocumentMailPreference) {
  getDb().update(lpUsers).set({ documentMail }).where(eq(lpUsers.id, user.id)).run();
}

function entityRows(documentId: string): string[] {
  return getDb()
    .select()
    .from(documentRecipientEntities)
    .where(eq(documentRecipientEntities.documentId, documentId))
    .all()
    .map((r) => r.entityId)
    .sort();
}

// ─── reading ────────────────────────────────────────────────────────────────

describe("a document addressed to an entity", () => {
  it("every member lists, views and downloads it; an outsider gets the unknown id's 404 and does not list it", async () => {
    const trust = await newEntity("Meyer Family Trust", [alice, bob]);
    const doc = await published("Trust statement", [
      ["audience", "selected"],
      ["recipientEntityIds", trust],
    ]);
    expect(doc).toMatchObject({ audience: "selected", recipientIds: [], recipientEntityIds: [trust] });
    expect(entityRows(doc.id)).toEqual([trust]);

    expect(await reads(cookie.alice, doc.id)).toEqual(YES);
    expect(await reads(cookie.bob, doc.id)).toEqual(YES);
    expect((await bodyBytes(await file(doc.id, "download", cookie.bob))).equals(PDF)).toBe(true);
    expect(await reads(cookie.carol, doc.id)).toEqual(NO);
    for (const kind of ["view", "download"] as const) {
      const hidden = await fingerprint(await file(doc.id, kind, cookie.carol));
      expect(hidden.status).toBe(404);
      expect(hidden).toEqual(await fingerprint(await file(randomUUID(), kind, cookie.carol)));
    }
    expect(await (await list(cookie.carol)).text()).not.toContain("Trust statement");
    expect((await file(doc.id, "download", cookie.admin)).status).toBe(200);
  });

  it("the admin's list gives recipientEntityIds beside recipientIds; investors get neither", async () => {
    const trust = await newEntity("Atlas Holdings", [alice]);
    const doc = await published("Both kinds", [
      ["audience", "selected"],
      ["recipientIds", carol.id],
      ["recipientEntityIds", trust],
    ]);
    const forAll = await published("For everyone", []);
    const asAdmin = (await (await list(cookie.admin)).json()) as DocJson[];
    const keys = Object.keys(asAdmin.find((d) => d.id === doc.id)!);
    expect(keys.slice(-3)).toEqual(["watermark", "recipientIds", "recipientEntityIds"]);
    expect(asAdmin.find((d) => d.id === doc.id)).toMatchObject({ recipientIds: [carol.id], recipientEntityIds: [trust] });
    expect(asAdmin.find((d) => d.id === forAll.id)).toMatchObject({ recipientIds: [], recipientEntityIds: [] });
    for (const who of [cookie.alice, cookie.carol]) {
      const asInvestor = (await (await list(who)).json()) as DocJson[];
      expect(asInvestor.map((d) => d.id).sort()).toEqual([doc.id, forAll.id].sort());
      for (const d of asInvestor) {
        expect(d).not.toHaveProperty("recipientIds");
        expect(d).not.toHaveProperty("recipientEntityIds");
      }
    }
  });

  it("removing a member (DELETE /api/entities/:id/members/:userId) takes it away at once; the other member keeps it; adding them back gives it back", async () => {
    const trust = await newEntity("Keller Trust", [alice, bob]);
    const doc = await published("Capital call 3", [
      ["audience", "selected"],
      ["recipientEntityIds", trust],
    ]);
    expect(await reads(cookie.bob, doc.id)).toEqual(YES);

    expect((await removeMember(trust, bob.id)).status).toBe(200);
    expect(await reads(cookie.bob, doc.id)).toEqual(NO);
    expect(await fingerprint(await file(doc.id, "download", cookie.bob))).toEqual(await fingerprint(await file(randomUUID(), "download", cookie.bob)));
    expect(await reads(cookie.alice, doc.id)).toEqual(YES);
    // The document still names the entity: nothing was copied per person.
    expect(entityRows(doc.id)).toEqual([trust]);

    expect((await addMember(trust, bob.id)).status).toBe(201);
    expect(await reads(cookie.bob, doc.id)).toEqual(YES);
  });

  it("a person chosen directly who is also removed from the entity keeps it (each way of being addressed counts)", async () => {
    const trust = await newEntity("Both Ways AG", [alice, bob]);
    const doc = await published("Side letter", [
      ["audience", "selected"],
      ["recipientIds", bob.id],
      ["recipientEntityIds", trust],
    ]);
    expect((await removeMember(trust, bob.id)).status).toBe(200);
    expect(await reads(cookie.bob, doc.id)).toEqual(YES);
  });
});

// ─── read status and reminders ──────────────────────────────────────────────

describe("read status and reminders count the entity's members", () => {
  it("'Opened by N of M' counts each member and chosen investor once, follows removals, and the reminder reaches unopened members", async () => {
    const trust = await newEntity("Count Trust", [alice, bob, dave]);
    const doc = await published("Q3 statement", [
      ["audience", "selected"],
      ["recipientIds", dave.id],
      ["recipientIds", carol.id],
      ["recipientEntityIds", trust],
    ]);
    // Alice, Bob, Dave (member and chosen: once) and Carol.
    expect(await readStatus(doc.id)).toEqual({ openedBy: "Opened by 0 of 4", emails: [alice.email, bob.email, carol.email, dave.email] });

    expect((await file(doc.id, "view", cookie.alice)).status).toBe(200);
    expect((await readStatus(doc.id)).openedBy).toBe("Opened by 1 of 4");

    getDb().delete(emailOutbox).run();
    const mark = getDb().select({ id: auditEvents.id }).from(auditEvents).orderBy(desc(auditEvents.id)).limit(1).get()?.id ?? 0;
    const reminded = expectData<{ toast: { title: string } }>(await accessPost(doc.id, [["intent", "remind-unopened"]]));
    expect(reminded.data.toast.title).toBe("3 reminders sent");
    expect(noticesOf(doc.id)).toEqual([bob.email, carol.email, dave.email]);
    expect(getDb().select().from(auditEvents).where(gt(auditEvents.id, mark)).all().map((a) => a.event)).toEqual(["document.reminders_sent"]);

    // Bob opens it, then leaves the trust: he is no longer of the audience, and his opening no longer counts.
    expect((await file(doc.id, "download", cookie.bob)).status).toBe(200);
    expect((await readStatus(doc.id)).openedBy).toBe("Opened by 2 of 4");
    expect((await removeMember(trust, bob.id)).status).toBe(200);
    expect(await readStatus(doc.id)).toEqual({ openedBy: "Opened by 1 of 3", emails: [alice.email, carol.email, dave.email] });
  });
});

// ─── mails ──────────────────────────────────────────────────────────────────

describe("new-document mails reach the entity's members", () => {
  it("each member who wants each document gets one notice, however often they are addressed; not those who chose a digest or none", async () => {
    const first = await newEntity("First Trust", [alice, dave, bob]);
    const second = await newEntity("Second Trust", [dave, erin]);
    setPreference(bob, "weekly");
    setPreference(erin, "none");
    const doc = await published("K-1 2026", [
      ["audience", "selected"],
      ["recipientIds", dave.id],
      ["recipientEntityIds", first],
      ["recipientEntityIds", second],
    ]);
    expect(noticesOf(doc.id)).toEqual([alice.email, dave.email]);
    expect(noticesOf(doc.id).filter((to) => to === carol.email)).toEqual([]);
  });

  it("a PATCH that adds an entity tells its members who were not told yet, each once", async () => {
    const trust = await newEntity("Late Trust", [alice, bob]);
    const doc = await published("Late notice", [
      ["audience", "selected"],
      ["recipientIds", alice.id],
    ]);
    expect(noticesOf(doc.id)).toEqual([alice.email]);
    await flushMailer();
    getDb().update(emailOutbox).set({ status: "logged", sentAt: new Date() }).run();

    const response = await patch(doc.id, { recipientEntityIds: [trust] });
    expect(response.status).toBe(200);
    expect(noticesOf(doc.id)).toEqual([alice.email, bob.email]);
  });

  it("the weekly digest lists a document addressed to an entity for its weekly members, once, and for nobody else", async () => {
    const first = await newEntity("Digest Trust", [alice, bob]);
    const second = await newEntity("Digest Holdings", [bob]);
    setPreference(bob, "weekly");
    setPreference(carol, "weekly");
    const doc = insertDocument(PDF, { title: "Entity digest letter", audience: "selected", createdAt: new Date("2026-11-25T10:00:00Z") });
    getDb()
      .insert(documentRecipientEntities)
      .values([first, second].map((entityId) => ({ documentId: doc.id, entityId })))
      .run();
    getDb().delete(scheduledRuns).run();

    expect(runDocumentDigest(getDb(), new Date("2026-11-30T07:00:00Z"))).toMatchObject({ claimed: true, queued: 1 });
    const mails = getDb().select().from(emailOutbox).where(eq(emailOutbox.to, bob.email)).all();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text.match(/Entity digest letter/g)).toHaveLength(1);
    expect(getDb().select().from(emailOutbox).where(eq(emailOutbox.to, carol.email)).all()).toEqual([]);
  });
});

// ─── writing ────────────────────────────────────────────────────────────────

describe("POST /api/documents and PATCH: recipientEntityIds", () => {
  const expectNothingStored = () => {
    expect(allDocuments()).toEqual([]);
    expect(getDb().select().from(documentRecipients).all()).toEqual([]);
    expect(getDb().select().from(documentRecipientEntities).all()).toEqual([]);
    expect(storedFiles()).toEqual([]);
  };

  it.each([
    ["an unknown entity id", () => randomUUID()],
    ["a malformed entity id", () => "not-an-entity"],
    ["a user id", () => alice.id],
  ])("upload naming %s → 400 with fields.recipientEntityIds, nothing stored", async (_label, bad) => {
    const trust = await newEntity(`Good ${randomUUID()}`, [alice]);
    const response = await upload("Refused", [
      ["audience", "selected"],
      ["recipientEntityIds", trust],
      ["recipientEntityIds", bad()],
    ]);
    expect(response.status).toBe(400);
    const body = (await response.json()) as ErrorJson;
    expect(body.fields).toEqual({ recipientEntityIds: [recipientEntityMessages.invalid(1)] });
    expect(body.error).toBe(recipientEntityMessages.invalid(1));
    expectNothingStored();
  });

  it("bad investors and bad entities are both named, each under its field, counting how many", async () => {
    const response = await upload("Refused", [
      ["audience", "selected"],
      ["recipientIds", randomUUID()],
      ["recipientEntityIds", randomUUID()],
      ["recipientEntityIds", randomUUID()],
    ]);
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorJson).fields).toEqual({
      recipientIds: [uploadMessages.recipientsInvalid(1)],
      recipientEntityIds: [recipientEntityMessages.invalid(2)],
    });
    expectNothingStored();
  });

  it("audience 'selected' needs an investor or an entity: neither (or blanks only) → 400 under recipientIds", async () => {
    for (const fields of [
      [["audience", "selected"]],
      [
        ["audience", "selected"],
        ["recipientEntityIds", ""],
        ["recipientEntityIds", " "],
      ],
    ] as Array<Array<[string, string]>>) {
      const response = await upload("Nobody", fields);
      expect(response.status).toBe(400);
      expect(((await response.json()) as ErrorJson).fields).toEqual({ recipientIds: [uploadMessages.recipientsRequired] });
    }
    expectNothingStored();
  });

  it("audience 'all' ignores entity ids; duplicates are stored once", async () => {
    const trust = await newEntity(`Dup ${randomUUID()}`, [alice]);
    const all = await published("To all", [["recipientEntityIds", trust]]);
    expect(all).toMatchObject({ audience: "all", recipientEntityIds: [] });
    expect(entityRows(all.id)).toEqual([]);
    const twice = await published("Twice", [
      ["audience", "selected"],
      ["recipientEntityIds", trust],
      ["recipientEntityIds", ` ${trust} `],
    ]);
    expect(twice.recipientEntityIds).toEqual([trust]);
    expect(entityRows(twice.id)).toEqual([trust]);
  });

  it("PATCH adds an entity (its members read it at once), keeps it when the body leaves it out, and 'all' drops it", async () => {
    const trust = await newEntity(`Patch ${randomUUID()}`, [bob]);
    const doc = await published("For Alice first", [
      ["audience", "selected"],
      ["recipientIds", alice.id],
    ]);
    expect(await reads(cookie.bob, doc.id)).toEqual(NO);

    const added = await patch(doc.id, { recipientEntityIds: [trust] });
    expect(added.status).toBe(200);
    expect(await added.json()).toMatchObject({ audience: "selected", recipientIds: [alice.id], recipientEntityIds: [trust] });
    expect(await reads(cookie.bob, doc.id)).toEqual(YES);

    // Only the investors change: the entity stays. Then nobody but the entity.
    expect(await (await patch(doc.id, { recipientIds: [carol.id], watermark: true })).json()).toMatchObject({ recipientIds: [carol.id], recipientEntityIds: [trust] });
    expect(await (await patch(doc.id, { recipientIds: [] })).json()).toMatchObject({ recipientIds: [], recipientEntityIds: [trust] });
    expect(await reads(cookie.alice, doc.id)).toEqual(NO);
    expect(await reads(cookie.bob, doc.id)).toEqual(YES);

    const audit = getDb()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.event, "document.audience_changed"), eq(auditEvents.targetId, doc.id)))
      .all();
    expect(JSON.parse(audit[0]!.details)).toMatchObject({ recipients: 1, recipientEntities: 1 });

    const widened = await patch(doc.id, { audience: "all" });
    expect(await widened.json()).toMatchObject({ audience: "all", recipientIds: [], recipientEntityIds: [] });
    expect(entityRows(doc.id)).toEqual([]);
    expect(await reads(cookie.carol, doc.id)).toEqual(YES);
  });

  it.each([
    ["an unknown entity", () => ({ recipientEntityIds: [randomUUID()] }), "recipientEntityIds", recipientEntityMessages.invalid(1)],
    ["entity ids that are not a list", () => ({ recipientEntityIds: "x" }), "recipientEntityIds", recipientEntityMessages.invalid(1)],
    ["entity ids that are not strings", () => ({ recipientEntityIds: [7] }), "recipientEntityIds.0", recipientEntityMessages.invalid(1)],
    ["nobody left", () => ({ recipientIds: [], recipientEntityIds: [] }), "recipientIds", uploadMessages.recipientsRequired],
  ])("PATCH with %s → 400 with that field's message, and nothing changes", async (_label, body, field, message) => {
    const trust = await newEntity(`Keep ${randomUUID()}`, [bob]);
    const doc = await published("Unchanged", [
      ["audience", "selected"],
      ["recipientIds", alice.id],
      ["recipientEntityIds", trust],
    ]);
    const response = await patch(doc.id, body());
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorJson).fields?.[field]).toEqual([message]);
    expect(entityRows(doc.id)).toEqual([trust]);
    expect(documentRow(doc.id)).toMatchObject({ audience: "selected" });
  });

  it("the access page's audience form (investors only) keeps the chosen entities, even with no investor ticked", async () => {
    const trust = await newEntity(`Form ${randomUUID()}`, [bob]);
    const doc = await published("Form kept", [
      ["audience", "selected"],
      ["recipientIds", alice.id],
      ["recipientEntityIds", trust],
    ]);
    const saved = expectData<{ toast: { title: string } }>(await accessPost(doc.id, [["intent", "set-audience"], ["audience", "selected"]]));
    expect(saved.data.toast.title).toBe("Audience saved");
    expect(entityRows(doc.id)).toEqual([trust]);
    expect(await reads(cookie.bob, doc.id)).toEqual(YES);
    expect(await reads(cookie.alice, doc.id)).toEqual(NO);
  });
});
