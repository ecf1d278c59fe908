import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { openDatabase } from "../../db/client";
import { getDb } from "../../app/modules/db/connection.server";
import { emailOutbox, lpUsers, pitchSubmissions, scheduledRuns } from "../../db/schema";
import { getEnv } from "~/modules/config/env.server";
import { flushMailer, setMailTransportForTests } from "~/modules/mail/mail.server";
import { endOfFirmDay } from "~/modules/pitch-clock/clock.server";
import { LISTED_AT_MOST, runPitchSummary } from "~/modules/pitch-summary/summary.server";
import { TEST_FIRM_INBOX } from "../helpers/test-env";
import { insertAdmin, mailsTo } from "../helpers/users";

/**
 * The daily pitch summary (issue 16): at 08:00 Zurich time one mail to the
 * firm's inbox with the unanswered pitches due today and those overdue;
 * nothing on a day with none; once a day however many processes check.
 * Thursday 26 November 2026, 08:00 Zurich = 07:00 UTC.
 */
const EIGHT = new Date("2026-11-26T07:00:00Z");
const APP_URL = "http://localhost:3000";

beforeEach(() => {
  const db = getDb();
  db.delete(emailOutbox).run();
  db.delete(scheduledRuns).run();
  db.delete(pitchSubmissions).run();
  db.delete(lpUsers).run();
  vi.spyOn(console, "log").mockImplementation(() => {});
});
afterEach(async () => {
  await flushMailer();
  setMailTransportForTests(null);
  vi.restoreAllMocks();
});

let serial = 0;
function pitch(company: string, fields: Partial<typeof pitchSubmissions.$inferInsert> & { dueDay?: string } = {}) {
  const { dueDay, ...rest } = fields;
  serial += 1;
  return getDb()
    .insert(pitchSubmissions)
    .values({
      name: `Founder ${serial}`,
      email: `founder${serial}@startup.example`,
      company,
      stage: "Seed",
      message: "We build things.",
      createdAt: new Date("2026-11-16T09:00:00Z"),
      dueAt: dueDay ? endOfFirmDay(dueDay) : new Date(0),
      ...rest,
    })
    .returning()
    .get();
}

const summaries = () => mailsTo(TEST_FIRM_INBOX);
const claims = () => getDb().select().from(scheduledRuns).all();

async function morning() {
  const owner = await insertAdmin({ name: "Anna Keller" });
  const today = pitch("Due Today Robotics", { dueDay: "2026-11-26", ownerId: owner.id });
  const twoLate = pitch("Late Photonics", { dueDay: "2026-11-24" });
  const oneLate = pitch("Yesterday Quantum", { dueDay: "2026-11-25" });
  pitch("Answered Bio", { dueDay: "2026-11-20", answeredAt: new Date("2026-11-23T10:00:00Z") });
  pitch("Tomorrow Fusion", { dueDay: "2026-11-27" });
  pitch("Before The Clock", {}); // due_at 0: not filled in yet
  return { owner, today, twoLate, oneLate };
}

describe("the daily pitch summary", () => {
  it("lists the pitches due today and the overdue ones, most overdue first, in one mail to the firm's inbox", async () => {
    const p = await morning();
    const run = runPitchSummary(getDb(), EIGHT);
    expect(run).toEqual({ key: "pitch-summary:2026-11-26", day: "2026-11-26", claimed: true, dueToday: 1, overdue: 2, queued: true });

    const mails = summaries();
    expect(mails).toHaveLength(1);
    expect(getDb().select().from(emailOutbox).all()).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe("Pitches to answer: 1 due today, 2 overdue");
    expect(mail.text).toContain(
      [
        "Due today (1):",
        "",
        `- Due Today Robotics, from ${p.today.name} <${p.today.email}>`,
        "  Due Nov 26, 2026. Owner: Anna Keller.",
        `  ${APP_URL}/admin/pitches/${p.today.id}`,
        "",
        "Overdue (2):",
        "",
        `- Late Photonics, from ${p.twoLate.name} <${p.twoLate.email}>`,
        "  Due Nov 24, 2026, overdue by 2 business days. Owner: nobody yet.",
        `  ${APP_URL}/admin/pitches/${p.twoLate.id}`,
        "",
        `- Yesterday Quantum, from ${p.oneLate.name} <${p.oneLate.email}>`,
        "  Due Nov 25, 2026, overdue by 1 business day. Owner: nobody yet.",
        `  ${APP_URL}/admin/pitches/${p.oneLate.id}`,
      ].join("\n"),
    );
    for (const absent of ["Answered Bio", "Tomorrow Fusion", "Before The Clock"]) expect(mail.text).not.toContain(absent);

    const [claim] = claims();
    expect(claim).toMatchObject({ key: "pitch-summary:2026-11-26", startedAt: EIGHT });
    expect(claim!.finishedAt).toBeInstanceOf(Date);
  });

  it("sends nothing when nothing is due or overdue, and claims the day (later checks that day send nothing either)", async () => {
    pitch("Tomorrow Fusion", { dueDay: "2026-11-27" });
    pitch("Answered Bio", { dueDay: "2026-11-20", answeredAt: new Date("2026-11-23T10:00:00Z") });
    expect(runPitchSummary(getDb(), EIGHT)).toMatchObject({ claimed: true, dueToday: 0, overdue: 0, queued: false });
    expect(getDb().select().from(emailOutbox).all()).toHaveLength(0);
    expect(claims().map((c) => c.key)).toEqual(["pitch-summary:2026-11-26"]);
    expect(runPitchSummary(getDb(), new Date("2026-11-26T12:00:00Z"))).toMatchObject({ claimed: false, queued: false });
    expect(getDb().select().from(emailOutbox).all()).toHaveLength(0);
  });

  it("a day with only overdue pitches (a Saturday) has no 'due today' section", async () => {
    pitch("Late Photonics", { dueDay: "2026-11-27" });
    const run = runPitchSummary(getDb(), new Date("2026-11-28T07:00:00Z"));
    expect(run).toMatchObject({ key: "pitch-summary:2026-11-28", dueToday: 0, overdue: 1, queued: true });
    const [mail] = summaries();
    expect(mail!.subject).toBe("Pitches to answer: 0 due today, 1 overdue");
    expect(mail!.text).not.toContain("Due today (");
    expect(mail!.text).toContain("Due Nov 27, 2026, overdue by 1 business day.");
  });

  it("runs once a day: a restart or a later check that day sends nothing; the next morning sends again", async () => {
    await morning();
    expect(runPitchSummary(getDb(), EIGHT).queued).toBe(true);
    expect(runPitchSummary(getDb(), new Date("2026-11-26T07:05:00Z"))).toMatchObject({ claimed: false, queued: false });
    expect(runPitchSummary(getDb(), new Date("2026-11-26T22:59:59Z"))).toMatchObject({ claimed: false, queued: false });
    expect(summaries()).toHaveLength(1);
    expect(runPitchSummary(getDb(), new Date("2026-11-27T07:00:00Z"))).toMatchObject({ key: "pitch-summary:2026-11-27", claimed: true, queued: true });
    expect(summaries()).toHaveLength(2);
  });

  it("before 08:00 Zurich nothing is due (not yesterday's summary either); after downtime it goes out late the same day", async () => {
    await morning();
    expect(runPitchSummary(getDb(), new Date("2026-11-26T06:59:59Z"))).toMatchObject({ key: null, claimed: false });
    expect(claims()).toHaveLength(0);
    expect(summaries()).toHaveLength(0);
    // Down from before 08:00 until 17:30 Zurich: the day's summary at the first check.
    expect(runPitchSummary(getDb(), new Date("2026-11-26T16:30:00Z"))).toMatchObject({ key: "pitch-summary:2026-11-26", claimed: true, queued: true });
    expect(summaries()).toHaveLength(1);
  });

  it("summer time: the summary of Monday 29 June 2026 is due from 06:00 UTC", async () => {
    pitch("Late Photonics", { dueDay: "2026-06-26" });
    expect(runPitchSummary(getDb(), new Date("2026-06-29T05:59:59Z")).claimed).toBe(false);
    expect(runPitchSummary(getDb(), new Date("2026-06-29T06:00:00Z"))).toMatchObject({ key: "pitch-summary:2026-06-29", overdue: 1, queued: true });
  });

  it(`lists at most ${LISTED_AT_MOST} pitches a section and links to the rest`, async () => {
    for (let i = 0; i < LISTED_AT_MOST + 3; i++) pitch(`Company ${i}`, { dueDay: "2026-11-20" });
    expect(runPitchSummary(getDb(), EIGHT)).toMatchObject({ overdue: LISTED_AT_MOST + 3, queued: true });
    const [mail] = summaries();
    expect(mail!.subject).toBe(`Pitches to answer: 0 due today, ${LISTED_AT_MOST + 3} overdue`);
    expect(mail!.text.match(/\/admin\/pitches\/[0-9a-f-]{36}/g)).toHaveLength(LISTED_AT_MOST);
    expect(mail!.text).toContain(`… and 3 more: ${APP_URL}/admin/pitches?overdue=1`);
  });

  it("two processes (two connections to the database) checking at the same time: one sends it", async () => {
    await morning();
    const other = openDatabase(getEnv().DATABASE_PATH);
    try {
      const runs = [runPitchSummary(other, EIGHT), runPitchSummary(getDb(), EIGHT)];
      expect(runs.map((r) => r.claimed).sort()).toEqual([false, true]);
      expect(summaries()).toHaveLength(1);
    } finally {
      other.$client.close();
    }
  });

  it("two real processes started at the same moment: exactly one claims the day and queues the mail", async () => {
    await morning();
    const script = [
      'const { runPitchSummary } = await import("./app/modules/pitch-summary/summary.server.ts");',
      'const { getDb } = await import("./app/modules/db/connection.server.ts");',
      "console.log(JSON.stringify(runPitchSummary(getDb(), new Date(process.argv[1]))));",
    ].join("\n");
    const run = () =>
      promisify(execFile)(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script, EIGHT.toISOString()], {
        env: { ...process.env, DATABASE_PATH: getEnv().DATABASE_PATH, LOG_LEVEL: "silent" },
      });
    const answers = await Promise.all([run(), run()]);
    const runs = answers.map((a) => JSON.parse(a.stdout) as { claimed: boolean; queued: boolean });
    expect(runs.map((r) => r.claimed).sort()).toEqual([false, true]);
    expect(runs.map((r) => r.queued).sort()).toEqual([false, true]);
    expect(summaries()).toHaveLength(1);
  }, 30_000);
});
