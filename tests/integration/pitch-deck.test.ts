import fs from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "../../app/modules/db/connection.server";
import { auditEvents, pitchEvents, pitchSubmissions } from "../../db/schema";
import { advanceClockForTests, resetClockForTests } from "~/modules/config/clock.server";
import { resetRateLimitsForTests } from "~/modules/http/rate-limit.server";
import { setLogSinkForTests } from "~/modules/logging/log.server";
import { flushMailer } from "~/modules/mail/mail.server";
import { formStampWith, issueFormStamp } from "~/modules/pitches/form-stamp.server";
import type { PitchOutcome } from "~/modules/pitches/submit-outcome.server";
import { reconcileStorage } from "~/modules/storage/reconcile.server";
import { incomingDir, storageRoot } from "~/modules/storage/storage.server";
import { readFlash } from "~/modules/toast/flash.server";
import { loader as deckLoader } from "~/routes/admin/pitch-deck";
import { action as apiAction } from "~/routes/api/pitch";
import { action as pageAction } from "~/routes/site/process";
import { allOutbox, allPitches, clearTables } from "../helpers/db";
import { filesUnder, rawMultipartRequest, type RawPart } from "../helpers/documents";
import { validPitch } from "../helpers/fixtures";
import { callRoute, expectData, expectRedirect, formRequest, requestWithCookie } from "../helpers/http";
import { samplePdf } from "../helpers/sample-files";
import { TEST_FIRM_INBOX, TEST_SESSION_SECRET } from "../helpers/test-env";
import { clearAccountTables, insertAdmin, insertUser, ORIGIN, sessionCookieFor } from "../helpers/users";

/**
 * Issue 16 §2: the pitch form's optional deck (a PDF of at most 25 MB, checked
 * by its bytes, kept privately in pitch-decks/), POST /api/pitch as multipart,
 * the admin's deck route (each opening recorded), and the form's spam traps
 * (decision 026): a trapped post answers exactly like an accepted one and
 * keeps, sends and stores nothing, and the log counts it with its reason.
 */

const MB = 1024 * 1024;
type Action = (args: never) => Promise<unknown>;
type Line = { level: string; msg: string; reason?: string } & Record<string, unknown>;

let logLines: string[] = [];
beforeEach(() => {
  clearTables();
  fs.rmSync(storageRoot(), { recursive: true, force: true });
  resetRateLimitsForTests();
  resetClockForTests();
  logLines = [];
  setLogSinkForTests((line) => logLines.push(line));
});
afterEach(async () => {
  await flushMailer();
  setLogSinkForTests(null);
  resetRateLimitsForTests();
  resetClockForTests();
  vi.restoreAllMocks();
});

const minuteAgo = () => issueFormStamp(new Date(Date.now() - 60_000));
const deckPart = (bytes: Uint8Array, filename = "Photon deck.pdf", type = "application/pdf"): RawPart => ({ name: "deck", filename, type, bytes });
const fieldParts = (fields: Record<string, string>): RawPart[] => Object.entries(fields).map(([name, value]) => ({ name, value }));
/** The form as a browser sends it with a deck: multipart, the stamp of a page shown a minute ago, the honeypot empty. */
const formFields = (overrides: Record<string, string> = {}) => ({ ...validPitch(), formStamp: minuteAgo(), website: "", ...overrides });
const postPage = (parts: RawPart[]) => callRoute(pageAction as Action, rawMultipartRequest("/process", parts));
const postApi = (parts: RawPart[]) => callRoute(apiAction as Action, rawMultipartRequest("/api/pitch", parts)) as Promise<Response>;
const deckFiles = () => filesUnder(path.join(storageRoot(), "pitch-decks"));
const incomingFiles = () => filesUnder(incomingDir());
const logged = () => logLines.map((line) => JSON.parse(line) as Line);

describe("the form with a deck", () => {
  it("stores the PDF privately under pitch-decks/, names it on the row and in the firm's mail", async () => {
    const pdf = samplePdf("Photon Forge deck", 40_000);
    const { data, status } = expectData<PitchOutcome>(await postPage([...fieldParts(formFields({ _enhanced: "1" })), deckPart(pdf)]));
    expect(status).toBe(200);
    expect(data.status).toBe("success");

    const [row] = allPitches();
    expect(row).toMatchObject({ deckName: "Photon deck.pdf", deckSize: pdf.length });
    expect(row!.deckPath).toMatch(/^pitch-decks\/[0-9a-f]{32}$/);
    expect(fs.readFileSync(path.join(storageRoot(), row!.deckPath!)).equals(pdf)).toBe(true);
    expect(incomingFiles()).toEqual([]);
    const inboxMail = allOutbox().find((mail) => mail.to === TEST_FIRM_INBOX)!;
    expect(inboxMail.text).toContain(`Uploaded deck: Photon deck.pdf (0.04 MB), for admins at http://localhost:3000/admin/pitches/${row!.id}/deck`);
  });

  it("without JavaScript: the same redirect and flash as a pitch without a deck", async () => {
    const redirect = expectRedirect(await postPage([...fieldParts(formFields()), deckPart(samplePdf())]));
    expect(redirect.location).toBe("/process#pitch");
    expect(allPitches()).toHaveLength(1);
    expect(deckFiles()).toHaveLength(1);
  });

  it("an empty file input (no name, no bytes) is no deck", async () => {
    const { status } = expectData<PitchOutcome>(
      await postPage([...fieldParts(formFields({ _enhanced: "1" })), deckPart(new Uint8Array(), "", "application/octet-stream")]),
    );
    expect(status).toBe(200);
    expect(allPitches().map((p) => [p.deckPath, p.deckName, p.deckSize])).toEqual([[null, null, null]]);
    expect(storageRoot() && filesUnder(storageRoot())).toEqual([]);
  });

  it.each([
    ["text declared as a PDF", Buffer.from("just some text, not a PDF"), "deck.pdf", "application/pdf"],
    ["a PDF declared as something else", samplePdf(), "deck.pdf", "text/plain"],
    ["a Word document", Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]), "deck.doc", "application/msword"],
  ])("%s: 400 with the message under the deck field, typed values kept, nothing kept", async (_what, bytes, name, type) => {
    const { data, status } = expectData<PitchOutcome>(await postPage([...fieldParts(formFields({ _enhanced: "1" })), deckPart(bytes, name, type)]));
    expect(status).toBe(400);
    expect(data.result.error).toEqual({ deck: ["The deck must be a PDF file"] });
    expect(data.result.initialValue).toMatchObject({ company: "Analytical Engines" });
    expect(allPitches()).toEqual([]);
    expect(allOutbox()).toEqual([]);
    expect(filesUnder(storageRoot())).toEqual([]);
  });

  it("a field error and a bad deck are shown together", async () => {
    const { data, status } = expectData<PitchOutcome>(
      await postPage([...fieldParts(formFields({ _enhanced: "1", name: "" })), deckPart(Buffer.from("nope"))]),
    );
    expect(status).toBe(400);
    expect(data.result.error).toEqual({ name: ["Name is required"], deck: ["The deck must be a PDF file"] });
  });

  it("over 25 MB while streaming: 413 with the deck's message, nothing kept", async () => {
    const { data, status } = expectData<PitchOutcome>(await postPage([...fieldParts(formFields({ _enhanced: "1" })), deckPart(samplePdf("big", 25 * MB + 1))]));
    expect(status).toBe(413);
    expect(data.toast).toMatchObject({ title: "Error", description: "The deck must be at most 25 MB", variant: "destructive" });
    expect(data.result.error).toMatchObject({ deck: ["The deck must be at most 25 MB"] });
    expect(allPitches()).toEqual([]);
    expect(filesUnder(storageRoot())).toEqual([]);
  });

  it("exactly 25 MB is accepted", async () => {
    const { status } = expectData<PitchOutcome>(await postPage([...fieldParts(formFields({ _enhanced: "1" })), deckPart(samplePdf("edge", 25 * MB))]));
    expect(status).toBe(200);
    expect(allPitches()[0]!.deckSize).toBe(25 * MB);
  });
});

describe("POST /api/pitch as multipart", () => {
  it("201 with a deck stored; no stamp needed (decision 026)", async () => {
    const response = await postApi([...fieldParts(validPitch()), deckPart(samplePdf("api deck"))]);
    expect(response.status).toBe(201);
    const body = (await response.json()) as { id: string };
    expect(allPitches()).toEqual([expect.objectContaining({ id: body.id, deckName: "Photon deck.pdf" })]);
    expect(deckFiles()).toHaveLength(1);
  });

  it("201 without a deck, as the JSON body does", async () => {
    expect((await postApi(fieldParts(validPitch()))).status).toBe(201);
    expect(allPitches()[0]!.deckPath).toBeNull();
  });

  it("400 under `deck` for a file that is not a PDF, nothing kept", async () => {
    const response = await postApi([...fieldParts(validPitch()), deckPart(Buffer.from("<html>"), "deck.pdf")]);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "The deck must be a PDF file", fields: { deck: ["The deck must be a PDF file"] } });
    expect(allPitches()).toEqual([]);
    expect(filesUnder(storageRoot())).toEqual([]);
  });

  it("400 with both the field's and the deck's messages", async () => {
    const response = await postApi([...fieldParts(validPitch({ email: "nope" })), deckPart(Buffer.from("x"))]);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { fields: Record<string, string[]> }).fields).toEqual({
      email: ["Invalid email address"],
      deck: ["The deck must be a PDF file"],
    });
  });

  it("413 for a deck over 25 MB, nothing kept", async () => {
    const response = await postApi([...fieldParts(validPitch()), deckPart(samplePdf("big", 25 * MB + 1))]);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: "The deck must be at most 25 MB", fields: { deck: ["The deck must be at most 25 MB"] } });
    expect(allPitches()).toEqual([]);
    expect(filesUnder(storageRoot())).toEqual([]);
  });

  it("a rate-limited post keeps no deck", async () => {
    for (let i = 0; i < 10; i++) expect((await postApi(fieldParts(validPitch()))).status).toBe(201);
    const response = await postApi([...fieldParts(validPitch()), deckPart(samplePdf())]);
    expect(response.status).toBe(429);
    expect(deckFiles()).toEqual([]);
    expect(incomingFiles()).toEqual([]);
  });
});

describe("the spam traps (form only)", () => {
  // Stamps are made when each test runs (a stamp made at load time would have aged by then).
  const at = (offsetMs: number) => formStampWith(TEST_SESSION_SECRET, Date.now() + offsetMs);
  const TRAPS: Array<[string, () => Record<string, string>, string]> = [
    ["the honeypot filled", () => ({ website: "https://spam.example" }), "honeypot"],
    ["the honeypot holding only a space", () => ({ website: " " }), "honeypot"],
    ["no stamp", () => ({ formStamp: "" }), "stamp_missing"],
    ["a stamp with its time changed", () => ({ formStamp: minuteAgo().replace(/^\d+/, (ms) => String(Number(ms) - 60_000)) }), "stamp_invalid"],
    ["a stamp signed with another key", () => ({ formStamp: formStampWith("another-secret-another-secret-0123456789", Date.now() - 60_000) }), "stamp_invalid"],
    ["a stamp from the future", () => ({ formStamp: at(60 * 60_000) }), "stamp_future"],
    ["a stamp older than 24 hours", () => ({ formStamp: at(-25 * 60 * 60_000) }), "stamp_expired"],
    ["a post 1 second after the page was shown", () => ({ formStamp: at(-1_000) }), "too_fast"],
  ];

  it.each(TRAPS)("%s (JavaScript): the accepted answer, nothing stored or sent, counted in the log", async (_what, overrides, reason) => {
    const accepted = expectData<PitchOutcome>(await postPage(fieldParts(formFields({ _enhanced: "1", email: "honest@example.test" }))));
    clearTables();
    const trapped = expectData<PitchOutcome>(
      await postPage([...fieldParts(formFields({ _enhanced: "1", email: "honest@example.test", ...overrides() })), deckPart(samplePdf())]),
    );
    // The same answer, but for the toast's id, which answerForm draws afresh for every answer.
    const withoutToastId = (answer: typeof accepted) => ({ ...answer, data: { ...answer.data, toast: { ...answer.data.toast, id: "" } } });
    expect(withoutToastId(trapped)).toEqual(withoutToastId(accepted));
    expect(allPitches()).toEqual([]);
    expect(allOutbox()).toEqual([]);
    expect(filesUnder(storageRoot())).toEqual([]);
    const trap = logged().filter((line) => line.msg === "pitch: spam trap");
    expect(trap).toEqual([expect.objectContaining({ level: "warn", reason })]);
    // The visitor's text is never logged.
    expect(logLines.join("\n")).not.toContain("honest@example.test");
    expect(logLines.join("\n")).not.toContain("Analytical Engines");
  });

  it.each(TRAPS)("%s (no JavaScript): the same redirect and flash as an accepted post", async (_what, overrides) => {
    const accepted = expectRedirect(await callRoute(pageAction as Action, formRequest("/process", formFields())));
    clearTables();
    const trapped = expectRedirect(await callRoute(pageAction as Action, formRequest("/process", formFields(overrides()))));
    expect({ ...trapped, cookie: null }).toEqual({ ...accepted, cookie: null });
    // Each flash toast gets a random id; everything else is the same.
    const flashOf = async (cookie: string | null) => {
      const { flash } = await readFlash(requestWithCookie("/process", cookie ?? ""));
      return { ...flash, toast: { ...flash.toast, id: "any" } };
    };
    expect(await flashOf(trapped.cookie)).toEqual(await flashOf(accepted.cookie));
    expect(allPitches()).toEqual([]);
    expect(allOutbox()).toEqual([]);
  });

  it("an honest post: a real stamp, older than the minimum fill time, is stored", async () => {
    const stamp = issueFormStamp();
    advanceClockForTests(3_500);
    const { status } = expectData<PitchOutcome>(await postPage(fieldParts(formFields({ _enhanced: "1", formStamp: stamp }))));
    expect(status).toBe(200);
    expect(allPitches()).toHaveLength(1);
    expect(logged().filter((line) => line.msg === "pitch: spam trap")).toEqual([]);
  });

  it("the same stamp 2 seconds in is trapped (minimum fill time 3 s)", async () => {
    const stamp = issueFormStamp();
    advanceClockForTests(2_000);
    expectData<PitchOutcome>(await postPage(fieldParts(formFields({ _enhanced: "1", formStamp: stamp }))));
    expect(allPitches()).toEqual([]);
  });

  it("invalid fields are still shown to a trapped post (the answer an honest post with them gets)", async () => {
    const { status, data } = expectData<PitchOutcome>(await postPage(fieldParts(formFields({ _enhanced: "1", website: "x", email: "bad" }))));
    expect(status).toBe(400);
    expect(data.result.error).toEqual({ email: ["Invalid email address"] });
  });

  it("the JSON API does not ask for them", async () => {
    const response = await callRoute(
      apiAction as Action,
      new Request(`${ORIGIN}/api/pitch`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(validPitch()) }),
    );
    expect((response as Response).status).toBe(201);
  });
});

describe("GET /admin/pitches/:id/deck", () => {
  beforeEach(() => {
    clearAccountTables();
  });

  async function pitchWithDeck() {
    const pdf = samplePdf("the deck", 20_000);
    const response = await postApi([...fieldParts(validPitch()), deckPart(pdf)]);
    return { id: ((await response.json()) as { id: string }).id, pdf };
  }

  it("answers the PDF inline to an admin and records each opening (audit + timeline); ranges and HEAD like documents", async () => {
    const { id, pdf } = await pitchWithDeck();
    const admin = await insertAdmin();
    const cookie = await sessionCookieFor(admin);
    const first = await callDeck(id, cookie);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("application/pdf");
    expect(first.headers.get("content-disposition")).toMatch(/^inline; filename="Photon deck.pdf"/);
    expect(first.headers.get("cache-control")).toBe("private, no-store");
    expect(Buffer.from(await first.arrayBuffer()).equals(pdf)).toBe(true);

    const later = await callDeck(id, cookie, { Range: "bytes=100-199" });
    expect(later.status).toBe(206);
    expect((await later.arrayBuffer()).byteLength).toBe(100);
    const head = await callDeck(id, cookie, {}, "HEAD");
    expect(head.status).toBe(200);

    const again = await callDeck(id, cookie);
    expect(again.status).toBe(200);
    // The two 200s; nothing for the later range or the HEAD.
    const events = getDb().select().from(pitchEvents).where(eq(pitchEvents.pitchId, id)).all();
    expect(events.map((e) => [e.kind, e.actorId, e.actorEmail])).toEqual([
      ["deck_opened", admin.id, admin.email],
      ["deck_opened", admin.id, admin.email],
    ]);
    const audits = getDb().select().from(auditEvents).where(and(eq(auditEvents.event, "pitch.deck_opened"), eq(auditEvents.targetId, id))).all();
    expect(audits).toHaveLength(2);
    expect(audits[0]).toMatchObject({ actorEmail: admin.email, targetType: "pitch", targetId: id, targetLabel: "Analytical Engines" });
  });

  it("401 without a session, 403 for an investor, nothing recorded", async () => {
    const { id } = await pitchWithDeck();
    expect((await callDeck(id, null)).status).toBe(401);
    const investor = await insertUser({ status: "approved" });
    expect((await callDeck(id, await sessionCookieFor(investor))).status).toBe(403);
    expect(getDb().select().from(pitchEvents).all()).toEqual([]);
  });

  it("404 for an unknown pitch and for a pitch without a deck", async () => {
    const cookie = await sessionCookieFor(await insertAdmin());
    expect((await callDeck("no-such-pitch", cookie)).status).toBe(404);
    const response = await postApi(fieldParts(validPitch()));
    const { id } = (await response.json()) as { id: string };
    const missing = await callDeck(id, cookie);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: "Deck not found" });
  });

  async function callDeck(id: string, cookie: string | null, headers: Record<string, string> = {}, method = "GET"): Promise<Response> {
    const request = new Request(`${ORIGIN}/admin/pitches/${id}/deck`, { method, headers: { ...headers, ...(cookie ? { Cookie: cookie } : {}) } });
    return (await deckLoader({ request, params: { id }, context: { clientAddress: "203.0.113.7" } } as never)) as Response;
  }
});

describe("storage reconciliation knows pitch-decks/", () => {
  it("keeps a deck a pitch names and removes one no pitch names", async () => {
    const response = await postApi([...fieldParts(validPitch()), deckPart(samplePdf())]);
    expect(response.status).toBe(201);
    const kept = allPitches()[0]!.deckPath!;
    const orphan = `pitch-decks/${"a".repeat(32)}`;
    fs.writeFileSync(path.join(storageRoot(), orphan), "left by a crash");
    const report = await reconcileStorage();
    expect(report).toEqual({ orphanFilesRemoved: 1, rowsWithoutFile: [] });
    expect(deckFiles()).toEqual([kept.replace("pitch-decks/", "")]);
  });

  it("reports a pitch whose deck file is missing, and keeps the pitch", async () => {
    await postApi([...fieldParts(validPitch()), deckPart(samplePdf())]);
    const row = allPitches()[0]!;
    fs.rmSync(path.join(storageRoot(), row.deckPath!));
    const report = await reconcileStorage();
    expect(report.rowsWithoutFile).toEqual([row.id]);
    expect(getDb().select().from(pitchSubmissions).all()).toHaveLength(1);
  });
});
