import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { and, eq } from "drizzle-orm";
import type { UNSAFE_DataWithResponseInit as DataWithResponseInit } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { openDatabase } from "../../db/client";
import { getDb } from "../../app/modules/db/connection.server";
import { auditEvents, documentRecipients, documentReminders, documents, emailOutbox, lpUsers, scheduledRuns } from "../../db/schema";
import type { AccountAnswer } from "~/modules/auth/account-form";
import type { LpUser } from "~/modules/auth/session.server";
import { getEnv, resetEnvForTests } from "~/modules/config/env.server";
import { MAX_CATCH_UP_WEEKS, runDocumentDigest, runDueDigests } from "~/modules/document-mail/digest.server";
import {
  queueDocumentReminders,
  queueNewDocumentMails,
  setDocumentMailPreference,
  unsubscribeWithToken,
  type LpDocument,
} from "~/modules/document-mail/document-mail.server";
import type { DocumentMailPreference } from "~/modules/document-mail/schema";
import { unsubscribeToken, unsubscribeUrl, userIdFromUnsubscribeToken } from "~/modules/document-mail/token.server";
import { AppError } from "~/modules/http/app-error";
import { deliverDueMail, flushMailer, setMailTransportForTests } from "~/modules/mail/mail.server";
import { action as adminAccountAction } from "~/routes/admin/account";
import { action as lpAccountAction, loader as lpAccountLoader } from "~/routes/lp/account";
import { action as unsubscribeAction, loader as unsubscribeLoader } from "~/routes/site/unsubscribe-documents";
import { isCrossOriginRequest } from "../../server/security";
import { callRoute } from "../helpers/http";
import { incoming } from "../helpers/incoming";
import { fakeTransport } from "../helpers/mail";
import { insertAdmin, insertUser, mailsTo, ORIGIN, sessionCookieFor } from "../helpers/users";

/**
 * New-document e-mails (issue 15 §2, §4): who gets the notice of a new
 * document (audience, preference, status, admins), the weekly digest (once per
 * week however often and by however many processes it runs), the unsubscribe
 * token and its one-click route, the account page's preference, and reminders.
 */

const APP_URL = "http://localhost:3000";

function clearAll() {
  const db = getDb();
  db.delete(emailOutbox).run();
  db.delete(scheduledRuns).run();
  db.delete(documents).run();
  db.delete(lpUsers).run();
}

beforeEach(() => {
  clearAll();
  vi.spyOn(console, "log").mockImplementation(() => {});
});
afterEach(async () => {
  await flushMailer();
  setMailTransportForTests(null);
  vi.restoreAllMocks();
});

async function investor(documentMail: DocumentMailPreference = "each", status: LpUser["status"] = "approved"): Promise<LpUser> {
  const user = await insertUser({ status });
  getDb().update(lpUsers).set({ documentMail }).where(eq(lpUsers.id, user.id)).run();
  return { ...user, documentMail };
}

let docCounter = 0;
/** A document row as the documents module inserts it (and its recipients), in one transaction with the notices. */
function publish(
  fields: Partial<Pick<LpDocument, "title" | "category" | "audience" | "createdAt">> = {},
  recipients: string[] = [],
): { doc: LpDocument; queued: number } {
  docCounter++;
  return getDb().transaction((tx) => {
    const doc = tx
      .insert(documents)
      .values({
        title: fields.title ?? `Quarterly report ${docCounter}`,
        category: fields.category ?? "reports",
        audience: fields.audience ?? "all",
        fileName: `secret-file-${docCounter}.pdf`,
        filePath: `documents/${"a".repeat(31)}${docCounter % 10}`,
        fileSize: 1234,
        mimeType: "application/pdf",
        ...(fields.createdAt ? { createdAt: fields.createdAt } : {}),
      })
      .returning()
      .get();
    if (recipients.length) tx.insert(documentRecipients).values(recipients.map((userId) => ({ documentId: doc.id, userId }))).run();
    return { doc, queued: queueNewDocumentMails(tx, doc) };
  });
}

const outbox = () => getDb().select().from(emailOutbox).all();
const recipientsOf = (rows: { to: string }[]) => rows.map((r) => r.to).sort();

/** This event's audit rows about one target (the trail is append-only: earlier tests' rows stay). */
function auditRows(event: string, targetId: string) {
  return getDb()
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.event, event), eq(auditEvents.targetId, targetId)))
    .all();
}

function preferenceOf(userId: string): string {
  return getDb().select({ p: lpUsers.documentMail }).from(lpUsers).where(eq(lpUsers.id, userId)).get()!.p;
}

describe("queueNewDocumentMails", () => {
  it("audience 'all': every approved investor who wants each new document; not weekly, none, pending, rejected or admins", async () => {
    const each1 = await investor("each");
    const each2 = await investor("each");
    await investor("weekly");
    await investor("none");
    await investor("each", "pending");
    await investor("each", "rejected");
    await insertAdmin();

    const { doc, queued } = publish({ title: "Q3 2026 Report", category: "reports", createdAt: new Date("2026-03-05T10:00:00Z") });
    expect(queued).toBe(2);
    expect(recipientsOf(outbox())).toEqual([each1.email, each2.email].sort());

    const [mail] = mailsTo(each1.email);
    expect(mail!.subject).toBe("New document in the Lumen Ridge Ventures investor portal: Q3 2026 Report");
    expect(mail!.text).toContain(`Dear ${each1.name},`);
    expect(mail!.text).toContain("Title: Q3 2026 Report");
    expect(mail!.text).toContain("Category: Reports");
    expect(mail!.text).toContain("Date: Mar 5, 2026");
    expect(mail!.text).toContain(`${APP_URL}/lp/dashboard`);
    // The link to leave, filled in only at sending: the stored row holds a placeholder and a sealed secret.
    expect(mail!.text).toContain(`Stop new-document e-mails with one click: ${unsubscribeUrl(each1.id)}`);
    const row = outbox().find((r) => r.to === each1.email)!;
    expect(row.text).toContain("{{unsubscribe}}");
    expect(row.text).not.toContain(unsubscribeToken(each1.id));
    expect(JSON.parse(row.headers!)).toEqual({ "List-Unsubscribe": "<{{unsubscribe}}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
    // Never the file: not its name, its path or a link to it.
    for (const text of [row.text, mail!.text]) {
      expect(text).not.toContain(doc.fileName);
      expect(text).not.toContain(doc.filePath);
      expect(text).not.toContain(`/api/documents/${doc.id}`);
    }
  });

  it("audience 'selected': only its recipients who are approved investors wanting each document", async () => {
    const chosen = await investor("each");
    const chosenWeekly = await investor("weekly");
    const chosenPending = await investor("each", "pending");
    const admin = await insertAdmin();
    const other = await investor("each");
    const { queued } = publish({ audience: "selected" }, [chosen.id, chosenWeekly.id, chosenPending.id, admin.id]);
    expect(queued).toBe(1);
    expect(recipientsOf(outbox())).toEqual([chosen.email]);
    expect(mailsTo(other.email)).toHaveLength(0);
  });

  it("queues nothing when nobody wants it", async () => {
    await investor("none");
    expect(publish().queued).toBe(0);
    expect(outbox()).toHaveLength(0);
  });

  it("is one SELECT and a few multi-row INSERTs for 1,000 investors", async () => {
    const hash = (await insertUser({ status: "approved" })).passwordHash;
    getDb().delete(lpUsers).run();
    getDb()
      .insert(lpUsers)
      .values(Array.from({ length: 1000 }, (_, i) => ({ email: `lp${i}@many.example`, name: `LP ${i}`, passwordHash: hash, status: "approved" as const })))
      .run();
    const client = getDb().$client;
    const prepare = vi.spyOn(client, "prepare");
    const started = performance.now();
    const { queued } = publish();
    const ms = performance.now() - started;
    const statements = prepare.mock.calls.map(([sql]) => String(sql).trim().split(/\s+/)[0]!.toLowerCase());
    expect(queued).toBe(1000);
    expect(outbox()).toHaveLength(1000);
    // The document's own INSERT, one SELECT of the audience, and the outbox in rows of 200.
    expect(statements.filter((s) => s === "select")).toHaveLength(1);
    expect(statements.filter((s) => s === "insert")).toHaveLength(1 + 5);
    expect(ms).toBeLessThan(2000);
  });

  it("the mail goes out with List-Unsubscribe (the link filled in) and List-Unsubscribe-Post", async () => {
    const smtp = fakeTransport();
    setMailTransportForTests(smtp.transport);
    const lp = await investor("each");
    publish();
    await deliverDueMail(getDb(), new Date(Date.now() + 1000));
    expect(smtp.sent).toHaveLength(1);
    expect(smtp.sent[0]).toMatchObject({
      to: lp.email,
      headers: { "List-Unsubscribe": `<${unsubscribeUrl(lp.id)}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    });
    expect(unsubscribeUrl(lp.id)).toMatch(new RegExp(`^${APP_URL}/unsubscribe/documents\\?token=[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{43}$`));
  });
});

describe("the weekly digest", () => {
  // Monday 30 November 2026, 08:00 Zurich = 07:00 UTC; the week before starts Monday 23 November 07:00 UTC.
  const SLOT = new Date("2026-11-30T07:00:00Z");
  const at = (iso: string) => new Date(iso);

  async function week() {
    const weekly = await investor("weekly");
    const weeklyChosen = await investor("weekly");
    const each = await investor("each");
    const none = await investor("none");
    await investor("weekly", "pending");
    await insertAdmin();
    getDb().update(lpUsers).set({ documentMail: "weekly" }).where(eq(lpUsers.isAdmin, true)).run();
    const before = publish({ title: "Too early", createdAt: at("2026-11-23T06:59:59Z") }).doc;
    const first = publish({ title: "Letter to LPs", category: "newsletters", createdAt: at("2026-11-23T07:00:00Z") }).doc;
    const selected = publish({ title: "Side letter", category: "fund_documents", audience: "selected", createdAt: at("2026-11-26T12:00:00Z") }, [weeklyChosen.id]).doc;
    const last = publish({ title: "Portfolio update", category: "portfolio_company_news", createdAt: at("2026-11-30T06:59:59Z") }).doc;
    const after = publish({ title: "Too late", createdAt: SLOT }).doc;
    getDb().delete(emailOutbox).run(); // the 'each' notices
    return { weekly, weeklyChosen, each, none, before, first, selected, last, after };
  }

  it("lists the past week's documents each weekly investor may read, once; nobody else gets one", async () => {
    const w = await week();
    const run = runDocumentDigest(getDb(), at("2026-11-30T07:00:00Z"));
    expect(run).toMatchObject({ key: "document-digest:2026-11-30", claimed: true, queued: 2 });
    expect(recipientsOf(outbox())).toEqual([w.weekly.email, w.weeklyChosen.email].sort());

    const [plain] = mailsTo(w.weekly.email);
    expect(plain!.subject).toBe("2 new documents this week in the Lumen Ridge Ventures investor portal");
    expect(plain!.text).toContain("- Letter to LPs (Newsletters, Nov 23, 2026)\n- Portfolio update (Portfolio Company News, Nov 30, 2026)");
    expect(plain!.text).not.toContain("Side letter");
    expect(plain!.text).not.toContain("Too early");
    expect(plain!.text).not.toContain("Too late");
    expect(plain!.text).toContain(unsubscribeUrl(w.weekly.id));

    const [chosen] = mailsTo(w.weeklyChosen.email);
    expect(chosen!.subject).toBe("3 new documents this week in the Lumen Ridge Ventures investor portal");
    expect(chosen!.text).toContain("- Side letter (Fund Documents, Nov 26, 2026)");
    expect(JSON.parse(outbox()[0]!.headers!)).toMatchObject({ "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });

    const claim = getDb().select().from(scheduledRuns).get()!;
    expect(claim.key).toBe("document-digest:2026-11-30");
    expect(claim.finishedAt).toBeInstanceOf(Date);
  });

  it("runs once a week: a second run (a restart, a later check) that week sends nothing", async () => {
    await week();
    expect(runDocumentDigest(getDb(), at("2026-11-30T07:00:00Z")).queued).toBe(2);
    expect(runDocumentDigest(getDb(), at("2026-11-30T07:05:00Z"))).toMatchObject({ claimed: false, queued: 0 });
    expect(runDocumentDigest(getDb(), at("2026-12-06T22:00:00Z"))).toMatchObject({ claimed: false, queued: 0 });
    expect(outbox()).toHaveLength(2);
  });

  it("two processes (two connections to the database) checking at the same time: one sends it", async () => {
    await week();
    const other = openDatabase(getEnv().DATABASE_PATH);
    try {
      const runs = [runDocumentDigest(other, SLOT), runDocumentDigest(getDb(), SLOT)];
      expect(runs.map((r) => r.claimed).sort()).toEqual([false, true]);
      expect(outbox()).toHaveLength(2);
    } finally {
      other.$client.close();
    }
  });

  it("two real processes started at the same moment: exactly one claims the week and queues it", async () => {
    await week();
    const script = [
      'const { runDocumentDigest } = await import("./app/modules/document-mail/digest.server.ts");',
      'const { getDb } = await import("./app/modules/db/connection.server.ts");',
      "console.log(JSON.stringify(runDocumentDigest(getDb(), new Date(process.argv[1]))));",
    ].join("\n");
    const run = () =>
      promisify(execFile)(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script, SLOT.toISOString()], {
        env: { ...process.env, DATABASE_PATH: getEnv().DATABASE_PATH, LOG_LEVEL: "silent" },
      });
    const answers = await Promise.all([run(), run()]);
    const runs = answers.map((a) => JSON.parse(a.stdout) as { claimed: boolean; queued: number });
    expect(runs.map((r) => r.claimed).sort()).toEqual([false, true]);
    expect(runs.map((r) => r.queued).sort()).toEqual([0, 2]);
    expect(outbox()).toHaveLength(2);
  }, 30_000);

  it("before Monday 08:00 Zurich the slot is last week's: a run then is last week's digest, not this one", async () => {
    await week();
    const early = runDocumentDigest(getDb(), at("2026-11-30T06:59:00Z"));
    expect(early.key).toBe("document-digest:2026-11-23");
    // Last week's window (16–23 November) holds only 'Too early'.
    expect(early.queued).toBe(2);
    expect(mailsTo(getDb().select().from(lpUsers).where(eq(lpUsers.documentMail, "weekly")).all()[0]!.email)[0]!.text).toContain("Too early");
  });

  it("claims the week but sends nothing when no document was published", async () => {
    await investor("weekly");
    const run = runDocumentDigest(getDb(), SLOT);
    expect(run).toMatchObject({ claimed: true, queued: 0 });
    expect(outbox()).toHaveLength(0);
  });

  it("after downtime over whole weeks, each missed week's digest is sent once, late, oldest first", async () => {
    const lp = await investor("weekly");
    // The digest of Monday 16 November went out; the server was then down until Tuesday 1 December.
    expect(runDueDigests(getDb(), at("2026-11-16T07:00:00Z")).map((r) => r.key)).toEqual(["document-digest:2026-11-16"]);
    publish({ title: "Week of the 16th", createdAt: at("2026-11-18T09:00:00Z") });
    publish({ title: "Week of the 23rd", createdAt: at("2026-11-25T09:00:00Z") });
    getDb().delete(emailOutbox).run();

    const runs = runDueDigests(getDb(), at("2026-12-01T10:00:00Z"));
    expect(runs.map((r) => [r.key, r.claimed, r.queued])).toEqual([
      ["document-digest:2026-11-23", true, 1],
      ["document-digest:2026-11-30", true, 1],
    ]);
    const texts = mailsTo(lp.email).map((m) => m.text);
    expect(texts).toHaveLength(2);
    expect(texts.filter((t) => t.includes("Week of the 16th") && !t.includes("Week of the 23rd"))).toHaveLength(1);
    expect(texts.filter((t) => t.includes("Week of the 23rd") && !t.includes("Week of the 16th"))).toHaveLength(1);
    // A later check (or a second process) sends none of them again.
    expect(runDueDigests(getDb(), at("2026-12-01T10:05:00Z")).every((r) => !r.claimed)).toBe(true);
    expect(mailsTo(lp.email)).toHaveLength(2);
  });

  it("catches up at most MAX_CATCH_UP_WEEKS missed weeks; a fresh database starts with the latest week only", async () => {
    await investor("weekly");
    expect(runDueDigests(getDb(), at("2026-06-01T07:00:00Z")).map((r) => r.key)).toEqual(["document-digest:2026-06-01"]);
    const runs = runDueDigests(getDb(), at("2026-11-30T07:00:00Z"));
    expect(runs).toHaveLength(MAX_CATCH_UP_WEEKS + 1);
    expect(runs.at(-1)!.key).toBe("document-digest:2026-11-30");
    expect(runs.every((r) => r.claimed)).toBe(true);
  });

  it("summer time: the slot of Monday 29 June 2026 is 06:00 UTC", async () => {
    const lp = await investor("weekly");
    publish({ title: "June letter", createdAt: at("2026-06-25T09:00:00Z") });
    getDb().delete(emailOutbox).run();
    expect(runDocumentDigest(getDb(), at("2026-06-29T05:59:59Z")).key).toBe("document-digest:2026-06-22");
    expect(runDocumentDigest(getDb(), at("2026-06-29T06:00:00Z"))).toMatchObject({ key: "document-digest:2026-06-29", queued: 1 });
    expect(mailsTo(lp.email)[0]!.subject).toBe("1 new document this week in the Lumen Ridge Ventures investor portal");
  });
});

describe("unsubscribe tokens", () => {
  it("name their investor; a changed character, a swapped id or another secret name nobody", async () => {
    const a = await investor();
    const b = await investor();
    const token = unsubscribeToken(a.id);
    expect(userIdFromUnsubscribeToken(token)).toBe(a.id);
    expect(unsubscribeToken(a.id)).toBe(token);
    expect(unsubscribeToken(b.id)).not.toBe(token);

    const [id, signature] = token.split(".") as [string, string];
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
    expect(userIdFromUnsubscribeToken(`${id}.${flip(signature, 10)}`)).toBeNull();
    // The last character's spare bits: same bytes, still refused (one token per investor).
    const last = signature.at(-1)!;
    const sibling = signature.slice(0, -1) + String.fromCharCode(last.charCodeAt(0) ^ 1);
    expect(userIdFromUnsubscribeToken(`${id}.${sibling}`)).toBeNull();
    // b's id with a's signature.
    expect(userIdFromUnsubscribeToken(`${Buffer.from(b.id).toString("base64url")}.${signature}`)).toBeNull();
    for (const junk of [null, undefined, "", ".", "abc", `${token}x`, `${token}.${signature}`, 42, "a".repeat(500)]) {
      expect(userIdFromUnsubscribeToken(junk)).toBeNull();
    }

    process.env.SESSION_SECRET = "another-session-secret-0123456789abcdef-012345";
    resetEnvForTests();
    try {
      expect(userIdFromUnsubscribeToken(token)).toBeNull();
    } finally {
      process.env.SESSION_SECRET = "test-session-secret-0123456789abcdef-0123456789";
      resetEnvForTests();
    }
    expect(userIdFromUnsubscribeToken(token)).toBe(a.id);
  });

  it("another investor's token changes only that investor", async () => {
    const a = await investor("each");
    const b = await investor("weekly");
    expect(unsubscribeWithToken(unsubscribeToken(b.id))).toBe(true);
    expect(preferenceOf(a.id)).toBe("each");
    expect(preferenceOf(b.id)).toBe("none");
  });
});

describe("setDocumentMailPreference", () => {
  it("stores the choice with an audit row in the same transaction; the same choice again writes nothing", async () => {
    const lp = await investor("each");
    expect(setDocumentMailPreference(lp, "weekly", "account")).toBe(true);
    expect(preferenceOf(lp.id)).toBe("weekly");
    const [row] = auditRows("user.document_mail_changed", lp.id);
    expect(row).toMatchObject({ actorId: lp.id, actorEmail: lp.email, targetType: "user", targetId: lp.id, targetLabel: lp.email });
    expect(JSON.parse(row!.details)).toEqual({ userId: lp.id, from: "each", to: "weekly", via: "account" });

    expect(setDocumentMailPreference(lp, "weekly", "account")).toBe(false);
    expect(auditRows("user.document_mail_changed", lp.id)).toHaveLength(1);
  });

  it("an unsubscribe link names no actor (no one signed in)", async () => {
    const lp = await investor("weekly");
    expect(setDocumentMailPreference(lp, "none", "unsubscribe")).toBe(true);
    expect(auditRows("user.document_mail_changed", lp.id)).toMatchObject([{ actorId: null, actorEmail: null }]);
  });

  it("admins have no preference to set", async () => {
    const admin = await insertAdmin();
    expect(() => setDocumentMailPreference(admin, "weekly", "account")).toThrow(AppError);
    expect(auditRows("user.document_mail_changed", admin.id)).toHaveLength(0);
  });
});

/** A page action's data(...) answer, or a plain object answered as 200. */
function answerOf<T>(result: unknown): { data: T; status: number } {
  if (result && typeof result === "object" && (result as { type?: string }).type === "DataWithResponseInit") {
    const answer = result as DataWithResponseInit<T>;
    return { data: answer.data, status: answer.init?.status ?? 200 };
  }
  expect(result).not.toBeInstanceOf(Response);
  return { data: result as T, status: 200 };
}

describe("the unsubscribe route (/unsubscribe/documents?token=…)", () => {
  const page = (token: string) => `${ORIGIN}/unsubscribe/documents?token=${encodeURIComponent(token)}`;
  /** What a mail provider sends for RFC 8058: no cookie, no Origin, no Sec-Fetch-Site. */
  const oneClick = (token: string, body: BodyInit = new URLSearchParams({ "List-Unsubscribe": "One-Click" })) =>
    new Request(page(token), { method: "POST", body });

  it("GET: the page for a valid token; 400 for a tampered one or an account that is gone", async () => {
    const lp = await investor();
    expect(answerOf<{ token: string | null }>(await callRoute(unsubscribeLoader, new Request(page(unsubscribeToken(lp.id)))))).toEqual({
      data: { token: unsubscribeToken(lp.id) },
      status: 200,
    });
    const bad = answerOf<{ token: string | null }>(await callRoute(unsubscribeLoader, new Request(page(`${unsubscribeToken(lp.id)}x`))));
    expect(bad).toEqual({ data: { token: null }, status: 400 });
    expect(answerOf(await callRoute(unsubscribeLoader, new Request(`${ORIGIN}/unsubscribe/documents`))).status).toBe(400);
    const gone = unsubscribeToken(lp.id);
    getDb().delete(lpUsers).where(eq(lpUsers.id, lp.id)).run();
    expect(answerOf(await callRoute(unsubscribeLoader, new Request(page(gone)))).status).toBe(400);
  });

  it("one-click POST (form-urlencoded): 'none', 200, one audit row; a replay is 200 and changes nothing", async () => {
    const lp = await investor("weekly");
    const token = unsubscribeToken(lp.id);
    expect(answerOf(await callRoute(unsubscribeAction, oneClick(token)))).toEqual({ data: { done: true }, status: 200 });
    expect(preferenceOf(lp.id)).toBe("none");
    expect(auditRows("user.document_mail_changed", lp.id)).toHaveLength(1);
    expect(JSON.parse(auditRows("user.document_mail_changed", lp.id)[0]!.details)).toMatchObject({ from: "weekly", to: "none", via: "unsubscribe" });

    expect(answerOf(await callRoute(unsubscribeAction, oneClick(token)))).toEqual({ data: { done: true }, status: 200 });
    expect(preferenceOf(lp.id)).toBe("none");
    expect(auditRows("user.document_mail_changed", lp.id)).toHaveLength(1);
  });

  it("one-click POST as multipart/form-data works too", async () => {
    const lp = await investor("each");
    const form = new FormData();
    form.append("List-Unsubscribe", "One-Click");
    expect(answerOf(await callRoute(unsubscribeAction, oneClick(unsubscribeToken(lp.id), form))).status).toBe(200);
    expect(preferenceOf(lp.id)).toBe("none");
  });

  it("a tampered or foreign token, or another body: 400, and nothing changes", async () => {
    const lp = await investor("each");
    const token = unsubscribeToken(lp.id);
    const [id, signature] = token.split(".") as [string, string];
    const tampered = `${id}.${signature.slice(0, 5)}${signature[5] === "x" ? "y" : "x"}${signature.slice(6)}`;
    process.env.SESSION_SECRET = "a-foreign-servers-session-secret-0123456789abc";
    resetEnvForTests();
    const foreign = unsubscribeToken(lp.id);
    process.env.SESSION_SECRET = "test-session-secret-0123456789abcdef-0123456789";
    resetEnvForTests();

    for (const request of [
      oneClick(tampered),
      oneClick(foreign),
      oneClick("garbage"),
      oneClick(token, new URLSearchParams({ "List-Unsubscribe": "Something-Else" })),
      oneClick(token, new URLSearchParams({})),
      new Request(page(token), { method: "POST", body: "{}", headers: { "Content-Type": "application/json" } }),
    ]) {
      let status: number;
      try {
        status = answerOf(await callRoute(unsubscribeAction, request)).status;
      } catch (thrown) {
        // readFormData throws data(…, 400) for a body that is not a form.
        status = (thrown as DataWithResponseInit<unknown>).init?.status ?? 0;
      }
      expect(status).toBe(400);
    }
    expect(preferenceOf(lp.id)).toBe("each");
    expect(auditRows("user.document_mail_changed", lp.id)).toHaveLength(0);
  });

  it("passes the server's cross-site check as a provider sends it and as the page's button does; a cross-site form does not", () => {
    const appOrigin = new URL(APP_URL).origin;
    const post = (headers: Record<string, string>) =>
      isCrossOriginRequest(incoming({ method: "POST", url: "/unsubscribe/documents?token=x", headers: { host: "localhost:3000", ...headers } }), appOrigin);
    expect(post({ "content-type": "application/x-www-form-urlencoded" })).toBe(false);
    expect(post({ "sec-fetch-site": "same-origin", origin: appOrigin })).toBe(false);
    expect(post({ "sec-fetch-site": "cross-site", origin: "https://evil.example" })).toBe(true);
  });
});

describe("the account page's preference (intent 'document-mail')", () => {
  // As data with its status (`_enhanced=1`); a plain post gets the same answer through a redirect's flash.
  const post = (path: string, cookie: string, fields: Record<string, string>) =>
    new Request(ORIGIN + path, { method: "POST", headers: { Cookie: cookie }, body: new URLSearchParams({ ...fields, _enhanced: "1" }) });

  it("an investor sees and changes it; a bad value is a field error", async () => {
    const lp = await investor("each");
    const cookie = await sessionCookieFor(lp);
    const page = await callRoute(lpAccountLoader, new Request(`${ORIGIN}/lp/account`, { headers: { Cookie: cookie } }));
    expect(page.documentMail).toBe("each");

    const saved = answerOf<AccountAnswer>(await callRoute(lpAccountAction, post("/lp/account", cookie, { intent: "document-mail", documentMail: "weekly" })));
    expect(saved).toEqual({ status: 200, data: { intent: "document-mail", status: "success", toast: null, message: "You will get a weekly digest on Mondays at 08:00 Zurich time." } });
    expect(preferenceOf(lp.id)).toBe("weekly");
    const after = await callRoute(lpAccountLoader, new Request(`${ORIGIN}/lp/account`, { headers: { Cookie: cookie } }));
    expect(after.documentMail).toBe("weekly");

    const bad = answerOf<AccountAnswer>(await callRoute(lpAccountAction, post("/lp/account", cookie, { intent: "document-mail", documentMail: "daily" })));
    expect(bad.status).toBe(400);
    expect(bad.data).toMatchObject({ intent: "document-mail", status: "error", fieldErrors: { documentMail: ["Choose one of the listed options."] } });
    expect(preferenceOf(lp.id)).toBe("weekly");
  });

  it("admins have none: not shown, and refused", async () => {
    const admin = await insertAdmin();
    const cookie = await sessionCookieFor(admin);
    const refused = answerOf<AccountAnswer>(await callRoute(adminAccountAction, post("/admin/account", cookie, { intent: "document-mail", documentMail: "none" })));
    expect(refused.status).toBe(403);
    expect(refused.data).toMatchObject({ intent: "document-mail", status: "error", message: "Admins do not receive new-document e-mails." });
    expect(preferenceOf(admin.id)).toBe("each");
  });
});

describe("queueDocumentReminders", () => {
  const NOW = new Date("2026-12-01T10:00:00Z");
  const HOUR = 3600_000;
  const remindersFor = (documentId: string) =>
    getDb().select().from(documentReminders).where(eq(documentReminders.documentId, documentId)).all();

  it("queues one per investor, not twice within 24 hours; records each sending and one audit row", async () => {
    const admin = await insertAdmin();
    const a = await investor("each");
    const b = await investor("weekly");
    const off = await investor("none");
    const pending = await investor("each", "pending");
    const { doc } = publish({ title: "Capital call notice", category: "fund_documents" });
    getDb().delete(emailOutbox).run();
    const remind = (ids: string[], at: Date) => getDb().transaction((tx) => queueDocumentReminders(tx, admin, doc, ids, at));

    expect(remind([a.id, b.id, off.id, pending.id, admin.id, a.id], NOW)).toEqual({ queued: 2, skipped: 3 });
    expect(recipientsOf(outbox())).toEqual([a.email, b.email].sort());
    const [mail] = mailsTo(a.email);
    expect(mail!.subject).toBe("A document is waiting for you: Capital call notice");
    expect(mail!.text).toContain("A document in the Lumen Ridge Ventures investor portal is waiting for you.");
    expect(mail!.text).toContain(`${APP_URL}/lp/dashboard`);
    expect(mail!.text).toContain(unsubscribeUrl(a.id));
    expect(JSON.parse(outbox()[0]!.headers!)).toEqual({ "List-Unsubscribe": "<{{unsubscribe}}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
    expect(remindersFor(doc.id).map((r) => [r.userId, r.sentAt.getTime()]).sort()).toEqual(
      [
        [a.id, NOW.getTime()],
        [b.id, NOW.getTime()],
      ].sort(),
    );
    const [row] = auditRows("document.reminders_sent", doc.id);
    expect(row).toMatchObject({ actorId: admin.id, actorEmail: admin.email, targetType: "document", targetId: doc.id, targetLabel: "Capital call notice" });
    expect(JSON.parse(row!.details)).toEqual({ queued: 2, skipped: 3 });

    // 23 hours later: too soon for both.
    expect(remind([a.id, b.id], new Date(NOW.getTime() + 23 * HOUR))).toEqual({ queued: 0, skipped: 2 });
    expect(outbox()).toHaveLength(2);
    // 24 hours and a minute later: again, and the time is updated.
    const later = new Date(NOW.getTime() + 24 * HOUR + 60_000);
    expect(remind([a.id], later)).toEqual({ queued: 1, skipped: 0 });
    expect(mailsTo(a.email)).toHaveLength(2);
    expect(getDb().select().from(documentReminders).where(and(eq(documentReminders.documentId, doc.id), eq(documentReminders.userId, a.id))).get()!.sentAt).toEqual(later);
    expect(auditRows("document.reminders_sent", doc.id)).toHaveLength(3);
  });

  it("the 24 hours are per document", async () => {
    const admin = await insertAdmin();
    const a = await investor("each");
    const one = publish().doc;
    const two = publish().doc;
    getDb().delete(emailOutbox).run();
    expect(getDb().transaction((tx) => queueDocumentReminders(tx, admin, one, [a.id], NOW))).toEqual({ queued: 1, skipped: 0 });
    expect(getDb().transaction((tx) => queueDocumentReminders(tx, admin, two, [a.id], NOW))).toEqual({ queued: 1, skipped: 0 });
  });
});
