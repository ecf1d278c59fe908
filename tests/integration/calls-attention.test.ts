import { beforeAll, describe, expect, it } from "vitest";
import { now } from "~/modules/config/clock.server";
import { callsNeedingAttention } from "~/modules/fund-overview/calls-attention.server";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { addCalendarDays, firmDay } from "~/modules/pitch-clock/clock.server";
import { loader as overviewLoader } from "~/routes/admin/overview";
import { action as paymentsApi } from "~/routes/api/call-payments";
import { action as commitmentsApi } from "~/routes/api/commitments";
import { action as entitiesApi } from "~/routes/api/entities";
import { action as draftApi } from "~/routes/api/ledger-entries";
import { action as publishApi } from "~/routes/api/ledger-publish";
import { apiRequest, callRouteWith, insertAdmin, insertUser, sessionCookieFor } from "../helpers/users";

/**
 * The admin overview's capital calls (issue 24 §9): the published calls due in
 * the next 7 days that are not paid in full, and each entity's overdue part of
 * a call past its due date. Dated from today on the firm's calendar, so the
 * figures hold whatever day the suite runs.
 */
describe("calls needing attention", () => {
  let admin: LpUser;
  let adminCookie = "";
  const today = firmDay(now());
  const ids = { soon: "", overdue: "", paid: "", later: "", draft: "" };
  const names = { owing: `Owing Trust ${Date.now()}`, payer: `Payer Trust ${Date.now()}` };

  beforeAll(async () => {
    admin = await insertAdmin();
    adminCookie = await sessionCookieFor(admin);
    const post = async (fn: unknown, path: string, json: unknown, params: Record<string, string> = {}) => {
      const response = await callRouteWith(fn as never, apiRequest("POST", path, { cookie: adminCookie, json }), { params });
      expect(response.status, `${path}: ${await response.clone().text()}`).toBeLessThan(300);
      return (await response.json()) as { id: string };
    };
    const owner = await insertUser({ status: "approved" });
    const payer = await insertUser({ status: "approved" });
    const owing = await post(entitiesApi, "/api/entities", { name: names.owing, kind: "trust", members: [{ userId: owner.id, role: "owner" }] });
    const paying = await post(entitiesApi, "/api/entities", { name: names.payer, kind: "company", members: [{ userId: payer.id, role: "owner" }] });
    const acceptedOn = addCalendarDays(today, -400);
    await post(commitmentsApi, "/api/commitments", { entityId: owing.id, fund: "fund-ii", amount: "300000.00", acceptedOn });
    await post(commitmentsApi, "/api/commitments", { entityId: paying.id, fund: "fund-ii", amount: "100000.00", acceptedOn });
    const call = async (noticeDays: number, dueDays: number, publish = true) => {
      const created = await post(draftApi, "/api/capital-calls", {
        fund: "fund-ii",
        noticeDate: addCalendarDays(today, noticeDays),
        dueDate: addCalendarDays(today, dueDays),
        lines: [{ type: "investment", amount: "40000.00" }],
      });
      if (publish) await post(publishApi, `/api/capital-calls/${created.id}/publish`, undefined, { id: created.id });
      return created.id;
    };
    const pay = (id: string, entityId: string, amount: string) =>
      post(paymentsApi, `/api/capital-calls/${id}/payments`, { entityId, amount, receivedOn: today }, { id });
    ids.overdue = await call(-30, -3); // 30,000.00 and 10,000.00 due three days ago
    await pay(ids.overdue, paying.id, "10000.00"); // the payer is square, the owner owes all of it
    ids.paid = await call(-30, -2);
    await pay(ids.paid, owing.id, "30000.00");
    await pay(ids.paid, paying.id, "10000.00");
    ids.soon = await call(-10, 6); // the last day of the 7
    await pay(ids.soon, owing.id, "5000.00");
    ids.later = await call(-10, 7); // one day beyond
    ids.draft = await call(-10, 2, false);
  });

  it("lists the open calls due in the next 7 days and each entity's overdue part, and nothing paid, later or drafted", () => {
    const { dueSoon, overdue } = callsNeedingAttention(today);
    const soon = dueSoon.filter((c) => Object.values(ids).includes(c.id));
    expect(soon.map((c) => [c.id, c.dueDate, c.outstanding, c.entitiesOwing])).toEqual([[ids.soon, addCalendarDays(today, 6), 3_500_000n, 2]]);
    const late = overdue.filter((o) => Object.values(ids).includes(o.callId));
    expect(late.map((o) => [o.callId, o.entityName, o.outstanding])).toEqual([[ids.overdue, names.owing, 3_000_000n]]);
  });

  it("the overview shows them, with amounts in the fund's currency and links to the calls", async () => {
    const response = (await callRouteWith(overviewLoader as never, apiRequest("GET", "/admin/dashboard", { cookie: adminCookie }))) as unknown as {
      calls: { dueSoon: Array<{ to: string; owing: string; due: string }>; overdue: Array<{ to: string; owing: string }> };
    };
    const soon = response.calls.dueSoon.find((c) => c.to.endsWith(ids.soon));
    expect(soon?.owing).toBe("$35,000.00 outstanding from 2 entities");
    expect(response.calls.overdue.find((o) => o.to.endsWith(ids.overdue))?.owing).toBe(`${names.owing} owes $30,000.00`);
    expect(response.calls.dueSoon.some((c) => c.to.endsWith(ids.later) || c.to.endsWith(ids.draft))).toBe(false);
  });
});
