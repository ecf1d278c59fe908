import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "../../app/modules/db/connection.server";
import { flushMailer, setMailTransportForTests } from "~/modules/mail/mail.server";
import { submitPitch } from "~/modules/pitches/pitches.server";
import { PitchInput } from "~/modules/pitches/schema";
import { allOutbox, allPitches, clearTables } from "../helpers/db";
import { validPitch } from "../helpers/fixtures";
import { TEST_FIRM_INBOX } from "../helpers/test-env";

beforeEach(() => {
  clearTables();
  vi.spyOn(console, "log").mockImplementation(() => {});
});
afterEach(async () => {
  await flushMailer();
  setMailTransportForTests(null);
  vi.restoreAllMocks();
});

describe("submitPitch", () => {
  it("stores the pitch with every field", () => {
    const pitch = submitPitch(PitchInput.parse(validPitch({ stage: "Series A" })));
    expect(pitch.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(pitch.createdAt).toBeInstanceOf(Date);
    const rows = allPitches();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: pitch.id,
      name: "Ada Lovelace",
      email: "ada@analytical.example",
      company: "Analytical Engines",
      stage: "Series A",
      deckUrl: "https://analytical.example/deck.pdf",
      message: "We build general-purpose computing machines.",
    });
  });

  it("stores deckUrl as null when there is no deck (absent or empty)", () => {
    const { deckUrl: _omit, ...noDeck } = validPitch();
    submitPitch(PitchInput.parse(noDeck));
    submitPitch(PitchInput.parse(validPitch({ email: "b@analytical.example", deckUrl: "" })));
    expect(allPitches().map((r) => r.deckUrl)).toEqual([null, null]);
  });

  it("queues a mail to the firm's inbox and an acknowledgement to the founder", () => {
    submitPitch(PitchInput.parse(validPitch({ company: "Quantum Lattice AG" })));
    const mails = allOutbox();
    expect(mails).toHaveLength(2);

    const toFirm = mails.find((m) => m.to === TEST_FIRM_INBOX);
    expect(toFirm).toBeDefined();
    expect(toFirm?.subject).toContain("Quantum Lattice AG");
    expect(toFirm?.text).toContain("ada@analytical.example");
    expect(toFirm?.text).toContain("https://analytical.example/deck.pdf");

    const toFounder = mails.find((m) => m.to === "ada@analytical.example");
    expect(toFounder).toBeDefined();
    // No visitor-typed text in the subject of a mail anyone can send to any address.
    expect(toFounder?.subject).toBe("We received your pitch - Lumen Ridge Ventures");
    expect(toFounder?.text).toContain("Quantum Lattice AG");
    expect(toFounder?.text).toContain("Dear Ada Lovelace");
    expect(toFounder?.text).toContain("5 business days");
  });

  it("writes the pitch and its mails in one transaction (no pitch without its mails)", () => {
    const sqlite = getDb().$client;
    sqlite.exec("ALTER TABLE email_outbox RENAME TO email_outbox_offline");
    try {
      expect(() => submitPitch(PitchInput.parse(validPitch()))).toThrow();
    } finally {
      sqlite.exec("ALTER TABLE email_outbox_offline RENAME TO email_outbox");
    }
    expect(allPitches()).toHaveLength(0);
  });

  it("delivers the queued mails after answering (no SMTP: logged)", async () => {
    submitPitch(PitchInput.parse(validPitch()));
    await flushMailer();
    expect(allOutbox().map((m) => m.status)).toEqual(["logged", "logged"]);
  });
});
