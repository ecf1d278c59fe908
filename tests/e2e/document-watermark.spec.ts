import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { TestInfo } from "@playwright/test";
import { PageSizes, PDFDocument, StandardFonts } from "pdf-lib";
import { DOC_TEXT, fillUpload, investorApprovedBy, investorItem, openCategory, openUpload, publishedRow, rowCell, uploadForm } from "./helpers/document-ui";
import { runDir } from "./helpers/documents";
import { expect, expectToast, test } from "./helpers/fixtures";
import { literal, newAdmin, newBrowserContext, openAsAdmin, openAsInvestor } from "./helpers/portal";

/**
 * Watermarked LP documents in the browser (issue 15 §3), with and without
 * JavaScript: the admin ticks 'Stamp the viewer's name and e-mail on every
 * page' on the documents page's upload form; the investor downloads the PDF
 * from /lp/dashboard and the saved file carries their e-mail, name and
 * "Confidential" on every page (read with `mutool draw -F txt`); an encrypted
 * PDF with the box ticked is refused with the reason on the form.
 */

test.describe.configure({ timeout: 120_000 });

/** The app's words (written out, not imported: a change of wording that breaks the spec fails here). */
const TEXT = {
  stampBox: /Stamp the viewer's name and e-mail on every page/,
  encrypted:
    "This PDF is password-protected or encrypted, so it cannot be watermarked. Save a copy without a password or restrictions and upload that.",
  stamped: "Stamped",
} as const;

const PAGES = 3;

/** A real three-page PDF made with pdf-lib, with a title and file name unique to this test and project. */
async function stampablePdf(testInfo: TestInfo, label: string) {
  const project = testInfo.project.name.replace(/[^a-z0-9]/gi, "");
  const tag = randomBytes(3).toString("hex");
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= PAGES; i++) {
    const page = doc.addPage(PageSizes.A4 as [number, number]);
    page.drawText(`Capital account page ${i}`, { x: 50, y: 780, size: 16, font });
  }
  return {
    title: `${label} ${project} ${tag}`,
    fileName: `${label.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${project}-${tag}.pdf`,
    bytes: Buffer.from(await doc.save()),
  };
}

/** The same PDF encrypted by qpdf (user password u, owner password o, AES-256). */
function encrypted(bytes: Buffer): Buffer {
  const dir = fs.mkdtempSync(path.join(runDir(), "watermark-spec-"));
  try {
    fs.writeFileSync(path.join(dir, "plain.pdf"), bytes);
    execFileSync("qpdf", ["--encrypt", "u", "o", "256", "--", path.join(dir, "plain.pdf"), path.join(dir, "locked.pdf")]);
    return fs.readFileSync(path.join(dir, "locked.pdf"));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Each page's text as `mutool draw -F txt` reads it (mutool ends every page with a form feed). */
function pageTexts(file: string): string[] {
  return execFileSync("mutool", ["draw", "-q", "-F", "txt", "-o", "-", file], { stdio: ["ignore", "pipe", "pipe"] })
    .toString("utf8")
    .split("\f")
    .slice(0, -1);
}

/** The investor's session (no sign-in pages: signing in is not what this spec tests), then the dashboard. */
const signInAsInvestor = openAsInvestor;

test("admin uploads a PDF with the stamp box ticked → the investor's download carries their e-mail and name on every page", { tag: "@no-js" }, async ({
  page,
  browser,
  baseURL,
  request,
  jsEnabled,
  clientIp,
}, testInfo) => {
  const admin = await newAdmin(testInfo);
  const investor = await investorApprovedBy(request, testInfo, admin);
  const doc = await stampablePdf(testInfo, "Stamped statement");

  // 1. The admin publishes it with the box ticked.
  await openAsAdmin(page, jsEnabled, admin, "documents");
  await openUpload(page, jsEnabled);
  const form = uploadForm(page);
  await fillUpload(page, doc, "Reports");
  const stampBox = form.form.getByRole("checkbox", { name: TEXT.stampBox });
  await expect(stampBox).not.toBeChecked();
  await stampBox.check();
  await form.submit.click();
  await expectToast(page, DOC_TEXT.uploaded.title, DOC_TEXT.uploaded.description);
  const row = publishedRow(page, doc.title);
  await expect(row).toHaveCount(1, { timeout: 20_000 });
  await expect(rowCell(row, "audience")).toContainText(TEXT.stamped);

  // 2. The investor downloads it from the dashboard (fetched by the page with JavaScript, a plain link without).
  const context = await newBrowserContext(browser, { baseURL, jsEnabled, clientIp });
  try {
    const investorPage = await context.newPage();
    await signInAsInvestor(investorPage, jsEnabled, investor);
    const item = investorItem(investorPage, doc.title);
    await openCategory(investorPage.getByRole("main").locator("details#documents-reports"));
    await expect(item).toBeVisible();
    const saving = investorPage.waitForEvent("download");
    await item.getByRole("link", { name: `Download ${doc.title}`, exact: true }).click();
    const saved = await saving;
    if (jsEnabled) await expectToast(investorPage, DOC_TEXT.downloadStarted);
    expect(saved.suggestedFilename()).toBe(doc.fileName);
    const file = await saved.path();
    const bytes = fs.readFileSync(file);
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(bytes.equals(doc.bytes), "a stamped copy, not the stored file").toBe(false);

    // 3. Its text: the investor's e-mail and name, and "Confidential", on every page, over the original text.
    const texts = pageTexts(file);
    expect(texts).toHaveLength(PAGES);
    texts.forEach((text, index) => {
      expect(text, `page ${index + 1}`).toContain(investor.email.toLowerCase());
      expect(text, `page ${index + 1}`).toContain(investor.name);
      expect(text, `page ${index + 1}`).toContain("Confidential");
      expect(text, `page ${index + 1}`).toContain(`Capital account page ${index + 1}`);
    });
    expect(texts.join("\n")).not.toContain(admin.email);
  } finally {
    await context.close();
  }
});

test("an encrypted PDF with the stamp box ticked is refused with the reason on the form, and nothing is published", { tag: "@no-js" }, async ({ page, jsEnabled }, testInfo) => {
  const admin = await newAdmin(testInfo);
  const plain = await stampablePdf(testInfo, "Locked statement");
  const doc = { ...plain, bytes: encrypted(plain.bytes) };

  await openAsAdmin(page, jsEnabled, admin, "documents");
  await openUpload(page, jsEnabled);
  const form = uploadForm(page);
  await fillUpload(page, doc, "Reports");
  await form.form.getByRole("checkbox", { name: TEXT.stampBox }).check();
  await form.submit.click();

  await expectToast(page, DOC_TEXT.uploadFailed, TEXT.encrypted);
  await expect(form.error("file")).toHaveText(TEXT.encrypted);
  await expect(form.file).toHaveAttribute("aria-invalid", "true");
  await expect(form.file).toHaveAccessibleDescription(literal(TEXT.encrypted));
  if (!jsEnabled) await expect(page).toHaveURL(/\/admin\/documents\/upload#upload-document$/);
  // Still on the upload page; the list does not have it.
  await expect(form.form).toBeVisible();
  await page.goto("/admin/documents");
  await expect(publishedRow(page, doc.title)).toHaveCount(0);
});

test("the refused encrypted upload keeps what was typed (title, description, the box ticked)", { tag: "@no-js" }, async ({ page, jsEnabled }, testInfo) => {
  // Without JavaScript the form comes back from the server's flash with the typed values.
  const admin = await newAdmin(testInfo);
  const plain = await stampablePdf(testInfo, "Locked letter");
  const doc = { ...plain, description: `Refused on purpose (${testInfo.project.name}).`, bytes: encrypted(plain.bytes) };

  await openAsAdmin(page, jsEnabled, admin, "documents");
  await openUpload(page, jsEnabled);
  const form = uploadForm(page);
  await fillUpload(page, doc, "Reports");
  const stampBox = form.form.getByRole("checkbox", { name: TEXT.stampBox });
  await stampBox.check();
  await form.submit.click();
  await expect(form.error("file")).toHaveText(TEXT.encrypted);
  await expect(form.title).toHaveValue(doc.title);
  await expect(form.description).toHaveValue(doc.description);
  await expect(stampBox).toBeChecked();
});
