import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/modules/db/connection.server";
import { accessLog, fundAccessUsers, newsletterSubscribers } from "../../db/schema";
import { countList } from "~/modules/email-lists/email-lists.server";
import { latestAccesses, recordAccess } from "~/modules/access-log/access-log.server";
import { oldestPendingInvestors, portalCounts, recentFundIiAccessRequests, waitingCounts } from "~/modules/admin/overview.server";
import { legacyAnchorTarget, legacyDashboardTarget } from "~/modules/admin/paths";
import { listInvestorsPage } from "~/modules/lp-users/admin-search.server";
import {
  approvalDates,
  countInvestors,
  investorCountQuery,
  investorTableQuery,
  listInvestorTable,
  type InvestorView,
} from "~/modules/lp-users/investor-table.server";
import { setUserStatus } from "~/modules/lp-users/lp-users.server";
import { action as investorsAction, loader as investorsLoader } from "~/routes/admin/investors";
import { loader as overviewLoader } from "~/routes/admin/overview";
import { clearDocuments, insertDocument, insertFundDocument } from "../helpers/documents";
import { expectRedirect, formRequest } from "../helpers/http";
import { apiRequest, callRouteWith, clearAccountTables, insertAdmin, insertUser, sessionCookieFor } from "../helpers/users";

const PDF = new TextEncoder().encode("%PDF-1.4 test");
const DAY = 24 * 60 * 60 * 1000;

beforeEach(() => {
  clearAccountTables();
  clearDocuments();
  getDb().delete(accessLog).run();
  getDb().delete(fundAccessUsers).run();
});

function fundRequest(fundId: "fund-i" | "fund-ii", daysAgo: number, name = `Visitor ${daysAgo}`) {
  return getDb()
    .insert(fundAccessUsers)
    .values({
      name,
      email: `${fundId}-${daysAgo}-${Math.random().toString(36).slice(2)}@example.test`,
      fundId,
      accessTokenHash: Math.random().toString(36).repeat(3),
      createdAt: new Date(Date.now() - daysAgo * DAY),
    })
    .returning()
    .get();
}

describe("the investors search", () => {
  it("matches name, e-mail and company whatever the case and accents, within one status", async () => {
    const eva = await insertUser({ name: "Éva Lindqvist", company: "Ångström Labs", status: "pending" });
    await insertUser({ name: "Eve Other", company: "Photon", status: "pending" });
    await insertUser({ name: "Éva Approved", status: "approved" });
    const page = { offset: 0, limit: 50 };
    expect(listInvestorsPage("pending", { ...page, query: "EVA" }).users.map((u) => u.id)).toEqual([eva.id]);
    expect(listInvestorsPage("pending", { ...page, query: "angstrom" }).users.map((u) => u.id)).toEqual([eva.id]);
    expect(listInvestorsPage("pending", { ...page, query: eva.email.toUpperCase() }).total).toBe(1);
    expect(listInvestorsPage("approved", { ...page, query: "eva" }).total).toBe(1);
    // LIKE's wildcards match themselves.
    expect(listInvestorsPage("pending", { ...page, query: "%" }).total).toBe(0);
    expect(listInvestorsPage("pending", { ...page, query: "" }).total).toBe(2);
  });
});

describe("the investors table (issue 23 §3)", () => {
  const newest: InvestorView = { status: "all", sort: "date", dir: "desc" };
  const first50 = { offset: 0, limit: 50 };
  const names = (view: InvestorView, window = first50) => listInvestorTable(view, window).map((u) => u.name);

  it("counts each status (admins left out), narrowed by the search", async () => {
    await insertUser({ name: "Éva Pending", status: "pending" });
    await insertUser({ name: "Otto Pending", status: "pending" });
    await insertUser({ name: "Eva Approved", status: "approved" });
    await insertUser({ name: "Rita Rejected", status: "rejected" });
    await insertAdmin({ name: "Eva Admin" });
    expect(countInvestors()).toEqual({ pending: 2, approved: 1, rejected: 1 });
    expect(countInvestors("EVA")).toEqual({ pending: 1, approved: 1, rejected: 0 });
    expect(countInvestors("nobody")).toEqual({ pending: 0, approved: 0, rejected: 0 });
  });

  it("lists all statuses or one, newest first by default, by name A–Z (case folded) or Z–A, a window at a time", async () => {
    for (const [name, status] of [
      ["bob", "pending"],
      ["Ada", "approved"],
      ["Éric", "rejected"],
      ["carl", "approved"],
    ] as const) {
      await insertUser({ name, status });
    }
    await insertAdmin({ name: "Aaron Admin" });
    expect(names(newest)).toEqual(["carl", "Éric", "Ada", "bob"]);
    expect(names({ ...newest, dir: "asc" })).toEqual(["bob", "Ada", "Éric", "carl"]);
    expect(names({ ...newest, status: "approved" })).toEqual(["carl", "Ada"]);
    expect(names({ ...newest, sort: "name", dir: "asc" })).toEqual(["Ada", "bob", "carl", "Éric"]);
    expect(names({ ...newest, sort: "name", dir: "desc" })).toEqual(["Éric", "carl", "bob", "Ada"]);
    expect(names({ ...newest, sort: "name", dir: "asc", query: "ERIC" })).toEqual(["Éric"]);
    expect(names({ ...newest, sort: "name", dir: "asc" }, { offset: 1, limit: 2 })).toEqual(["bob", "carl"]);
    expect(names(newest, { offset: 0, limit: 0 })).toEqual([]);
  });

  it("counts and the default order read an index, never the whole table", () => {
    const plan = (query: { toSQL(): { sql: string; params: unknown[] } }) => {
      const { sql, params } = query.toSQL();
      const rows = getDb().$client.prepare(`explain query plan ${sql}`).all(...(params as never[])) as { detail: string }[];
      return rows.map((row) => row.detail).join("\n");
    };
    for (const status of ["pending", "approved", "rejected"] as const) {
      expect(plan(investorCountQuery(status, ""))).toMatch(/SEARCH lp_users USING COVERING INDEX lp_users_status_(created_at|search|email)_idx \(status=\? AND is_admin=\?\)/);
      expect(plan(investorCountQuery(status, "eva"))).toMatch(/USING COVERING INDEX lp_users_status_search_idx/);
      expect(plan(investorTableQuery({ ...newest, status }, first50))).toMatch(/SEARCH lp_users USING INDEX lp_users_status_created_at_idx/);
    }
    const all = plan(investorTableQuery(newest, first50));
    expect(all).toMatch(/SEARCH lp_users USING INDEX lp_users_admin_created_at_idx \(is_admin=\?\)/);
    expect(all).not.toMatch(/TEMP B-TREE/);
  });

  it("knows when an approved investor was approved (the audit trail), and nothing for the others", async () => {
    const admin = await insertAdmin();
    const approved = await insertUser({ status: "pending" });
    const waiting = await insertUser({ status: "pending" });
    const before = Date.now();
    setUserStatus(admin, approved.id, "approved");
    const dates = approvalDates([approved.id, waiting.id]);
    expect([...dates.keys()]).toEqual([approved.id]);
    expect(dates.get(approved.id)!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(approvalDates([]).size).toBe(0);
  });

  it("the page: tabs' counts, the view's rows, a page past the end shows the last; former list links move to their tab", async () => {
    const admin = await insertAdmin();
    const cookie = await sessionCookieFor(admin);
    await insertUser({ name: "Pia Pending", status: "pending" });
    await insertUser({ name: "Abe Approved", status: "approved" });
    const load = (query: string) =>
      callRouteWith(investorsLoader as never, apiRequest("GET", `/admin/investors${query}`, { cookie })) as unknown as Promise<{
        view: InvestorView;
        table: { rows: { name: string; status: string }[]; page: number; total: number; counts: Record<string, number> };
      }>;
    const all = await load("");
    expect(all.view).toMatchObject({ status: "all", sort: "date", dir: "desc", query: "" });
    expect(all.table).toMatchObject({ page: 1, total: 2, counts: { pending: 1, approved: 1, rejected: 0 } });
    expect(all.table.rows.map((row) => [row.name, row.status])).toEqual([
      ["Abe Approved", "approved"],
      ["Pia Pending", "pending"],
    ]);
    const pending = await load("?status=pending&page=9&sort=name");
    expect(pending.view).toMatchObject({ status: "pending", sort: "name", dir: "asc" });
    expect(pending.table).toMatchObject({ page: 1, total: 1 });
    expect((await load("?status=nonsense&dir=sideways")).view).toMatchObject({ status: "all", dir: "desc" });
    const moved = (query: string) => load(query).then(
      (answer) => expectRedirect(answer).location,
      (thrown: unknown) => expectRedirect(thrown).location,
    );
    expect(await moved("?q=abe&approved.page=3")).toBe("/admin/investors?q=abe&status=approved&page=3");
    expect(await moved("?pending.page=1")).toBe("/admin/investors?status=pending");
  });

  it("a status change without JavaScript comes back to the view it was confirmed in", async () => {
    const admin = await insertAdmin();
    const cookie = await sessionCookieFor(admin);
    const post = async (query: string) => {
      const user = await insertUser({ status: "pending" });
      const request = formRequest("/admin/investors", { intent: "status", userId: user.id, status: "rejected", query });
      request.headers.set("Cookie", cookie);
      return expectRedirect(await callRouteWith(investorsAction as never, request)).location;
    };
    expect(await post("?status=pending&q=ann")).toBe("/admin/investors?status=pending&q=ann");
    for (const query of ["", "//evil.example", "?a=1#x", "https://evil.example/"]) expect(await post(query)).toBe("/admin/investors");
  });
});

describe("the overview's reads", () => {
  it("counts what waits and lists the oldest pending requests first", async () => {
    const first = await insertUser({ status: "pending" });
    const second = await insertUser({ status: "pending" });
    await insertUser({ status: "approved" });
    await insertAdmin();
    fundRequest("fund-ii", 2);
    fundRequest("fund-ii", 9);
    fundRequest("fund-i", 1);
    expect(waitingCounts()).toEqual({ pendingInvestors: 2, recentFundIiRequests: 1, pitchesDueSoon: 0 });
    expect(oldestPendingInvestors(5).map((u) => u.id)).toEqual([first.id, second.id]);
    expect(recentFundIiAccessRequests().requests.map((r) => r.name)).toEqual(["Visitor 2"]);
    insertDocument(PDF);
    expect(portalCounts()).toEqual({ approvedInvestors: 1, documents: 1, subscribers: expect.any(Number) });
  });

  it("counts confirmed newsletter subscribers only, as the e-mail list does", () => {
    const db = getDb();
    const row = (email: string, status: "pending" | "confirmed" | "unsubscribed") => db.insert(newsletterSubscribers).values({ email, status }).run();
    row("one@example.com", "confirmed");
    row("two@example.com", "confirmed");
    row("waiting@example.com", "pending");
    row("gone@example.com", "unsubscribed");
    expect(portalCounts().subscribers).toBe(2);
    expect(portalCounts().subscribers).toBe(countList("newsletter"));
  });

  it("names the document and the person of the latest accesses", async () => {
    const investor = await insertUser({ name: "Ida Investor", status: "approved" });
    const lp = insertDocument(PDF, { title: "Q3 Letter" });
    const fund = insertFundDocument(PDF);
    const holder = fundRequest("fund-ii", 0, "Hal Holder");
    const meta = { ip: "10.0.0.1", userAgent: "test" };
    recordAccess({ action: "view", documentKind: "lp", document: lp, actor: { kind: "lp_user", id: investor.id, email: investor.email }, meta });
    recordAccess({ action: "download", documentKind: "fund", document: fund, actor: { kind: "fund_access_user", id: holder.id, email: holder.email }, meta });
    recordAccess({ action: "view", documentKind: "lp", document: { id: "deleted-id", title: "Deleted" }, actor: { kind: "lp_user", id: "gone", email: "gone@example.test" }, meta });
    const entries = latestAccesses(10);
    expect(entries).toHaveLength(3);
    const of = (documentId: string) => entries.find((entry) => entry.documentId === documentId);
    const [lpEntry, fundEntry, gone] = [of(lp.id), of(fund.id), of("deleted-id")];
    expect(lpEntry).toMatchObject({ action: "view", documentTitle: "Q3 Letter", actorName: "Ida Investor" });
    expect(fundEntry).toMatchObject({ action: "download", documentKind: "fund", documentTitle: "Fund II Deck", actorName: "Hal Holder" });
    expect(gone).toMatchObject({ documentTitle: null, actorName: null });
  });

  it("sends an old link into the one-page dashboard to the page that owns it", async () => {
    const admin = await insertAdmin();
    const cookie = await sessionCookieFor(admin);
    const moved = (query: string) =>
      callRouteWith(overviewLoader as never, apiRequest("GET", `/admin/dashboard${query}`, { cookie })).then(
        (answer) => expectRedirect(answer).location,
        (thrown: unknown) => expectRedirect(thrown).location,
      );
    expect(await moved("?approved.page=3")).toBe("/admin/investors?approved.page=3");
    expect(await moved("?newsletter.sort=email&newsletter.dir=asc")).toBe("/admin/email-lists?newsletter.sort=email&newsletter.dir=asc");
    expect(await moved("?confirm=revoke-fund-access&request=x")).toBe("/admin/fund-access?confirm=revoke-fund-access&request=x");
    expect(legacyDashboardTarget(new URLSearchParams("theme=dark"))).toBeNull();
    expect(legacyAnchorTarget("published-documents")).toBe("/admin/documents#published-documents");
    expect(legacyAnchorTarget("constructor")).toBeNull();
  });
});
