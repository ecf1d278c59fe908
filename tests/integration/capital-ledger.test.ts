import { and, asc, eq } from "drizzle-orm";
import { parse } from "csv-parse/sync";
import { randomUUID } from "node:crypto";
import type { UNSAFE_DataWithResponseInit as DataWithResponseInit } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { ledgerReference } from "~/content/capital";
import { capitalAccountFor, combinedByCurrency, noticeFor, type CapitalFlow, type EntityAccount, type FundAccount } from "~/modules/capital-account/capital-account.server";
import { ledgerPage, resolveLedgerFilters, type LedgerRow } from "~/modules/capital-account/ledger.server";
import { capitalMetrics } from "~/modules/capital/metrics";
import { toDecimalString } from "~/modules/capital/money";
import { getDb, type Db } from "~/modules/db/connection.server";
import { listFunds, type Fund } from "~/modules/funds/funds.server";
import { readEntry } from "~/modules/ledger/ledger.server";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { action as paymentsApi } from "~/routes/api/call-payments";
import { action as commitmentsApi } from "~/routes/api/commitments";
import { action as entitiesApi } from "~/routes/api/entities";
import { action as draftApi } from "~/routes/api/ledger-entries";
import { action as publishApi } from "~/routes/api/ledger-publish";
import { action as valuationsApi } from "~/routes/api/valuations";
import { loader as accountPage } from "~/routes/lp/capital-account";
import { loader as ledgerPageLoader } from "~/routes/lp/capital-ledger";
import { loader as ledgerCsv } from "~/routes/lp/capital-ledger-export";
import {
  callPayments,
  commitmentChanges,
  commitments,
  entities,
  entityMembers,
  ledgerAllocations,
  ledgerEntries,
  ledgerLines,
  valuations,
} from "../../db/schema";
import { apiRequest, callRouteWith, insertAdmin, insertUser, sessionCookieFor } from "../helpers/users";

/**
 * The investor's side of the capital account (issue 24 §8) against a real
 * SQLite file: the account read in one query per table (and the same answer
 * as reading it entity by entity), a notice that reads only the reader's own
 * shares, the full ledger's pages and filters (another investor's entity is
 * the unknown id's 404), its formula-safe CSV, and the account page's
 * combined view, entity tabs and chart.
 *
 * Ivy owns Aurora and "=HYPERLINK(…)" (a name a spreadsheet would run) and
 * views Borealis (Olga's); Otto owns Dune. Fund II: eight quarterly calls of
 * two lines, payments, two distributions, eight valuations; Fund I: one call.
 */

let admin: LpUser;
let ivy: LpUser;
let olga: LpUser;
let otto: LpUser;
const cookies = { admin: "", ivy: "", otto: "" };
const ids = { aurora: "", borealis: "", formula: "", dune: "" };
const FORMULA = '=HYPERLINK("https://evil.example","Cirrus")';

type Json = Record<string, unknown> & { fields?: Record<string, string[]> };
const body = async (response: Response) => (await response.json()) as Json;
const post = async (fn: unknown, path: string, json: unknown, params: Record<string, string> = {}) => {
  const response = await callRouteWith(fn as never, apiRequest("POST", path, { cookie: cookies.admin, json }), { params });
  expect(response.status, `${path}: ${JSON.stringify(await response.clone().json())}`).toBeLessThan(300);
  return body(response);
};

async function entity(name: string, members: { userId: string; role: string }[]) {
  return (await post(entitiesApi, "/api/entities", { name, kind: "company", members })).id as string;
}

type Allocation = { entityId: string; amount: string };

async function publishedCall(fund: string, noticeDate: string, lines: { type: string; amount: string }[]) {
  const draft = await post(draftApi, "/api/capital-calls", { fund, noticeDate, dueDate: noticeDate.replace(/-\d\d$/, "-28"), lines });
  await post(publishApi, `/api/capital-calls/${draft.id as string}/publish`, undefined, { id: draft.id as string });
  return { id: draft.id as string, allocations: draft.allocations as Allocation[] };
}

async function pay(call: { id: string; allocations: Allocation[] }, entityId: string, receivedOn: string) {
  const share = call.allocations.find((a) => a.entityId === entityId)!.amount;
  await post(paymentsApi, `/api/capital-calls/${call.id}/payments`, { entityId, amount: share, receivedOn }, { id: call.id });
}

beforeAll(async () => {
  admin = await insertAdmin();
  ivy = await insertUser({ status: "approved", name: "Ivy Investor" });
  olga = await insertUser({ status: "approved", name: "Olga Owner" });
  otto = await insertUser({ status: "approved", name: "Otto Outsider" });
  cookies.admin = await sessionCookieFor(admin);
  cookies.ivy = await sessionCookieFor(ivy);
  cookies.otto = await sessionCookieFor(otto);
  ids.aurora = await entity("Aurora Holdings AG", [{ userId: ivy.id, role: "owner" }]);
  ids.borealis = await entity("Borealis Trust", [
    { userId: olga.id, role: "owner" },
    { userId: ivy.id, role: "viewer" },
  ]);
  ids.formula = await entity(FORMULA, [{ userId: ivy.id, role: "owner" }]);
  ids.dune = await entity("Dune Capital", [{ userId: otto.id, role: "owner" }]);
  for (const [entityId, fund, amount, acceptedOn] of [
    [ids.aurora, "fund-ii", "3000000.00", "2022-01-10"],
    [ids.borealis, "fund-ii", "1000000.00", "2022-01-10"],
    [ids.dune, "fund-ii", "2000000.00", "2022-01-10"],
    [ids.aurora, "fund-i", "500000.00", "2021-01-10"],
    [ids.formula, "fund-i", "250000.00", "2021-01-10"],
    [ids.dune, "fund-i", "250000.00", "2021-01-10"],
  ] as const) {
    await post(commitmentsApi, "/api/commitments", { entityId, fund, amount, acceptedOn });
  }
  // Fund II: a call each quarter of 2022 and 2023 (two lines, odd cents), Aurora and Dune pay all, Borealis the first five.
  for (let q = 0; q < 8; q++) {
    const date = `${2022 + Math.floor(q / 4)}-${String((q % 4) * 3 + 2).padStart(2, "0")}-01`;
    const call = await publishedCall("fund-ii", date, [
      { type: "investment", amount: "60000.00" },
      { type: "management_fee", amount: "6000.01" },
    ]);
    const paidOn = date.replace(/-01$/, "-20");
    await pay(call, ids.aurora, paidOn);
    await pay(call, ids.dune, paidOn);
    if (q < 5) await pay(call, ids.borealis, paidOn);
  }
  for (const [paymentDate, lines] of [
    [
      "2023-06-30",
      [
        { type: "return_of_capital", amount: "12000.00", recallable: true },
        { type: "realized_gain", amount: "30000.00" },
      ],
    ],
    ["2023-12-15", [{ type: "income", amount: "6000.00" }]],
  ] as const) {
    const draft = await post(draftApi, "/api/distributions", { fund: "fund-ii", paymentDate, lines });
    await post(publishApi, `/api/distributions/${draft.id as string}/publish`, undefined, { id: draft.id as string });
  }
  for (let q = 0; q < 8; q++) {
    const date = `${2022 + Math.floor(q / 4)}-${["03-31", "06-30", "09-30", "12-31"][q % 4]}`;
    await post(valuationsApi, "/api/valuations", {
      fund: "fund-ii",
      date,
      values: [
        { entityId: ids.aurora, nav: `${(q + 1) * 52000}.00` },
        { entityId: ids.borealis, nav: `${(q + 1) * 17000}.50` },
        { entityId: ids.dune, nav: `${(q + 1) * 35000}.00` },
      ],
    });
  }
  // Fund I: one call, paid by Aurora only.
  const fundI = await publishedCall("fund-i", "2021-03-01", [{ type: "investment", amount: "100000.00" }]);
  await pay(fundI, ids.aurora, "2021-03-15");
  // A draft is the firm's: never read by an investor.
  await post(draftApi, "/api/capital-calls", { fund: "fund-ii", noticeDate: "2024-02-01", dueDate: "2024-02-29", lines: [{ type: "investment", amount: "1.00" }] });
});

/** Ivy's transactions: Aurora II 16 call lines + 8 payments + 3 distribution lines + 8 NAVs; Borealis 16 + 5 + 3 + 8; Aurora I 1 + 1; "=HYPERLINK" I 1. */
const IVY_ROWS = 35 + 32 + 2 + 1;

/**
 * A reader that counts the queries its callers run and the rows they read (a
 * proxy over the connection: every builder a query chains through is
 * wrapped, `all`/`get` counted).
 */
function counting(db: Db) {
  const stats = { queries: 0, rows: 0 };
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(object, property, receiver) {
        const value = Reflect.get(object, property, receiver) as unknown;
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          const out = (value as (...a: unknown[]) => unknown).apply(object, args);
          if (property === "select" || property === "selectDistinct") stats.queries++;
          if (property === "all" && Array.isArray(out)) {
            if (object === (db as object)) stats.queries++;
            stats.rows += out.length;
            return out;
          }
          if (property === "get") {
            if (object === (db as object)) stats.queries++;
            stats.rows += out ? 1 : 0;
            return out;
          }
          return out && typeof out === "object" && !Array.isArray(out) ? wrap(out) : out;
        };
      },
    });
  return { db: wrap(db), stats };
}

/**
 * The capital account as it was read before the batching: for each entity
 * and fund, its own queries (the reference the batched read must equal).
 */
function referenceAccount(db: Db, fund: Fund, entityId: string, commitmentMinor: bigint): FundAccount {
  const money = (minor: bigint) => toDecimalString(minor, fund.currency);
  const shares = db
    .select({
      entryId: ledgerEntries.id,
      kind: ledgerEntries.kind,
      number: ledgerEntries.number,
      date: ledgerEntries.date,
      type: ledgerLines.type,
      recallable: ledgerLines.recallable,
      amountMinor: ledgerAllocations.amountMinor,
    })
    .from(ledgerAllocations)
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, ledgerAllocations.entryId))
    .innerJoin(ledgerLines, and(eq(ledgerLines.entryId, ledgerAllocations.entryId), eq(ledgerLines.position, ledgerAllocations.position)))
    .where(and(eq(ledgerAllocations.entityId, entityId), eq(ledgerEntries.fundId, fund.id), eq(ledgerEntries.status, "published")))
    .orderBy(asc(ledgerEntries.date), asc(ledgerEntries.number), asc(ledgerAllocations.position))
    .all();
  const payments = db
    .select({ entryId: callPayments.entryId, receivedOn: callPayments.receivedOn, amountMinor: callPayments.amountMinor, number: ledgerEntries.number })
    .from(callPayments)
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, callPayments.entryId))
    .where(and(eq(callPayments.entityId, entityId), eq(ledgerEntries.fundId, fund.id)))
    .all();
  const navs = db
    .select({ date: valuations.date, navMinor: valuations.navMinor })
    .from(valuations)
    .where(and(eq(valuations.entityId, entityId), eq(valuations.fundId, fund.id)))
    .orderBy(asc(valuations.date))
    .all();
  const byEntry = new Map<string, { kind: "call" | "distribution"; date: string; amount: bigint; recallable: bigint }>();
  for (const share of shares) {
    const entry = byEntry.get(share.entryId) ?? { kind: share.kind, date: share.date, amount: 0n, recallable: 0n };
    entry.amount += BigInt(share.amountMinor);
    if (share.recallable) entry.recallable += BigInt(share.amountMinor);
    byEntry.set(share.entryId, entry);
  }
  const entries = [...byEntry.values()];
  const metrics = capitalMetrics({
    commitment: commitmentMinor,
    calls: entries.filter((e) => e.kind === "call").map((e) => ({ date: e.date, amount: e.amount })),
    payments: payments.map((p) => ({ date: p.receivedOn, amount: BigInt(p.amountMinor) })),
    distributions: entries.filter((e) => e.kind === "distribution").map((e) => ({ date: e.date, amount: e.amount, recallable: e.recallable })),
    valuations: navs.map((v) => ({ date: v.date, nav: BigInt(v.navMinor) })),
  });
  const order = { call: 0, payment: 1, distribution: 2, valuation: 3 };
  const flows: CapitalFlow[] = [
    ...shares.map((s) => ({ date: s.date, kind: s.kind, type: s.type, amount: money(BigInt(s.amountMinor)), reference: s.number === null ? null : ledgerReference(s.kind, s.number), entryId: s.entryId })),
    ...payments.map((p) => ({ date: p.receivedOn, kind: "payment" as const, type: null, amount: money(BigInt(p.amountMinor)), reference: p.number === null ? null : ledgerReference("call", p.number), entryId: p.entryId })),
    ...navs.map((v) => ({ date: v.date, kind: "valuation" as const, type: null, amount: money(BigInt(v.navMinor)), reference: null, entryId: null })),
  ].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : order[a.kind] - order[b.kind]));
  return {
    fund: { slug: fund.slug, name: fund.name, currency: fund.currency },
    commitment: money(metrics.commitment),
    called: money(metrics.called),
    paidIn: money(metrics.paidIn),
    outstanding: money(metrics.outstanding),
    unfunded: money(metrics.unfunded),
    distributed: money(metrics.distributed),
    nav: metrics.nav === null ? null : money(metrics.nav),
    navDate: metrics.navDate,
    asOf: metrics.asOf,
    dpi: metrics.dpi,
    rvpi: metrics.rvpi,
    tvpi: metrics.tvpi,
    irr: metrics.irr,
    irrNote: metrics.irrNote,
    flows,
  };
}

function referenceAccounts(user: LpUser): EntityAccount[] {
  const db = getDb();
  const mine = db
    .select({ id: entities.id, name: entities.name, role: entityMembers.role })
    .from(entityMembers)
    .innerJoin(entities, eq(entities.id, entityMembers.entityId))
    .where(eq(entityMembers.userId, user.id))
    .all()
    .sort((a, b) => a.name.localeCompare(b.name, "en") || (a.id < b.id ? -1 : 1));
  return mine.map((entity) => ({
    ...entity,
    funds: listFunds(db).flatMap((fund) => {
      const held = db
        .select()
        .from(commitments)
        .where(and(eq(commitments.entityId, entity.id), eq(commitments.fundId, fund.id)))
        .get();
      return held ? [referenceAccount(db, fund, entity.id, BigInt(held.amountMinor))] : [];
    }),
  }));
}

/** A page loader's thrown 404 (`throw notFound(…)`), or fails. */
async function thrown404(run: () => Promise<unknown>) {
  try {
    await run();
  } catch (error) {
    expect((error as DataWithResponseInit<unknown>).init?.status).toBe(404);
    return;
  }
  expect.fail("expected the loader to throw a 404");
}

const ledgerLoader = (cookie: string, query = "") =>
  callRouteWith(ledgerPageLoader as never, apiRequest("GET", `/lp/capital-account/ledger${query}`, { cookie })) as unknown as Promise<{
    rows: { date: string; kind: string; entity: string; fund: string; reference: string; notice: string | null; amount: string }[];
    total: number;
    page: number;
    entities: { id: string; name: string }[];
    funds: { slug: string; name: string }[];
  }>;

describe("the capital account, read in batches", () => {
  it("equals the account read entity by entity and fund by fund, for each investor", () => {
    for (const user of [ivy, olga, otto]) expect(capitalAccountFor(user)).toEqual(referenceAccounts(user));
    const [first] = capitalAccountFor(ivy).filter((e) => e.id === ids.aurora);
    expect(first!.funds.map((f) => [f.fund.slug, f.paidIn])).toEqual([
      // A half of Fund I's call (500,000 of 1,000,000 committed).
      ["fund-i", "50000.00"],
      ["fund-ii", expect.any(String)],
    ]);
  });

  it("runs the same six queries for one entity as for three: one per table, none per entity or fund", () => {
    const one = counting(getDb());
    capitalAccountFor(otto, one.db);
    const three = counting(getDb());
    const accounts = capitalAccountFor(ivy, three.db);
    expect(accounts.flatMap((e) => e.funds)).toHaveLength(4);
    expect(three.stats.queries).toBe(6);
    expect(one.stats.queries).toBe(6);
  });
});

describe("the full ledger", () => {
  it("pages every transaction of the investor's entities, newest first, 50 a page, without overlap", () => {
    const none = { entity: null, fund: null };
    const first = ledgerPage(ivy, none, { page: 1, size: 50 });
    const second = ledgerPage(ivy, none, { page: 2, size: 50 });
    expect([first.total, first.rows.length, second.rows.length, second.page]).toEqual([IVY_ROWS, 50, IVY_ROWS - 50, 2]);
    const all: LedgerRow[] = [...first.rows, ...second.rows];
    // Newest first; on one day a valuation, then distributions, payments, calls.
    const rank = { valuation: 3, distribution: 2, payment: 1, call: 0 };
    for (let i = 1; i < all.length; i++) {
      const [a, b] = [all[i - 1]!, all[i]!];
      expect(a.date >= b.date).toBe(true);
      if (a.date === b.date && a.entityId === b.entityId) expect(rank[a.kind] >= rank[b.kind]).toBe(true);
    }
    // Each transaction once: the rows are all different (an allocation line, a payment, a valuation).
    const keys = new Set(all.map((r) => JSON.stringify([r.date, r.kind, r.type, r.entityId, r.fundSlug, r.reference, r.amount])));
    expect(keys.size).toBe(IVY_ROWS);
    expect(new Set(all.map((r) => r.entityName))).toEqual(new Set(["Aurora Holdings AG", "Borealis Trust", FORMULA]));
    // The draft (2024-02-01) is not there; a payment names the call it pays.
    expect(all.some((r) => r.date >= "2024-01-01")).toBe(false);
    expect(all.find((r) => r.kind === "payment" && r.fundSlug === "fund-i")).toMatchObject({ reference: "Call 1", amount: "50000.00", currency: "USD", date: "2021-03-15" });
    // A page past the end is the last page.
    expect(ledgerPage(ivy, none, { page: 9, size: 50 })).toMatchObject({ page: 2, total: IVY_ROWS });
  });

  it("the page filters by entity and fund with links and a GET form, and pages with ?page=", async () => {
    const page1 = await ledgerLoader(cookies.ivy);
    expect([page1.total, page1.page, page1.rows.length]).toEqual([IVY_ROWS, 1, 50]);
    expect(page1.entities.map((e) => e.name)).toEqual(["=HYPERLINK(\"https://evil.example\",\"Cirrus\")", "Aurora Holdings AG", "Borealis Trust"].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" })));
    expect(page1.funds).toEqual([
      { slug: "fund-i", name: "Deeptech Fund I" },
      { slug: "fund-ii", name: "Deeptech Fund II" },
    ]);
    expect(page1.rows[0]).toMatchObject({ date: "Dec 31, 2023", kind: "Valuation", fund: "Deeptech Fund II", reference: "", notice: null });
    const page2 = await ledgerLoader(cookies.ivy, "?page=2");
    expect([page2.page, page2.rows.length]).toEqual([2, IVY_ROWS - 50]);
    expect((await ledgerLoader(cookies.ivy, "?page=abc")).page).toBe(1);

    const borealis = await ledgerLoader(cookies.ivy, `?entity=${ids.borealis}`);
    expect(borealis.total).toBe(32);
    expect(new Set(borealis.rows.map((r) => r.entity))).toEqual(new Set(["Borealis Trust"]));
    const fundI = await ledgerLoader(cookies.ivy, "?fund=fund-i");
    // A day's payment before its calls; the calls by entity name ('=' sorts before letters).
    expect(fundI.rows.map((r) => [r.entity, r.kind, r.reference])).toEqual([
      ["Aurora Holdings AG", "Payment received", "Call 1"],
      [FORMULA, "Capital call: Investment", "Call 1"],
      ["Aurora Holdings AG", "Capital call: Investment", "Call 1"],
    ]);
    expect(fundI.rows[0]!.notice).toEqual(expect.any(String));
    expect((await ledgerLoader(cookies.ivy, `?entity=${ids.aurora}&fund=fund-i`)).total).toBe(2);
    expect((await ledgerLoader(cookies.ivy, "?entity=&fund=")).total).toBe(IVY_ROWS);
  });

  it("another investor's entity, an unknown id or a fund none of theirs is in is the unknown id's 404, on the page and the CSV", async () => {
    for (const query of [`?entity=${ids.dune}`, `?entity=${randomUUID()}`, "?entity=%27%20or%201=1", "?fund=fund-iii", `?entity=${"x".repeat(200)}`]) {
      await thrown404(() => ledgerLoader(cookies.ivy, query));
      const csv = await callRouteWith(ledgerCsv as never, apiRequest("GET", `/lp/capital-account/ledger.csv${query}`, { cookie: cookies.ivy }));
      expect(csv.status, query).toBe(404);
      expect(csv.headers.get("Content-Type")).toMatch(/^application\/json/);
    }
    // Otto's own: his entity only, none of Ivy's.
    const ottos = await ledgerLoader(cookies.otto);
    expect(new Set(ottos.rows.map((r) => r.entity))).toEqual(new Set(["Dune Capital"]));
    expect(() => resolveLedgerFilters(otto, { entity: ids.aurora })).toThrow(expect.objectContaining({ status: 404 }));
    // The account page's entity tab: the same rule.
    await thrown404(() => callRouteWith(accountPage as never, apiRequest("GET", `/lp/capital-account?entity=${ids.dune}`, { cookie: cookies.ivy })));
  });
});

describe("the ledger's CSV", () => {
  it("downloads every transaction of the filters as formula-safe CSV: BOM, header, text/csv, nosniff, attachment", async () => {
    const response = await callRouteWith(ledgerCsv as never, apiRequest("GET", "/lp/capital-account/ledger.csv", { cookie: cookies.ivy }));
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="lumen-ridge-capital-ledger-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const bytes = Buffer.from(await response.arrayBuffer());
    // The byte order mark first (Excel reads accents right), then the header record.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString("utf8");
    expect(text.startsWith("\uFEFFDate,Entity,Fund,Transaction,Type,Reference,Amount,Currency\r\n")).toBe(true);
    const records = parse(text, { bom: true }) as string[][];
    expect(records).toHaveLength(IVY_ROWS + 1);
    // No cell a spreadsheet would run: the entity named =HYPERLINK(…) comes out as text, with a leading quote.
    for (const record of records) for (const cell of record) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    const formulaRows = records.filter((r) => r[1]!.includes("HYPERLINK"));
    expect(formulaRows).toHaveLength(1);
    expect(formulaRows[0]).toEqual(["2021-03-01", `'${FORMULA}`, "Deeptech Fund I", "Capital call", "Investment", "Call 1", expect.stringMatching(/^\d+\.\d\d$/), "USD"]);
    expect(text).toContain(`"'=HYPERLINK(""https://evil.example"",""Cirrus"")"`);
    // The same order as the page: the newest first.
    expect(records[1]).toEqual(["2023-12-31", "Aurora Holdings AG", "Deeptech Fund II", "Valuation", "", "", "416000.00", "USD"]);
  });

  it("takes the page's filters, and answers 401 to no session", async () => {
    const filtered = await callRouteWith(ledgerCsv as never, apiRequest("GET", `/lp/capital-account/ledger.csv?entity=${ids.aurora}&fund=fund-i`, { cookie: cookies.ivy }));
    const records = parse(Buffer.from(await filtered.arrayBuffer()).toString("utf8"), { bom: true }) as string[][];
    expect(records.slice(1).map((r) => [r[1], r[3], r[5], r[6]])).toEqual([
      ["Aurora Holdings AG", "Payment received", "Call 1", "50000.00"],
      ["Aurora Holdings AG", "Capital call", "Call 1", "50000.00"],
    ]);
    const anonymous = await callRouteWith(ledgerCsv as never, apiRequest("GET", "/lp/capital-account/ledger.csv"));
    expect(anonymous.status).toBe(401);
  });
});

describe("the account page", () => {
  type Page = {
    combined: { currency: string; figures: { label: string; value: string; testId?: string }[] }[];
    tabs: { id: string; name: string }[];
    entity: { id: string; name: string; funds: { fund: { slug: string }; chart: { summary: string; rows: string[][]; shape: { paidIn: string } } | null }[] } | null;
    transactions: { date: string; kind: string; entity: string; reference: string; notice: string | null; after: boolean }[];
  };
  const load = (cookie: string, query = "") => callRouteWith(accountPage as never, apiRequest("GET", `/lp/capital-account${query}`, { cookie })) as unknown as Promise<Page>;

  it("sums every holding per currency, shows one entity at a time with a chart per fund, and the ledger's latest 20", async () => {
    const page = await load(cookies.ivy);
    const accounts = capitalAccountFor(ivy);
    const paidIn = accounts.flatMap((e) => e.funds).reduce((sum, f) => sum + Math.round(Number(f.paidIn) * 100), 0);
    expect(page.combined).toHaveLength(1);
    const figure = (testId: string) => page.combined[0]!.figures.find((f) => f.testId === testId)?.value;
    expect(figure("combined-commitment")).toBe("$4,750,000.00");
    expect(figure("combined-paid-in")).toBe(new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(paidIn / 100));
    expect(page.tabs.map((t) => t.id)).toEqual(accounts.map((e) => e.id));
    expect(page.entity!.id).toBe(accounts[0]!.id);

    const aurora = await load(cookies.ivy, `?entity=${ids.aurora}`);
    expect(aurora.entity!.funds.map((f) => f.fund.slug)).toEqual(["fund-i", "fund-ii"]);
    const fundII = aurora.entity!.funds[1]!;
    const account = accounts.find((e) => e.id === ids.aurora)!.funds[1]!;
    // The chart's last row is the account's paid in and distributed, and its latest NAV.
    const lastRow = fundII.chart!.rows.at(-1)!;
    const usd = (amount: string) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(amount as `${number}`);
    expect(lastRow).toEqual(["Q4 2023", usd(account.paidIn), usd(account.distributed), usd(account.nav!)]);
    expect(fundII.chart!.rows).toHaveLength(8);
    expect(fundII.chart!.summary).toContain(`paid in ${usd(account.paidIn)}`);

    // The latest 20 are the full ledger's first 20.
    const ledger = await ledgerLoader(cookies.ivy);
    expect(page.transactions).toHaveLength(20);
    expect(page.transactions.map((t) => [t.date, t.kind, t.entity, t.reference])).toEqual(ledger.rows.slice(0, 20).map((t) => [t.date, t.kind, t.entity, t.reference]));
  });

  it("an investor with one entity has no tabs; an investor with none sees the empty page", async () => {
    const otto = await load(cookies.otto);
    expect(otto.tabs).toEqual([]);
    expect(otto.entity!.name).toBe("Dune Capital");
    const stranger = await insertUser({ status: "approved" });
    const empty = await load(await sessionCookieFor(stranger));
    expect(empty).toMatchObject({ combined: [], tabs: [], entity: null, transactions: [] });
  });
});

describe("the combined view", () => {
  it("sums per currency and never adds two currencies", () => {
    const holding = (currency: string, amount: string, nav: string | null): FundAccount => ({
      fund: { slug: "fund-x", name: "X", currency },
      commitment: amount,
      called: amount,
      paidIn: amount,
      outstanding: "0",
      unfunded: "0",
      distributed: "0",
      nav,
      navDate: null,
      asOf: null,
      dpi: null,
      rvpi: null,
      tvpi: null,
      irr: null,
      irrNote: null,
      flows: [],
    });
    const accounts: EntityAccount[] = [
      { id: "a", name: "A", role: "owner", funds: [holding("USD", "100.10", "50.00"), holding("EUR", "200.00", null)] },
      { id: "b", name: "B", role: "viewer", funds: [holding("USD", "0.90", null), holding("JPY", "5000", "7000")] },
    ];
    expect(combinedByCurrency(accounts)).toEqual([
      { currency: "USD", holdings: 2, commitment: "101.00", called: "101.00", paidIn: "101.00", unfunded: "0.00", distributed: "0.00", nav: "50.00" },
      { currency: "EUR", holdings: 1, commitment: "200.00", called: "200.00", paidIn: "200.00", unfunded: "0.00", distributed: "0.00", nav: null },
      { currency: "JPY", holdings: 1, commitment: "5000", called: "5000", paidIn: "5000", unfunded: "0", distributed: "0", nav: "7000" },
    ]);
  });
});

describe("a notice", () => {
  it("reads only the reader's own shares and payments, not the entry's other entities'", async () => {
    // Forty more Fund II commitments: the next call is split over 43 entities.
    const db = getDb();
    for (let i = 0; i < 40; i++) {
      const entityId = randomUUID();
      const commitmentId = randomUUID();
      db.insert(entities).values({ id: entityId, name: `Extra ${i}`, kind: "company" }).run();
      db.insert(commitments).values({ id: commitmentId, entityId, fundId: listFunds().find((f) => f.slug === "fund-ii")!.id, amountMinor: 10_000_000, acceptedOn: "2022-01-10" }).run();
      db.insert(commitmentChanges).values({ commitmentId, amountMinor: 10_000_000, effectiveOn: "2022-01-10" }).run();
    }
    const call = await publishedCall("fund-ii", "2024-03-01", [
      { type: "investment", amount: "100000.00" },
      { type: "fund_expenses", amount: "333.33" },
    ]);
    expect(call.allocations).toHaveLength(43);
    await post(paymentsApi, `/api/capital-calls/${call.id}/payments`, { entityId: ids.borealis, amount: "100.00", receivedOn: "2024-03-10" }, { id: call.id });

    const { db: tracked, stats } = counting(getDb());
    const notice = noticeFor(ivy, call.id, tracked)!;
    // The entry, its fund, its two lines, Ivy's two entities' shares (two lines each) and one payment sum: not 86 shares.
    expect(stats.rows).toBeLessThanOrEqual(12);
    // What it says is what the full entry says of Ivy's entities.
    const full = readEntry(call.id);
    const mine = full.allocations.filter((a) => a.entityId === ids.aurora || a.entityId === ids.borealis);
    expect(notice.shares.map(({ entityId, entityName, amount, lines }) => ({ entityId, entityName, amount, lines }))).toEqual(mine);
    const borealis = notice.shares.find((s) => s.entityId === ids.borealis)!;
    expect(Number(borealis.received)).toBe(100);
    expect(Number(borealis.outstanding)).toBeCloseTo(Number(borealis.amount) - 100, 2);
    const { allocations: _a, warnings: _w, ...entry } = full;
    expect(notice.entry).toEqual(entry);
    // Otto's entity is called too; Olga sees Borealis only; a stranger nothing.
    expect(noticeFor(olga, call.id)!.shares.map((s) => s.entityName)).toEqual(["Borealis Trust"]);
    expect(noticeFor(await insertUser({ status: "approved" }), call.id)).toBeNull();
  });
});
