import { randomBytes, randomUUID } from "node:crypto";
import type { APIRequestContext, BrowserContext, Page } from "@playwright/test";
import { registerViaApi } from "./helpers/accounts";
import { startIsolatedServer, type IsolatedServer } from "./helpers/document-ui";
import { expect, expectToast, test as base } from "./helpers/fixtures";
import { clickAndAnswerConfirm } from "./helpers/forms";
import { ADMIN_PAGES, adminEntry, adminList, newAccount, newBrowserContext, openAdminPage, openAsAdmin, TEXT, waitHydrated, type Account } from "./helpers/portal";
import { openDatabase } from "../../db/client";

/**
 * The admin workspace (issue 13): a page per part of the portal under one
 * navigation — a sidebar from the md width, a disclosure menu below it — with
 * count badges, the investors search and filter, the overview's inline
 * approvals, and old links into the one-page dashboard landing on the page
 * that now owns them. Every flow runs with JavaScript and without.
 */

const test = base.extend<{ isolated: (setup: (api: APIRequestContext) => Promise<void>) => Promise<{ server: IsolatedServer; page: Page; admin: Account }> }>({
  /** A server of its own (counts and 'oldest first' need an empty database), signed in as its admin. */
  isolated: async ({ browser, playwright, jsEnabled, clientIp }, use, testInfo) => {
    const servers: IsolatedServer[] = [];
    const contexts: BrowserContext[] = [];
    await use(async (setup) => {
      const server = await startIsolatedServer();
      servers.push(server);
      const admin = newAccount(testInfo, "admin");
      await server.createAdmin(admin);
      const api = await playwright.request.newContext({ baseURL: server.baseURL, extraHTTPHeaders: { "X-Forwarded-For": clientIp } });
      await setup(api);
      await api.dispose();
      const context = await newBrowserContext(browser, { baseURL: server.baseURL, jsEnabled, clientIp });
      contexts.push(context);
      const page = await context.newPage();
      await openAsAdmin(page, jsEnabled, admin);
      return { server, page, admin };
    });
    for (const context of contexts) await context.close();
    for (const server of servers) await server.stop();
  },
});

test.describe.configure({ timeout: 90_000 });

/** The sidebar (from the md width). */
const nav = (page: Page) => page.getByTestId("admin-sidebar");
/** The disclosure menu (below the md width) and its navigation. */
const menu = (page: Page) => page.getByTestId("admin-menu");
const menuNav = (page: Page) => menu(page).getByRole("navigation", { name: "Admin" });

test("the sidebar leads to every page, marks the current one and counts what waits", async ({ isolated, jsEnabled }, testInfo) => {
  const { page } = await isolated(async (api) => {
    for (const label of ["first", "second"]) await registerViaApi(api, newAccount(testInfo, label));
    const fund = await api.post("/api/fund-access/register", {
      data: { name: "Fund Two Visitor", email: `fund-${randomBytes(3).toString("hex")}@example.com`, fundId: "fund-ii", accreditedConfirmation: true },
    });
    expect(fund.status()).toBe(201);
  });

  const investors = nav(page).getByRole("link", { name: /^Investors/ });
  await expect(investors).toHaveAccessibleName(/^Investors\W+2 pending$/);
  await expect(nav(page).getByTestId("nav-badge-investors")).toHaveText("2");
  await expect(nav(page).getByRole("link", { name: /^Fund access/ })).toHaveAccessibleName(/^Fund access\W+1 new this week$/);
  await expect(nav(page).getByTestId("nav-badge-fund-access")).toHaveText("1");
  await expect(nav(page).getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");

  for (const [key, name] of [
    ["investors", /^Investors/],
    ["documents", /^Documents/],
    ["fund-access", /^Fund access/],
    ["email-lists", /^Email lists/],
    ["overview", /^Overview/],
  ] as const) {
    await nav(page).getByRole("link", { name }).click();
    await expect(page).toHaveURL(new RegExp(`${ADMIN_PAGES[key].path}$`));
    await expect(page.getByRole("heading", { level: 1, name: ADMIN_PAGES[key].heading })).toBeVisible();
    await expect(nav(page).getByRole("link", { name })).toHaveAttribute("aria-current", "page");
    await expect(nav(page).locator("[aria-current=page]")).toHaveCount(1);
    await expect(menu(page)).toBeHidden();
    await waitHydrated(page, jsEnabled);
  }
});

test("below the md width the navigation is a menu that opens without a script", { tag: "@no-js" }, async ({ isolated, jsEnabled }) => {
  const { page } = await isolated(async () => {});
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(nav(page)).toBeHidden();
  const summary = menu(page).locator("summary");
  await expect(summary).toContainText("Menu");
  await expect(menuNav(page).getByRole("link", { name: "Overview" })).toBeHidden();
  await summary.click();
  await expect(menuNav(page).getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");
  await menuNav(page).getByRole("link", { name: "Email lists" }).click();
  await expect(page.getByRole("heading", { level: 1, name: ADMIN_PAGES["email-lists"].heading })).toBeVisible();
  await waitHydrated(page, jsEnabled);
  await menu(page).locator("summary").click();
  await expect(menuNav(page).getByRole("link", { name: "Email lists" })).toHaveAttribute("aria-current", "page");
});

test("the frame: SPEC's banner, a one-row top bar and a slim footer; at 390 px each workspace page starts near the top and is no wider than the screen", async ({ isolated }) => {
  const { page, admin } = await isolated(async () => {});
  const banner = page.getByRole("banner");
  await expect(banner).toContainText("Admin Portal");
  await expect(banner.getByText("Administrator", { exact: true })).toBeVisible();
  await expect(banner).toContainText(admin.name);
  await expect(banner.getByRole("button", { name: "Logout" })).toBeVisible();
  // The slim footer: the legal links, no newsletter sign-up.
  const footer = page.getByRole("contentinfo");
  await expect(footer.getByRole("link", { name: "Privacy Policy" })).toBeVisible();
  await expect(footer.getByRole("textbox")).toHaveCount(0);

  await page.setViewportSize({ width: 390, height: 844 });
  const pages: Array<[string, string]> = [
    ...Object.values(ADMIN_PAGES).map(({ path, heading }): [string, string] => [path, heading]),
    ["/admin/pitches", "Pitches"],
    ["/admin/activity", "Activity"],
    ["/admin/account", "Account"],
    // An admin may open the investor portal: its frame is the same, with its own navigation.
    ["/lp/dashboard", `Welcome back, ${admin.name}`],
    ["/lp/account", "Account"],
  ];
  for (const [path, heading] of pages) {
    await page.goto(path);
    const title = page.getByRole("heading", { level: 1, name: heading });
    await expect(title).toBeVisible();
    expect((await title.boundingBox())!.y, `${path}: the title's distance from the top`).toBeLessThan(160);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${path}: the page's width`).toBeLessThanOrEqual(390);
    // On a phone the name and Logout are in the menu.
    await expect(page.getByRole("banner").getByRole("button", { name: "Logout" })).toBeHidden();
  }
});

test("the overview lists the oldest pending requests and approves one in place", { tag: "@no-js" }, async ({ isolated }, testInfo) => {
  const accounts = Array.from({ length: 6 }, (_, i) => newAccount(testInfo, `waiting${i}`));
  const { page } = await isolated(async (api) => {
    for (const account of accounts) await registerViaApi(api, account);
  });
  const block = page.getByRole("region", { name: "Pending investor requests" });
  const entries = block.getByRole("listitem");
  await expect(entries).toHaveCount(5);
  // Oldest first: the sixth (newest) waits for the next look.
  for (const [i, account] of accounts.entries()) {
    await expect(block.getByText(account.email.toLowerCase(), { exact: true })).toHaveCount(i < 5 ? 1 : 0);
  }
  await expect(page.getByTestId("count-approvedInvestors")).toHaveText("0");

  const first = entries.filter({ hasText: accounts[0]!.email.toLowerCase() });
  await first.getByRole("button", { name: "Approve" }).click();
  await expectToast(page, "User Approved", `${accounts[0]!.name} has been approved.`);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(block.getByText(accounts[0]!.email.toLowerCase(), { exact: true })).toHaveCount(0);
  await expect(block.getByText(accounts[5]!.email.toLowerCase(), { exact: true })).toHaveCount(1);
  await expect(page.getByTestId("count-approvedInvestors")).toHaveText("1");
});

test("the overview rejects a pending request in place, after asking", { tag: "@no-js" }, async ({ isolated, jsEnabled }, testInfo) => {
  const [rejectee, other] = [newAccount(testInfo, "rejectee"), newAccount(testInfo, "waiting")];
  const { page } = await isolated(async (api) => {
    await registerViaApi(api, rejectee);
    await registerViaApi(api, other);
  });
  const block = page.getByRole("region", { name: "Pending investor requests" });
  const entry = block.getByRole("listitem").filter({ hasText: rejectee.email.toLowerCase() });
  await expect(entry).toHaveCount(1);
  const question = TEXT.rejectQuestion(rejectee.name);

  if (jsEnabled) {
    // The browser's confirm, then the change in place: the overview stays.
    await clickAndAnswerConfirm(page, entry.getByRole("button", { name: "Reject" }), question, "accept");
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
  } else {
    // Without a script the confirm step opens on the investors page, where the change is made.
    await entry.getByRole("button", { name: "Reject" }).click();
    await expect(page).toHaveURL(/\/admin\/investors\?confirm=reject&user=[^&#]+#confirm$/);
    const confirmPanel = page.getByRole("region", { name: question });
    await confirmPanel.getByRole("button", { name: "Reject" }).click();
    await expect(page).toHaveURL(/\/admin\/investors$/);
  }
  const rejected = TEXT.rejected(rejectee.name);
  await expectToast(page, rejected.title, rejected.description);

  // On the server: rejected, the other request still waits.
  await openAdminPage(page, jsEnabled, "overview");
  await expect(block.getByText(rejectee.email.toLowerCase(), { exact: true })).toHaveCount(0);
  await expect(block.getByText(other.email.toLowerCase(), { exact: true })).toHaveCount(1);
  await openAdminPage(page, jsEnabled, "investors");
  await expect(adminEntry(page, "rejected", rejectee.email)).toBeVisible();
  await expect(adminEntry(page, "pending", rejectee.email)).toHaveCount(0);
});

/** `count` rows put straight into an isolated server's database, a minute apart: `make(i)` is the i-th oldest (1-based). */
function insertRows(server: IsolatedServer, sql: string, count: number, make: (i: number, at: number) => unknown[]) {
  const db = openDatabase(server.databasePath);
  try {
    const insert = db.$client.prepare(sql);
    const start = Date.now() - count * 60_000;
    db.$client.transaction(() => {
      for (let i = 1; i <= count; i++) insert.run(...make(i, start + i * 60_000));
    })();
  } finally {
    db.$client.close();
  }
}

/** Two digits: the rows' names sort the way they were made. */
const nth = (i: number) => String(i).padStart(2, "0");

test("the investors table pages 50 at a time, newest first: Next and Previous keep the search", async ({ isolated, jsEnabled }) => {
  const tag = randomBytes(3).toString("hex");
  const { page, server } = await isolated(async () => {});
  insertRows(
    server,
    "insert into lp_users (id, email, password_hash, name, company, status, created_at, confirmed_at) values (?, ?, 'not-a-hash', ?, 'Paged Capital', 'approved', ?, ?)",
    55,
    (i, at) => [randomUUID(), `paged-${tag}-${nth(i)}@example.com`, `Paged Investor ${tag} ${nth(i)}`, at, at],
  );
  await openAdminPage(page, jsEnabled, "investors", `?q=${tag}`);
  const list = adminList(page);
  const entries = list.getByTestId("investor-row");
  const expectNames = async (from: number, to: number) => {
    const want = Array.from({ length: from - to + 1 }, (_, k) => new RegExp(`Paged Investor ${tag} ${nth(from - k)}`));
    await expect(entries).toHaveText(want);
  };
  await expectNames(55, 6);
  await expect(list).toContainText("Showing 1\u201350 of 55");
  await expect(list).toContainText("Page 1 of 2");

  await list.getByRole("link", { name: "Next page of Investors" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/investors\\?q=${tag}&page=2#investor-list$`));
  await expectNames(5, 1);
  await expect(list).toContainText("Showing 51\u201355 of 55");
  await expect(list).toContainText("Page 2 of 2");
  await expect(list.getByRole("link", { name: "Next page of Investors" })).toHaveAttribute("aria-disabled", "true");

  await list.getByRole("link", { name: "Previous page of Investors" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/investors\\?q=${tag}#investor-list$`));
  await expectNames(55, 6);
});

test("the fund access requests page 50 at a time, newest first", async ({ isolated, jsEnabled }) => {
  const tag = randomBytes(3).toString("hex");
  const { page, server } = await isolated(async () => {});
  insertRows(
    server,
    "insert into fund_access_users (id, email, name, company, fund_id, accredited_confirmation, access_token_hash, created_at) values (?, ?, ?, 'Paged Capital', 'fund-ii', 1, ?, ?)",
    55,
    (i, at) => [randomUUID(), `requester-${tag}-${nth(i)}@example.com`, `Paged Requester ${tag} ${nth(i)}`, randomBytes(32).toString("hex"), at],
  );
  await openAdminPage(page, jsEnabled, "fund-access");
  const rows = page.getByTestId("fund-access-request");
  const expectEmails = async (from: number, to: number) => {
    const want = Array.from({ length: from - to + 1 }, (_, k) => new RegExp(`requester-${tag}-${nth(from - k)}@example\\.com`));
    await expect(rows).toHaveText(want);
  };
  await expectEmails(55, 6);
  await page.getByRole("link", { name: "Next page of Fund Access Requests" }).click();
  await expect(page).toHaveURL(/\/admin\/fund-access\?requests\.page=2#/);
  await expectEmails(5, 1);
  await expect(page.getByText("Showing 51\u201355 of 55")).toBeVisible();
  await page.getByRole("link", { name: "Previous page of Fund Access Requests" }).click();
  await expect(page).toHaveURL(/\/admin\/fund-access#/);
  await expectEmails(55, 6);
});

test("the investors search ignores case and accents, and a status tab narrows it", { tag: "@no-js" }, async ({ isolated, jsEnabled }, testInfo) => {
  const tag = randomBytes(3).toString("hex");
  const eloise = { ...newAccount(testInfo, "searched"), name: `Éloïse Ångström ${tag}`, company: `Qubit Förge ${tag}` };
  // A server of its own: a registration mails every admin, and the shared server has many.
  const { page } = await isolated(async (api) => {
    await registerViaApi(api, eloise);
    await registerViaApi(api, newAccount(testInfo, "other"));
  });
  await openAdminPage(page, jsEnabled, "investors");

  const search = page.getByRole("search", { name: "Search investors" });
  await search.getByLabel("Search investors").fill(`eloise angstrom ${tag}`);
  await search.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/investors\\?q=eloise\\+angstrom\\+${tag}`));
  const rows = adminList(page).getByTestId("investor-row");
  const tab = (label: string) => page.getByRole("navigation", { name: "Investors by status" }).getByRole("link", { name: new RegExp(`^${label}\\b`) });
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(eloise.name);
  await expect(tab("Pending")).toHaveText(/^Pending\s*1$/);
  await expect(tab("Approved")).toHaveText(/^Approved\s*0$/);

  // By company, in capitals and without its umlaut, on the Pending tab (the search keeps the tab).
  await tab("Pending").click();
  await expect(page).toHaveURL(/status=pending/);
  await search.getByLabel("Search investors").fill(`QUBIT FORGE ${tag}`);
  await search.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/status=pending/);
  await expect(page).toHaveURL(/q=QUBIT\+FORGE/);
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(eloise.name);

  // Nothing matches: the empty state says so.
  await search.getByLabel("Search investors").fill(`nobody-${tag}`);
  await search.getByRole("button", { name: "Search" }).click();
  await expect(page.getByTestId("investors-empty")).toContainText(`No investors match “nobody-${tag}”`);
  await page.getByRole("link", { name: "Clear" }).click();
  await expect(page).toHaveURL(/\/admin\/investors\?status=pending$/);
  await expect(page.getByTestId("investors-empty")).toHaveCount(0);
});

test("links into the former one-page dashboard land on the page that owns them", async ({ isolated, jsEnabled }) => {
  const { page } = await isolated(async () => {});
  const cases = [
    ["/admin/dashboard?newsletter.sort=email&newsletter.dir=asc", "/admin/email-lists?newsletter.sort=email&newsletter.dir=asc"],
    ["/admin/dashboard?pending.page=2", "/admin/investors?status=pending&page=2"],
    ["/admin/dashboard?requests.page=3", "/admin/fund-access?requests.page=3"],
    ["/admin/dashboard?confirm=delete-document&document=gone", "/admin/documents?confirm=delete-document&document=gone"],
  ] as const;
  for (const [from, to] of cases) {
    await page.goto(from);
    await expect(page).toHaveURL(new RegExp(`${to.replace(/[.?+]/g, "\\$&")}$`));
  }
  // A section anchor: with a script the overview moves on; without, the anchor is a link to the page.
  await page.goto("/admin/dashboard#email-lists");
  if (jsEnabled) {
    await expect(page).toHaveURL(/\/admin\/email-lists#email-lists$/);
  } else {
    const target = page.locator("#email-lists").getByRole("link", { name: "Email Lists (Copy & Export)" });
    await expect(target).toBeVisible();
    await target.click();
    await expect(page).toHaveURL(/\/admin\/email-lists#email-lists$/);
  }
  await expect(page.getByRole("heading", { level: 1, name: ADMIN_PAGES["email-lists"].heading })).toBeVisible();
});
