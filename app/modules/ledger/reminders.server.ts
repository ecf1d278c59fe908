import { and, eq, inArray } from "drizzle-orm";
import { ledgerReference, ledgerReminderMails } from "~/content/capital";
import { getDb, type Db } from "~/modules/db/connection.server";
import { callReminders, entityMembers, ledgerEntries, lpUsers } from "../../../db/schema";
import { formatDecimal, toDecimalString } from "../capital/money";
import { now } from "../config/clock.server";
import { getEnv } from "../config/env.server";
import { FIRM_TIME_ZONE } from "../dates/format";
import { listFunds } from "../funds/funds.server";
import { repeatEvery } from "../jobs/repeat.server";
import { log } from "../logging/log.server";
import { kickMailer, queueMails } from "../mail/mail.server";
import { addBusinessDays, firmDay, isBusinessDay } from "../pitch-clock/clock.server";
import { callBalances } from "./ledger.server";

/**
 * A capital call's reminders (issue 24 §4): an entity that has not paid in
 * full gets a reminder 3 business days before the due date, and an overdue
 * notice on the business day after it, each once (call_reminders), from 08:00
 * Zurich time on that day, on the calendar of decision 027. Only on that very
 * day: a call published with dates already past sends nothing for the days
 * that have gone. The mails go to every member, whatever their
 * document-mail preference, and carry no bank details.
 */

/** Business days before the due date that the reminder goes. */
export const REMINDER_BUSINESS_DAYS = 3;
/** The hour (Zurich) from which a day's reminders go. */
export const REMINDER_HOUR = 8;

/** The business day `n` business days before `day`. */
function businessDaysBefore(day: string, n: number): string {
  let current = day;
  for (let left = n; left > 0; ) {
    const [y, m, d] = current.split("-").map(Number) as [number, number, number];
    current = new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10);
    if (isBusinessDay(current)) left--;
  }
  return current;
}

/** The reminder's day and the overdue notice's day of a call due on `dueDate`. */
export function reminderDays(dueDate: string): { reminder: string; overdue: string } {
  return { reminder: businessDaysBefore(dueDate, REMINDER_BUSINESS_DAYS), overdue: addBusinessDays(dueDate, 1) };
}

function zurichHour(at: Date): number {
  return Number(new Intl.DateTimeFormat("en-GB", { hour: "2-digit", hourCycle: "h23", timeZone: FIRM_TIME_ZONE }).format(at));
}

/** Queue today's reminders and overdue notices that have not gone yet; returns how many mails. */
export function sendCallReminders(db: Db = getDb(), at: Date = now()): number {
  if (zurichHour(at) < REMINDER_HOUR) return 0;
  const today = firmDay(at);
  const calls = db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.kind, "call"), eq(ledgerEntries.status, "published")))
    .all()
    .flatMap((call) => {
      if (!call.dueDate) return [];
      const days = reminderDays(call.dueDate);
      const kind: "reminder" | "overdue" | null = days.reminder === today ? "reminder" : days.overdue === today ? "overdue" : null;
      return kind ? [{ call, kind }] : [];
    });
  if (!calls.length) return 0;
  const funds = new Map(listFunds(db).map((f) => [f.id, f]));
  let queued = 0;
  for (const { call, kind } of calls) {
    const fund = funds.get(call.fundId)!;
    const unpaid = callBalances(call.id, db).filter((b) => b.outstanding > 0n);
    if (!unpaid.length) continue;
    db.transaction((tx) => {
      const sent = new Set(
        tx
          .select({ entityId: callReminders.entityId })
          .from(callReminders)
          .where(and(eq(callReminders.entryId, call.id), eq(callReminders.kind, kind)))
          .all()
          .map((r) => r.entityId),
      );
      const due = unpaid.filter((b) => !sent.has(b.entityId));
      if (!due.length) return;
      const members = tx
        .select({ entityId: entityMembers.entityId, email: lpUsers.email, name: lpUsers.name })
        .from(entityMembers)
        .innerJoin(lpUsers, eq(lpUsers.id, entityMembers.userId))
        .where(
          and(
            inArray(
              entityMembers.entityId,
              due.map((b) => b.entityId),
            ),
            eq(lpUsers.status, "approved"),
          ),
        )
        .all();
      const outstanding = new Map(due.map((b) => [b.entityId, formatDecimal(toDecimalString(b.outstanding, fund.currency), fund.currency)]));
      const mails = members.map((member) => ({
        to: member.email,
        ...ledgerReminderMails.reminder({
          kind,
          fundName: fund.name,
          reference: ledgerReference("call", call.number ?? 0),
          name: member.name,
          outstanding: outstanding.get(member.entityId)!,
          dueDate: call.dueDate!,
          url: `${getEnv().APP_URL}/lp/notices/${call.id}`,
        }),
      }));
      queueMails(tx, mails);
      tx.insert(callReminders)
        .values(due.map((b) => ({ entryId: call.id, entityId: b.entityId, kind, sentAt: at })))
        .run();
      queued += mails.length;
    });
  }
  return queued;
}

const CHECK_EVERY_MS = 15 * 60 * 1000;

/** Check at start and every 15 minutes for the day's call reminders. Returns the stop function. */
export function startCallReminders(intervalMs = CHECK_EVERY_MS): () => void {
  return repeatEvery(intervalMs, "capital call reminders failed", () => {
    const queued = sendCallReminders();
    if (!queued) return;
    log("info", `Capital call reminders: ${queued} mails queued`, { queued });
    kickMailer();
  });
}
