import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "../../db/client";
import { emailOutbox } from "../../db/schema";
import {
  backoffMs,
  deliverDueMail,
  flushMailer,
  queueMail,
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
