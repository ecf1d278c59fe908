import { beforeAll, describe, expect, it } from "vitest";
import { addEntityMember } from "~/modules/entities/entities.server";
import { readSetting } from "~/modules/firm-settings/settings.server";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { runPdfJobsUntilIdle } from "~/modules/pdf-jobs/runner.server";
import { action as statementsAction, loader as statementsLoader } from "~/routes/admin/fund-statements";
import { loader as fundLoader } from "~/routes/admin/fund";
import { loader as capitalLoader } from "~/routes/lp/capital-account";
import { loader as noticeLoader } from "~/routes/lp/notice";
import { loader as statementLoader } from "~/routes/lp/statement";
import { loader as listLoader } from "~/routes/lp/statements";
import { expectData, expectRedirect } from "../helpers/http";
import { Q1_PNL, writeStatementsFixture, type StatementsFixture } from "../helpers/statements-fixture";
import { callRouteWith, insertAdmin, insertUser, sessionCookieFor } from "../helpers/users";

/**
 * The statements' pages (issue 25 §1–2) through their route modules, against a
 * real SQLite file (tests/helpers/statements-fixture.ts: Fund II's Atlas and
 * Brunner, a call paid in Q1 2025, NAVs at the quarter ends): the admin's
 * /admin/funds/fund-ii/statements imports a quarter's P&L (a cent off is
 * refused row by row with its difference; the confirm step re-reads the
 * hidden text), publishes it, refuses a second publication, restates it and
 * publishes version 2, follows the PDF job, and sets the watermark — each
 * form with and without JavaScript's answer; the investor's /lp/statements
 * and /lp/statements/{id} read only their entities' statements (another's is
 * the unknown id's 404), with the roll-forward formatted and a restatement's
 * differences and versions; the fund, capital account and notice pages link
 * to them.
 */

const PAGE = "/admin/funds/fund-ii/statements";
const ORIGIN = "http://localhost:3000";

let admin: LpUser;
let owner: LpUser;
let viewer: LpUser;
let ids: StatementsFixture;
const cookies = { admin: "", owner: "", viewer: "" };

beforeAll(async () => {
  admin = await insertAdmin();
  ids = await writeStatementsFixture(admin);
  // The owner holds both entities; the viewer sees Atlas only.
  owner = await insertUser({ status: "approved", name: "Petra Owner" });
  viewer = await insertUser({ status: "approved", name: "Viktor Viewer" });
  addEntityMember(admin, ids.atlas, { userId: owner.id, role: "owner" });
  addEntityMember(admin, ids.brunner, { userId: owner.id, role: "owner" });
  addEntityMember(admin, ids.atlas, { userId: viewer.id, role: "viewer" });
  cookies.admin = await sessionCookieFor(admin);
  cookies.owner = await sessionCookieFor(owner);
  cookies.viewer = await sessionCookieFor(viewer);
});

type Answer = {
  status: "success" | "error";
  intent?: string;
  step?: string;
  formKey?: string;
  toast: { title: string; description?: string } | null;
  fields?: Record<string, string[]>;
  csv?: string;
  preview?: {
    quarter: string | null;
    ready: number;
    withErrors: number;
    figures: { label: string; value: string }[];
    rows: { entity: string; expected: string; actual: string; difference: string; errors: string[]; line: number | null }[];
  };
};
type AdminPage = { quarters: { quarter: string; pnlRows: string; status: { label: string }; pdfs: { text: string }; running: boolean; canPublish: boolean; canRestate: boolean }[]; running: boolean; watermark: boolean };

/** A form post to the statements page (multipart, as the page's forms send it); `enhanced` as a fetcher's. */
function post(fields: Record<string, string | File>, { enhanced = false, cookie = cookies.admin } = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (enhanced) form.append("_enhanced", "1");
  const request = new Request(ORIGIN + PAGE, { method: "POST", body: form, headers: { Cookie: cookie } });
  return callRouteWith(statementsAction as never, request, { params: { slug: "fund-ii" } });
}

const csvFile = (text: string, name = "pnl-2025-q1.csv") => new File([text], name, { type: "text/csv" });
const preview = (text: string, enhanced = true) => post({ intent: "statements-import", step: "preview", file: csvFile(text) }, { enhanced });

async function load<T>(fn: unknown, path: string, params: Record<string, string> = {}, cookie = cookies.admin): Promise<T> {
  return (await callRouteWith(fn as never, new Request(ORIGIN + path, { headers: { Cookie: cookie } }), { params })) as unknown as T;
}
const adminPage = () => load<AdminPage>(statementsLoader, PAGE, { slug: "fund-ii" });

/** A thrown 404 (the not-found page), with its title. */
async function expectNotFound(run: Promise<unknown>, title: string) {
  const error = (await run.then(
    () => null,
    (e: unknown) => e,
  )) as { init?: { status?: number }; data?: { title?: string } } | null;
  expect(error?.init?.status).toBe(404);
  expect(error?.data?.title).toBe(title);
}

/** Stand-in PDF bytes (the renderer is helper B's worker; these tests are about the pages). */
const render = async () => new TextEncoder().encode("%PDF-1.4\n% test\n%%EOF\n");

type Statement = {
  title: string;
  pdf: string | null;
  statement: {
    restated: boolean;
    version: number;
    table: { headings: string[]; groups: { rows: { key: string; values: string[] }[] }[] };
    figures: { label: string; value: string }[];
    notes: string[];
    differences: { key: string; previous: string; current: string }[];
  };
  earlier: { href: string; version: number }[];
  later: { href: string } | null;
};
const rowOf = (s: Statement, key: string) => s.statement.table.groups.flatMap((g) => g.rows).find((r) => r.key === key)!.values;

describe("the admin's statements page", () => {
  it("answers an unknown fund with the not-found page, and starts without quarters and without the watermark", async () => {
    await expectNotFound(load(statementsLoader, "/admin/funds/nope/statements", { slug: "nope" }), "Fund not found");
    expect(await adminPage()).toMatchObject({ quarters: [], running: false, watermark: false });
  });

  it("refuses a quarter a cent off at the preview, row by row with its difference, and offers no import", async () => {
    const text = Q1_PNL(ids).replace("-5000.00", "-5000.01");
    const { data, status } = expectData<Answer>(await preview(text));
    expect(status).toBe(400);
    expect(data.csv).toBeUndefined();
    expect(data.preview).toMatchObject({ quarter: "2025-Q1", ready: 1, withErrors: 1 });
    const atlas = data.preview!.rows.find((r) => r.entity === "Atlas Holdings AG")!;
    expect(atlas).toMatchObject({ expected: "$294,999.99", actual: "$295,000.00", difference: "$0.01" });
    expect(atlas.errors.join(" ")).toContain("Does not tie out");
    expect(data.preview!.rows.find((r) => r.entity === "Brunner Ventures GmbH")).toMatchObject({ difference: "$0.00", errors: [] });
    // Nothing was written.
    expect((await adminPage()).quarters).toEqual([]);
  });

  it("names an entity the file leaves out in a row of its own, without a line", async () => {
    const text = Q1_PNL(ids).split("\n").slice(0, 2).join("\n");
    const { data } = expectData<Answer>(await preview(text));
    const missing = data.preview!.rows.find((r) => r.entity === "Brunner Ventures GmbH")!;
    expect(missing.line).toBeNull();
    expect(missing.errors.join(" ")).toContain("No row for this entity");
  });

  it("imports a quarter that ties from the previewed text (no JavaScript: 303 back with a flash)", async () => {
    const { data, status } = expectData<Answer>(await preview(Q1_PNL(ids)));
    expect(status).toBe(200);
    expect(data.preview).toMatchObject({ quarter: "2025-Q1", ready: 2, withErrors: 0 });
    expect(data.preview!.figures.map((f) => f.value)).toEqual(["2025-Q1", "2", "2 of 2"]);
    expect(data.csv).toBe(Q1_PNL(ids));
    // A stale count (the file changed since its preview) is refused with the preview again.
    const stale = expectData<Answer>(await post({ intent: "statements-import", step: "confirm", csv: data.csv!, expected: "3", fileName: "pnl.csv" }, { enhanced: true }));
    expect(stale.status).toBe(422);
    expect(stale.data.fields?.form?.[0]).toContain("changed since its preview");
    const done = expectRedirect(await post({ intent: "statements-import", step: "confirm", csv: data.csv!, expected: "2", fileName: "pnl.csv" }));
    expect(done).toMatchObject({ status: 303, location: `${PAGE}#quarters` });
    const page = await adminPage();
    expect(page.quarters).toMatchObject([{ quarter: "2025-Q1", pnlRows: "2", status: { label: "Not published" }, pdfs: { text: "—" }, canPublish: true, canRestate: false }]);
  });

  it("publishes the quarter, follows its PDF job, and refuses publishing it twice in the quarter's menu", async () => {
    expectRedirect(await post({ intent: "publish-quarter", quarter: "2025-Q1" }));
    let page = await adminPage();
    expect(page.quarters[0]).toMatchObject({ status: { label: "Published v1" }, pdfs: { text: "0 of 2 made" }, running: true, canPublish: false, canRestate: true });
    expect(page.running).toBe(true);

    const again = expectData<Answer>(await post({ intent: "publish-quarter", quarter: "2025-Q1" }, { enhanced: true }));
    expect(again.status).toBe(409);
    expect(again.data).toMatchObject({ status: "error", intent: "publish-quarter", formKey: "2025-Q1" });
    expect(again.data.fields?.form?.[0]).toContain("already published");

    await runPdfJobsUntilIdle({ render });
    page = await adminPage();
    expect(page.quarters[0]).toMatchObject({ pdfs: { text: "All 2 made" }, running: false });
    expect(page.running).toBe(false);
  });

  it("answers an unknown intent with a 400 and a toast", async () => {
    const { data, status } = expectData<Answer>(await post({ intent: "drop-tables" }, { enhanced: true }));
    expect(status).toBe(400);
    expect(data.toast?.title).toBe("Not done");
  });
});

describe("the investor's statements", () => {
  it("lists the reader's entities' statements only, with their PDFs; another entity's filter is a 404", async () => {
    type List = { total: number; tabs: { id: string; name: string }[]; rows: { id: string; quarter: string; fund: string; entity: string; version: number; pdf: string | null }[] };
    const mine = await load<List>(listLoader, "/lp/statements", {}, cookies.owner);
    expect(mine.rows.map((r) => [r.quarter, r.fund, r.entity, r.version])).toEqual([
      ["2025-Q1", "Deeptech Fund II", "Atlas Holdings AG", 1],
      ["2025-Q1", "Deeptech Fund II", "Brunner Ventures GmbH", 1],
    ]);
    expect(mine.rows.every((r) => r.pdf?.startsWith("/api/documents/"))).toBe(true);
    expect(mine.tabs.map((t) => t.name)).toEqual(["Atlas Holdings AG", "Brunner Ventures GmbH"]);
    const atlasOnly = await load<List>(listLoader, `/lp/statements?entity=${ids.atlas}`, {}, cookies.owner);
    expect(atlasOnly.rows.map((r) => r.entity)).toEqual(["Atlas Holdings AG"]);

    const viewers = await load<List>(listLoader, "/lp/statements", {}, cookies.viewer);
    expect(viewers.rows.map((r) => r.entity)).toEqual(["Atlas Holdings AG"]);
    expect(viewers.tabs).toEqual([]);
    await expectNotFound(load(listLoader, `/lp/statements?entity=${ids.brunner}`, {}, cookies.viewer), "Statement not found");
  });

  it("shows a statement's roll-forward with negatives in parentheses, its figures and notes; another's or an unknown id is the 404", async () => {
    const list = await load<{ rows: { id: string; entity: string }[] }>(listLoader, "/lp/statements", {}, cookies.owner);
    const atlasId = list.rows.find((r) => r.entity === "Atlas Holdings AG")!.id;
    const brunnerId = list.rows.find((r) => r.entity === "Brunner Ventures GmbH")!.id;
    const s = await load<Statement>(statementLoader, `/lp/statements/${atlasId}`, { id: atlasId }, cookies.owner);
    expect(s.title).toBe("Capital account statement — Deeptech Fund II — 2025-Q1 — Atlas Holdings AG");
    expect(s.statement.table.headings).toEqual(["2025-Q1", "Year to date", "Inception to date"]);
    expect(rowOf(s, "beginningNav")).toEqual(["$0.00", "$0.00", "$0.00"]);
    expect(rowOf(s, "contributions")).toEqual(["$300,000.00", "$300,000.00", "$300,000.00"]);
    expect(rowOf(s, "managementFees")).toEqual(["($5,000.00)", "($5,000.00)", "($5,000.00)"]);
    expect(rowOf(s, "endingNav")).toEqual(["$295,000.00", "$295,000.00", "$295,000.00"]);
    expect(rowOf(s, "lessContributions")).toEqual(["($300,000.00)", "($300,000.00)", "($300,000.00)"]);
    expect(rowOf(s, "endingUnfunded")).toEqual(["$2,700,000.00", "$2,700,000.00", "$2,700,000.00"]);
    expect(s.statement.figures.find((f) => f.label === "Share of the fund")?.value).toBe("75.00 %");
    expect(s.statement.notes.at(-1)).toContain("Amounts in parentheses are negative");
    expect(s.pdf).toMatch(/^\/api\/documents\/[\w-]+\/download$/);
    expect(s).toMatchObject({ earlier: [], later: null, statement: { restated: false, version: 1 } });

    await expectNotFound(load(statementLoader, `/lp/statements/${brunnerId}`, { id: brunnerId }, cookies.viewer), "Statement not found");
    await expectNotFound(load(statementLoader, "/lp/statements/no-such-statement", { id: "no-such-statement" }, cookies.owner), "Statement not found");
    await expectNotFound(load(statementLoader, "/lp/statements/x%27", { id: "x'" }, cookies.owner), "Statement not found");
  });

  it("links each holding's latest statement and the entity's statements from the capital account, and a notice's PDF from its page", async () => {
    type Capital = { entity: { id: string; statements: boolean; funds: { fund: { slug: string }; statement: { href: string; quarter: string } | null }[] } };
    const capital = await load<Capital>(capitalLoader, `/lp/capital-account?entity=${ids.atlas}`, {}, cookies.viewer);
    expect(capital.entity.statements).toBe(true);
    expect(capital.entity.funds.find((f) => f.fund.slug === "fund-ii")?.statement).toMatchObject({ quarter: "2025-Q1", href: expect.stringMatching(/^\/lp\/statements\/[\w-]+$/) });
    type Notice = { shares: { entityName: string; pdf: string | null }[] };
    const notice = await load<Notice>(noticeLoader, `/lp/notices/${ids.call1}`, { id: ids.call1 }, cookies.viewer);
    expect(notice.shares.map((s) => s.entityName)).toEqual(["Atlas Holdings AG"]);
    expect(notice.shares[0]!.pdf).toMatch(/^\/api\/documents\/[\w-]+\/download$/);
    // The capital account's transactions: the call's row links the same PDF; a payment's row (it names the call) does not.
    type Row = { kind: string; reference: string; pdf: { href: string; label: string } | null };
    const rows = (await load<{ transactions: Row[] }>(capitalLoader, `/lp/capital-account?entity=${ids.atlas}`, {}, cookies.viewer)).transactions;
    const callRows = rows.filter((r) => r.kind.startsWith("Capital call") && r.reference === "Call 1");
    expect(callRows.length).toBeGreaterThan(0);
    for (const row of callRows) expect(row.pdf).toEqual({ href: notice.shares[0]!.pdf, label: "Call 1 notice of Atlas Holdings AG (PDF)" });
    expect(rows.filter((r) => r.kind === "Payment received").every((r) => r.pdf === null)).toBe(true);
  });
});

describe("a restatement", () => {
  it("reopens the quarter, publishes version 2 with its differences, and keeps version 1 readable with a link to the new one", async () => {
    const reopened = expectData<Answer>(await post({ intent: "restate-quarter", quarter: "2025-Q1" }, { enhanced: true }));
    expect(reopened.data).toMatchObject({ status: "success", toast: { title: "2025-Q1 reopened" }, formKey: "2025-Q1" });
    expect((await adminPage()).quarters[0]).toMatchObject({ status: { label: "Restating" }, canPublish: true, canRestate: false });

    // The corrected P&L: Atlas's fees 6,000.00, offset by a 1,000.00 unrealized gain (it still ties).
    const corrected = Q1_PNL(ids).replace(`${ids.atlas},fund-ii,2025-Q1,-5000.00,0,0,0,0,0`, `${ids.atlas},fund-ii,2025-Q1,-6000.00,0,0,0,1000.00,0`);
    const { data } = expectData<Answer>(await preview(corrected));
    expect(data.preview).toMatchObject({ ready: 2, withErrors: 0 });
    const imported = expectData<Answer>(await post({ intent: "statements-import", step: "confirm", csv: data.csv!, expected: "2", fileName: "pnl.csv" }, { enhanced: true }));
    expect(imported.data).toMatchObject({ status: "success", toast: { title: "P&L imported" } });
    expect(imported.data.preview).toBeUndefined();
    const published = expectData<Answer>(await post({ intent: "publish-quarter", quarter: "2025-Q1" }, { enhanced: true }));
    expect(published.data.toast).toMatchObject({ title: "2025-Q1 published", description: "Version 2: 2 statements are being made as PDFs." });
    expect((await adminPage()).quarters[0]).toMatchObject({ status: { label: "Published v2 (Restated)" } });

    const list = await load<{ rows: { id: string; entity: string; version: number; pdf: string | null }[] }>(listLoader, "/lp/statements", {}, cookies.owner);
    const atlas = list.rows.find((r) => r.entity === "Atlas Holdings AG")!;
    expect(atlas).toMatchObject({ version: 2, pdf: null });
    const v2 = await load<Statement>(statementLoader, `/lp/statements/${atlas.id}`, { id: atlas.id }, cookies.owner);
    expect(v2.statement).toMatchObject({ restated: true, version: 2 });
    expect(v2.statement.differences).toEqual([
      { key: "managementFees", label: "Management fees (net of offsets)", previous: "($5,000.00)", current: "($6,000.00)" },
      { key: "unrealizedGainChange", label: "Change in unrealized gain / (loss)", previous: "$0.00", current: "$1,000.00" },
    ]);
    expect(v2.earlier).toHaveLength(1);
    expect(v2.earlier[0]!.version).toBe(1);
    expect(v2.later).toBeNull();
    const v1Id = v2.earlier[0]!.href.split("/").pop()!;
    const v1 = await load<Statement>(statementLoader, v2.earlier[0]!.href, { id: v1Id }, cookies.owner);
    expect(v1.statement).toMatchObject({ restated: false, version: 1 });
    expect(v1.later).toEqual({ href: `/lp/statements/${atlas.id}` });
    expect(rowOf(v1, "managementFees")[0]).toBe("($5,000.00)");
  });
});

describe("the watermark setting and the fund page's link", () => {
  it("turns the watermark on without JavaScript (303 back) and off with it", async () => {
    const on = expectRedirect(await post({ intent: "statements-watermark", watermark: "on" }));
    expect(on).toMatchObject({ status: 303, location: `${PAGE}#watermark` });
    expect(readSetting("statements_watermark")).toBe(true);
    expect((await adminPage()).watermark).toBe(true);
    const off = expectData<Answer>(await post({ intent: "statements-watermark" }, { enhanced: true }));
    expect(off.data.toast?.title).toBe("Watermark off");
    expect(readSetting("statements_watermark")).toBe(false);
  });

  it("shows the fund's latest quarter on its page, beside the link", async () => {
    const fund = await load<{ latestStatements: string | null }>(fundLoader, "/admin/funds/fund-ii", { slug: "fund-ii" });
    expect(fund.latestStatements).toBe("Latest: 2025-Q1, Published v2 (Restated)");
    const other = await load<{ latestStatements: string | null }>(fundLoader, "/admin/funds/fund-i", { slug: "fund-i" });
    expect(other.latestStatements).toBeNull();
  });

  it("keeps the page to admins: an investor is sent away", async () => {
    const answer = await load<Response>(statementsLoader, PAGE, { slug: "fund-ii" }, cookies.owner).catch((e: unknown) => e);
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(302);
  });
});
