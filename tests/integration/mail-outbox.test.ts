import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "../../app/modules/db/connection.server";
import { emailOutbox } from "../../db/schema";
import { resetEnvForTests } from "~/modules/config/env.server";
import {
  backoffMs,
  cancelMailWake,
  deliverDueMail,
  flushMailer,
  kickMailer,
  mailWakeAt,
  queueMail,
  queueMails,
  setMailTransportForTests,
} from "~/modules/mail/mail.server";
import { submitPitch } from "~/modules/pitches/pitches.server";
import { PitchInput } from "~/modules/pitches/schema";
import { allOutbox, allPitches, clearTables } from "../helpers/db";
import { validPitch } from "../helpers/fixtures";
import { fakeTransport } from "../helpers/mail";
import { TEST_FIRM_INBOX } from "../helpers/test-env";

function outboxRow(id: string) {
  const row = getDb().select().from(emailOutbox).where(eq(emailOutbox.id, id)).get();
  if (!row) throw new Error(`no outbox row ${id}`);
  return row;
}

function queueOne(subject = "Hello") {
  queueMail(getDb(), { to: "founder@startup.example", subject, text: "Body text" });
  const rows = allOutbox();
  const row = rows[rows.length - 1];
  if (!row) throw new Error("nothing queued");
  return row;
}

let logSpy: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  clearTables();
  logSpy = vi.spyOn(console, "log").mockImplementation(() => {});
  vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(async () => {
  await flushMailer();
  setMailTransportForTests(null);
  vi.restoreAllMocks();
});

describe("backoffMs", () => {
  it("starts at 30 s, doubles per attempt and stops at one hour", () => {
    expect(backoffMs(1)).toBe(30_000);
    expect(backoffMs(2)).toBe(60_000);
    expect(backoffMs(3)).toBe(120_000);
    expect(backoffMs(7)).toBe(1_920_000);
    expect(backoffMs(8)).toBe(3_600_000);
    expect(backoffMs(50)).toBe(3_600_000);
    expect(backoffMs(0)).toBe(30_000);
  });
});

describe("deliverDueMail without SMTP", () => {
  it("writes the mail to the log and marks it 'logged', once", async () => {
    setMailTransportForTests(null);
    const queued = queueOne("Welcome aboard");
    expect(queued.status).toBe("pending");

    expect(await deliverDueMail(getDb(), new Date(Date.now() + 1000))).toBe(1);
    const row = outboxRow(queued.id);
    expect(row.status).toBe("logged");
    expect(row.attempts).toBe(1);
    expect(row.sentAt).toBeInstanceOf(Date);
    expect(logSpy.mock.calls.map((c: unknown[]) => String(c[0])).join("\n")).toContain("Welcome aboard");

    expect(await deliverDueMail(getDb(), new Date(Date.now() + 1000))).toBe(0);
    expect(outboxRow(queued.id).attempts).toBe(1);
  });
});

describe("deliverDueMail with an SMTP outage", () => {
  it("keeps a failed mail pending with backoff, then sends it exactly once when SMTP is back", async () => {
    const smtp = fakeTransport();
    setMailTransportForTests(smtp.transport);
    const queued = queueOne("Your pitch");
    const t0 = new Date(Date.now() + 1000);

    smtp.goDown();
    expect(await deliverDueMail(getDb(), t0)).toBe(0);
    let row = outboxRow(queued.id);
    expect(row.status).toBe("pending");
    expect(row.attempts).toBe(1);
    expect(row.lastError).toContain("ECONNREFUSED");
    expect(row.nextAttemptAt.getTime()).toBe(t0.getTime() + backoffMs(1));
    expect(row.sentAt).toBeNull();

    // Not due yet: no new attempt before the backoff has passed, even if SMTP is back.
    smtp.comeBack();
    expect(await deliverDueMail(getDb(), new Date(t0.getTime() + backoffMs(1) - 1))).toBe(0);
    expect(smtp.calls).toBe(1);

    // A second failure waits longer.
    smtp.goDown();
    const t1 = new Date(t0.getTime() + backoffMs(1));
    expect(await deliverDueMail(getDb(), t1)).toBe(0);
    row = outboxRow(queued.id);
    expect(row.status).toBe("pending");
    expect(row.attempts).toBe(2);
    expect(row.nextAttemptAt.getTime()).toBe(t1.getTime() + backoffMs(2));

    // SMTP is back and the time has come: sent, once.
    smtp.comeBack();
    const t2 = new Date(t1.getTime() + backoffMs(2));
    expect(await deliverDueMail(getDb(), t2)).toBe(1);
    row = outboxRow(queued.id);
    expect(row.status).toBe("sent");
    expect(row.attempts).toBe(3);
    expect(row.lastError).toBeNull();
    expect(row.sentAt).toBeInstanceOf(Date);
    expect(smtp.sent).toHaveLength(1);
    expect(smtp.sent[0]).toMatchObject({ to: "founder@startup.example", subject: "Your pitch", text: "Body text" });

    expect(await deliverDueMail(getDb(), new Date(t2.getTime() + 24 * 3600_000))).toBe(0);
    expect(smtp.sent).toHaveLength(1);
  });

  it("sends from MAIL_FROM", async () => {
    const smtp = fakeTransport();
    setMailTransportForTests(smtp.transport);
    queueOne();
    await deliverDueMail(getDb(), new Date(Date.now() + 1000));
    expect(smtp.sent[0]?.from).toBe("Lumen Ridge Ventures <no-reply@lumenridge.example>");
  });

  it("never loses a pitch when mail fails; its mails wait in the outbox", async () => {
    const smtp = fakeTransport();
    smtp.goDown();
    setMailTransportForTests(smtp.transport);

    const pitch = submitPitch(PitchInput.parse(validPitch()));
    await flushMailer();

    expect(allPitches().map((p) => p.id)).toEqual([pitch.id]);
    const mails = allOutbox();
    expect(mails).toHaveLength(2);
    for (const mail of mails) {
      expect(mail.status).toBe("pending");
      expect(mail.attempts).toBe(1);
      expect(mail.lastError).toContain("ECONNREFUSED");
    }

    smtp.comeBack();
    expect(await deliverDueMail(getDb(), new Date(Date.now() + backoffMs(1) + 1000))).toBe(2);
    expect(allOutbox().map((m) => m.status)).toEqual(["sent", "sent"]);
    expect(smtp.sent.map((m) => m.to).sort()).toEqual(["ada@analytical.example", TEST_FIRM_INBOX].sort());
  });
});

describe("header injection", () => {
  it("strips line breaks from subjects built from a pitch's company and name", async () => {
    const smtp = fakeTransport();
    setMailTransportForTests(smtp.transport);
    submitPitch(
      PitchInput.parse(
        validPitch({ company: "Acme\r\nBcc: x@evil.example", name: "Eve\nBcc: y@evil.example" }),
      ),
    );
    await flushMailer();

    const mails = allOutbox();
    expect(mails).toHaveLength(2);
    for (const mail of mails) {
      expect(mail.subject).not.toMatch(/[\r\n]/);
      expect(mail.to).not.toMatch(/[\r\n]/);
    }
    // The firm's copy names the company (on one line); the founder's acknowledgement carries no visitor text in its subject.
    expect(mails.find((m) => m.to === TEST_FIRM_INBOX)?.subject).toContain("Acme Bcc: x@evil.example");
    expect(mails.find((m) => m.to !== TEST_FIRM_INBOX)?.subject).not.toContain("Acme");
    expect(smtp.sent).toHaveLength(2);
    for (const sent of smtp.sent) expect(String(sent.subject)).not.toMatch(/[\r\n]/);
  });

  it("strips line breaks (CR, LF, U+2028) from any queued subject and recipient", () => {
    queueMail(getDb(), { to: "a@b.example\r\nBcc: c@evil.example", subject: "Hi\u2028Bcc: d@evil.example\n", text: "x" });
    const [row] = allOutbox();
    expect(row?.subject).toBe("Hi Bcc: d@evil.example");
    expect(row?.to).not.toMatch(/[\r\n]/);
  });
});

describe("extra headers", () => {
  const unsubscribeHeaders = {
    "List-Unsubscribe": "<{{unsubscribe}}>",
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  };
  const link = "https://lumenridge.example/unsubscribe/documents?token=abc";

  it("are stored as JSON on one line, and sent with their secrets filled in (then erased)", async () => {
    const smtp = fakeTransport();
    setMailTransportForTests(smtp.transport);
    queueMail(getDb(), {
      to: "lp@fund.example",
      subject: "New document",
      text: "Stop these: {{unsubscribe}}",
      secrets: { unsubscribe: link },
      headers: { ...unsubscribeHeaders, "X-Note": "one\r\nBcc: evil@example.com" },
    });
    const [row] = allOutbox();
    expect(JSON.parse(row!.headers!)).toEqual({ ...unsubscribeHeaders, "X-Note": "one Bcc: evil@example.com" });
    expect(row!.headers).not.toContain(link);

    await deliverDueMail(getDb(), new Date(Date.now() + 1000));
    expect(smtp.sent[0]).toMatchObject({
      text: `Stop these: ${link}`,
      headers: { "List-Unsubscribe": `<${link}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click", "X-Note": "one Bcc: evil@example.com" },
    });
    expect(outboxRow(row!.id).secretsEnc).toBeNull();
  });

  it("are left out of mails that have none", async () => {
    const smtp = fakeTransport();
    setMailTransportForTests(smtp.transport);
    const row = queueOne();
    expect(row.headers).toBeNull();
    await deliverDueMail(getDb(), new Date(Date.now() + 1000));
    expect(smtp.sent[0]).not.toHaveProperty("headers");
  });

  it("refuses a header name that could break the header block", () => {
    expect(() => queueMail(getDb(), { to: "a@b.example", subject: "x", text: "x", headers: { "X-A: b\r\nBcc": "c" } })).toThrow(/header name/);
    expect(() => queueMail(getDb(), { to: "a@b.example", subject: "x", text: "x", headers: { "": "c" } })).toThrow(/header name/);
    expect(allOutbox()).toHaveLength(0);
  });

  it("appear in the logged line without SMTP (filled in outside production, as the text is)", async () => {
    setMailTransportForTests(null);
    queueMail(getDb(), { to: "lp@fund.example", subject: "Logged", text: "x {{unsubscribe}}", secrets: { unsubscribe: link }, headers: unsubscribeHeaders });
    await deliverDueMail(getDb(), new Date(Date.now() + 1000));
    const line = logSpy.mock.calls.map((c: unknown[]) => String(c[0])).find((l: string) => l.includes('"Logged"'));
    expect(JSON.parse(line!)).toMatchObject({ subject: "Logged", headers: { "List-Unsubscribe": `<${link}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } });
  });

  it("queueMails inserts many in a few statements, in order", () => {
    const mails = Array.from({ length: 450 }, (_, i) => ({ to: `lp${i}@fund.example`, subject: `n${i}`, text: "t", headers: unsubscribeHeaders }));
    queueMails(getDb(), mails);
    const rows = allOutbox();
    expect(rows).toHaveLength(450);
    expect(new Set(rows.map((r) => r.to)).size).toBe(450);
    expect(rows.every((r) => r.headers !== null && r.status === "pending")).toBe(true);
  });
});

describe("the send rate (MAIL_RATE_PER_MINUTE)", () => {
  beforeEach(() => {
    process.env.MAIL_RATE_PER_MINUTE = "3";
    resetEnvForTests();
  });
  afterEach(() => {
    cancelMailWake();
    delete process.env.MAIL_RATE_PER_MINUTE;
    resetEnvForTests();
  });

  const queueN = (n: number, label: string) =>
    queueMails(
      getDb(),
      Array.from({ length: n }, (_, i) => ({ to: `lp${i}@fund.example`, subject: `${label} ${i}`, text: "t" })),
    );

  it("sends at most that many in any rolling minute, oldest queued first, and the rest later", async () => {
    const smtp = fakeTransport();
    setMailTransportForTests(smtp.transport);
    queueN(5, "first");
    const t0 = Date.now() + 1000;

    expect(await deliverDueMail(getDb(), new Date(t0))).toBe(3);
    expect(smtp.sent.map((m) => m.subject)).toEqual(["first 0", "first 1", "first 2"]);
    // A second publish joins the queue behind the first.
    queueN(2, "second");
    // Still within the minute: nothing more goes out.
    expect(await deliverDueMail(getDb(), new Date(t0 + 30_000))).toBe(0);
    expect(await deliverDueMail(getDb(), new Date(t0 + 59_000))).toBe(0);
    // A minute after the first three: three more, in queue order.
    expect(await deliverDueMail(getDb(), new Date(t0 + 61_000))).toBe(3);
    expect(smtp.sent.map((m) => m.subject).slice(3)).toEqual(["first 3", "first 4", "second 0"]);
    expect(await deliverDueMail(getDb(), new Date(t0 + 122_000))).toBe(1);
    expect(smtp.sent.map((m) => m.subject).slice(6)).toEqual(["second 1"]);
    expect(allOutbox().every((m) => m.status === "sent")).toBe(true);
  });

  it("counts logged mails too (no SMTP), and not failed attempts", async () => {
    const smtp = fakeTransport();
    setMailTransportForTests(smtp.transport);
    smtp.goDown();
    queueN(5, "down");
    const t0 = Date.now() + 1000;
    // Failures spend no budget: every one is attempted.
    expect(await deliverDueMail(getDb(), new Date(t0))).toBe(0);
    expect(smtp.calls).toBe(5);

    setMailTransportForTests(null);
    const t1 = t0 + backoffMs(1);
    expect(await deliverDueMail(getDb(), new Date(t1))).toBe(3);
    expect(allOutbox().filter((m) => m.status === "logged")).toHaveLength(3);
    expect(await deliverDueMail(getDb(), new Date(t1 + 1000))).toBe(0);
  });

  it("a run that spends the budget sets an unref'd wake-up for when the oldest send leaves the minute", async () => {
    setMailTransportForTests(null);
    queueN(4, "kick");
    const before = Date.now();
    kickMailer();
    await flushMailer();
    expect(allOutbox().filter((m) => m.status === "logged")).toHaveLength(3);
    const oldest = Math.min(...allOutbox().flatMap((m) => (m.sentAt ? [m.sentAt.getTime()] : [])));
    const wake = mailWakeAt();
    expect(wake).not.toBeNull();
    expect(wake!.getTime()).toBeGreaterThanOrEqual(before + 60_000);
    expect(wake!.getTime()).toBe(oldest + 60_001);
  });

  it("counts the minute's sends on the sent_at index, not by walking every mail ever sent", async () => {
    setMailTransportForTests(null);
    queueN(1, "plan");
    const client = getDb().$client;
    const prepare = vi.spyOn(client, "prepare");
    await deliverDueMail(getDb(), new Date(Date.now() + 1000));
    const rateQuery = prepare.mock.calls.map(([text]) => String(text)).find((text) => /\bmin\(/i.test(text));
    expect(rateQuery).toBeDefined();
    prepare.mockRestore();
    const plan = client.prepare(`explain query plan ${rateQuery}`).all(Date.now()) as { detail: string }[];
    expect(plan.map((step) => step.detail).join("; ")).toMatch(/USING (COVERING )?INDEX email_outbox_sent_at_idx/);
  });

  it("sets no wake-up when nothing is left to send", async () => {
    setMailTransportForTests(null);
    queueN(3, "exact");
    kickMailer();
    await flushMailer();
    expect(allOutbox().every((m) => m.status === "logged")).toBe(true);
    expect(mailWakeAt()).toBeNull();
  });
});

describe("two delivery runs at once (two processes on one database)", () => {
  it("send each mail once: a run skips the mails the other has claimed", async () => {
    const transport = fakeTransport();
    setMailTransportForTests(transport.transport);
    queueMails(
      getDb(),
      Array.from({ length: 12 }, (_, i) => ({ to: `lp${i}@example.com`, subject: "Notice", text: "Body" })),
    );
    const [a, b] = await Promise.all([deliverDueMail(), deliverDueMail()]);
    const sentTo = transport.sent.map((mail) => String(mail.to)).sort();
    expect(sentTo).toEqual(Array.from({ length: 12 }, (_, i) => `lp${i}@example.com`).sort());
    expect(a + b).toBe(12);
    expect(allOutbox().every((row) => row.status === "sent")).toBe(true);
  });
});
