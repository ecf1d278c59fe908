import { randomBytes, randomUUID } from "node:crypto";
import type { APIRequestContext, APIResponse, BrowserContext, Page, TestInfo } from "@playwright/test";
import { HtmlValidate } from "html-validate";
import { ADMIN_SECTIONS } from "../../app/modules/admin/paths";
import { setStatusViaApi, userIdByEmail } from "./helpers/accounts";
import { axeViolations } from "./helpers/axe";
import { sampleDocument, useSessionCookie, type LpCategoryValue } from "./helpers/document-ui";
import { adminSession, approvedInvestorSession, newApiContext, uploadDocument, withDb, type Session } from "./helpers/documents";
import { expect, test } from "./helpers/fixtures";
import { insertPitchRow } from "./helpers/pitches";
import { statementFixture } from "../helpers/pdf-docs";
import { pendingInvestor } from "./helpers/portal";

/**
 * Every page of the two workspaces (each admin section, the upload and bulk
 * forms, a pitch's page, a document's access history, a fund's and an
 * entity's page; the LP home, account, capital account and a call's notice),
 * with a few investors in each state, documents, pitches and an entity with
 * a commitment, a paid call and a valuation, held to what issue 23 asks of an
 * application's pages:
 * - on a 390 px phone nothing sticks out past the screen's right edge and
 *   nothing scrolls inside a box of its own (lists page instead);
 * - axe, with its best-practice rules too (landmarks, unique landmark names,
 *   one main), in the light theme, and its colour rules again in the dark one
 *   (the markup is the same; helpers/axe.ts COLOUR_RULES);
 * - html-validate's recommended rules on the server's HTML.
 * Each check looks at every page and fails once with every offender listed.
 */

test.skip(({ javaScriptEnabled }) => javaScriptEnabled === false, "layout, axe and the HTML are the same without JavaScript: checked once, in the js project");

test.describe.configure({ timeout: 120_000 });

type Role = "admin" | "investor";
type WorkspacePage = { path: string; role: Role };
type Workspace = { cookies: Record<Role, string>; pages: WorkspacePage[] };

let workspace: Promise<Workspace> | undefined;

/** Once per worker, over the API: the data a firm's workspace has on an ordinary day. */
function workspaceData(testInfo: TestInfo): Promise<Workspace> {
  workspace ??= (async () => {
    const admin = await adminSession("layout-admin");
    const investor = await approvedInvestorSession(admin, "layout-investor");
    const api = await newApiContext();
    // Investors waiting, approved and rejected (long addresses, as real ones are).
    const others = [];
    for (const label of ["layout-pending-investor", "layout-pending-investor", "layout-approved-investor", "layout-rejected-investor"]) {
      others.push(await pendingInvestor(api, testInfo, label));
    }
    await setStatus(admin, others[2]!.email, "approved");
    await setStatus(admin, others[3]!.email, "rejected");
    // A Fund II access request.
    const fund = await api.post("/api/fund-access/register", {
      data: { name: "Fund Two Visitor", email: `layout-fund-${randomBytes(3).toString("hex")}@example.com`, fundId: "fund-ii", accreditedConfirmation: true },
    });
    expect(fund.status(), await fund.text()).toBe(201);
    await api.dispose();
    // Documents in three categories; the investor opened the first (its access history has rows).
    const ids: string[] = [];
    for (const [label, category] of [
      ["Quarterly Report Q3 2026", "reports"],
      ["Annual Letter to Limited Partners", "newsletters"],
      ["Capital Call Notice", "fund_documents"],
    ] as const satisfies ReadonlyArray<readonly [string, LpCategoryValue]>) {
      const doc = sampleDocument(testInfo, label, 150_000);
      const uploaded = await uploadDocument(
        admin.context,
        { title: doc.title, description: doc.description, category },
        { name: doc.fileName, mimeType: "application/pdf", buffer: doc.bytes },
      );
      expect(uploaded.status(), await uploaded.text()).toBe(201);
      ids.push(((await uploaded.json()) as { id: string }).id);
    }
    for (const action of ["view", "download"]) {
      const response = await investor.context.get(`/api/documents/${ids[0]}/${action}`);
      expect(response.status(), `${action} ${ids[0]}`).toBe(200);
    }
    // Capital accounts: an entity (the investor its owner, another investor a viewer) with a Fund II
    // commitment; a published call it paid, and a valuation (its notice, the fund's and the entity's pages).
    const capital = await capitalData(admin, investor, others[2]!.email);
    // Pitches: an overdue one, one in review, a fresh one.
    const pitch = insertPitchRow({ company: "Quantum Lattice Materials GmbH", daysAgo: 30 });
    insertPitchRow({ company: "Helio Photonics", daysAgo: 3, status: "in_review" });
    insertPitchRow({ company: "Borealis Battery Systems", daysAgo: 0 });
    await admin.context.dispose();
    await investor.context.dispose();
    const adminPaths = [
      ...ADMIN_SECTIONS.map(({ path }) => path),
      "/admin/documents/upload",
      "/admin/documents/bulk",
      `/admin/documents/${ids[0]}/access`,
      `/admin/pitches/${pitch}`,
      "/admin/funds/fund-ii",
      "/admin/funds/fund-ii/calls/new",
      "/admin/funds/fund-ii/distributions/new",
      "/admin/funds/fund-ii/valuations",
      "/admin/funds/fund-ii/payment-instructions",
      "/admin/funds/fund-ii/statements",
      "/admin/funds/fund-ii/import",
      `/admin/ledger/${capital.callId}`,
      `/admin/ledger/${capital.draftId}`,
      `/admin/ledger/${capital.draftId}/change`,
      `/admin/entities/${capital.entityId}`,
    ];
    return {
      cookies: { admin: admin.cookie, investor: investor.cookie },
      pages: [
        ...adminPaths.map((path): WorkspacePage => ({ path, role: "admin" })),
        ...["/lp/dashboard", "/lp/account", "/lp/capital-account", "/lp/capital-account/ledger", `/lp/notices/${capital.callId}`, "/lp/statements", `/lp/statements/${capital.statementId}`].map((path): WorkspacePage => ({ path, role: "investor" })),
      ],
    };
  })();
  return workspace;
}

/** Over the admin's JSON API: an answer with this status, as its JSON. */
async function answered<T>(response: Promise<APIResponse>, status: number): Promise<T> {
  const answer = await response;
  expect(answer.status(), `${answer.url()}: ${await answer.text()}`).toBe(status);
  return (await answer.json()) as T;
}

/**
 * An entity of the investor's (owner) and another's (viewer) with a Fund II commitment, a published call
 * it paid in full and a valuation. The run's server is shared: the call's other shares go to whatever
 * Fund II commitments other workers made; this entity's share is read from the answer.
 */
async function capitalData(admin: Session, investor: Session, viewerEmail: string): Promise<{ entityId: string; callId: string; draftId: string; statementId: string }> {
  const tag = randomBytes(3).toString("hex");
  const members = [
    { userId: await userIdByEmail(admin.context, "", investor.email), role: "owner" },
    { userId: await userIdByEmail(admin.context, "", viewerEmail), role: "viewer" },
  ];
  const entity = await answered<{ id: string }>(admin.context.post("/api/entities", { data: { name: `Meyer Family Trust ${tag}`, kind: "trust", members } }), 201);
  await answered(admin.context.post("/api/commitments", { data: { entityId: entity.id, fund: "fund-ii", amount: "250000.00", acceptedOn: "2024-01-15" } }), 201);
  const call = await answered<{ id: string }>(
    admin.context.post("/api/capital-calls", {
      data: {
        fund: "fund-ii",
        noticeDate: "2024-02-01",
        dueDate: "2024-02-29",
        lines: [
          { type: "investment", amount: "80000.00" },
          { type: "management_fee", amount: "20000.00" },
        ],
      },
    }),
    201,
  );
  await answered(admin.context.post(`/api/capital-calls/${call.id}/publish`), 200);
  // Publishing splits the call again over the commitments then in force (another worker's may have come since the draft).
  const published = await answered<{ entities: { entityId: string; due: string }[] }>(admin.context.get(`/api/capital-calls/${call.id}`), 200);
  const share = published.entities.find((e) => e.entityId === entity.id)!.due;
  await answered(admin.context.post(`/api/capital-calls/${call.id}/payments`, { data: { entityId: entity.id, amount: share, receivedOn: "2024-02-20" } }), 201);
  await answered(admin.context.post("/api/valuations", { data: { fund: "fund-ii", date: "2025-09-30", values: [{ entityId: entity.id, nav: "262500.00" }] } }), 201);
  // A distribution left as a draft: its page shows the allocation before anything is sent.
  const draft = await answered<{ id: string }>(
    admin.context.post("/api/distributions", {
      data: { fund: "fund-ii", paymentDate: "2025-10-15", lines: [{ type: "return_of_capital", amount: "30000.00", recallable: true }, { type: "realized_gain", amount: "12500.00" }] },
    }),
    201,
  );
  return { entityId: entity.id, callId: call.id, draftId: draft.id, statementId: insertStatement(entity.id, `Meyer Family Trust ${tag}`) };
}

/**
 * A published statement of the entity (a restated one: its page shows the most), put straight into the
 * database: publishing one through the API needs every Fund II entity of the shared server to tie out.
 * Its quarter, 2015-Q1, is one no other spec dates anything in (a published quarter refuses such dates).
 */
function insertStatement(entityId: string, entityName: string): string {
  const quarterId = randomUUID();
  const statementId = randomUUID();
  const doc = statementFixture({ entity: { id: entityId, name: entityName }, quarter: "2015-Q1", periodEnd: "2015-03-31", version: 2, restated: true, differences: [{ row: "endingNav", previous: "1950000.00", current: "1950479.75" }] });
  withDb(
    (db) => {
      const fundId = (db.prepare("select id from funds where slug = 'fund-ii'").get() as { id: string }).id;
      db.prepare("insert or ignore into statement_quarters (id, fund_id, quarter, version, status, published_at) values (?, ?, '2015-Q1', 2, 'published', ?)").run(quarterId, fundId, Date.now());
      const quarter = db.prepare("select id from statement_quarters where fund_id = ? and quarter = '2015-Q1' and version = 2").get(fundId) as { id: string };
      db.prepare("insert into statements (id, quarter_id, entity_id, figures) values (?, ?, ?, ?)").run(statementId, quarter.id, entityId, JSON.stringify(doc));
    },
    { write: true },
  );
  return statementId;
}

async function setStatus(admin: Session, email: string, status: "approved" | "rejected") {
  await setStatusViaApi(admin.context, "", await userIdByEmail(admin.context, "", email), status);
}

/** The browser signed in as `role`, in the light theme (the cookie). */
async function signIn(context: BrowserContext, baseURL: string, data: Workspace, role: Role) {
  await context.clearCookies();
  await context.addCookies([{ name: "theme", value: "light", url: baseURL }]);
  await useSessionCookie(context, baseURL, data.cookies[role]);
}

/** Open a workspace page as its role and wait for its title (and React). */
async function open(page: Page, baseURL: string, data: Workspace, { path, role }: WorkspacePage, current: { role?: Role }) {
  if (current.role !== role) {
    await signIn(page.context(), baseURL, data, role);
    current.role = role;
  }
  const response = await page.goto(path);
  expect(response?.status(), `GET ${path}`).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.locator("html[data-hydrated]")).toBeAttached();
}

/**
 * What a phone user would see wrong, measured in the page: the page wider
 * than the screen, visible elements past the right edge (unless a box
 * around them clips them), and boxes that scroll on their own. Each
 * offender as "tag.class "text…" (what)"; the outermost only.
 */
function layoutProblems(page: Page): Promise<{ scrollWidth: number; width: number; overflowing: string[]; scrolling: string[] }> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const describe = (el: Element, what: string) => {
      const className = typeof el.className === "string" ? el.className.trim().replace(/\s+/g, ".") : "";
      const text = (el.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 40);
      return `${el.tagName.toLowerCase()}${className ? `.${className}` : ""} "${text}" (${what})`;
    };
    const visible = (el: Element) => el.checkVisibility({ visibilityProperty: true, opacityProperty: true });
    const clippedByAncestor = (el: Element) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const style = getComputedStyle(a);
        if (style.overflowX !== "visible" && a.getBoundingClientRect().right <= width + 0.5) return true;
        // Visually hidden text (sr-only): clipped to nothing.
        if (style.clip === "rect(0px, 0px, 0px, 0px)" || style.clipPath === "inset(50%)") return true;
      }
      return false;
    };
    const overflowing: Element[] = [];
    const scrolling: string[] = [];
    for (const el of document.body.querySelectorAll("*")) {
      if (!visible(el)) continue;
      const style = getComputedStyle(el);
      const rect = el.getBoundingClientRect();
      const hidden = style.clip === "rect(0px, 0px, 0px, 0px)" || style.clipPath === "inset(50%)";
      if (!hidden && rect.width > 0 && rect.height > 0 && rect.right > width + 0.5 && !clippedByAncestor(el) && !overflowing.some((o) => o.contains(el))) {
        overflowing.push(el);
      }
      const tag = el.tagName.toLowerCase();
      if (tag === "textarea" || tag === "select") continue;
      const scrollsY = /auto|scroll/.test(style.overflowY) && el.scrollHeight > el.clientHeight + 1;
      const scrollsX = /auto|scroll/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1;
      if (scrollsY || scrollsX) {
        scrolling.push(
          describe(el, [scrollsY && `scrolls ${el.scrollHeight} px in ${el.clientHeight} px tall`, scrollsX && `scrolls ${el.scrollWidth} px in ${el.clientWidth} px wide`].filter(Boolean).join(", ")),
        );
      }
    }
    return {
      scrollWidth: document.documentElement.scrollWidth,
      width,
      overflowing: overflowing.map((el) => describe(el, `right edge at ${Math.round(el.getBoundingClientRect().right)} px`)),
      scrolling,
    };
  });
}

/** axe's violations of WCAG 2.0/2.1 A and AA and its best practices, one line per rule and element. */
const htmlValidate = new HtmlValidate({
  extends: ["html-validate:recommended"],
  rules: {
    // React writes attributes as it names them (e.g. SVG's viewBox) and void elements as <br/>.
    "attr-case": "off",
    "void-style": "off",
    // style="" is React's only way to set a computed value (a progress bar's width, a CSS variable).
    "no-inline-style": "off",
    // React renders a true boolean attribute as required="" and an empty one as download="": hold
    // every page to that one form instead of the rules' default (the name alone), which React cannot write.
    "attribute-boolean-style": ["error", { style: "empty" }],
    "attribute-empty-style": ["error", { style: "empty" }],
    // A multi-valued field (the recipients of a document) is a group of checkboxes with one name, as
    // HTML posts it and FormData.getAll reads it; the rule's default wants PHP's name[] for that.
    "form-dup-name": ["error", { shared: ["radio", "checkbox", "button", "reset", "submit"] }],
  },
});

async function expectFitsThePhone(page: Page, what: string) {
  const found = await layoutProblems(page);
  expect.soft(found.width, `${what}: the viewport`).toBe(390);
  expect.soft(found.scrollWidth, `${what}: the page's width`).toBeLessThanOrEqual(390);
  expect.soft(found.overflowing, `${what}: elements past the right edge at 390 px`).toEqual([]);
  expect.soft(found.scrolling, `${what}: boxes that scroll on their own at 390 px`).toEqual([]);
}

/**
 * Each page as loaded at 1280 px (light, the cookie): axe with its best practices; then switched to
 * dark in place as the theme toggle does it, axe's colour rules again; then the same page at 390 px,
 * held to the phone's layout rules (one walk of the pages for the three checks: a page load and its
 * hydration cost more than the checks). Each workspace's phone menu, open, once.
 */
async function expectPagesPass(page: Page, baseURL: string, data: Workspace, pages: WorkspacePage[]) {
  const current: { role?: Role } = {};
  const menuSeen = new Set<Role>();
  for (const target of pages) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await open(page, baseURL, data, target, current);
    await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
    expect.soft((await axeViolations(page, { bestPractice: true })).lines, `${target.path}, light theme: axe violations`).toEqual([]);
    // The colours' transitions run to their end before axe reads the colours.
    await page.evaluate(async () => {
      document.documentElement.classList.remove("light");
      document.documentElement.classList.add("dark");
      await Promise.all(document.getAnimations().map((animation) => animation.finished));
    });
    await expect(page.locator("html")).toHaveClass(/\bdark\b/);
    // The same markup: in the dark theme the rules that read colours run again (helpers/axe.ts COLOUR_RULES).
    expect.soft((await axeViolations(page, { coloursOnly: true })).lines, `${target.path}, dark theme: axe violations`).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await expectFitsThePhone(page, target.path);
    if (!menuSeen.has(target.role)) {
      menuSeen.add(target.role);
      const menu = page.locator(`[data-testid="${target.role === "admin" ? "admin" : "lp"}-menu"]`);
      await menu.locator("summary").click();
      await expect(menu.getByRole("navigation")).toBeVisible();
      await expectFitsThePhone(page, `${target.path}, the menu open`);
    }
  }
}

// Two halves, every other page each (the admin sections, the heaviest pages, come first): each takes a worker's while.
for (const half of [0, 1] as const) {
  test(`every page passes axe with its best practices, light and dark, and fits a 390 px phone (${half === 0 ? "first" : "second"} half)`, async ({ page, baseURL }, testInfo) => {
    const data = await workspaceData(testInfo);
    await expectPagesPass(page, baseURL!, data, data.pages.filter((_, i) => i % 2 === half));
  });
}

test("every page's server HTML passes html-validate's recommended rules", async ({ playwright, baseURL }, testInfo) => {
  const data = await workspaceData(testInfo);
  const contexts: Partial<Record<Role, APIRequestContext>> = {};
  try {
    for (const { path, role } of data.pages) {
      contexts[role] ??= await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Cookie: data.cookies[role] }, maxRedirects: 0 });
      const response = await contexts[role].get(path);
      expect(response.status(), `GET ${path}`).toBe(200);
      const html = await response.text();
      expect(html, `${path}: a whole page`).toContain("<main");
      const lines = html.split("\n");
      const report = await htmlValidate.validateString(html, path);
      const errors = report.results.flatMap((result) =>
        result.messages.map((m) => {
          const at = (lines[m.line - 1] ?? "").slice(Math.max(0, m.column - 1), m.column + 80);
          return `${m.ruleId}: ${m.message} — at ${m.selector ?? `${m.line}:${m.column}`}: ${at}`;
        }),
      );
      expect.soft(errors, `${path}: html-validate errors`).toEqual([]);
    }
  } finally {
    for (const context of Object.values(contexts)) await context.dispose();
  }
});
