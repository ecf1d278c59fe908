import fs from "node:fs";
import { randomBytes } from "node:crypto";
import type { BrowserContext, Page } from "@playwright/test";
import { registerViaApi, setStatusViaApi, userIdByEmail } from "./helpers/accounts";
import {
  adminDate,
  DOC_TEXT,
  documentIdFrom,
  fillUpload,
  investorApprovedBy,
  investorDate,
  investorDocuments,
  investorItem,
  LP_CATEGORIES,
  openCategory,
  openRowMenu,
  openUpload,
  publishedPanel,
  publishedRow,
  rowCell,
  sampleDocument,
  startIsolatedServer,
  textFileAsPdf,
  uploadForm,
} from "./helpers/document-ui";
import { expectContentDisposition } from "./helpers/documents";
import { expect, expectToast, test as base, toast } from "./helpers/fixtures";
import { clickAndAnswerConfirm, holdPosts, recordWrites } from "./helpers/forms";
import { literal, newAccount, newAdmin, newBrowserContext, openAsAdmin, openAsInvestor, waitHydrated } from "./helpers/portal";
import { mintSessionCookie } from "./helpers/sessions";

/**
 * LP documents end to end (SPEC.md §2 "Investor dashboard" and "Admin
 * dashboard", §8, §9; DESIGN.md §3, §5), with JavaScript (the upload's
 * progress bar, toasts, window.confirm, the fetched download) and without it
 * (a plain multipart post with the outcome as a flash, the server's confirm
 * step, a plain download link): the documents page opens on the published list
 * (issue 23), 'Upload' opens the form on its own page, the admin uploads there
 * and lands back on the list,
 * the investor finds the file in its category and gets back the same bytes,
 * the admin sees who opened it, deletes it, and it is gone for the investor.
 *
 * The run's server is shared with other specs that upload documents at any
 * moment, so every check here is about this test's own, uniquely titled
 * documents; the "nothing yet" texts are checked on a server of their own.
 */

const test = base.extend<{ secondBrowser: (baseURL?: string) => Promise<Page> }>({
  /** Another browser (the investor's): the project's JavaScript setting and this test's client address. */
  secondBrowser: async ({ browser, baseURL, jsEnabled, clientIp }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (otherBaseURL) => {
      const context = await newBrowserContext(browser, { baseURL: otherBaseURL ?? baseURL, jsEnabled, clientIp });
      contexts.push(context);
      return context.newPage();
    });
    for (const context of contexts) await context.close();
  },
});

test.describe.configure({ timeout: 90_000 });

/** The investor's session (no sign-in pages: signing in is not what this spec tests), then the dashboard. */
const signInAsInvestor = openAsInvestor;

test("admin uploads a PDF → the investor finds it in its category → view and download give the same bytes → access is counted → admin deletes it → gone", { tag: "@no-js" }, async ({
  page,
  request,
  jsEnabled,
  clientIp,
  secondBrowser,
}, testInfo) => {
  const admin = await newAdmin(testInfo);
  const investor = await investorApprovedBy(request, testInfo, admin);
  // 1,300,000 bytes: "1.24 MB" (SPEC.md §9, 2 decimals).
  const doc = sampleDocument(testInfo, "Q3 Portfolio Report", 1_300_000);
  expect(doc.size).toBe("1.24 MB");

  // 1. The page opens on the published list; 'Upload' opens the form on its own page.
  await openAsAdmin(page, jsEnabled, admin, "documents");
  const panel = publishedPanel(page);
  await expect(panel.heading).toBeVisible();
  const form = uploadForm(page);
  await expect(form.form).toHaveCount(0);
  await openUpload(page, jsEnabled);
  // 2. The admin uploads it there, under 'Reports', and lands back on the list with the toast.
  await fillUpload(page, doc, "Reports");
  await form.submit.click();
  await expectToast(page, DOC_TEXT.uploaded.title, DOC_TEXT.uploaded.description);
  const uploadedOn = new Date();
  await expect(page).toHaveURL(/\/admin\/documents#published-documents$/);
  await expect(page.getByRole("heading", { level: 1, name: "Documents" })).toBeVisible();
  await expect(form.form).toHaveCount(0);

  // 3. It is a row of the table: title with file name and size, category, audience, opened 0 of N, date.
  await expect(panel.table).toBeVisible();
  const row = publishedRow(page, doc.title);
  await expect(row).toHaveCount(1);
  await expect(row).toBeVisible();
  await expect(rowCell(row, "title")).toContainText(doc.fileName);
  await expect(rowCell(row, "title")).toContainText(doc.size);
  await expect(rowCell(row, "category")).toHaveText("Reports");
  await expect(rowCell(row, "audience")).toHaveText("All approved investors");
  await expect(rowCell(row, "opened")).toHaveText(/^0 of [1-9]\d*$/);
  await expect(rowCell(row, "uploaded")).toHaveText(adminDate(uploadedOn));
  // Delete is not on the line: it waits in the row's menu.
  await expect(row.getByRole("button", { name: `Delete ${doc.title}`, exact: true })).toBeHidden();
  // The 'Reports' tab counts it and shows it.
  await panel.tab("Reports").click();
  await expect(page).toHaveURL(/[?&]category=reports/);
  await expect(row).toBeVisible();
  expect(new Set(await panel.table.locator("tr[data-testid=published-document] > td:nth-child(2)").allTextContents())).toEqual(new Set(["Reports"]));
  // The row's menu: View (a new tab), the access history and Delete.
  const adminView = (await openRowMenu(page, doc.title)).getByRole("link", { name: `View file ${doc.title} (opens in a new tab)`, exact: true });
  await expect(adminView).toHaveAttribute("target", "_blank");
  const id = await documentIdFrom(adminView);

  // 4. The investor signs in and finds it in 'Reports' (collapsed at first).
  const investorPage = await secondBrowser();
  await signInAsInvestor(investorPage, jsEnabled, investor);
  const list = investorDocuments(investorPage);
  await expect(list.heading).toBeVisible();
  await expect(list.region).toBeVisible();
  const reports = list.category("reports");
  await expect(reports).not.toHaveAttribute("open");
  // Listed there, but out of sight until the category opens.
  const hiddenTitle = reports.locator("h3").filter({ hasText: doc.title });
  await expect(hiddenTitle).toHaveCount(1);
  await expect(hiddenTitle).toBeHidden();
  const item = investorItem(investorPage, doc.title);
  await openCategory(reports);
  await expect(item).toBeVisible();
  await expect(reports.getByRole("heading", { level: 3, name: doc.title, exact: true })).toBeVisible();
  // Only there.
  await expect(list.region.getByRole("heading", { level: 3, name: doc.title, exact: true })).toHaveCount(1);
  // The count badge says how many the category lists.
  const listed = await reports.getByRole("listitem").count();
  expect(listed).toBeGreaterThanOrEqual(1);
  await expect(reports.locator("summary")).toHaveText(new RegExp(`^\\s*Reports\\s*\\(${listed} documents?\\)\\s*$`));
  await expect(item).toContainText(doc.description);
  const line = item.locator("p").filter({ hasText: doc.fileName });
  await expect(line).toContainText(doc.size);
  await expect(line).toContainText(investorDate(uploadedOn));
  await expect(line.locator("time")).toHaveText(investorDate(uploadedOn));

  // 5. View: opens in a new tab, inline, the very bytes uploaded.
  const view = item.getByRole("link", { name: `View ${doc.title} (opens in a new tab)`, exact: true });
  await expect(view).toHaveAttribute("target", "_blank");
  await expect(view).toHaveAttribute("rel", /noopener/);
  const viewHref = await view.getAttribute("href");
  expect(viewHref).toBe(`/api/documents/${id}/view`);
  const viewed = await investorPage.request.get(viewHref!);
  expect(viewed.status(), `GET ${viewHref}`).toBe(200);
  expect(viewed.headers()["content-type"]).toMatch(/^application\/pdf\b/);
  expectContentDisposition(viewed.headers()["content-disposition"], "inline", doc.fileName);
  expect(Buffer.compare(await viewed.body(), doc.bytes), "the viewed bytes are the uploaded ones").toBe(0);

  // 6. Download: the saved file has the document's name and bytes.
  const download = item.getByRole("link", { name: `Download ${doc.title}`, exact: true });
  await expect(download).toHaveAttribute("href", `/api/documents/${id}/download`);
  await expect(download).toHaveAttribute("download", doc.fileName);
  const saving = investorPage.waitForEvent("download");
  await download.click();
  const saved = await saving;
  // With JavaScript the page fetched the file itself and says so.
  if (jsEnabled) await expectToast(investorPage, DOC_TEXT.downloadStarted);
  expect(saved.suggestedFilename()).toBe(doc.fileName);
  expect(Buffer.compare(fs.readFileSync(await saved.path()), doc.bytes), "the downloaded bytes are the uploaded ones").toBe(0);
  await expect(investorPage).toHaveURL(/\/lp\/dashboard$/);

  // 7. The read status went up; the access history (from the row's menu) names the investor and both actions.
  await page.goto("/admin/documents");
  await waitHydrated(page, jsEnabled);
  await expect(rowCell(row, "opened")).toHaveText(/^1 of [1-9]\d*$/);
  const menu = await openRowMenu(page, doc.title);
  await menu.getByRole("link", { name: `Access history of ${doc.title}`, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/documents/${id}/access$`));
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 1, name: "Access history" })).toBeVisible();
  await expect(main).toContainText(doc.title);
  await expect(main).toContainText(doc.fileName);
  await expect(main).toContainText("1 view · 1 download");
  const entries = main.getByRole("table", { name: /^Accesses of / }).getByRole("row").filter({ hasText: investor.email.toLowerCase() });
  await expect(entries).toHaveCount(2);
  for (const action of [DOC_TEXT.actions.view, DOC_TEXT.actions.download]) {
    const entry = entries.filter({ has: page.getByRole("cell", { name: action, exact: true }) });
    await expect(entry, action).toHaveCount(1);
    await expect(entry).toContainText(investor.name);
  }
  // The view was fetched with the page's headers (X-Forwarded-For: this test's address). A
  // native download without JavaScript is made by the browser's download manager, which
  // does not send Playwright's extra headers, so only the view's address is known here.
  await expect(entries.filter({ hasText: DOC_TEXT.actions.view })).toContainText(clientIp);
  await main.getByRole("link", { name: "Back to the LP documents" }).click();
  await expect(page).toHaveURL(/\/admin\/documents#published-documents$/);
  await waitHydrated(page, jsEnabled);

  // 8. Delete (in the row's menu) asks first: changing one's mind keeps the document.
  await openRowMenu(page, doc.title);
  const remove = row.getByRole("button", { name: `Delete ${doc.title}`, exact: true });
  const question = page.getByRole("region", { name: DOC_TEXT.confirmDelete });
  const writes = recordWrites(page);
  if (jsEnabled) {
    await clickAndAnswerConfirm(page, remove, DOC_TEXT.confirmDelete, "dismiss");
  } else {
    await remove.click();
    await expect(page).toHaveURL(new RegExp(`/admin/documents\\?confirm=delete-document&document=${id}#confirm$`));
    await expect(question).toBeVisible();
    await expect(question).toContainText(doc.title);
    await expect(question).toContainText(doc.fileName);
    await question.getByRole("link", { name: "Cancel" }).click();
    await expect(page).toHaveURL(/\/admin\/documents#published-documents$/);
    await expect(question).toHaveCount(0);
  }
  expect(writes, "nothing was posted").toEqual([]);
  await expect(toast(page)).toHaveCount(0);
  await expect(row).toHaveCount(1);
  expect((await investorPage.request.get(`/api/documents/${id}/view`)).status(), "still there").toBe(200);

  // 9. Confirmed: deleted, and the row leaves the list.
  await openRowMenu(page, doc.title);
  if (jsEnabled) {
    await clickAndAnswerConfirm(page, remove, DOC_TEXT.confirmDelete, "accept");
  } else {
    await remove.click();
    await expect(question).toBeVisible();
    await question.getByRole("button", { name: "Delete document" }).click();
    await expect(page).toHaveURL(/\/admin\/documents#published-documents$/);
    await expect(question).toHaveCount(0);
  }
  await expectToast(page, DOC_TEXT.deleted.title, DOC_TEXT.deleted.description);
  await expect(row).toHaveCount(0);

  // 10. Gone for the investor: not listed, and its links answer 404.
  await investorPage.reload();
  await waitHydrated(investorPage, jsEnabled);
  await expect(investorPage.getByRole("heading", { level: 3, name: doc.title, exact: true })).toHaveCount(0);
  await expect(investorPage.getByRole("link", { name: `Download ${doc.title}`, exact: true })).toHaveCount(0);
  expect((await investorPage.request.get(`/api/documents/${id}/view`)).status()).toBe(404);
  expect((await investorPage.request.get(`/api/documents/${id}/download`)).status()).toBe(404);
});

test("the upload form's errors: 'Title is required', 'File is required', and a text file named .pdf refused ('Upload failed')", { tag: "@no-js" }, async ({
  page,
  jsEnabled,
}, testInfo) => {
  const admin = await newAdmin(testInfo);
  const fake = textFileAsPdf(testInfo);
  const title = `Not a PDF ${testInfo.project.name} ${randomBytes(3).toString("hex")}`;
  await openAsAdmin(page, jsEnabled, admin, "documents");
  await openUpload(page, jsEnabled);
  const form = uploadForm(page);
  const writes = recordWrites(page);

  // 1. Nothing filled in.
  if (!jsEnabled) {
    // The browser's own check (required) stops it first...
    await form.submit.click();
    await expect(form.title).toHaveJSProperty("validity.valueMissing", true);
    expect(writes, "the browser itself refuses it").toEqual([]);
    // ...so switch it off to see the server's answer, as from a browser that does not check.
    await form.form.evaluate((f: HTMLFormElement) => (f.noValidate = true));
  }
  await form.submit.click();
  await expect(form.error("title")).toHaveText(DOC_TEXT.titleRequired);
  await expect(form.error("file")).toHaveText(DOC_TEXT.fileRequired);
  await expect(form.error("title")).toHaveRole("alert");
  await expect(form.title).toHaveAttribute("aria-invalid", "true");
  await expect(form.file).toHaveAttribute("aria-invalid", "true");
  await expect(form.title).toHaveAccessibleDescription(DOC_TEXT.titleRequired);
  await expect(form.file).toHaveAccessibleDescription(literal(DOC_TEXT.fileRequired));
  if (jsEnabled) {
    // Checked in the browser: nothing sent, the first wrong field focused.
    expect(writes).toEqual([]);
    await expect(form.title).toBeFocused();
    await expect(toast(page)).toHaveCount(0);
  } else {
    // Back on the upload page (not the list), with the form's errors.
    await expect(page).toHaveURL(/\/admin\/documents\/upload#upload-document$/);
    await expectToast(page, DOC_TEXT.uploadFailed, DOC_TEXT.titleRequired);
  }

  // 2. A title, and a text file with a .pdf name: refused by its content.
  await form.title.fill(title);
  await form.file.setInputFiles({ name: fake.fileName, mimeType: "application/pdf", buffer: fake.bytes });
  if (jsEnabled) await expect(form.error("title")).toHaveCount(0);
  await form.submit.click();
  await expectToast(page, DOC_TEXT.uploadFailed, DOC_TEXT.fileType);
  // Destructive: not the default (white) notification.
  await expect(toast(page).filter({ hasText: DOC_TEXT.uploadFailed }).first()).not.toHaveCSS("background-color", "rgb(255, 255, 255)");
  await expect(form.error("file")).toHaveText(DOC_TEXT.fileType);
  await expect(form.file).toHaveAttribute("aria-invalid", "true");
  await expect(form.file).toHaveAccessibleDescription(literal(DOC_TEXT.fileType));
  await expect(form.error("title")).toHaveCount(0);
  await expect(form.title).not.toHaveAttribute("aria-invalid", "true");
  // What was typed stays (without JavaScript it comes back from the server); the file must be chosen again.
  await expect(form.title).toHaveValue(title);
  if (!jsEnabled) await expect(page).toHaveURL(/\/admin\/documents\/upload#upload-document$/);
  if (jsEnabled) await expect(form.file).toBeFocused();

  // 3. Still on the upload page, and nothing was published.
  await expect(page).toHaveURL(/\/admin\/documents\/upload/);
  await page.goto("/admin/documents");
  await waitHydrated(page, jsEnabled);
  // The list (a table, or the empty state while the run has no documents yet) does not have it.
  await expect(publishedPanel(page).table.or(publishedPanel(page).section.getByTestId("empty-state"))).toBeVisible();
  await expect(publishedRow(page, title)).toHaveCount(0);
});

test("with JavaScript a few-MB upload shows its progress bar, then the list opens with the document", async ({ page, jsEnabled }, testInfo) => {
  test.skip(!jsEnabled, "the progress bar is sent by the page's script (without JavaScript the form posts natively)");
  const admin = await newAdmin(testInfo);
  const doc = sampleDocument(testInfo, "Annual Research Pack", 3 * 1024 * 1024);
  expect(doc.size).toBe("3.00 MB");
  await openAsAdmin(page, jsEnabled, admin, "documents");
  await openUpload(page, jsEnabled);
  const form = uploadForm(page);
  await expect(form.progress).toHaveCount(0);
  await fillUpload(page, doc, "Research");

  // Hold the upload so its in-flight state can be looked at without racing the server.
  const release = await holdPosts(page, "/api/documents");
  await form.submit.click();
  await expect(form.progress).toBeVisible();
  await expect(form.progressText).toContainText(/of 3\.00 MB sent$/);
  await expect(form.progress).toHaveAttribute("max", String(doc.bytes.length));
  await expect(form.submit).toHaveText("Uploading...");
  await expect(form.submit).toHaveAttribute("aria-disabled", "true");
  release();

  await expectToast(page, DOC_TEXT.uploaded.title, DOC_TEXT.uploaded.description);
  // Done: back on the list (the form is gone with its page), the document listed under 'Research' with its size.
  await expect(page).toHaveURL(/\/admin\/documents#published-documents$/);
  await expect(form.form).toHaveCount(0);
  const row = publishedRow(page, doc.title);
  await expect(row).toBeVisible();
  await expect(rowCell(row, "category")).toHaveText("Research");
  await expect(rowCell(row, "title")).toContainText(doc.fileName);
  await expect(rowCell(row, "title")).toContainText("3.00 MB");

  // Tidy up (other tests only look at their own documents).
  const id = await documentIdFrom((await openRowMenu(page, doc.title)).getByRole("link", { name: `View file ${doc.title} (opens in a new tab)`, exact: true }));
  expect((await page.request.delete(`/api/documents/${id}`)).status()).toBe(200);
});

test("with no documents at all the investor sees 'No documents available yet', and empty categories say so", async ({
  browser,
  playwright,
  jsEnabled,
  clientIp,
  secondBrowser,
}, testInfo) => {
  // The shared server always may hold other specs' documents: a server of its own, empty.
  const server = await startIsolatedServer();
  try {
    const admin = newAccount(testInfo, "admin");
    await server.createAdmin(admin);
    const investor = newAccount(testInfo, "investor");
    const api = await playwright.request.newContext({ baseURL: server.baseURL, extraHTTPHeaders: { "X-Forwarded-For": clientIp } });
    await registerViaApi(api, investor);
    const adminCookie = await mintSessionCookie(admin.email);
    await setStatusViaApi(api, adminCookie, await userIdByEmail(api, adminCookie, investor.email), "approved");
    await api.dispose();

    // 1. The investor: no documents anywhere.
    const investorPage = await secondBrowser(server.baseURL);
    await signInAsInvestor(investorPage, jsEnabled, investor);
    const list = investorDocuments(investorPage);
    await expect(list.heading).toBeVisible();
    await expect(investorPage.getByRole("main").getByText(DOC_TEXT.emptyAll, { exact: true })).toBeVisible();
    await expect(list.region).toHaveCount(0);

    // 2. The admin: no table, one empty state that offers the upload.
    const adminContext = await newBrowserContext(browser, { baseURL: server.baseURL, jsEnabled, clientIp });
    const adminPage = await adminContext.newPage();
    await openAsAdmin(adminPage, jsEnabled, admin, "documents");
    const panel = publishedPanel(adminPage);
    const empty = panel.section.getByTestId("empty-state");
    await expect(empty).toHaveText(/^\s*No documents yet\.\s*Upload\s*$/);
    await expect(panel.table).toHaveCount(0);
    await expect(panel.tabs).toHaveCount(0);
    // A category's address says the same while there is nothing at all.
    await adminPage.goto("/admin/documents?category=research");
    await expect(panel.section.getByTestId("empty-state")).toHaveText(/^\s*No documents yet\.\s*Upload\s*$/);

    // 3. One document, through the empty state's Upload: the table appears, with a tab for its category only.
    await empty.getByRole("link", { name: "Upload" }).click();
    await expect(adminPage).toHaveURL(/\/admin\/documents\/upload$/);
    await waitHydrated(adminPage, jsEnabled);
    const doc = sampleDocument(testInfo, "Fund Overview", 64 * 1024);
    await fillUpload(adminPage, doc, "Fund Documents");
    await uploadForm(adminPage).submit.click();
    await expectToast(adminPage, DOC_TEXT.uploaded.title, DOC_TEXT.uploaded.description);
    await expect(panel.table.locator("tr[data-testid=published-document]")).toHaveCount(1);
    await expect(empty).toHaveCount(0);
    await expect(panel.tabs.getByRole("link")).toHaveText([/^\s*All\s*1\s*$/, /^\s*Fund Documents\s*1\s*$/]);
    await adminPage.goto("/admin/documents?category=research");
    await expect(panel.section.getByTestId("empty-state")).toHaveText(DOC_TEXT.adminEmptyCategory);
    await adminContext.close();

    await investorPage.reload();
    await waitHydrated(investorPage, jsEnabled);
    await expect(investorPage.getByText(DOC_TEXT.emptyAll, { exact: true })).toHaveCount(0);
    await expect(list.region).toBeVisible();
    for (const category of LP_CATEGORIES) {
      const details = list.category(category.value);
      const count = category.value === "fund_documents" ? "1 document" : "0 documents";
      await expect(details.locator("summary")).toHaveText(new RegExp(`^\\s*${category.label}\\s*\\(${count}\\)\\s*$`));
      await openCategory(details);
      if (category.value === "fund_documents") {
        await expect(investorItem(investorPage, doc.title)).toBeVisible();
        await expect(details.getByText(DOC_TEXT.emptyCategory, { exact: true })).toHaveCount(0);
      } else {
        await expect(details.getByText(DOC_TEXT.emptyCategory, { exact: true })).toBeVisible();
      }
    }
  } finally {
    await server.stop();
  }
});
