import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/modules/db/connection.server";
import { accessLog, fundAccessUsers, newsletterSubscribers } from "../../db/schema";
import { countList } from "~/modules/email-lists/email-lists.server";
import { latestAccesses, recordAccess } from "~/modules/access-log/access-log.server";
import { oldestPendingInvestors, portalCounts, recentFundIiAccessRequests, waitingCounts } from "~/modules/admin/overview.server";
import { legacyAnchorTarget, legacyDashboardTarget } from "~/modules/admin/paths";
import { listInvestorsPage } from "~/modules/lp-users/admin-search.server";
import { loader as overviewLoader } from "~/routes/admin/overview";
import { clearDocuments, insertDocument, insertFundDocument } from "../helpers/documents";
import { expectRedirect } from "../helpers/http";
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
