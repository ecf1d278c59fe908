import { like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/modules/db/connection.server";
import { reminderDays, sendCallReminders } from "~/modules/ledger/reminders.server";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { action as paymentsApi } from "~/routes/api/call-payments";
import { action as commitmentsApi } from "~/routes/api/commitments";
import { action as entitiesApi } from "~/routes/api/entities";
import { action as draftApi } from "~/routes/api/ledger-entries";
import { action as publishApi } from "~/routes/api/ledger-publish";
import { emailOutbox } from "../../db/schema";
import { apiRequest, callRouteWith, insertAdmin, insertUser, sessionCookieFor } from "../helpers/users";

/**
 * A capital call's reminders (issue 24 §4): 3 business days before the due
 * date and the business day after it, from 08:00 Zurich time, once per
 * entity that has not paid in full, only on that day, on decision 027's
 * calendar (weekends and Zurich's public holidays are not business days).
 */

describe("the reminder days", () => {
  it("count business days back from the due date and forward to the overdue notice", () => {
    // Due Friday 13 March 2026: the reminder goes on Tuesday 10th, the overdue notice on Monday 16th.
    expect(reminderDays("2026-03-13")).toEqual({ reminder: "2026-03-10", overdue: "2026-03-16" });
    // Due Tuesday 7 April 2026, after Good Friday (3rd) and Easter Monday (6th): Thursday 2nd, Wednesday 1st, Tuesday 31 March.
    expect(reminderDays("2026-04-07")).toEqual({ reminder: "2026-03-31", overdue: "2026-04-08" });
    // Due on Thursday 24 December 2026: the overdue notice waits until the firm opens again after New Year (decision 027).
    expect(reminderDays("2026-12-24").overdue).toBe("2027-01-04");
  });
});

describe("sending them", () => {
  let admin: LpUser;
  let owner: LpUser;
  let payer: LpUser;
  let adminCookie = "";
  let callId = "";
  /** The reminders and overdue notices queued so far ("…: Call 1 is due on …", "…: Call 1 is overdue"). */
  const subjects = () =>
    getDb()
      .select()
      .from(emailOutbox)
      .where(like(emailOutbox.subject, "%: Call % is %"))
      .all();

  beforeAll(async () => {
    admin = await insertAdmin();
    owner = await insertUser({ status: "approved", name: "Unpaid Owner" });
    payer = await insertUser({ status: "approved", name: "Paid Owner" });
    adminCookie = await sessionCookieFor(admin);
    const post = async (fn: unknown, path: string, json: unknown, params: Record<string, string> = {}) =>
      (await callRouteWith(fn as never, apiRequest("POST", path, { cookie: adminCookie, json }), { params })).json() as Promise<{ id: string }>;
    const unpaid = await post(entitiesApi, "/api/entities", { name: "Unpaid Trust", kind: "trust", members: [{ userId: owner.id, role: "owner" }] });
    const paid = await post(entitiesApi, "/api/entities", { name: "Paid Trust", kind: "trust", members: [{ userId: payer.id, role: "owner" }] });
    await post(commitmentsApi, "/api/commitments", { entityId: unpaid.id, fund: "fund-i", amount: "100000.00", acceptedOn: "2026-01-05" });
    await post(commitmentsApi, "/api/commitments", { entityId: paid.id, fund: "fund-i", amount: "100000.00", acceptedOn: "2026-01-05" });
    const call = await post(draftApi, "/api/capital-calls", { fund: "fund-i", noticeDate: "2026-02-27", dueDate: "2026-03-13", lines: [{ type: "investment", amount: "20000.00" }] });
    callId = call.id;
    await post(publishApi, `/api/capital-calls/${callId}/publish`, undefined, { id: callId });
    await post(paymentsApi, `/api/capital-calls/${callId}/payments`, { entityId: paid.id, amount: "10000.00", receivedOn: "2026-03-02" }, { id: callId });
  });

  it("go from 08:00 Zurich on the day, once, to the members of entities still owing", () => {
    // 10 March 2026 07:59 in Zurich (UTC+1): not yet.
    expect(sendCallReminders(getDb(), new Date("2026-03-10T06:59:00Z"))).toBe(0);
    expect(sendCallReminders(getDb(), new Date("2026-03-10T07:00:00Z"))).toBe(1);
    expect(sendCallReminders(getDb(), new Date("2026-03-10T15:00:00Z"))).toBe(0);
    const mails = subjects().filter((m) => m.subject.includes("is due on"));
    expect(mails.map((m) => m.to)).toEqual([owner.email]);
    expect(mails[0]!.subject).toContain("is due on 2026-03-13");
    expect(mails[0]!.text).toContain("$10,000.00 is still outstanding");
  });

  it("the overdue notice goes the business day after, and nothing goes on the days in between", () => {
    expect(sendCallReminders(getDb(), new Date("2026-03-13T09:00:00Z"))).toBe(0);
    expect(sendCallReminders(getDb(), new Date("2026-03-16T09:00:00Z"))).toBe(1);
    expect(sendCallReminders(getDb(), new Date("2026-03-17T09:00:00Z"))).toBe(0);
    expect(subjects().filter((m) => m.subject.includes("overdue")).map((m) => m.to)).toEqual([owner.email]);
  });
});
