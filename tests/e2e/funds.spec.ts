import fs from "node:fs";
import { randomBytes } from "node:crypto";
import type { APIRequestContext, BrowserContext, Locator, Page, TestInfo } from "@playwright/test";
import { investorDate, openCategory, sampleDocument, type SampleDocument } from "./helpers/document-ui";
import { expectContentDisposition } from "./helpers/documents";
import { expect, expectToast, test as base, toast } from "./helpers/fixtures";
import { clickAndAnswerConfirm, recordWrites } from "./helpers/forms";
import {
  accessRequestRow,
  FUND_TEXT,
  fundCookie,
  fundIIDocuments,
  fundIILinkIn,
  fundIISignupForm,
  fundISignupForm,
  fundItem,
  fundUploadForm,
  mailsTo,
  nextMailTo,
  uploadFundDocumentViaApi,
  type FundId,
} from "./helpers/funds";
import { newAccount, newAdmin, newBrowserContext, openAsAdmin, openRowMenu, waitHydrated, type Account } from "./helpers/portal";
import { mintSessionCookie } from "./helpers/sessions";

/**
 * Fund access end to end (SPEC.md §2 "Fund I signup", "Fund II signup",
 * "Fund I documents", "Fund II documents", the admin's 'Potential Investor
 * Management (Fund II)'; §4 "Fund II access flow"; §8;
 * docs/decisions/012-fund-access.md), with JavaScript (fetchers, toasts,
 * timed redirects, window.confirm) and without it (native posts with flash
 * notices, the noscript meta refresh, the server's confirm step):
 * Fund II request → mailed link → HttpOnly cookie on a clean URL → documents;
 * Fund I access at once; bad and missing tokens; revocation and a fresh link;
 * one fund's access never opens the other's.
 *
 * The run's server is shared with other specs (and this spec's parallel
 * tests), so every check is about this test's own uniquely named people and
 * documents.
 */

const test = base.extend<{ secondBrowser: () => Promise<{ page: Page; context: BrowserContext }> }>({
  /** Another browser (the holder's or the admin's): the project's JavaScript setting and this test's client address. */
  secondBrowser: async ({ browser, baseURL, jsEnabled, clientIp }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async () => {
      const context = await newBrowserContext(browser, { baseURL, jsEnabled, clientIp });
      contexts.push(context);
      return { page: await context.newPage(), context };
    });
    for (const context of contexts) await context.close();
  },
});

/** Signing in runs bcrypt (cost 12): seconds on a busy machine. */
const SLOW = 15_000;
test.describe.configure({ timeout: 90_000 });

/** A fresh Fund II / Fund I applicant (unique name and e-mail per test and project). */
function newHolder(testInfo: TestInfo, label: string): Account {
  return newAccount(testInfo, label);
}

/** A fresh admin (helpers/accounts.ts createAdmin) and a minted session cookie for it. */
async function adminApiCookie(testInfo: TestInfo): Promise<{ admin: Account; cookie: string }> {
  const admin = await newAdmin(testInfo);
  return { admin, cookie: await mintSessionCookie(admin.email) };
}

/** A PDF for a fund, uploaded by the admin through the API. */
async function fundDocument(request: APIRequestContext, adminCookie: string, testInfo: TestInfo, fundId: FundId, label: string) {
  const doc = sampleDocument(testInfo, label, 48 * 1024 + 17);
  const uploaded = await uploadFundDocumentViaApi(request, adminCookie, doc, { fundId });
  return { doc, id: uploaded.id };
}

/** /fund-ii/signup: fill in and send the request; 'Check Your Email' (after the redirect without JavaScript). */
async function requestFundIIAccess(page: Page, jsEnabled: boolean, holder: Account) {
  const response = await page.goto("/fund-ii/signup");
  expect(response?.status()).toBe(200);
  await waitHydrated(page, jsEnabled);
  const form = fundIISignupForm(page);
  await form.name.fill(holder.name);
  await form.email.fill(holder.email);
  await form.confirm.check();
  await form.submit.click();
  const { title, description } = FUND_TEXT.fundIISignup.success;
  await expect(toast(page).filter({ hasText: title }).first()).toBeVisible({ timeout: SLOW });
  await expectToast(page, title, description);
  await expect(page).toHaveURL(/\/fund-ii\/signup$/);
}

/** Open a mailed Fund II link: the loader sets the cookie and lands on the clean URL. */
async function openFundIILink(page: Page, jsEnabled: boolean, link: string, baseURL: string) {
  const response = await page.goto(link);
  expect(response?.status(), `GET ${link} (after its redirect)`).toBe(200);
  expect(page.url(), "the token left the address bar").toBe(`${baseURL}/fund-ii/documents`);
  await waitHydrated(page, jsEnabled);
  const list = fundIIDocuments(page);
  await expect(list.heading).toBeVisible();
  await expect(list.card).toBeVisible();
}

/** The bytes of a file link as this page's browser would fetch them (its cookies, its headers). */
async function fetchWithPage(page: Page, href: string) {
  const response = await page.request.get(href, { maxRedirects: 0 });
  return { status: response.status(), headers: response.headers(), body: await response.body() };
}

/** Click a Download link and read the saved file. */
async function download(page: Page, link: Locator) {
  const saving = page.waitForEvent("download");
  await link.click();
  const saved = await saving;
  return { name: saved.suggestedFilename(), bytes: fs.readFileSync(await saved.path()) };
}

/** A denied /fund-ii/documents: the red alert, then /fund-ii/signup about 2 s later (timer or noscript meta refresh). */
async function expectDeniedThenSignup(page: Page, message: string, loadedAt: number) {
  const alert = fundIIDocuments(page).alert;
  await expect(alert).toHaveText(message);
  await expect(alert).toHaveAttribute("data-testid", "fund-access-error");
  await expect(page.getByRole("main").getByRole("heading", { level: 1, name: "Deeptech Fund II Documents", exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: FUND_TEXT.fundIIDocuments.card })).toHaveCount(0);
  await expect(page).toHaveURL(/\/fund-ii\/signup$/, { timeout: 8_000 });
  const waited = Date.now() - loadedAt;
  expect(waited, "the redirect waits about 2 s").toBeGreaterThanOrEqual(1_800);
  expect(waited, "…and not much longer").toBeLessThan(8_000);
  await expect(fundIISignupForm(page).submit).toBeVisible();
}

test("Fund II: request access → the mailed link sets an HttpOnly cookie on a clean URL → the page works on reload → a Fund II document is listed, viewed inline and downloaded", { tag: "@no-js" }, async ({
  page,
  context,
  request,
  jsEnabled,
  baseURL,
}, testInfo) => {
  const holder = newHolder(testInfo, "fundii");
  const { cookie: adminCookie } = await adminApiCookie(testInfo);
  const { doc, id } = await fundDocument(request, adminCookie, testInfo, "fund-ii", "Fund II Memorandum");

  // 1. The request: 'Check Your Email'; with JavaScript the form is emptied in place.
  await requestFundIIAccess(page, jsEnabled, holder);
  const form = fundIISignupForm(page);
  await expect(form.name).toHaveValue("");
  await expect(form.email).toHaveValue("");
  await expect(form.confirm).not.toBeChecked();

  // 2. The mail: one link to the documents page with a token.
  const mail = await nextMailTo(holder.email, FUND_TEXT.linkSubject, 0);
  expect(mail.subject).toBe("Your Deeptech Fund II documents access link");
  const link = fundIILinkIn(mail, baseURL!);
  expect(mail.text).toContain(`Dear ${holder.name},`);

  // 3. Opening it: the cookie is set (HttpOnly), the token leaves the URL, the documents show.
  await openFundIILink(page, jsEnabled, link, baseURL!);
  const cookie = await fundCookie(context, "fund-ii");
  expect(cookie, "the Fund II access cookie").toBeDefined();
  expect(cookie!.httpOnly).toBe(true);
  if (jsEnabled) {
    expect(await page.evaluate(() => window.localStorage.getItem("fund-ii-access-token")), "no token in localStorage").toBeNull();
    expect(await page.evaluate(() => document.cookie), "the cookie is not script-readable").not.toMatch(/lr_fund_ii/);
  }

  // 4. Again on reload: the cookie alone lets the visitor in.
  const again = await page.reload();
  expect(again?.status()).toBe(200);
  await waitHydrated(page, jsEnabled);
  await expect(page).toHaveURL(`${baseURL}/fund-ii/documents`);
  const list = fundIIDocuments(page);
  await expect(list.heading).toBeVisible();
  await expect(list.card).toBeVisible();

  // 5. The admin's document is in 'Fund Documents' (collapsed), with its count badge.
  const category = list.category("fund_documents");
  await expect(category).not.toHaveAttribute("open");
  // Listed there, but out of sight until the category opens.
  const hiddenTitle = category.locator("h3").filter({ hasText: doc.title });
  await expect(hiddenTitle).toHaveCount(1);
  await expect(hiddenTitle).toBeHidden();
  const item = fundItem(page, doc.title, 3);
  await openCategory(category);
  await expect(item).toBeVisible();
  const listed = await category.locator("li[data-testid=fund-document]").count();
  expect(listed).toBeGreaterThanOrEqual(1);
  await expect(category.locator("summary")).toHaveText(new RegExp(`^\\s*Fund Documents\\s*\\(${listed} documents?\\)\\s*$`));
  await expect(list.region.getByRole("heading", { level: 3, name: doc.title, exact: true })).toHaveCount(1);
  await expect(item).toContainText(doc.description);
  await expect(item).toContainText(investorDate());
  await expect(item).toContainText(doc.size);

  // 6. View: a new tab, inline, the uploaded bytes.
  const view = item.getByRole("link", { name: `View ${doc.title} (opens in a new tab)`, exact: true });
  await expect(view).toHaveAttribute("target", "_blank");
  await expect(view).toHaveAttribute("href", `/api/fund-documents/view/${id}`);
  const viewed = await fetchWithPage(page, `/api/fund-documents/view/${id}`);
  expect(viewed.status).toBe(200);
  expect(viewed.headers["content-type"]).toMatch(/^application\/pdf\b/);
  expectContentDisposition(viewed.headers["content-disposition"], "inline", doc.fileName);
  expect(Buffer.compare(viewed.body, doc.bytes), "the viewed bytes are the uploaded ones").toBe(0);

  // 7. Download: the saved file has the document's name and bytes.
  const downloadLink = item.getByRole("link", { name: `Download ${doc.title}`, exact: true });
  await expect(downloadLink).toHaveAttribute("href", `/api/fund-documents/download/${id}`);
  const saved = await download(page, downloadLink);
  expect(saved.name).toBe(doc.fileName);
  expect(Buffer.compare(saved.bytes, doc.bytes), "the downloaded bytes are the uploaded ones").toBe(0);
  await expect(page).toHaveURL(`${baseURL}/fund-ii/documents`);
});

test("Fund II: the accredited/qualified confirmation is required (the browser's check, then the server's)", { tag: "@no-js" }, async ({ page, jsEnabled, visit }, testInfo) => {
  const holder = newHolder(testInfo, "unconfirmed");
  await visit("/fund-ii/signup");
  const form = fundIISignupForm(page);
  await expect(page.getByRole("main")).toContainText("For informational purposes only; not an offer or solicitation.");
  await form.name.fill(holder.name);
  await form.email.fill(holder.email);
  await expect(form.confirm).not.toBeChecked();
  const writes = recordWrites(page);

  if (jsEnabled) {
    // Checked in the page: the field's error, worded like the server's, and nothing sent.
    await form.submit.click();
    await expect(form.confirmError).toHaveText(FUND_TEXT.fundIISignup.accreditedRequired);
    await expect(form.confirmError).toHaveRole("alert");
    await expect(form.confirm).toHaveAttribute("aria-invalid", "true");
    await expect(form.confirm).toHaveAccessibleDescription(FUND_TEXT.fundIISignup.accreditedRequired);
    expect(writes, "nothing was posted").toEqual([]);
    await expect(toast(page)).toHaveCount(0);
  } else {
    // The browser's own check (required) stops it first...
    await form.submit.click();
    await expect(form.confirm).toHaveJSProperty("validity.valueMissing", true);
    expect(writes, "the browser itself refuses it").toEqual([]);
    // ...so switch it off to see the server's answer, as from a browser that does not check.
    await form.form.evaluate((f: HTMLFormElement) => (f.noValidate = true));
    const answered = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/fund-ii/signup");
    await form.submit.click();
    // Post/Redirect/Get: back to the form, the outcome carried by the flash (answerForm).
    expect((await answered).status()).toBe(303);
    await expect(form.confirmError).toHaveText(FUND_TEXT.fundIISignup.accreditedRequired);
    await expect(form.confirm).toHaveAttribute("aria-invalid", "true");
    // What was typed is kept.
    await expect(form.name).toHaveValue(holder.name);
    await expect(form.email).toHaveValue(holder.email);
  }
  await expect(page).toHaveURL(/\/fund-ii\/signup$/);
  await expect(toast(page).filter({ hasText: FUND_TEXT.fundIISignup.success.title })).toHaveCount(0);
  // No request was recorded, so no link went out.
  await page.waitForTimeout(500);
  expect(mailsTo(holder.email, FUND_TEXT.linkSubject)).toEqual([]);

  // Checked: the request goes through.
  await form.confirm.check();
  if (jsEnabled) await expect(form.confirmError).toHaveCount(0);
  await form.submit.click();
  await expectToast(page, FUND_TEXT.fundIISignup.success.title, FUND_TEXT.fundIISignup.success.description);
  await nextMailTo(holder.email, FUND_TEXT.linkSubject, 0);
});

test("Fund II: an invalid token and no token at all say so, then go to /fund-ii/signup after about 2 s", { tag: "@no-js" }, async ({ page, context, jsEnabled }) => {
  // 1. A token that is no token.
  let loadedAt = Date.now();
  let response = await page.goto("/fund-ii/documents?token=not-a-real-token");
  expect(response?.status()).toBe(403);
  expect(new URL(page.url()).pathname).toBe("/fund-ii/documents");
  await expectDeniedThenSignup(page, FUND_TEXT.fundIIDocuments.invalid, loadedAt);
  expect(await fundCookie(context, "fund-ii")).toBeUndefined();

  // 2. No token and no cookie.
  loadedAt = Date.now();
  response = await page.goto("/fund-ii/documents");
  expect(response?.status()).toBe(401);
  await expectDeniedThenSignup(page, FUND_TEXT.fundIIDocuments.required, loadedAt);

  // 3. With JavaScript, a token some earlier visit left in storage is checked, refused and removed (SPEC.md §4, §8).
  if (jsEnabled) {
    await page.evaluate(() => window.localStorage.setItem("fund-ii-access-token", "stale-token-from-an-old-visit"));
    loadedAt = Date.now();
    response = await page.goto("/fund-ii/documents");
    expect(response?.status()).toBe(401);
    await expectDeniedThenSignup(page, FUND_TEXT.fundIIDocuments.invalid, loadedAt);
    expect(await page.evaluate(() => window.localStorage.getItem("fund-ii-access-token"))).toBeNull();
  }
});

test("Fund I: sign up → access at once → the documents with date and size; without the cookie /fund-i/documents sends to the sign-up", { tag: "@no-js" }, async ({
  page,
  context,
  request,
  jsEnabled,
  baseURL,
  secondBrowser,
}, testInfo) => {
  const holder = newHolder(testInfo, "fundi");
  const { cookie: adminCookie } = await adminApiCookie(testInfo);
  const { doc, id } = await fundDocument(request, adminCookie, testInfo, "fund-i", "Fund I Annual Report");

  // 1. The sign-up.
  let response = await page.goto("/fund-i/signup");
  expect(response?.status()).toBe(200);
  await waitHydrated(page, jsEnabled);
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { name: "Deeptech Fund I Documents" })).toBeVisible();
  const form = fundISignupForm(page);
  await form.name.fill(holder.name);
  await form.email.fill(holder.email);
  await form.company.fill(`Quanta Partners ${randomBytes(2).toString("hex")}`);
  await form.phone.fill("+1 415 555 0100");
  const sentAt = Date.now();
  await form.submit.click();
  const { title, description } = FUND_TEXT.fundISignup.success;
  if (jsEnabled) {
    // The toast on the sign-up page, then the documents 1 s later.
    await expectToast(page, title, description);
    await expect(page).toHaveURL(/\/fund-i\/documents$/, { timeout: SLOW });
    expect(Date.now() - sentAt, "the page waits 1 s before going on").toBeGreaterThanOrEqual(1_000);
  } else {
    // Straight to the documents, with the notice.
    await expect(page).toHaveURL(/\/fund-i\/documents$/, { timeout: SLOW });
    await expectToast(page, title, description);
  }
  await waitHydrated(page, jsEnabled);
  const cookie = await fundCookie(context, "fund-i");
  expect(cookie, "the Fund I access cookie").toBeDefined();
  expect(cookie!.httpOnly).toBe(true);

  // 2. The page and the admin's document: title, description, date, size, links.
  await expect(main.getByRole("heading", { level: 1, name: FUND_TEXT.fundIDocuments.title, exact: true })).toBeVisible();
  const item = fundItem(page, doc.title, 2);
  await expect(item).toBeVisible();
  await expect(item).toContainText(doc.description);
  await expect(item.locator("time")).toHaveText(investorDate());
  expect(investorDate()).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
  await expect(item).toContainText(doc.size);
  expect(doc.size).toBe("0.05 MB");
  const view = item.getByRole("link", { name: `View ${doc.title} (opens in a new tab)`, exact: true });
  await expect(view).toHaveAttribute("href", `/api/fund-documents/view/${id}`);
  await expect(view).toHaveAttribute("target", "_blank");
  const saved = await download(page, item.getByRole("link", { name: `Download ${doc.title}`, exact: true }));
  expect(saved.name).toBe(doc.fileName);
  expect(Buffer.compare(saved.bytes, doc.bytes), "the downloaded bytes are the uploaded ones").toBe(0);

  // 3. Reload: still in.
  response = await page.reload();
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL(`${baseURL}/fund-i/documents`);
  await expect(fundItem(page, doc.title, 2)).toBeVisible();

  // 4. Someone without the cookie is sent to the sign-up, and cannot fetch the file.
  const stranger = await secondBrowser();
  response = await stranger.page.goto("/fund-i/documents");
  expect(response?.status()).toBe(200);
  await expect(stranger.page).toHaveURL(/\/fund-i\/signup$/);
  await expect(stranger.page.getByRole("main").getByRole("button", { name: "Access Documents" })).toBeVisible();
  expect((await fetchWithPage(stranger.page, `/api/fund-documents/download/${id}`)).status).toBe(401);
});

test("revocation: the admin uploads a Fund II document, the holder reads it, the admin revokes → page and file refused → 'Send new link' → the new link works", { tag: "@no-js" }, async ({
  page,
  jsEnabled,
  baseURL,
  secondBrowser,
}, testInfo) => {
  const admin = await newAdmin(testInfo);
  const holder = newHolder(testInfo, "revoked");
  const doc: SampleDocument = sampleDocument(testInfo, "Fund II Pitch Deck", 96 * 1024);

  // 1. The holder gets access through the form and the mailed link.
  const holderBrowser = await secondBrowser();
  const holderPage = holderBrowser.page;
  await requestFundIIAccess(holderPage, jsEnabled, holder);
  const firstLink = fundIILinkIn(await nextMailTo(holder.email, FUND_TEXT.linkSubject, 0), baseURL!);

  // 2. The admin uploads a Fund II document through the dashboard form (Fund select: Deeptech Fund II).
  await openAsAdmin(page, jsEnabled, admin, "fund-access");
  const upload = fundUploadForm(page);
  await expect(upload.heading).toBeVisible();
  await upload.title.fill(doc.title);
  await upload.description.fill(doc.description);
  await upload.category.selectOption({ label: "Pitch Deck" });
  await upload.fund.selectOption({ label: "Deeptech Fund II" });
  await upload.file.setInputFiles({ name: doc.fileName, mimeType: "application/pdf", buffer: doc.bytes });
  await upload.submit.click();
  await expectToast(page, FUND_TEXT.admin.uploaded.title, FUND_TEXT.admin.uploaded.description);
  const published = page.locator("section#published-fund-ii-documents li[data-testid=published-fund-document]").filter({ hasText: doc.title });
  await expect(published).toHaveCount(1);
  await openCategory(page.locator("details#published-fund-ii-documents-pitchdeck"));
  await expect(published).toBeVisible();
  const adminView = published.getByRole("link", { name: `View ${doc.title} (opens in a new tab)`, exact: true });
  const id = /^\/api\/fund-documents\/view\/([^/]+)$/.exec((await adminView.getAttribute("href")) ?? "")?.[1];
  expect(id, "the published document's id").toBeTruthy();
  const downloadPath = `/api/fund-documents/download/${id}`;

  // 3. The holder opens the link and finds it under 'Pitch Deck'; the file comes.
  await openFundIILink(holderPage, jsEnabled, firstLink, baseURL!);
  const pitchdeck = fundIIDocuments(holderPage).category("pitchdeck");
  await openCategory(pitchdeck);
  await expect(fundItem(holderPage, doc.title, 3)).toBeVisible();
  const before = await fetchWithPage(holderPage, downloadPath);
  expect(before.status).toBe(200);
  expect(Buffer.compare(before.body, doc.bytes)).toBe(0);

  // 4. The admin finds the request: name, 'Fund II', the confirmation, not revoked.
  await page.goto("/admin/fund-access");
  await waitHydrated(page, jsEnabled);
  await expect(page.getByRole("heading", { level: 2, name: FUND_TEXT.admin.section, exact: true })).toBeVisible();
  const row = accessRequestRow(page, holder.email);
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(holder.name);
  await expect(row.getByText("Fund II", { exact: true })).toBeVisible();
  await expect(row).toContainText(FUND_TEXT.admin.accredited);
  await expect(row.getByText(FUND_TEXT.admin.revokedBadge, { exact: true })).toHaveCount(0);

  // 5. Revoke, in the row's menu: asked first (window.confirm with JavaScript, the server's confirm step without).
  await openRowMenu(row);
  const revoke = row.getByRole("button", { name: FUND_TEXT.admin.revoke, exact: true });
  const question = FUND_TEXT.admin.revokeQuestion(holder.name);
  if (jsEnabled) {
    await clickAndAnswerConfirm(page, revoke, question, "accept");
  } else {
    await revoke.click();
    await expect(page).toHaveURL(/\/admin\/fund-access\?confirm=revoke-fund-access&request=[0-9a-f-]{36}#confirm$/);
    const panel = page.locator("section#confirm");
    await expect(panel.getByRole("heading", { name: question, exact: true })).toBeVisible();
    await panel.getByRole("button", { name: FUND_TEXT.admin.revoke, exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/fund-access#fund-access-requests$/);
    await expect(panel).toHaveCount(0);
  }
  const revoked = FUND_TEXT.admin.revoked(holder.name);
  await expectToast(page, revoked.title, revoked.description);
  await expect(row.getByText(FUND_TEXT.admin.revokedBadge, { exact: true })).toBeVisible();
  await expect(row.getByRole("button", { name: FUND_TEXT.admin.revoke, exact: true })).toHaveCount(0);

  // 6. The holder's cookie no longer opens the file…
  const refusedFile = await fetchWithPage(holderPage, downloadPath);
  expect([401, 404], `GET ${downloadPath} after the revocation`).toContain(refusedFile.status);
  expect(Buffer.compare(refusedFile.body, doc.bytes)).not.toBe(0);
  // …nor the page: 'Invalid access token', then the sign-up.
  const loadedAt = Date.now();
  const refusedPage = await holderPage.reload();
  expect(refusedPage?.status()).toBe(403);
  await expectDeniedThenSignup(holderPage, FUND_TEXT.fundIIDocuments.invalid, loadedAt);
  expect([401, 404]).toContain((await fetchWithPage(holderPage, downloadPath)).status);
  // The first link is dead too.
  const oldLink = await holderPage.goto(firstLink);
  expect(oldLink?.status()).toBe(403);
  await expect(fundIIDocuments(holderPage).alert).toHaveText(FUND_TEXT.fundIIDocuments.invalid);
  // The refused page goes on to the sign-up after 2 s: let it, so that move cannot cut into the next navigation.
  await expect(holderPage).toHaveURL(/\/fund-ii\/signup$/, { timeout: 8_000 });

  // 7. 'Send new link': a new mail, the revocation lifted.
  await page.goto("/admin/fund-access");
  await waitHydrated(page, jsEnabled);
  await openRowMenu(row);
  await row.getByRole("button", { name: FUND_TEXT.admin.resend, exact: true }).click();
  const sent = FUND_TEXT.admin.linkSent(holder.name);
  await expectToast(page, sent.title, sent.description);
  await expect(row.getByText(FUND_TEXT.admin.revokedBadge, { exact: true })).toHaveCount(0);
  // Revoking is offered again, in the row's menu.
  if (!(await row.locator("details[data-row-menu]").evaluate((d) => (d as HTMLDetailsElement).open))) await openRowMenu(row);
  await expect(row.getByRole("button", { name: FUND_TEXT.admin.revoke, exact: true })).toBeVisible();
  const secondLink = fundIILinkIn(await nextMailTo(holder.email, FUND_TEXT.linkSubject, 1), baseURL!);
  expect(secondLink).not.toBe(firstLink);

  // 8. The new link works again: page and file.
  await openFundIILink(holderPage, jsEnabled, secondLink, baseURL!);
  await openCategory(fundIIDocuments(holderPage).category("pitchdeck"));
  await expect(fundItem(holderPage, doc.title, 3)).toBeVisible();
  const after = await fetchWithPage(holderPage, downloadPath);
  expect(after.status).toBe(200);
  expect(Buffer.compare(after.body, doc.bytes)).toBe(0);
});

test("a Fund I holder cannot read Fund II: 'Access token required', and a Fund II file is refused", async ({ page, context, request, jsEnabled }, testInfo) => {
  const holder = newHolder(testInfo, "fundionly");
  const { cookie: adminCookie } = await adminApiCookie(testInfo);
  const fundII = await fundDocument(request, adminCookie, testInfo, "fund-ii", "Fund II Confidential Summary");
  const fundI = await fundDocument(request, adminCookie, testInfo, "fund-i", "Fund I Letter");

  // Fund I access, through the form.
  const response = await page.goto("/fund-i/signup");
  expect(response?.status()).toBe(200);
  await waitHydrated(page, jsEnabled);
  const form = fundISignupForm(page);
  await form.name.fill(holder.name);
  await form.email.fill(holder.email);
  await form.submit.click();
  await expect(page).toHaveURL(/\/fund-i\/documents$/, { timeout: SLOW });
  expect(await fundCookie(context, "fund-i")).toBeDefined();
  expect(await fundCookie(context, "fund-ii")).toBeUndefined();
  // Its own fund's file comes; the other fund's does not, nor does a Fund II document show on its page.
  expect((await fetchWithPage(page, `/api/fund-documents/download/${fundI.id}`)).status).toBe(200);
  await expect(page.getByRole("heading", { name: fundII.doc.title })).toHaveCount(0);
  const refused = await fetchWithPage(page, `/api/fund-documents/download/${fundII.id}`);
  expect(refused.status, "a Fund II file for a Fund I holder").not.toBe(200);
  expect([401, 403, 404]).toContain(refused.status);
  expect((await fetchWithPage(page, `/api/fund-documents/view/${fundII.id}`)).status).not.toBe(200);

  // The Fund II page: no access.
  const loadedAt = Date.now();
  const denied = await page.goto("/fund-ii/documents");
  expect(denied?.status()).toBe(401);
  await expectDeniedThenSignup(page, FUND_TEXT.fundIIDocuments.required, loadedAt);
});
