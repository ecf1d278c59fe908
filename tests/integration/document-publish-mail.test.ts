import { desc, eq, gt } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/modules/db/connection.server";
import { accessLog, auditEvents, emailOutbox, lpUsers } from "../../db/schema";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { action as documentAction } from "~/routes/api/document";
import { action as uploadAction } from "~/routes/api/documents";
import { action as accessAction, loader as accessLoader } from "~/routes/admin/document-access";
import { flushMailer } from "~/modules/mail/mail.server";
import { allOutbox } from "../helpers/db";
import { expectData } from "../helpers/http";
import { clearDocuments, documentRow, rawMultipartRequest } from "../helpers/documents";
import { MIME, samplePdf } from "../helpers/sample-files";
import { ORIGIN, apiRequest, callRouteWith, clearAccountTables, insertAdmin, insertUser, sessionCookieFor } from "../helpers/users";

/**
 * What publishing and the access page's reminder do for investors' inboxes
 * (issue 15 §2, §4): a publish queues one new-document mail per investor of
 * its audience who wants them (with RFC 8058 headers, no file, no token in
 * the text); the reminder reaches those of the audience who have not opened
 * the document, at most once a day, and leaves an audit row.
 */

const PDF = samplePdf("Publish mail test", 2000);

let admin: LpUser;
let alice: LpUser;
let bob: LpUser;
let carol: LpUser;
let adminCookie = "";

beforeAll(async () => {
  clearAccountTables();
  admin = await insertAdmin({ email: "admin@lumenridge.example", name: "Ada Admin" });
  alice = await insertUser({ email: "alice@fund.example", name: "Alice", status: "approved" });
  bob = await insertUser({ email: "bob@fund.example", name: "Bob", status: "approved" });
  carol = await insertUser({ email: "carol@fund.example", name: "Carol", status: "approved" });
  await insertUser({ email: "pending@fund.example", status: "pending" });
  adminCookie = await sessionCookieFor(admin);
});

beforeEach(() => {
  clearDocuments();
  getDb().delete(emailOutbox).run();
  getDb().update(lpUsers).set({ documentMail: "each" }).run();
});

async function publish(title: string, fields: Array<[string, string]>): Promise<string> {
  const parts = [
    { name: "title", value: title },
    { name: "category", value: "reports" },
    ...fields.map(([name, value]) => ({ name, value })),
    { name: "file", filename: "statement.pdf", type: MIME.pdf, bytes: PDF },
  ];
  const response = await callRouteWith(uploadAction, rawMultipartRequest("/api/documents", parts, { cookie: adminCookie }));
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

const mailsTo = (title: string) =>
  allOutbox()
    .filter((m) => m.text.includes(title))
    .map((m) => m.to)
    .sort();

describe("publishing queues new-document e-mails", () => {
  it("to every approved investor who wants each document, for audience 'all'; not to admins, pending investors or those who chose a digest or none", async () => {
    getDb().update(lpUsers).set({ documentMail: "weekly" }).where(eq(lpUsers.id, bob.id)).run();
    getDb().update(lpUsers).set({ documentMail: "none" }).where(eq(lpUsers.id, carol.id)).run();
    await publish("Annual report 2026", []);
    expect(mailsTo("Annual report 2026")).toEqual(["alice@fund.example"]);
  });

  it("only to the chosen investors for audience 'selected', with List-Unsubscribe headers and neither the file nor a token in the text", async () => {
    const id = await publish("Capital call notice", [
      ["audience", "selected"],
      ["recipientIds", bob.id],
    ]);
    expect(mailsTo("Capital call notice")).toEqual(["bob@fund.example"]);
    const mail = allOutbox().find((m) => m.to === "bob@fund.example")!;
    const headers = JSON.parse(mail.headers ?? "{}") as Record<string, string>;
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(headers["List-Unsubscribe"]).toMatch(/^<.+>$/);
    expect(mail.text).toContain("/lp/dashboard");
    expect(mail.text).not.toContain(id);
    expect(mail.text).not.toMatch(/token=[A-Za-z0-9_-]{20,}/);
  });
});

describe("mails not yet sent follow the document", () => {
  const rowsFor = (documentId: string) =>
    getDb().select().from(emailOutbox).where(eq(emailOutbox.documentId, documentId)).all().map((m) => m.to).sort();
  /**
   * As if the outbox had not sent anything yet (a publish to many trickles out at
   * MAIL_RATE_PER_MINUTE): the publish's own delivery run ends first.
   */
  const nothingSentYet = async () => {
    await flushMailer();
    getDb().update(emailOutbox).set({ status: "pending", sentAt: null }).run();
  };

  it("narrowing the audience drops the waiting notices of those who lost it, and tells a newly chosen investor", async () => {
    const id = await publish("Wrong audience", []);
    await nothingSentYet();
    expect(rowsFor(id)).toEqual(["alice@fund.example", "bob@fund.example", "carol@fund.example"]);
    const patched = await callRouteWith(documentAction, apiRequest("PATCH", `/api/documents/${id}`, { cookie: adminCookie, json: { audience: "selected", recipientIds: [bob.id] } }), {
      params: { id },
    });
    expect(patched.status).toBe(200);
    expect(rowsFor(id)).toEqual(["bob@fund.example"]);

    // Bob's notice went out; adding Carol tells Carol, not Bob again.
    await flushMailer();
    getDb().update(emailOutbox).set({ status: "logged", sentAt: new Date() }).run();
    await callRouteWith(documentAction, apiRequest("PATCH", `/api/documents/${id}`, { cookie: adminCookie, json: { recipientIds: [bob.id, carol.id] } }), { params: { id } });
    expect(rowsFor(id)).toEqual(["bob@fund.example", "carol@fund.example"]);
  });

  it("deleting the document drops its waiting notices", async () => {
    const id = await publish("Deleted soon", []);
    await nothingSentYet();
    const deleted = await callRouteWith(documentAction, apiRequest("DELETE", `/api/documents/${id}`, { cookie: adminCookie }), { params: { id } });
    expect(deleted.status).toBe(200);
    expect(rowsFor(id)).toEqual([]);
  });
});

describe("the access page's reminder", () => {
  async function remind(documentId: string) {
    const form = new URLSearchParams({ intent: "remind-unopened", documentId, _enhanced: "1" });
    const request = new Request(`${ORIGIN}/admin/documents/${documentId}/access`, { method: "POST", headers: { Cookie: adminCookie }, body: form });
    return callRouteWith(accessAction as never, request, { params: { id: documentId } }) as unknown;
  }

  it("goes to the audience members who have not opened it, once a day, with an audit row", async () => {
    const id = await publish("Q3 statement", [
      ["audience", "selected"],
      ["recipientIds", alice.id],
      ["recipientIds", bob.id],
    ]);
    getDb().delete(emailOutbox).run();
    getDb()
      .insert(accessLog)
      .values({ action: "view", documentKind: "lp", documentId: id, actorKind: "lp_user", actorId: alice.id })
      .run();
    const mark = getDb().select({ id: auditEvents.id }).from(auditEvents).orderBy(desc(auditEvents.id)).limit(1).get()?.id ?? 0;

    const first = expectData<{ status: string; toast: { title: string } }>(await remind(id));
    expect(first.status).toBe(200);
    expect(first.data.toast.title).toBe("1 reminder sent");
    expect(allOutbox().map((m) => m.to)).toEqual(["bob@fund.example"]);
    const audit = getDb().select().from(auditEvents).where(gt(auditEvents.id, mark)).all();
    expect(audit.map((a) => a.event)).toEqual(["document.reminders_sent"]);
    expect(audit[0]).toMatchObject({ actorEmail: admin.email, targetId: id });

    // Within 24 hours nobody is reminded again.
    const second = expectData<{ status: string; toast: { title: string; description: string } }>(await remind(id));
    expect(second.status).toBe(200);
    expect(second.data.toast).toMatchObject({ title: "0 reminders sent", description: "1 investor was reminded less than 24 hours ago." });
    expect(allOutbox()).toHaveLength(1);

    // The page's read status agrees: 1 of 2 opened, Bob not yet.
    const page = (await callRouteWith(accessLoader as never, new Request(`${ORIGIN}/admin/documents/${id}/access?read=unopened`, { headers: { Cookie: adminCookie } }), {
      params: { id },
    })) as unknown as { read: { openedBy: string; rows: Array<{ email: string; viewed: unknown }> } };
    expect(page.read.openedBy).toBe("Opened by 1 of 2");
    expect(page.read.rows.map((r) => r.email)).toEqual(["bob@fund.example"]);
    expect(documentRow(id)?.audience).toBe("selected");
  });
});
