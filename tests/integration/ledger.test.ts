import { eq, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { noticeFor } from "~/modules/capital-account/capital-account.server";
import { getDb } from "~/modules/db/connection.server";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { loader as capitalAccountApi } from "~/routes/api/lp-capital-account";
import { action as paymentsApi } from "~/routes/api/call-payments";
import { action as commitmentsApi } from "~/routes/api/commitments";
import { action as entitiesApi } from "~/routes/api/entities";
import { action as draftApi } from "~/routes/api/ledger-entries";
import { action as deleteApi, loader as entryApi } from "~/routes/api/ledger-entry";
import { action as publishApi } from "~/routes/api/ledger-publish";
import { action as valuationsApi } from "~/routes/api/valuations";
import { emailOutbox } from "../../db/schema";
import { apiRequest, callRouteWith, insertAdmin, insertUser, sessionCookieFor } from "../helpers/users";

/**
 * The fund ledger and the capital account (issue 24 §4–8) through the JSON
 * endpoints, against a real SQLite file: drafts split to the cent, publishing
 * numbers the entry and mails every member once, payments up to what is due,
 * valuations per row, and what an investor reads of it.
 */

let admin: LpUser;
let olivia: LpUser;
let victor: LpUser;
let outsider: LpUser;
const cookies = { admin: "", olivia: "", victor: "", outsider: "" };
const ids = { atlas: "", brunner: "", keller: "" };

type Json = Record<string, unknown> & { fields?: Record<string, string[]> };
const body = async (response: Response) => (await response.json()) as Json;
const post = (fn: unknown, path: string, json: unknown, params: Record<string, string> = {}) =>
  callRouteWith(fn as never, apiRequest("POST", path, { cookie: cookies.admin, json }), { params });

async function entity(name: string, members: { userId: string; role: string }[]) {
  const response = await post(entitiesApi, "/api/entities", { name, kind: "company", members });
  expect(response.status).toBe(201);
  return (await body(response)).id as string;
}

async function commit(entityId: string, amount: string, acceptedOn: string, fund = "fund-ii") {
  const response = await post(commitmentsApi, "/api/commitments", { entityId, fund, amount, acceptedOn });
  expect(response.status, JSON.stringify(await response.clone().json())).toBe(201);
}

const draftCall = (json: unknown) => post(draftApi, "/api/capital-calls", json);
const draftDistribution = (json: unknown) => post(draftApi, "/api/distributions", json);
const publish = (kind: "capital-calls" | "distributions", id: string) => post(publishApi, `/api/${kind}/${id}/publish`, undefined, { id });
const pay = (id: string, json: unknown) => post(paymentsApi, `/api/capital-calls/${id}/payments`, json, { id });
const readCall = async (id: string) => body(await callRouteWith(entryApi as never, apiRequest("GET", `/api/capital-calls/${id}`, { cookie: cookies.admin }), { params: { id } }));
const capitalAccount = async (cookie: string) => body(await callRouteWith(capitalAccountApi as never, apiRequest("GET", "/api/lp/capital-account", { cookie })));

beforeAll(async () => {
  admin = await insertAdmin();
  olivia = await insertUser({ status: "approved", name: "Olivia Owner" });
  victor = await insertUser({ status: "approved", name: "Victor Viewer" });
  outsider = await insertUser({ status: "approved", name: "Otto Outsider" });
  cookies.admin = await sessionCookieFor(admin);
  cookies.olivia = await sessionCookieFor(olivia);
  cookies.victor = await sessionCookieFor(victor);
  cookies.outsider = await sessionCookieFor(outsider);
  ids.atlas = await entity("Atlas Holdings AG", [
    { userId: olivia.id, role: "owner" },
    { userId: victor.id, role: "viewer" },
  ]);
  ids.brunner = await entity("Brunner Ventures GmbH", [{ userId: outsider.id, role: "owner" }]);
  ids.keller = await entity("Keller Pension Fund", [{ userId: outsider.id, role: "owner" }]);
  // 3 : 1 : 2 in Fund II, accepted in 2024; Keller only from 2025.
  await commit(ids.atlas, "3000000.00", "2024-01-15");
  await commit(ids.brunner, "1000000.00", "2024-01-15");
  await commit(ids.keller, "2000000.00", "2025-01-15");
});

function mailsAbout(fragment: string) {
  return getDb().select().from(emailOutbox).where(like(emailOutbox.subject, `%${fragment}%`)).all();
}

describe("a capital call", () => {
  it("is drafted with each line split over the commitments in force on the notice date, to the cent", async () => {
    const response = await draftCall({
      fund: "fund-ii",
      noticeDate: "2024-03-01",
      dueDate: "2024-03-08",
      lines: [
        { type: "investment", amount: "1000000.00", description: "Qubitline seed" },
        { type: "management_fee", amount: "100.01" },
      ],
    });
    expect(response.status).toBe(201);
    const draft = await body(response);
    expect(draft).toMatchObject({ status: "draft", kind: "call", fund: "fund-ii", total: "1000100.01", number: null, warnings: ["short_notice"] });
    // Keller's commitment starts in 2025: not in force on 2024-03-01.
    const allocations = draft.allocations as { entityId: string; amount: string; lines: { type: string; amount: string }[] }[];
    expect(Object.fromEntries(allocations.map((a) => [a.entityId, a.lines.map((l) => l.amount)]))).toEqual({
      [ids.atlas]: ["750000.00", "75.01"],
      [ids.brunner]: ["250000.00", "25.00"],
    });
  });

  it("refuses a fund with no commitments in force, a due date before the notice, bad lines (400)", async () => {
    const refused = async (json: Record<string, unknown>) => {
      const response = await draftCall({ fund: "fund-ii", noticeDate: "2024-03-01", dueDate: "2024-03-29", lines: [{ type: "investment", amount: "10.00" }], ...json });
      expect(response.status).toBe(400);
      return Object.keys((await body(response)).fields ?? {});
    };
    expect(await refused({ noticeDate: "2023-12-01", dueDate: "2023-12-29" })).toEqual(["fund"]);
    expect(await refused({ fund: "fund-i" })).toEqual(["fund"]);
    expect(await refused({ dueDate: "2024-02-01" })).toEqual(["dueDate"]);
    expect(await refused({ lines: [{ type: "carry", amount: "10.00" }] })).toEqual(["lines.0.type"]);
    expect(await refused({ lines: [{ type: "investment", amount: 10 }] })).toEqual(["lines.0.amount"]);
    expect(await refused({ lines: [] })).toEqual(["lines"]);
  });

  it("is published once: numbered, mailed to every member of each entity, and a second publish changes and sends nothing", async () => {
    const draft = await body(await draftCall({ fund: "fund-ii", noticeDate: "2024-04-02", dueDate: "2024-04-30", lines: [{ type: "investment", amount: "400000.00" }] }));
    const id = draft.id as string;
    const first = await publish("capital-calls", id);
    expect(first.status).toBe(200);
    expect(await body(first)).toEqual({ status: "published" });
    const call = await readCall(id);
    expect(call).toMatchObject({ status: "published", number: expect.any(Number), reference: `Call ${call.number as number}` });
    const mails = mailsAbout(call.reference as string);
    // Atlas has an owner and a viewer, Brunner one owner: three mails.
    expect(mails.map((m) => m.to).sort()).toEqual([olivia.email, victor.email, outsider.email].sort());
    const olivias = mails.find((m) => m.to === olivia.email)!;
    expect(olivias.text).toContain("$300,000.00");
    expect(olivias.text).toContain("/lp/notices/");
    expect(olivias.text).not.toMatch(/IBAN|SWIFT|account number/i);
    expect((await publish("capital-calls", id)).status).toBe(200);
    expect(mailsAbout(call.reference as string)).toHaveLength(3);
    // A published call is never deleted.
    const deleted = await callRouteWith(deleteApi as never, apiRequest("DELETE", `/api/capital-calls/${id}`, { cookie: cookies.admin }), { params: { id } });
    expect(deleted.status).toBe(409);
  });

  it("takes payments per entity up to what is due, and says who has paid", async () => {
    const draft = await body(await draftCall({ fund: "fund-ii", noticeDate: "2024-05-02", dueDate: "2024-05-31", lines: [{ type: "investment", amount: "200000.00" }] }));
    const id = draft.id as string;
    expect((await pay(id, { entityId: ids.atlas, amount: "1.00", receivedOn: "2024-05-10" })).status).toBe(409);
    await publish("capital-calls", id);
    const over = await pay(id, { entityId: ids.atlas, amount: "150000.01", receivedOn: "2024-05-10" });
    expect(over.status).toBe(400);
    expect(Object.keys((await body(over)).fields ?? {})).toEqual(["amount"]);
    expect((await pay(id, { entityId: ids.keller, amount: "1.00", receivedOn: "2024-05-10" })).status).toBe(400);
    const early = await pay(id, { entityId: ids.atlas, amount: "1.00", receivedOn: "2024-05-01" });
    expect(Object.keys((await body(early)).fields ?? {})).toEqual(["receivedOn"]);
    // A correction corrects an entry of its own kind.
    const crossKind = await draftDistribution({ fund: "fund-ii", paymentDate: "2024-06-30", lines: [{ type: "income", amount: "1.00" }], correctionOf: id });
    expect(Object.keys((await body(crossKind)).fields ?? {})).toEqual(["correctionOf"]);
    const part = await pay(id, { entityId: ids.atlas, amount: "100000.00", receivedOn: "2024-05-10" });
    expect(part.status).toBe(201);
    expect(await body(part)).toMatchObject({ amount: "100000.00", outstanding: "50000.00" });
    const call = await readCall(id);
    const states = Object.fromEntries((call.entities as { entityId: string; state: string; outstanding: string }[]).map((e) => [e.entityId, [e.state, e.outstanding]]));
    // The clock is today (2026): past the due date, so what is unpaid is overdue.
    expect(states).toEqual({ [ids.atlas]: ["overdue", "50000.00"], [ids.brunner]: ["overdue", "50000.00"] });
    expect((await pay(id, { entityId: ids.atlas, amount: "50000.00", receivedOn: "2024-05-20" })).status).toBe(201);
    expect(((await readCall(id)).entities as { entityId: string; state: string }[]).find((e) => e.entityId === ids.atlas)?.state).toBe("paid");
  });
});

describe("distributions, valuations and the investor's capital account", () => {
  it("a recallable return of capital adds back to unfunded; the NAV brings the multiples and the IRR", async () => {
    const refused = await draftDistribution({ fund: "fund-ii", paymentDate: "2025-06-30", lines: [{ type: "income", amount: "10.00", recallable: true }] });
    expect(Object.keys((await body(refused)).fields ?? {})).toEqual(["lines.0.recallable"]);
    const draft = await body(
      await draftDistribution({
        fund: "fund-ii",
        paymentDate: "2025-06-30",
        lines: [
          { type: "return_of_capital", amount: "60000.00", recallable: true },
          { type: "realized_gain", amount: "120000.00" },
        ],
      }),
    );
    expect((await publish("distributions", draft.id as string)).status).toBe(200);

    const badRows = await post(valuationsApi, "/api/valuations", {
      fund: "fund-ii",
      date: "2025-12-31",
      values: [
        { entityId: ids.atlas, nav: "x" },
        { entityId: "no-such-entity", nav: "10.00" },
      ],
    });
    expect(badRows.status).toBe(400);
    expect(Object.keys((await body(badRows)).fields ?? {}).sort()).toEqual(["values.0.nav", "values.1.entityId"]);
    const imported = await post(valuationsApi, "/api/valuations", {
      fund: "fund-ii",
      date: "2025-12-31",
      values: [
        { entityId: ids.atlas, nav: "700000.00" },
        { entityId: ids.brunner, nav: "200000.00" },
        { entityId: ids.keller, nav: "0.00" },
      ],
    });
    expect(imported.status).toBe(201);

    const account = await capitalAccount(cookies.victor);
    const entities = account.entities as { id: string; role: string; funds: Record<string, unknown>[] }[];
    expect(entities.map((e) => [e.id, e.role])).toEqual([[ids.atlas, "viewer"]]);
    const fund = entities[0]!.funds[0]!;
    // Atlas: 3/4 of each 2024 call (750,000.00 + 75.01 + 300,000 + 150,000); 3/6 of the 2025 distribution (Keller joined).
    expect(fund).toMatchObject({
      fund: { slug: "fund-ii", name: "Deeptech Fund II", currency: "USD" },
      commitment: "3000000.00",
      distributed: "90000.00",
      nav: "700000.00",
      navDate: "2025-12-31",
      asOf: "2025-12-31",
    });
    const called = Number(fund.called);
    expect(fund.called).toBe("450000.00");
    // Only the calls published count: the first draft (750,075.01) never was.
    expect(called).toBe(450000);
    expect(fund.paidIn).toBe("150000.00");
    expect(fund.outstanding).toBe("300000.00");
    // 3,000,000 − 450,000 + 30,000 recallable.
    expect(fund.unfunded).toBe("2580000.00");
    expect(fund.dpi).toBe(0.6);
    expect(fund.rvpi).toBe(4.6667);
    expect(fund.tvpi).toBe(5.2667);
    expect(typeof fund.irr).toBe("number");
    const flows = fund.flows as { kind: string; type: string | null; reference: string | null }[];
    expect(flows.map((f) => f.kind)).toEqual(expect.arrayContaining(["call", "payment", "distribution", "valuation"]));
    expect(Object.keys(flows[0]!).sort()).toEqual(["amount", "date", "kind", "reference", "type"]);

    expect(await capitalAccount(cookies.outsider)).toMatchObject({ entities: [{ name: "Brunner Ventures GmbH" }, { name: "Keller Pension Fund" }] });
  });

  it("a notice is read only by members of the entities it concerns; anyone else gets nothing", async () => {
    const draft = await body(await draftCall({ fund: "fund-ii", noticeDate: "2024-06-03", dueDate: "2024-06-28", lines: [{ type: "fund_expenses", amount: "4000.00" }] }));
    const id = draft.id as string;
    expect(noticeFor(olivia, id)).toBeNull();
    await publish("capital-calls", id);
    expect(noticeFor(olivia, id)?.shares.map((s) => [s.entityName, s.amount])).toEqual([["Atlas Holdings AG", "3000.00"]]);
    const stranger = await insertUser({ status: "approved" });
    expect(noticeFor(stranger, id)).toBeNull();
    expect(noticeFor(olivia, "no-such-notice")).toBeNull();
    expect(getDb().select().from(emailOutbox).where(eq(emailOutbox.to, stranger.email)).all()).toEqual([]);
  });
});
