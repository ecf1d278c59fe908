import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { registerViaApi, setStatusViaApi, userIdByEmail } from "./helpers/accounts";
import { multipartBody, postRaw } from "./helpers/documents";
import { DOC_TEXT, investorDocuments, investorItem, LP_CATEGORIES, openCategory, sampleDocument, startIsolatedServer, type IsolatedServer, type LpCategoryValue } from "./helpers/document-ui";
import { expect, test as base } from "./helpers/fixtures";
import { newAccount, newBrowserContext, openAsInvestor, type Account } from "./helpers/portal";
import { mintSessionCookie } from "./helpers/sessions";

/**
 * The investor home, /lp/dashboard (issue 23 §3): "New for you" first — the
 * newest documents addressed to this investor or to all, a dot on those they
 * have not opened, category, date, View and Download — then SPEC's documents
 * by category. On a server of its own: the shared one gets other specs'
 * documents for everyone at any moment, which would push these out of the
 * newest few.
 */

const TEXT = {
  newForYou: "New for you",
  unread: "Unread",
  allRead: "You're all caught up: you have opened each of these.",
  unreadCount: (n: number) => `${n} unread`,
} as const;

type Lab = {
  server: IsolatedServer;
  api: APIRequestContext;
  adminCookie: string;
  /** Two approved investors. */
  a: Account & { id: string };
  b: Account & { id: string };
  /** A page of a browser of its own, signed in as `who`, the dashboard open. */
  openAs: (who: Account) => Promise<Page>;
};

const test = base.extend<{ lab: Lab }>({
  lab: async ({ browser, playwright, jsEnabled, clientIp }, use, testInfo) => {
    const server = await startIsolatedServer();
    const contexts: Awaited<ReturnType<typeof newBrowserContext>>[] = [];
    const api = await playwright.request.newContext({ baseURL: server.baseURL, extraHTTPHeaders: { "X-Forwarded-For": clientIp } });
    try {
      const admin = newAccount(testInfo, "admin");
      await server.createAdmin(admin);
      const adminCookie = await mintSessionCookie(admin.email);
      const approved = async (label: string) => {
        const account = newAccount(testInfo, label);
        await registerViaApi(api, account);
        const id = await userIdByEmail(api, adminCookie, account.email);
        await setStatusViaApi(api, adminCookie, id, "approved");
        return { ...account, id };
      };
      const a = await approved("alice");
      const b = await approved("bob");
      await use({
        server,
        api,
        adminCookie,
        a,
        b,
        openAs: async (who) => {
          const context = await newBrowserContext(browser, { baseURL: server.baseURL, jsEnabled, clientIp });
          contexts.push(context);
          const page = await context.newPage();
          await openAsInvestor(page, jsEnabled, who);
          return page;
        },
      });
    } finally {
      for (const context of contexts) await context.close();
      await api.dispose();
      await server.stop();
    }
  },
});

test.describe.configure({ timeout: 120_000 });

/** Publish a PDF through POST /api/documents (to everyone, or to the given investors); its id. */
async function publish(lab: Lab, doc: { title: string; fileName: string; bytes: Buffer }, category: LpCategoryValue, to: "all" | string[] = "all") {
  const { body, contentType } = multipartBody([
    { name: "title", value: doc.title },
    { name: "category", value: category },
    { name: "audience", value: to === "all" ? "all" : "selected" },
    ...(to === "all" ? [] : to.map((id) => ({ name: "recipientIds", value: id }))),
    { name: "file", value: doc.bytes, filename: doc.fileName, mimeType: "application/pdf" },
  ]);
  const response = await postRaw(lab.api, "/api/documents", body, contentType, { Cookie: lab.adminCookie });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** An investor opens a document (a view, as the View button's new tab does). */
async function openDocument(lab: Lab, who: Account, id: string) {
  const response = await lab.api.get(`/api/documents/${id}/view`, { headers: { Cookie: await mintSessionCookie(who.email) } });
  expect(response.status()).toBe(200);
}

const section = (page: Page) => page.getByTestId("new-for-you");
const rows = (page: Page) => section(page).getByTestId("new-for-you-row");
/** A row's first line: the title (and "Unread" before it, read from the dot's name). */
const row = (page: Page, title: string): Locator => rows(page).filter({ hasText: title });
const dot = (row: Locator) => row.getByRole("img", { name: TEXT.unread, exact: true });

/** Each row of "New for you" as [title, unread]. */
async function newForYou(page: Page): Promise<Array<[string, boolean]>> {
  const all = await rows(page).all();
  return Promise.all(
    all.map(async (r) => [((await r.locator("td").first().innerText()).split("\n")[0] ?? "").trim(), (await dot(r).count()) === 1] as [string, boolean]),
  );
}

test("New for you: A's own document and the one for everyone, unread; B sees only the one for everyone; the dot goes once A downloads it", async ({ lab, jsEnabled }, testInfo) => {
  const forAll = sampleDocument(testInfo, "Quarterly letter", 30_000);
  const forA = sampleDocument(testInfo, "Capital call notice", 40_000);
  const forAllId = await publish(lab, forAll, "newsletters");
  await publish(lab, forA, "fund_documents", [lab.a.id]);

  const pageA = await lab.openAs(lab.a);
  await expect(section(pageA).getByRole("heading", { level: 2, name: TEXT.newForYou })).toBeVisible();
  // Newest first, both unread, with their category and date, before the categories.
  expect(await newForYou(pageA)).toEqual([
    [forA.title, true],
    [forAll.title, true],
  ]);
  await expect(section(pageA).getByTestId("unread-count")).toHaveText(TEXT.unreadCount(2));
  const rowA = row(pageA, forA.title);
  await expect(rowA).toContainText("Fund Documents");
  await expect(rowA).toContainText(forA.fileName);
  await expect(rowA).toContainText(forA.size);
  await expect(rowA.locator("time")).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
  await expect(row(pageA, forAll.title)).toContainText("Newsletters");
  const view = rowA.getByRole("link", { name: `View ${forA.title} (opens in a new tab)`, exact: true });
  await expect(view).toHaveAttribute("target", "_blank");
  const sectionBox = (await section(pageA).boundingBox())!;
  const documentsBox = (await investorDocuments(pageA).heading.boundingBox())!;
  expect(sectionBox.y, "New for you comes before the categories").toBeLessThan(documentsBox.y);

  // B: only the document for everyone, also unread; nothing of A's anywhere on the page.
  const pageB = await lab.openAs(lab.b);
  expect(await newForYou(pageB)).toEqual([[forAll.title, true]]);
  await expect(pageB.getByText(forA.title)).toHaveCount(0);
  expect(await pageB.content()).not.toContain(forA.title);

  // A downloads their document from New for you: the dot goes (at once with JavaScript; on the next load in any case).
  const saving = pageA.waitForEvent("download");
  await rowA.getByRole("link", { name: `Download ${forA.title}`, exact: true }).click();
  expect((await saving).suggestedFilename()).toBe(forA.fileName);
  if (jsEnabled) {
    await expect(dot(rowA)).toHaveCount(0);
    await expect(section(pageA).getByTestId("unread-count")).toHaveText(TEXT.unreadCount(1));
  }
  await pageA.reload();
  expect(await newForYou(pageA)).toEqual([
    [forA.title, false],
    [forAll.title, true],
  ]);
  await expect(section(pageA).getByTestId("unread-count")).toHaveText(TEXT.unreadCount(1));

  // A opens the other one too: nothing unread, and the section says so in one sentence.
  await openDocument(lab, lab.a, forAllId);
  await pageA.reload();
  expect(await newForYou(pageA)).toEqual([
    [forA.title, false],
    [forAll.title, false],
  ]);
  await expect(section(pageA).getByText(TEXT.allRead, { exact: true })).toBeVisible();
  await expect(section(pageA).getByTestId("unread-count")).toHaveCount(0);

  // A's reading is A's: B's copy of the document for everyone is still unread.
  await pageB.reload();
  expect(await newForYou(pageB)).toEqual([[forAll.title, true]]);
});

test("New for you lists the 6 newest; the categories below stay SPEC's (collapsed, counted, empty ones say so); nothing is wider than a 390 px phone", async ({ lab }, testInfo) => {
  // No documents yet: SPEC's one sentence, and no New for you.
  const page = await lab.openAs(lab.a);
  await expect(page.getByRole("main").getByText(DOC_TEXT.emptyAll, { exact: true })).toBeVisible();
  await expect(section(page)).toHaveCount(0);

  // Eight documents, oldest first (the third for B only); the newest has a long unbroken title, as people paste them.
  const titles: string[] = [];
  for (let i = 1; i <= 8; i++) {
    const doc = sampleDocument(testInfo, i === 8 ? "Capital-account-statement-Q3-2026-Fund-II-Lumen-Ridge-Ventures-LP" : `Report ${i}`, 20_000);
    await publish(lab, doc, i % 2 === 0 ? "reports" : "research", i === 3 ? [lab.b.id] : "all");
    titles.push(doc.title);
  }
  await page.reload();
  // The 6 newest A may read (B's own document is not one of them), newest first, all unread.
  const mine = titles.filter((_, i) => i !== 2).reverse();
  expect(await newForYou(page)).toEqual(mine.slice(0, 6).map((t) => [t, true]));
  // The oldest of A's seven is only in its category.
  expect(mine).toHaveLength(7);
  await expect(rows(page).filter({ hasText: mine[6]! })).toHaveCount(0);
  await openCategory(investorDocuments(page).category("research"));
  await expect(investorItem(page, mine[6]!)).toBeVisible();

  // The categories: all seven, in SPEC's order, collapsed, each with its count; an empty one says so when opened.
  await page.reload();
  const list = investorDocuments(page);
  const counts: Record<string, number> = { reports: 4, research: 3 };
  for (const category of LP_CATEGORIES) {
    const details = list.category(category.value);
    await expect(details).not.toHaveAttribute("open");
    const n = counts[category.value] ?? 0;
    await expect(details.locator("summary")).toHaveText(new RegExp(`^\\s*${category.label}\\s*\\(${n} documents?\\)\\s*$`));
  }
  await openCategory(list.category("pitchdeck"));
  await expect(list.category("pitchdeck").getByText(DOC_TEXT.emptyCategory, { exact: true })).toBeVisible();

  // A 390 px phone: the page is no wider than the screen, and no element reaches past it.
  await page.setViewportSize({ width: 390, height: 844 });
  await openCategory(list.category("reports"));
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const overflowing = await page.evaluate(() =>
    [...document.querySelectorAll("main *")]
      .filter((el) => {
        const box = el.getBoundingClientRect();
        return box.width > 0 && (box.right > window.innerWidth + 0.5 || box.left < -0.5);
      })
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.getAttribute("class") ?? "").slice(0, 40)}`),
  );
  expect(overflowing).toEqual([]);
  // Every row of New for you keeps its title, category, date and both buttons on the phone.
  const newest = row(page, mine[0]!);
  await expect(newest.getByRole("link", { name: `Download ${mine[0]}`, exact: true })).toBeVisible();
  await expect(newest.getByRole("link", { name: `View ${mine[0]} (opens in a new tab)`, exact: true })).toBeVisible();
  await expect(newest.locator("time")).toBeVisible();
  await expect(newest.getByText("Reports", { exact: true })).toBeVisible();
});
