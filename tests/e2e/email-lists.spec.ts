import fs from "node:fs";
import { randomBytes } from "node:crypto";
import type { Download, Page } from "@playwright/test";
import { adminDate, startIsolatedServer, useSessionCookie } from "./helpers/document-ui";
import {
  asRows,
  DEFAULT_SORT,
  emailList,
  expectCsvShape,
  expectedTsv,
  expectNoReload,
  expectSameRows,
  expectSorted,
  expectSortState,
  expectViewParams,
  exportFileNamePattern,
  exportRecords,
  LIST_KEYS,
  LISTS,
  PAGE_SIZE,
  readAllTableRows,
  readTableRows,
  registerUser,
  requestFundAccess,
  SECTION_TITLE,
  setReloadMarker,
  setUserStatuses,
  showingText,
  subscribe,
  totalOf,
  TOASTS,
  type Column,
  type Direction,
  type ListKey,
  type Row,
  type SeedUser,
  type Sort,
} from "./helpers/email-lists";
import { expect, expectToast, test as base } from "./helpers/fixtures";
import { newAccount } from "./helpers/portal";
import { mintSessionCookie } from "./helpers/sessions";

/**
 * The admin's 'Email Lists (Copy & Export)' page (SPEC.md §2, §8, §9),
 * with JavaScript (sort links navigate in place, Copy All, toasts) and
 * without it (the same links load the page; no Copy All): sorting by every
 * column in both directions, the toggle and first-direction rules, paging,
 * Download CSV and Copy All with their exact contents, and the empty lists.
 *
 * Why a server of its own: the run's server is shared with specs that add
 * users, subscribers and fund requests at any moment, so its totals move
 * under a test and its lists outgrow one page. Here each worker starts the
 * production server on an empty database (helpers/document-ui.ts
 * startIsolatedServer) and seeds it once through the public API with a known
 * data set, chosen so that a case-sensitive sort, a missing company sorted as
 * '' (not 'N/A') or an unstable date order all give a different order. The
 * tests only read it, so every check can be exact: the whole list (all pages),
 * its total, and the export files byte for byte against the rows shown.
 */

type Seeded = {
  baseURL: string;
  adminCookie: string;
  expected: Record<ListKey, Row[]>;
};

/** Investors, registered in this order (some without a company, names and e-mails in mixed case). */
const LP_USERS: SeedUser[] = [
  { name: "Walter Wu", company: "nova Robotics", email: "walter.wu@example.com", status: "rejected" },
  { name: "alice Adams", email: "zz.alice@example.com", status: "rejected" },
  { name: "Bob Brown", company: "Acme Corp", email: "Bob.Brown@Example.com", status: "rejected" },
  { name: "carol Chen", company: "beta Labs", email: "carol@example.com", status: "rejected" },
  { name: "Dave Diaz", email: "a.dave@example.com", status: "approved" },
  { name: '=HYPERLINK("x")', company: "Zeta Fusion", email: "eve@example.com", status: "pending" },
  { name: "Mallory Moss", company: "Acme Corp", email: "mallory@example.com", status: "approved" },
  { name: "erin Evans", company: "ion Systems", email: "Erin@Example.com", status: "pending" },
];

/** Fund II requests (and one Fund I request, which is not on the Fund II list). */
const FUND_II = [
  { name: "zoe Zimmer", email: "a.zoe@example.com" },
  { name: "Adam Apple", email: "Zed.Adam@Example.com" },
  { name: "@risk Partners", email: "risk@example.com" },
  { name: "bella Brook", email: "m.bella@example.com" },
  { name: "Carl Cobb", email: "c.carl@example.com" },
];
const FUND_I = { name: "Fiona First", email: "fiona.first@example.com" };

/** 53 subscribers (more than a page of 50), their e-mails in an order unrelated to their sign-up order, some typed in capitals. */
const SUBSCRIBERS = Array.from({ length: 53 }, (_, i) => {
  const local = `${String.fromCharCode(97 + ((i * 7) % 26))}${(i * 31) % 53}-reader`;
  return i % 5 === 0 ? `${local.toUpperCase()}@Example.COM` : `${local}@example.com`;
});

const TOTALS: Record<ListKey, number> = {
  "lp-users": LP_USERS.length,
  "rejected-lp-users": LP_USERS.filter((u) => u.status === "rejected").length,
  "fund-ii-requests": FUND_II.length,
  newsletter: SUBSCRIBERS.length,
};

const test = base.extend<{ adminPage: Page }, { seeded: Seeded }>({
  seeded: [
    async ({ playwright }, use) => {
      const server = await startIsolatedServer();
      try {
        const admin = {
          email: `lists-admin-${randomBytes(4).toString("hex")}@example.com`,
          name: "Lists Admin",
          password: `pw-${randomBytes(8).toString("hex")}`,
        };
        await server.createAdmin(admin);
        const api = await playwright.request.newContext({
          baseURL: server.baseURL,
          maxRedirects: 0,
        });
        for (const user of LP_USERS) await registerUser(api, user);
        const adminCookie = await mintSessionCookie(admin.email);
        await setUserStatuses(api, adminCookie, LP_USERS);
        for (const request of FUND_II) await requestFundAccess(api, { ...request, fundId: "fund-ii" });
        await requestFundAccess(api, { ...FUND_I, fundId: "fund-i" });
        for (const email of SUBSCRIBERS) await subscribe(api, email);
        await api.dispose();
        await use({
          baseURL: server.baseURL,
          adminCookie,
          expected: {
            "lp-users": asRows(LP_USERS, "lp-users"),
            "rejected-lp-users": asRows(
              LP_USERS.filter((u) => u.status === "rejected"),
              "rejected-lp-users",
            ),
            "fund-ii-requests": asRows(FUND_II, "fund-ii-requests"),
            newsletter: asRows(
              SUBSCRIBERS.map((email) => ({ email })),
              "newsletter",
            ),
          },
        });
      } finally {
        await server.stop();
      }
    },
    { scope: "worker", timeout: 180_000 },
  ],
  // Every page and request of these tests goes to the seeded server.
  baseURL: async ({ seeded }, use) => {
    await use(seeded.baseURL);
  },
  /** The page, signed in as the seeded server's admin (a session made over the API). */
  adminPage: async ({ page, context, seeded }, use) => {
    await useSessionCookie(context, seeded.baseURL, seeded.adminCookie);
    await use(page);
  },
});

test.describe.configure({ timeout: 120_000 });

const DASHBOARD = "/admin/email-lists";

/** The e-mail lists page, loaded (and hydrated with JavaScript). */
async function openDashboard(page: Page, visit: (path: string) => Promise<unknown>, path = DASHBOARD) {
  await visit(path);
  await expect(page.getByRole("heading", { level: 2, name: SECTION_TITLE, exact: true })).toBeVisible();
}

/** The heading, status line and paging of a list at page 1. */
async function expectFirstPage(page: Page, list: ListKey) {
  const ui = emailList(page, list);
  const total = TOTALS[list];
  await expect(ui.heading).toHaveText(`${LISTS[list].label} ${total} total`);
  await expect(ui.showing).toHaveText(showingText(1, Math.min(PAGE_SIZE, total), total));
  if (total > PAGE_SIZE) {
    await expect(ui.previous).toHaveAttribute("aria-disabled", "true");
    await expect(ui.next).toBeVisible();
    await expect(ui.next).not.toHaveAttribute("aria-disabled", "true");
  } else {
    await expect(ui.previous).toHaveCount(0);
    await expect(ui.next).toHaveCount(0);
  }
}

/** Every row of the list in its current sort (all pages), checked against the seed, the rule, and the date format. */
async function expectListOrder(page: Page, list: ListKey, sort: Sort, seeded: Seeded): Promise<Row[]> {
  const rows = await readAllTableRows(page, list, TOTALS[list]);
  expectSameRows(rows, seeded.expected[list], `${list} sorted by ${sort.column} ${sort.direction}`);
  expectSorted(rows, sort, `${list} in the table`);
  for (const row of rows) {
    expect(row.dateTime, `${row.email}: a <time datetime>`).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(row.date, `${row.email}: the date as 'MMM dd, yyyy'`).toBe(adminDate(new Date(row.dateTime!)));
  }
  return rows;
}

/**
 * What each click on a column's sort link must give, written out (SPEC.md §2):
 * clicking the active column toggles; a new column starts ascending, except
 * date, which starts descending.
 */
/**
 * The header clicks each table's test makes. The LP users table walks every
 * column both ways (the table component and its links are one for all four
 * lists); the others walk one column of their own both ways and back to the
 * date. Every column's order of every list is checked in Vitest
 * (tests/integration/email-lists.test.ts, every sort of every list against the
 * database; tests/unit/email-lists-sort.test.ts), here only that the links do it.
 */
const SORT_WALKS: Record<ListKey, [Column, Direction][]> = {
  "lp-users": [
    ["company", "asc"],
    ["company", "desc"],
    ["name", "asc"],
    ["name", "desc"],
    ["email", "asc"],
    ["email", "desc"],
    ["date", "desc"],
    ["date", "asc"],
    ["company", "asc"],
  ],
  "rejected-lp-users": [
    ["name", "asc"],
    ["name", "desc"],
    ["date", "desc"],
  ],
  "fund-ii-requests": [
    ["email", "asc"],
    ["email", "desc"],
    ["date", "desc"],
  ],
  newsletter: [
    ["email", "asc"],
    ["email", "desc"],
    ["date", "desc"],
    ["date", "asc"],
  ],
};

for (const list of LIST_KEYS) {
  const { label, columns } = LISTS[list];

  // The sort is a link: one list in the no-js project is enough (the four share the table and its links).
  test(`${label}: default date descending, then each column in both directions (toggle; a new column ascending, date descending)`, list === "lp-users" ? { tag: "@no-js" } : {}, async ({
    adminPage: page,
    visit,
    jsEnabled,
    seeded,
  }) => {
    await openDashboard(page, visit);
    const ui = emailList(page, list);
    await expect(ui.table).toBeVisible();
    await expect(ui.table.getByRole("columnheader")).toHaveText(
      columns.map((c) => ({ company: "Company", name: "Name", email: "Email", date: "Date" })[c]),
    );
    await expectFirstPage(page, list);

    // The default: date descending, newest first (no parameters in the URL).
    await expectSortState(page, list, DEFAULT_SORT);
    await expectViewParams(page, list, { sort: DEFAULT_SORT, page: 1 });
    expect(new URL(page.url()).search, "no parameters at first").toBe("");
    const byDate = await expectListOrder(page, list, DEFAULT_SORT, seeded);
    // Newest first is the reverse of the order they were made in.
    const made = seeded.expected[list].map((row) => row.email);
    expect(
      byDate.map((row) => row.email),
      "date descending lists the newest first",
    ).toEqual([...made].reverse());

    if (jsEnabled) await setReloadMarker(page);
    for (const [column, direction] of SORT_WALKS[list]) {
      const sort: Sort = { column, direction };
      // The link is named for what a click on it does.
      await ui.sortLink(column, direction).click();
      await expect(ui.header(column)).toHaveAttribute("aria-sort", direction === "asc" ? "ascending" : "descending");
      await expectSortState(page, list, sort);
      // A new order starts again at page 1.
      await expectFirstPage(page, list);
      await expectViewParams(page, list, { sort, page: 1 });
      const rows = await expectListOrder(page, list, sort, seeded);
      if (column === "date") {
        expect(
          rows.map((row) => row.email),
          `date ${direction}`,
        ).toEqual(direction === "asc" ? made : [...made].reverse());
      }
      if (jsEnabled) await expectNoReload(page);
    }
  });
}

test("the tables sort and page on their own: one table's clicks keep the others' sort and page", async ({
  adminPage: page,
  visit,
  jsEnabled,
}) => {
  await openDashboard(page, visit, `${DASHBOARD}?lp-users.sort=name&lp-users.dir=asc`);
  const lpName: Sort = { column: "name", direction: "asc" };
  await expectSortState(page, "lp-users", lpName);
  for (const list of ["rejected-lp-users", "fund-ii-requests", "newsletter"] as const) await expectSortState(page, list, DEFAULT_SORT);
  if (jsEnabled) await setReloadMarker(page);

  // Newsletter, page 2: the LP table keeps its sort.
  const newsletter = emailList(page, "newsletter");
  await newsletter.next.click();
  await expect(newsletter.showing).toHaveText(showingText(51, 53, 53));
  await expect(page.locator("section#email-list-newsletter")).toContainText("Page 2 of 2");
  await expect(newsletter.next).toHaveAttribute("aria-disabled", "true");
  expect(await readTableRows(page, "newsletter")).toHaveLength(3);
  await expectViewParams(page, "newsletter", { sort: DEFAULT_SORT, page: 2 });
  await expectViewParams(page, "lp-users", { sort: lpName, page: 1 });
  await expectSortState(page, "lp-users", lpName);

  // Fund II by e-mail: the LP sort and the newsletter's page stay.
  const fundEmail: Sort = { column: "email", direction: "asc" };
  await emailList(page, "fund-ii-requests").sortLink("email", "asc").click();
  await expect(emailList(page, "fund-ii-requests").header("email")).toHaveAttribute("aria-sort", "ascending");
  await expectSortState(page, "lp-users", lpName);
  await expect(newsletter.showing).toHaveText(showingText(51, 53, 53));
  await expectViewParams(page, "fund-ii-requests", {
    sort: fundEmail,
    page: 1,
  });
  await expectViewParams(page, "newsletter", { sort: DEFAULT_SORT, page: 2 });
  await expectViewParams(page, "lp-users", { sort: lpName, page: 1 });

  // Back to page 1 of the newsletter.
  await newsletter.previous.click();
  await expect(newsletter.showing).toHaveText(showingText(1, 50, 53));
  await expect(newsletter.previous).toHaveAttribute("aria-disabled", "true");
  await expectSortState(page, "fund-ii-requests", fundEmail);
  if (jsEnabled) await expectNoReload(page);
});

/** Click a link or button and take the file the browser saves. */
async function downloadOf(page: Page, click: () => Promise<void>): Promise<{ download: Download; text: string }> {
  const [download] = await Promise.all([page.waitForEvent("download"), click()]);
  const file = await download.path();
  expect(file, "the download was saved").toBeTruthy();
  return { download, text: fs.readFileSync(file!).toString("utf8") };
}

/**
 * The sorts the export checks use: some tables sorted by a column, some left
 * at the default, to show the files follow the table's order.
 */
const DOWNLOAD_SORTS: Partial<Record<ListKey, Sort>> = {
  "lp-users": { column: "company", direction: "asc" },
  "rejected-lp-users": { column: "name", direction: "desc" },
  newsletter: { column: "email", direction: "asc" },
};
const COPY_SORTS: Partial<Record<ListKey, Sort>> = {
  "lp-users": { column: "name", direction: "asc" },
  "fund-ii-requests": { column: "email", direction: "desc" },
};

function sortQuery(sorts: Partial<Record<ListKey, Sort>>): string {
  const search = new URLSearchParams();
  for (const [list, sort] of Object.entries(sorts)) {
    search.set(`${list}.sort`, sort.column);
    search.set(`${list}.dir`, sort.direction);
  }
  return `${DASHBOARD}?${search}`;
}

test("Download CSV saves every row of the list in the table's order: BOM, header row, 'N/A', UTC dates, formulas neutralised", async ({
  adminPage: page,
  visit,
  jsEnabled,
}) => {
  const sorts = DOWNLOAD_SORTS;
  await openDashboard(page, visit, sortQuery(sorts));
  for (const list of LIST_KEYS) {
    const ui = emailList(page, list);
    const sort = sorts[list] ?? DEFAULT_SORT;
    await expectSortState(page, list, sort);
    // Copy All needs JavaScript; Download CSV is a plain link.
    if (!jsEnabled) await expect(ui.copyAll).toHaveCount(0);
    const total = await totalOf(ui.heading, LISTS[list].label);
    expect(total).toBe(TOTALS[list]);

    const { download, text } = await downloadOf(page, () => ui.download.click());
    expect(download.suggestedFilename()).toMatch(exportFileNamePattern(list, "csv"));
    const records = expectCsvShape(text, list);
    // Every row, not just the page shown.
    expect(records.length - 1, `${list}: the CSV has one record per row of the list (${total})`).toBe(total);

    // The same rows, in the same order, as the table (read over every page).
    const rows = await readAllTableRows(page, list, total);
    expect(records, `${list}: the CSV lists the table's rows in the table's order`).toEqual(exportRecords(list, rows));
    expectSorted(rows, sort, `${list} in the table`);
    if (total > PAGE_SIZE) await ui.previous.click();

    if (list === "lp-users" || list === "rejected-lp-users") {
      // A missing company is written 'N/A'.
      const alice = records.find((r) => r[2] === "zz.alice@example.com");
      expect(alice?.[0], "a missing company is 'N/A' in the CSV").toBe("N/A");
    }
    if (list === "lp-users") {
      // A name a spreadsheet would run as a formula starts with a quote.
      const eve = records.find((r) => r[2] === "eve@example.com");
      expect(eve?.[1]).toBe(`'=HYPERLINK("x")`);
      expect(text).toContain(`,"'=HYPERLINK(""x"")",eve@example.com,`);
    }
    if (list === "fund-ii-requests") {
      expect(records.find((r) => r[1] === "risk@example.com")?.[0]).toBe("'@risk Partners");
      expect(text, "the Fund I request is not on the Fund II list").not.toContain("fiona.first@example.com");
    }
  }
});

test("Copy All puts every row on the clipboard as TSV in the table's order, the same as the .tsv export, and says 'Copied!'", async ({
  adminPage: page,
  context,
  visit,
  jsEnabled,
  baseURL,
}) => {
  test.skip(!jsEnabled, "Copy All needs JavaScript (the no-js run checks it is absent)");
  await context.grantPermissions(["clipboard-read", "clipboard-write"], {
    origin: baseURL,
  });
  const sorts = COPY_SORTS;
  await openDashboard(page, visit, sortQuery(sorts));
  await setReloadMarker(page);
  for (const list of LIST_KEYS) {
    const ui = emailList(page, list);
    const sort = sorts[list] ?? DEFAULT_SORT;
    await expectSortState(page, list, sort);
    await page.evaluate(() => navigator.clipboard.writeText("(nothing copied yet)"));

    await ui.copyAll.click();
    const copied = TOASTS.copied(LISTS[list].label);
    await expectToast(page, copied.title, copied.description);
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).not.toBe("(nothing copied yet)");
    const clipboard = await page.evaluate(() => navigator.clipboard.readText());

    // Exactly what the list's .tsv export gives for this sort …
    const exported = await page.request.get(`/admin/email-lists/${list}.tsv?sort=${sort.column}&dir=${sort.direction}`);
    expect(exported.status()).toBe(200);
    expect(clipboard, `${list}: the clipboard holds the .tsv export`).toBe(await exported.text());
    // … which is every row of the table, in its order, tab-separated, header first.
    const rows = await readAllTableRows(page, list, TOTALS[list]);
    expect(clipboard, `${list}: the clipboard holds the table's rows`).toBe(expectedTsv(list, rows));
    expect(clipboard.split("\n")).toHaveLength(TOTALS[list] + 1);
    if (TOTALS[list] > PAGE_SIZE) await ui.previous.click();
    if (list === "lp-users") expect(clipboard).toContain(`\t'=HYPERLINK("x")\teve@example.com\t`);
    if (list === "fund-ii-requests") expect(clipboard).toContain(`'@risk Partners\trisk@example.com\t`);
  }
  await expectNoReload(page);
});

test("Copy All that fails says 'Failed to copy' / 'Please try again' and downloads the rows instead", async ({
  adminPage: page,
  visit,
  jsEnabled,
}) => {
  test.skip(!jsEnabled, "Copy All needs JavaScript");
  const ui = emailList(page, "newsletter");
  const expectedTsvFile = async (sort: Sort) => {
    const response = await page.request.get(`/admin/email-lists/newsletter.tsv?sort=${sort.column}&dir=${sort.direction}`);
    expect(response.status()).toBe(200);
    return response.text();
  };

  // 1. The clipboard refuses the write: the fetched rows download as a .tsv file.
  await page.addInitScript(() => {
    Clipboard.prototype.writeText = () => Promise.reject(new DOMException("Write permission denied.", "NotAllowedError"));
  });
  await openDashboard(page, visit, sortQuery({ newsletter: { column: "email", direction: "desc" } }));
  let saved = await downloadOf(page, () => ui.copyAll.click());
  await expectToast(page, TOASTS.failed.title, TOASTS.failed.description);
  expect(saved.download.suggestedFilename()).toMatch(exportFileNamePattern("newsletter", "tsv"));
  expect(saved.text, "the downloaded rows are the copy that failed").toBe(await expectedTsvFile({ column: "email", direction: "desc" }));
  expect(saved.text.split("\n")).toHaveLength(TOTALS.newsletter + 1);

  // 2. No clipboard at all: the same.
  const noClipboard = await page.context().newPage();
  await noClipboard.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, "clipboard", {
      get: () => undefined,
      configurable: true,
    });
  });
  await noClipboard.goto(DASHBOARD);
  await expect(noClipboard.locator("html[data-hydrated]")).toBeAttached();
  saved = await downloadOf(noClipboard, () => emailList(noClipboard, "newsletter").copyAll.click());
  await expectToast(noClipboard, TOASTS.failed.title, TOASTS.failed.description);
  expect(saved.text).toBe(await expectedTsvFile(DEFAULT_SORT));

  // 3. The rows cannot be fetched: the toast, and the list's CSV downloads instead.
  const offline = await page.context().newPage();
  await offline.route("**/admin/email-lists/*.tsv*", (route) => route.fulfill({ status: 500, contentType: "text/plain", body: "boom" }));
  await offline.goto(DASHBOARD);
  await expect(offline.locator("html[data-hydrated]")).toBeAttached();
  saved = await downloadOf(offline, () => emailList(offline, "fund-ii-requests").copyAll.click());
  await expectToast(offline, TOASTS.failed.title, TOASTS.failed.description);
  expect(saved.download.suggestedFilename()).toMatch(exportFileNamePattern("fund-ii-requests", "csv"));
  const records = expectCsvShape(saved.text, "fund-ii-requests");
  expect(records.length - 1).toBe(TOTALS["fund-ii-requests"]);
});

test("with every list empty: '0 total', each list's empty text, no paging, and exports of the header row alone", async ({
  browser,
  jsEnabled,
  clientIp,
}, testInfo) => {
  // The seeded server is not empty: a server of its own, with nothing but an admin.
  const server = await startIsolatedServer();
  try {
    const admin = newAccount(testInfo, "admin");
    await server.createAdmin(admin);
    const cookie = await mintSessionCookie(admin.email);
    const context = await browser.newContext({
      baseURL: server.baseURL,
      javaScriptEnabled: jsEnabled,
      extraHTTPHeaders: { "X-Forwarded-For": clientIp },
      viewport: { width: 1280, height: 800 },
      locale: "en-US",
    });
    await useSessionCookie(context, server.baseURL, cookie);
    if (jsEnabled)
      await context.grantPermissions(["clipboard-read", "clipboard-write"], {
        origin: server.baseURL,
      });
    const page = await context.newPage();
    const response = await page.goto(DASHBOARD);
    expect(response?.status()).toBe(200);
    if (jsEnabled) await expect(page.locator("html[data-hydrated]")).toBeAttached();
    await expect(page.getByRole("heading", { level: 2, name: SECTION_TITLE, exact: true })).toBeVisible();

    for (const list of LIST_KEYS) {
      const ui = emailList(page, list);
      const { label, empty, columns } = LISTS[list];
      await expect(ui.heading).toHaveText(`${label} 0 total`);
      await expect(ui.emptyText).toBeVisible();
      await expect(ui.table.getByText(empty, { exact: true })).toBeVisible();
      expect(await readTableRows(page, list)).toEqual([]);
      await expect(ui.showing).toHaveCount(0);
      await expect(ui.next).toHaveCount(0);
      await expect(ui.previous).toHaveCount(0);
      await expectSortState(page, list, DEFAULT_SORT);

      const header = columns.map(
        (c) =>
          ({
            company: "Company",
            name: "Name",
            email: "Email",
            date: "Date (UTC)",
          })[c],
      );
      const csv = await downloadOf(page, () => ui.download.click());
      // The newsletter's CSV adds each subscriber's unsubscribe link.
      expect(csv.text).toBe(`\uFEFF${[...header, ...(list === "newsletter" ? ["Unsubscribe URL"] : [])].join(",")}\r\n`);

      if (jsEnabled) {
        await page.evaluate(() => navigator.clipboard.writeText("(nothing copied yet)"));
        await ui.copyAll.click();
        await expectToast(page, TOASTS.copied(label).title, TOASTS.copied(label).description);
        await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(header.join("\t"));
      } else {
        await expect(ui.copyAll).toHaveCount(0);
      }
    }
    await context.close();
  } finally {
    await server.stop();
  }
});
