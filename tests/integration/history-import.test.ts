import fs from "node:fs";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { capitalAccountFor } from "~/modules/capital-account/capital-account.server";
import { createCommitment } from "~/modules/commitments/commitments.server";
import { getDb } from "~/modules/db/connection.server";
import { createEntity } from "~/modules/entities/entities.server";
import { fundBySlug } from "~/modules/funds/funds.server";
import { HISTORY_PAGE_BODY_BYTES } from "~/modules/history-import/constants";
import { decodeHistoryFiles, importHistory, previewHistory, RefusedHistory, type HistoryPreview } from "~/modules/history-import/history.server";
import { now } from "~/modules/config/clock.server";
import { draftCall, publishEntry, readCall, readEntry } from "~/modules/ledger/ledger.server";
import { reminderDays, sendCallReminders } from "~/modules/ledger/reminders.server";
import { firmDay } from "~/modules/pitch-clock/clock.server";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { tieOutQuarter } from "~/modules/statements/tie-out.server";
import { action as importPage } from "~/routes/admin/fund-import";
import { bodyLimitFor, DEFAULT_BODY_LIMIT } from "../../server/app";
import { auditEvents, callPayments, callReminders, emailOutbox, ledgerEntries, pdfJobs, pnlRows, statementQuarters, valuations } from "../../db/schema";
import { expectData, expectRedirect } from "../helpers/http";
import { callRouteWith, insertAdmin, insertUser, ORIGIN, sessionCookieFor } from "../helpers/users";

/**
 * The history import (issue 25 §5) on /admin/funds/{slug}/import and its
 * domain module, against a real SQLite file: a small history (two entities,
 * a call of two types, payments in parts, a distribution with a recallable
 * return of capital, valuations, two quarters of P&L) imports through the
 * page's preview and confirm, and the capital account and the quarters'
 * tie-out read it; entity names must match one entity; a valuation imported
 * again replaces the saved one and the preview says so; a payment above the
 * share is a row error; one error writes nothing; no mail is queued.
 */

let admin: LpUser;
let owner: LpUser;
let cookie = "";
const ids = { atlas: "", keller: "", twinA: "", twinB: "", fundIOnly: "" };
const fundII = () => fundBySlug("fund-ii");
const db = () => getDb();
const countOf = (table: typeof emailOutbox | typeof ledgerEntries | typeof valuations | typeof callPayments | typeof pnlRows | typeof callReminders | typeof pdfJobs) =>
  db().select({ n: count() }).from(table).get()!.n;

beforeAll(async () => {
  admin = await insertAdmin();
  cookie = await sessionCookieFor(admin);
  owner = await insertUser({ status: "approved", name: "Olga Owner" });
  const entity = (name: string) => createEntity(admin, { name, kind: "company", members: [{ userId: owner.id, role: "owner" }] }).id;
  const commit = (entityId: string, fund: string) => createCommitment(admin, { entityId, fund, amount: "1000000.00", acceptedOn: "2023-01-10" });
  ids.atlas = entity("Atlas Holdings AG");
  ids.keller = entity("Keller, Brunner & Co");
  ids.twinA = entity("Twin Capital");
  ids.twinB = entity("twin  capital");
  ids.fundIOnly = entity("Fund One Only Ltd");
  for (const id of [ids.atlas, ids.keller, ids.twinA, ids.twinB]) commit(id, "fund-ii");
  commit(ids.fundIOnly, "fund-i");
  // A call the portal already published (Call 1 of Fund II, 10,000.00 to each of the four): history is numbered after it.
  const existing = draftCall(admin, { fund: "fund-ii", noticeDate: "2024-05-01", dueDate: "2024-05-20", lines: [{ type: "investment", amount: "40000.00" }] });
  publishEntry(admin, existing.id, "call");
});

const HEADER = "entity,event,date,due_date,reference,type,recallable,amount";
/** Two calls (listed out of date order), payments in parts, a distribution, and valuations at three quarter ends. */
const HISTORY = [
  HEADER,
  "Atlas Holdings AG,call,2023-06-01,2023-06-15,Call B,investment,,100000.00",
  `"Keller, Brunner & Co",call,2023-06-01,2023-06-15,Call B,investment,,50000.00`,
  "atlas holdings ag,call,2023-02-01,2023-02-15,Call A,investment,,200000.00",
  "Atlas Holdings AG,call,2023-02-01,2023-02-15,Call A,management_fee,,5000.00",
  `"Keller, Brunner & Co",call,2023-02-01,2023-02-15,Call A,investment,,100000.00`,
  `"KELLER,  Brunner & Co",call,2023-02-01,2023-02-15,call a,Management Fee,,2500.00`,
  "Atlas Holdings AG,payment,2023-02-14,,Call A,,,205000.00",
  `"Keller, Brunner & Co",payment,2023-02-20,,Call A,,,50000.00`,
  `"Keller, Brunner & Co",payment,2023-03-01,,Call A,,,52500.00`,
  "Atlas Holdings AG,payment,2023-06-14,,Call B,,,100000.00",
  `"Keller, Brunner & Co",payment,2023-06-30,,Call B,,,50000.00`,
  "Atlas Holdings AG,distribution,2023-11-20,,Dist 1,return_of_capital,yes,40000.00",
  "Atlas Holdings AG,distribution,2023-11-20,,Dist 1,realized_gain,,10000.00",
  `"Keller, Brunner & Co",distribution,2023-11-20,,Dist 1,return_of_capital,yes,20000.00`,
  "Atlas Holdings AG,valuation,2023-03-31,,,,,210000.00",
  `"Keller, Brunner & Co",valuation,2023-03-31,,,,,101000.00`,
  "Atlas Holdings AG,valuation,2023-06-30,,,,,320000.00",
  `"Keller, Brunner & Co",valuation,2023-06-30,,,,,150000.00`,
  "Atlas Holdings AG,valuation,2023-12-31,,,,,300000.00",
  `"Keller, Brunner & Co",valuation,2023-12-31,,,,,140000.00`,
].join("\r\n");
/** Two quarters' P&L that tie each quarter out: beginning NAV + contributions (by due date) + P&L = the valuation at its end. */
const PNL = [
  "\uFEFFentity,fund,quarter,management_fees,partnership_expenses,other_income,realized_gain,unrealized_gain_change,carried_interest_change",
  "Atlas Holdings AG,fund-ii,2023-Q1,-5000.00,-1000.00,0,0,11000.00,0",
  `"Keller, Brunner & Co",fund-ii,2023-Q1,-2500.00,-500.00,0,0,1500.00,0`,
  "Atlas Holdings AG,fund-ii,2023-Q2,0,0,0,0,10000.00,0",
  `"Keller, Brunner & Co",Deeptech Fund II,2023-Q2,-1000.00,0,0,0,0,0`,
].join("\n");

const page = "/admin/funds/fund-ii/import";
function upload(files: { history?: string; pnl?: string }, extra: Record<string, string> = {}) {
  const body = new FormData();
  body.append("intent", "history-import");
  body.append("step", "preview");
  for (const [name, value] of Object.entries(extra)) body.append(name, value);
  if (files.history !== undefined) body.append("history", new File([files.history], "history.csv", { type: "text/csv" }));
  if (files.pnl !== undefined) body.append("pnl", new File([files.pnl], "pnl.csv", { type: "text/csv" }));
  return callRouteWith(importPage as never, new Request(ORIGIN + page, { method: "POST", headers: { Cookie: cookie }, body }), { params: { slug: "fund-ii" } });
}
function confirm(fields: Record<string, string>) {
  const body = new URLSearchParams({ intent: "history-import", step: "confirm", ...fields });
  return callRouteWith(importPage as never, new Request(ORIGIN + page, { method: "POST", headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" }, body }), {
    params: { slug: "fund-ii" },
  });
}
type Answer = {
  status: string;
  fields?: Record<string, string[]>;
  names?: string;
  confirm?: { upload: string; hash: string; signature: string };
  preview?: {
    summary: string;
    ok: boolean;
    kinds: { key: string; rows: string; saves: string; total: string }[];
    errors: { line: string; file: string; column: string; message: string }[];
    replacements: { entity: string; date: string; current: string; imported: string }[];
    entries: { reference: string; becomes: string; date: string; due: string; entities: string; total: string }[];
    period: string | null;
  };
};
const incoming = () => {
  try {
    return fs.readdirSync(path.join(process.env.STORAGE_DIR!, "incoming")).filter((name) => name.startsWith("history-"));
  } catch {
    return [];
  }
};

/** The errors of a preview as `line column: message` (history file) or `pnl line column: message`. */
const errorsOf = (preview: HistoryPreview) => preview.errors.map((e) => `${e.file === "pnl" ? "pnl " : ""}${e.line} ${e.column ?? "-"}: ${e.message}`);

describe("a small history", () => {
  it("previews through the page (counts per event, the numbers, no error), imports on confirm without a mail, and the capital account and tie-out read it", async () => {
    const mailsBefore = countOf(emailOutbox);
    const entriesBefore = countOf(ledgerEntries);
    // (The portal's own Call 1 has its notices' PDF job.)
    const jobsBefore = countOf(pdfJobs);

    const previewed = expectData<Answer>(await upload({ history: HISTORY, pnl: PNL }));
    expect(previewed.status).toBe(200);
    const preview = previewed.data.preview!;
    expect(preview.ok).toBe(true);
    expect(preview.summary).toBe("24 rows read, no errors");
    expect(preview.period).toBe("From Feb 01, 2023 to Dec 31, 2023.");
    expect(preview.kinds.map((k) => [k.key, k.rows, k.saves, k.total])).toEqual([
      ["call", "6", "2 published calls (Call 2 to 3)", "$457,500.00"],
      ["payment", "5", "5 payments received", "$457,500.00"],
      ["distribution", "3", "1 published distribution (Distribution 1)", "$70,000.00"],
      ["valuation", "6", "6 NAVs", "—"],
      ["pnl", "4", "2 quarters", "—"],
    ]);
    // Numbered in date order after the fund's own Call 1, whatever the file's order.
    expect(preview.entries.map((e) => [e.becomes, e.reference, e.date, e.due, e.entities, e.total])).toEqual([
      ["Call 2", "Call A", "Feb 01, 2023", "Feb 15, 2023", "2", "$307,500.00"],
      ["Call 3", "Call B", "Jun 01, 2023", "Jun 15, 2023", "2", "$150,000.00"],
      ["Distribution 1", "Dist 1", "Nov 20, 2023", "—", "2", "$70,000.00"],
    ]);
    expect(previewed.data.names).toBe("history.csv + pnl.csv");
    // The files wait in storage for the confirm, which names them and their hash.
    expect(incoming()).toHaveLength(2);
    expect(countOf(ledgerEntries)).toBe(entriesBefore);

    // The pair confirms on its own fund's page only.
    const otherFund = expectData<Answer>(
      await callRouteWith(
        importPage as never,
        new Request(`${ORIGIN}/admin/funds/fund-i/import`, {
          method: "POST",
          headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ intent: "history-import", step: "confirm", ...previewed.data.confirm! }),
        }),
        { params: { slug: "fund-i" } },
      ),
    );
    expect([otherFund.status, otherFund.data.fields]).toEqual([400, { form: ["The files or the fund's records changed since the preview. Check the new preview before importing."] }]);

    const done = expectRedirect(await confirm({ ...previewed.data.confirm!, names: previewed.data.names! }));
    expect(done).toMatchObject({ status: 303, location: "/admin/funds/fund-ii" });
    expect(incoming()).toEqual([]);

    // No notice, reminder or document mail; no notice PDF job.
    expect(countOf(emailOutbox)).toBe(mailsBefore);
    expect(countOf(callReminders)).toBe(0);
    expect(countOf(pdfJobs)).toBe(jobsBefore);

    const [callA, callB, dist] = ["call", "call", "distribution"].map((kind, i) =>
      db()
        .select()
        .from(ledgerEntries)
        .where(eq(ledgerEntries.number, [2, 3, 1][i]!))
        .all()
        .find((e) => e.kind === kind)!,
    );
    expect([callA!.status, callA!.date, callA!.dueDate, callB!.date, dist!.date]).toEqual(["published", "2023-02-01", "2023-02-15", "2023-06-01", "2023-11-20"]);
    // A call's lines are the sums per type, its shares the rows' amounts as given; a payment in two parts pays it.
    expect(readEntry(callA!.id).lines).toEqual([
      { type: "investment", amount: "300000.00" },
      { type: "management_fee", amount: "7500.00" },
    ]);
    expect(readCall(callA!.id).entities.map((e) => [e.entityName, e.due, e.received, e.state])).toEqual([
      ["Atlas Holdings AG", "205000.00", "205000.00", "paid"],
      ["Keller, Brunner & Co", "102500.00", "102500.00", "paid"],
    ]);
    expect(readEntry(dist!.id).lines).toEqual([
      { type: "return_of_capital", amount: "60000.00", recallable: true },
      { type: "realized_gain", amount: "10000.00", recallable: false },
    ]);

    // The capital account (with the portal's own Call 1 of 10,000.00 each, unpaid).
    const accounts = capitalAccountFor(owner);
    const account = (id: string) => accounts.find((a) => a.id === id)!.funds.find((f) => f.fund.slug === "fund-ii")!;
    expect(account(ids.atlas)).toMatchObject({
      commitment: "1000000.00",
      called: "315000.00",
      paidIn: "305000.00",
      outstanding: "10000.00",
      distributed: "50000.00",
      unfunded: "725000.00",
      nav: "300000.00",
      navDate: "2023-12-31",
      dpi: 0.1639,
      rvpi: 0.9836,
      tvpi: 1.1475,
    });
    expect(account(ids.keller)).toMatchObject({ called: "162500.00", paidIn: "152500.00", distributed: "20000.00", unfunded: "857500.00", nav: "140000.00", dpi: 0.1311, rvpi: 0.918, tvpi: 1.0491 });

    // Both quarters tie out to the cent for the two entities (contributions by due date, the imported P&L).
    for (const quarter of ["2023-Q1", "2023-Q2"]) {
      const rows = tieOutQuarter(fundII(), quarter, null).filter((r) => r.entity.id === ids.atlas || r.entity.id === ids.keller);
      expect(rows.map((r) => [r.entity.name, r.ok, r.difference])).toEqual([
        ["Atlas Holdings AG", true, 0n],
        ["Keller, Brunner & Co", true, 0n],
      ]);
    }

    const audit = db().select().from(auditEvents).where(eq(auditEvents.event, "history.imported")).all();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.details!)).toMatchObject({ fund: "fund-ii", calls: 2, distributions: 1, payments: 5, valuations: 6, valuationsReplaced: 0, pnl: 4, from: "2023-02-01", to: "2023-12-31" });
  });

  it("refuses the calls and distributions of a history imported again (the fund has them: same date and total)", async () => {
    const again = await previewHistory(fundII(), { history: HISTORY, pnl: PNL });
    expect(errorsOf(again)).toEqual([
      "2 reference: Call 3 of the fund has the same date and total: this looks imported already (importing it again would count it twice)",
      "4 reference: Call 2 of the fund has the same date and total: this looks imported already (importing it again would count it twice)",
      "13 reference: Distribution 1 of the fund has the same date and total: this looks imported already (importing it again would count it twice)",
    ]);
    expect(again.counts.valuations.replacing).toBe(6);
    expect(again.counts.pnl.replacing).toBe(4);
  });

  it("replaces a valuation imported again for the same entity and date, and the preview says so", async () => {
    const text = [HEADER, "Atlas Holdings AG,valuation,2023-12-31,,,,,305000.00", `${ids.keller},valuation,2024-03-31,,,,,150000.00`].join("\n");
    const preview = await previewHistory(fundII(), { history: text, pnl: null });
    expect(preview.ok).toBe(true);
    expect(preview.counts.valuations).toEqual({ rows: 2, replacing: 1, total: "455000.00" });
    expect(preview.replacements).toEqual([{ entity: { id: ids.atlas, name: "Atlas Holdings AG" }, date: "2023-12-31", current: "300000.00", imported: "305000.00" }]);

    expect(await importHistory(admin, fundII(), { history: text, pnl: null }, preview.signature)).toMatchObject({ valuations: 2, valuationsReplaced: 1, calls: 0 });
    const navs = db().select().from(valuations).where(eq(valuations.entityId, ids.atlas)).all();
    expect(navs.filter((v) => v.date === "2023-12-31").map((v) => v.navMinor)).toEqual([30_500_000]);
  });
});

describe("the sample files (docs/samples)", () => {
  it("import, and every quarter of their year ties out", async () => {
    const fundI = fundBySlug("fund-i");
    for (const id of [ids.atlas, ids.keller]) createCommitment(admin, { entityId: id, fund: "fund-i", amount: "1000000.00", acceptedOn: "2023-01-10" });
    const sample = (name: string) => fs.readFileSync(path.join(__dirname, "../../docs/samples", name), "utf8");
    const texts = { history: sample("history-import.csv"), pnl: sample("history-pnl.csv").replaceAll(",fund-ii,", ",fund-i,") };
    const preview = await previewHistory(fundI, texts);
    expect(errorsOf(preview)).toEqual([]);
    expect(await importHistory(admin, fundI, texts, preview.signature)).toMatchObject({ calls: 2, distributions: 1, payments: 5, valuations: 8, pnl: 8 });
    for (const quarter of ["2023-Q1", "2023-Q2", "2023-Q3", "2023-Q4"]) {
      const rows = tieOutQuarter(fundI, quarter, null).filter((r) => r.entity.id === ids.atlas || r.entity.id === ids.keller);
      expect(rows.map((r) => [quarter, r.entity.name, r.ok])).toEqual([
        [quarter, "Atlas Holdings AG", true],
        [quarter, "Keller, Brunner & Co", true],
      ]);
    }
  });
});

describe("no reminder for history", () => {
  it("marks a call not yet due as reminded, so its reminder and overdue days send nothing", async () => {
    const today = firmDay(now());
    const plus = (days: number) => new Date(Date.parse(`${today}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
    const text = [HEADER, `Atlas Holdings AG,call,${today},${plus(21)},Call N,investment,,1000.00`].join("\n");
    const done = await importHistory(admin, fundII(), { history: text, pnl: null }, null);
    expect(done.calls).toBe(1);
    const days = reminderDays(plus(21));
    const mails = countOf(emailOutbox);
    expect(sendCallReminders(getDb(), new Date(`${days.reminder}T09:00:00Z`))).toBe(0);
    expect(sendCallReminders(getDb(), new Date(`${days.overdue}T09:00:00Z`))).toBe(0);
    expect(countOf(emailOutbox)).toBe(mails);
    expect(countOf(callReminders)).toBe(2);
  });
});

describe("the rows' errors", () => {
  it("names an ambiguous and an unknown entity, and an entity without a commitment in the fund, row by row", async () => {
    const text = [
      HEADER,
      "Twin Capital,valuation,2024-06-30,,,,,1.00",
      "Nobody Ltd,valuation,2024-06-30,,,,,1.00",
      "Fund One Only Ltd,valuation,2024-06-30,,,,,1.00",
      "00000000-0000-4000-8000-000000000000,valuation,2024-06-30,,,,,1.00",
      `${ids.twinB},valuation,2024-06-30,,,,,1.00`,
    ].join("\n");
    const preview = await previewHistory(fundII(), { history: text, pnl: null });
    expect(errorsOf(preview)).toEqual([
      "2 entity: 2 entities in this fund have this name: use entity_id",
      "3 entity: No entity has this name",
      "4 entity: This entity has no commitment in the fund",
      "5 entity: No entity has this id",
    ]);
    expect(preview).toMatchObject({ ok: false, withErrors: 4, rows: { history: 5, pnl: 0 } });
  });

  it("refuses a payment above the entity's share still due, and payments of an unknown call", async () => {
    const text = [
      HEADER,
      "Atlas Holdings AG,call,2024-01-10,2024-01-24,Call X,investment,,1000.00",
      "Atlas Holdings AG,payment,2024-01-20,,Call X,,,600.00",
      "Atlas Holdings AG,payment,2024-01-21,,Call X,,,500.00",
      `"Keller, Brunner & Co",payment,2024-01-21,,Call X,,,10.00`,
      "Atlas Holdings AG,payment,2024-01-21,,Call Y,,,10.00",
      "Atlas Holdings AG,payment,2024-01-05,,call x,,,1.00",
    ].join("\n");
    expect(errorsOf(await previewHistory(fundII(), { history: text, pnl: null }))).toEqual([
      "4 amount: More than the entity's share still due ($400.00)",
      "5 entity: This call asks nothing of this entity",
      "6 reference: No call in this file has this reference",
      "7 date: A payment cannot be dated before the call's notice date",
    ]);
  });

  it("checks every cell and group: events, dates, types, recallable, amounts, formulas, duplicates, closed quarters, the future, and the P&L's quarters", async () => {
    db().insert(statementQuarters).values({ fundId: fundII().id, quarter: "2024-Q3", version: 1, status: "published", publishedAt: new Date() }).run();
    const text = [
      HEADER,
      "Atlas Holdings AG,refund,2024-01-10,,R,,,1.00", // 2
      "Atlas Holdings AG,call,2024-02-30,,Call Z,carry,,0", // 3
      "Atlas Holdings AG,call,2024-02-01,2024-01-01,Call Z,investment,maybe,-1", // 4
      "Atlas Holdings AG,call,2024-02-02,2024-02-20,Call Z,other,,1.00", // 5: another notice date than line 4's
      "Atlas Holdings AG,distribution,2024-05-01,2024-05-02,Call Z,income,yes,1.00", // 6
      "Atlas Holdings AG,valuation,2024-08-15,,,investment,,=1+1", // 7: a closed quarter, a formula
      "Atlas Holdings AG,valuation,2099-01-01,,,,,1.00", // 8: the future
      "Atlas Holdings AG,valuation,2024-06-30,,,,,-2.00", // 9
      "atlas holdings ag,valuation,2024-06-30,,,,,2.00", // 10: the same entity and date as line 9
      "Atlas Holdings AG,payment,2024-02-25,,,,,1.00", // 11
      "Atlas Holdings AG,valuation,2022-12-31,,,,,1.00", // 12: before the commitment
      "Atlas Holdings AG,valuation,2024-12-31", // 13
    ].join("\n");
    const pnl = [
      "entity,fund,quarter,management_fees,partnership_expenses,other_income,realized_gain,unrealized_gain_change,carried_interest_change",
      "Atlas Holdings AG,fund-i,2099-Q4,x,0,0,0,0,0",
      "Atlas Holdings AG,fund-ii,2024-Q3,0,0,0,0,0,0",
      "Atlas Holdings AG,fund-ii,2024-q2,0,0,0,0,0,0",
      "Atlas Holdings AG,fund-ii,2024-Q2,0,0,0,0,0,0",
    ].join("\n");
    const preview = await previewHistory(fundII(), { history: text, pnl });
    expect(errorsOf(preview)).toEqual([
      "2 event: Enter the event as call, payment, distribution or valuation",
      "3 date: Enter the date as YYYY-MM-DD",
      "3 due_date: A call needs its due date, YYYY-MM-DD",
      "3 type: Enter the call's type: investment, management_fee, fund_expenses, organizational_expenses or other",
      "3 amount: The amount must be greater than zero",
      "4 due_date: The due date is before the notice date",
      "4 recallable: Enter recallable as yes or no",
      "4 amount: The amount must be greater than zero",
      "5 date: Another notice date: this call's first row (line 4) has 2024-02-01",
      "6 due_date: Only a call has a due date: leave due_date empty",
      "6 recallable: Only a distribution's return_of_capital can be recallable",
      "6 reference: This reference is a call's (line 3): give the distribution a reference of its own",
      "7 amount: amount: a formula is not a value. Export the values, not the formulas.",
      "7 type: A valuation has no type: leave type empty",
      "7 date: 2024-Q3 is published and closed: nothing may be dated inside it. To correct it, restate the quarter (this reopens it), then publish it again.",
      expect.stringMatching(/^8 date: A date after today \(\d{4}-\d{2}-\d{2}\): the history import is for what has happened$/),
      "9 amount: A NAV cannot be negative",
      "9 date: Listed more than once for this date (lines 9 and 10)",
      "10 date: Listed more than once for this date (lines 9 and 10)",
      "11 reference: Name the call this payment pays (its reference in this file, like Call 3)",
      "12 date: This entity's commitment starts on 2023-01-10, after this date",
      "13 -: This row has 3 cells; the header has 8",
      "pnl 2 fund: Another fund: this page imports Deeptech Fund II only",
      "pnl 2 quarter: 2099-Q4 is not over yet (it ends on 2099-12-31): import past quarters only",
      "pnl 2 management_fees: management_fees: Enter an amount like 250000.00",
      "pnl 3 quarter: 2024-Q3 is published and closed: nothing may be dated inside it. To correct it, restate the quarter (this reopens it), then publish it again.",
      "pnl 4 quarter: Listed more than once for this quarter (lines 4 and 5)",
      "pnl 5 quarter: Listed more than once for this quarter (lines 4 and 5)",
    ]);
    expect(preview.ok).toBe(false);
    db().delete(statementQuarters).run();
  });

  it("writes nothing when any row has an error, and refuses a confirm whose preview changed", async () => {
    const before = { entries: countOf(ledgerEntries), values: countOf(valuations), payments: countOf(callPayments), pnl: countOf(pnlRows) };
    const text = [
      HEADER,
      "Atlas Holdings AG,call,2024-01-10,2024-01-24,Call Q,investment,,1000.00",
      "Atlas Holdings AG,payment,2024-01-20,,Call Q,,,1000.00",
      "Atlas Holdings AG,valuation,2024-03-31,,,,,5000.00",
      "Nobody Ltd,valuation,2024-03-31,,,,,1.00",
    ].join("\n");
    const refused: unknown = await importHistory(admin, fundII(), { history: text, pnl: null }, null).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RefusedHistory);
    expect((refused as RefusedHistory).message).toBe("Nothing was imported: 1 row has an error. Correct the files and preview them again.");
    expect((refused as RefusedHistory).preview.counts.calls.entries).toBe(1);
    const clean = text.split("\n").slice(0, -1).join("\n");
    await expect(importHistory(admin, fundII(), { history: clean, pnl: null }, "0.0.0.0.0.0.0.0.0.0.0")).rejects.toThrow(/changed since the preview/);
    expect({ entries: countOf(ledgerEntries), values: countOf(valuations), payments: countOf(callPayments), pnl: countOf(pnlRows) }).toEqual(before);
  });
});

describe("hostile files", () => {
  it("refuses a file of too many rows at once, and files that are not UTF-8 text, on their own field", async () => {
    const many = `${HEADER}\n${"Atlas Holdings AG,valuation,2024-03-31,,,,,1.00\n".repeat(260_000)}`;
    await expect(previewHistory(fundII(), { history: many, pnl: null })).rejects.toMatchObject({
      status: 400,
      message: "The file has more than 250,000 rows: split it into smaller files",
      options: { fields: { history: ["The file has more than 250,000 rows: split it into smaller files"] } },
    });
    // How fast it is refused is the bench's (the history part, and the hostile CSV sweep's 10 s budget): no timed test.
    expect(() => decodeHistoryFiles({ history: new Uint8Array([0x65, 0x6e, 0x74, 0xe9, 0x2c]), pnl: null })).toThrow(/not UTF-8/);
    expect(() => decodeHistoryFiles({ history: new TextEncoder().encode("entity,event"), pnl: new TextEncoder().encode("a\u0000b") })).toThrow("The file is not a CSV text file.");
    await expect(previewHistory(fundII(), { history: `${HEADER}\n"Atlas,valuation,2024-03-31,,,,,1\n`, pnl: null })).rejects.toMatchObject({ message: "The file is not valid CSV (line 2): check its quotes" });
  });
});

describe("the page", () => {
  it("answers a file with errors with its errors (400), keeps nothing, and an expired or unknown confirm with a message", async () => {
    const bad = expectData<Answer>(await upload({ history: [HEADER, "Nobody Ltd,valuation,2024-03-31,,,,,1.00"].join("\n") }));
    expect(bad.status).toBe(400);
    expect(bad.data.preview!.errors).toMatchObject([{ line: "2", file: "History", column: "entity", message: "No entity has this name" }]);
    expect(bad.data.confirm).toBeUndefined();
    expect(incoming()).toEqual([]);

    const missing = expectData<Answer>(await upload({}));
    expect([missing.status, missing.data.fields]).toEqual([400, { history: ["Choose the history CSV file"] }]);
    const columns = expectData<Answer>(await upload({ history: "name,value\nAtlas,1\n" }));
    expect(columns.status).toBe(400);
    expect(columns.data.fields?.history?.[0]).toMatch(/^The header must name the columns entity, event, date and amount.* Missing: entity, event, date and amount\./);
    const pnlColumns = expectData<Answer>(await upload({ history: [HEADER, "Atlas Holdings AG,valuation,2024-03-31,,,,,1.00"].join("\n"), pnl: "entity,quarter\nA,2024-Q1\n" }));
    expect(pnlColumns.data.fields?.pnl?.[0]).toMatch(/^The header must name the columns entity \(or entity_id\), fund, quarter/);
    expect(incoming()).toEqual([]);

    const expired = expectData<Answer>(await confirm({ upload: "0".repeat(32), hash: "x", signature: "" }));
    expect([expired.status, expired.data.fields]).toEqual([400, { form: ["This preview has expired (a preview is kept for an hour). Upload the files again."] }]);
    const crafted = expectData<Answer>(await confirm({ upload: "../../data", hash: "x", signature: "" }));
    expect(crafted.status).toBe(400);
  });

  it("takes posts of 32 MB of files (the page and its .data twin; other pages keep 64 KB)", () => {
    const type = "multipart/form-data; boundary=x";
    expect(bodyLimitFor(page, type)).toBe(HISTORY_PAGE_BODY_BYTES);
    expect(bodyLimitFor(`${page}.data`, type)).toBe(HISTORY_PAGE_BODY_BYTES);
    expect(HISTORY_PAGE_BODY_BYTES).toBeGreaterThan(32 * 1024 * 1024);
    expect(bodyLimitFor("/admin/funds/fund-ii/import/x", type)).toBe(DEFAULT_BODY_LIMIT);
  });
});
