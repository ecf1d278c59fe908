/**
 * pitch-summary: the daily pitch summary (issue 16) under two processes of the
 * production build on one database, with real mail.
 *
 * - The database is made and seeded before any server runs: unanswered pitches
 *   due today and overdue, an answered one, one due later.
 * - Two servers start at the same moment on that database (one data folder,
 *   one DATABASE_PATH) with PITCH_SUMMARY_HOUR=0, so today's summary is due
 *   whatever the time of the run; each checks at start.
 * - Exactly one summary reaches FIRM_INBOX (the SMTP catcher), one outbox row,
 *   one scheduled_runs claim for today's Zurich day, one server logs the run.
 * - Both servers restarted at once (SIGTERM, then start), then one killed -9
 *   and started again: still exactly one summary.
 * - The mail lists the due-today and overdue pitches with their admin links,
 *   and not the answered one nor the one due later. No crash.
 *
 * The rest (08:00 across daylight saving, the late send after downtime, a day
 * with nothing due) is in tests/unit/pitch-summary-schedule.test.ts and
 * tests/integration/pitch-summary.test.ts.
 */
import fs from "node:fs";
import path from "node:path";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { openDatabase as openAppDatabase } from "../db/client";
import { addCalendarDays, endOfFirmDay, firmDay } from "../app/modules/pitch-clock/clock.server";
import { ROOT, sleep, startMailCatcher, startServer, Tally, unique, type AppServer, type Section } from "./harness";
import { dbValue } from "./web-helpers";

const INBOX = "pitch-summary-inbox@lumenridge.example";
const APP_URL = "http://portal.lumenridge.example";
/** How long after both servers answer any second summary would have had to arrive (the mailer sends at once). */
const SETTLE_MS = 3_000;

type Seeded = { id: string; company: string };

/** Create the database as the server would (migrations) and seed the pitches; returns the ones the summary must list. */
function seed(dbPath: string, now: Date) {
  const db = openAppDatabase(dbPath);
  try {
    migrate(db, { migrationsFolder: path.join(ROOT, "db/migrations") });
    const today = firmDay(now);
    const insert = db.$client.prepare(
      `insert into pitch_submissions (id, name, email, company, stage, message, created_at, status, due_at, answered_at)
       values (?, ?, ?, ?, 'Seed', 'A pitch.', ?, 'new', ?, ?)`,
    );
    const tag = unique();
    const add = (company: string, dueDay: string, answeredAt: number | null = null): Seeded => {
      const id = crypto.randomUUID();
      insert.run(id, `Founder of ${company}`, `founder-${tag}-${id.slice(0, 8)}@startup.example`, company, now.getTime() - 10 * 86_400_000, endOfFirmDay(dueDay).getTime(), answeredAt);
      return { id, company };
    };
    const listed = {
      dueToday: add(`Due Today ${tag}`, today),
      overdue: [add(`Three Days Late ${tag}`, addCalendarDays(today, -3)), add(`One Day Late ${tag}`, addCalendarDays(today, -1))],
    };
    const unlisted = [add(`Answered ${tag}`, addCalendarDays(today, -2), now.getTime() - 86_400_000), add(`Due Later ${tag}`, addCalendarDays(today, 7))];
    return { today, listed, unlisted };
  } finally {
    db.$client.close();
  }
}

export const section: Section = {
  name: "pitch-summary",
  run: async (ctx) => {
    const t = new Tally();
    const mail = await startMailCatcher(ctx);
    const dataDir = fs.mkdtempSync(path.join(ctx.tmpRoot, "pitch-summary-"));
    const { today, listed, unlisted } = seed(path.join(dataDir, "data.sqlite"), new Date());
    const key = `pitch-summary:${today}`;
    const env = { SMTP_URL: mail.smtpUrl, FIRM_INBOX: INBOX, APP_URL, PITCH_SUMMARY_HOUR: "0" };
    const servers: AppServer[] = [];
    try {
      ctx.progress(`two servers on one database, summary ${key} due`);
      servers.push(
        ...(await Promise.all([
          startServer(ctx, { name: "pitch-summary-a", env, dataDir }),
          startServer(ctx, { name: "pitch-summary-b", env, dataDir }),
        ])),
      );
      const [a, b] = servers as [AppServer, AppServer];
      const summaries = () => mail.mails.filter((m) => m.envelopeTo.includes(INBOX) && m.subject.startsWith("Pitches to answer"));
      const outboxRows = () => dbValue<number>(a, "select count(*) from email_outbox where \"to\" = ?", INBOX) ?? 0;
      const logged = () => servers.reduce((sum, s) => sum + s.logLines().filter((line) => line.includes(`Daily pitch summary ${key}`)).length, 0);

      let first;
      try {
        first = await mail.waitFor((m) => m.envelopeTo.includes(INBOX));
      } catch (error) {
        t.check("a summary reaches the firm's inbox", false, (error as Error).message);
        return t.result();
      }
      await sleep(SETTLE_MS);
      t.count("summaries caught after a simultaneous start", summaries().length, 1);
      t.count("outbox rows to FIRM_INBOX", outboxRows(), 1);
      t.count("scheduled_runs claims of today", dbValue<number>(a, "select count(*) from scheduled_runs where key = ? and finished_at is not null", key) ?? 0, 1);
      t.count("servers that logged the run", logged(), 1);

      const text = first.text;
      const links = (p: Seeded) => text.includes(`${APP_URL}/admin/pitches/${p.id}`) && text.includes(p.company);
      t.check("subject counts 1 due today and 2 overdue", first.subject === "Pitches to answer: 1 due today, 2 overdue", first.subject);
      t.check("due-today section lists its pitch with its admin link", text.includes("Due today (1):") && links(listed.dueToday), text.slice(0, 400));
      t.check("overdue section lists both with links, most overdue first", text.includes("Overdue (2):") && listed.overdue.every(links) && text.indexOf(listed.overdue[0]!.company) < text.indexOf(listed.overdue[1]!.company), text);
      t.check("answered and later pitches are not listed", unlisted.every((p) => !text.includes(p.company)), text);

      ctx.progress("both restarted at once");
      await Promise.all([a.stop(), b.stop()]);
      await Promise.all([a.start(), b.start()]);
      ctx.progress("one killed -9 and started again");
      await b.kill9();
      await b.start();
      await sleep(SETTLE_MS);
      t.count("summaries caught after restarts", summaries().length, 1);
      t.count("outbox rows to FIRM_INBOX after restarts", outboxRows(), 1);
      t.count("unexpected exits", a.unexpectedExits() + b.unexpectedExits(), 0);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      await mail.stop();
    }
    return t.result();
  },
};
