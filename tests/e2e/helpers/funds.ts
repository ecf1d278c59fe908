import type { SinkMail } from "./mail";
import { expect, type APIRequestContext, type BrowserContext, type Locator, type Page } from "@playwright/test";
import type { SampleDocument } from "./document-ui";

/**
 * The fund sign-ups, the fund document pages and the admin's 'Potential
 * Investor Management (Fund II)' section as a person uses them (SPEC.md §2,
 * §4, §8; docs/decisions/012-fund-access.md). Texts are written out here (not
 * imported from app/content) so a change of wording that breaks the spec
 * fails a test.
 */

export const FUND_TEXT = {
  fundIISignup: {
    confirm: "I confirm that I am an accredited/qualified investor and agree to the confidentiality of these materials.",
    success: {
      title: "Check Your Email",
      description:
        "We've sent you a permanent access link to view all Fund II documents. Please check your inbox and junk/spam folder.",
    },
    accreditedRequired: "You must confirm that you are an accredited/qualified investor",
  },
  fundISignup: {
    success: { title: "Access Granted", description: "You now have access to Deeptech Fund I documents." },
  },
  fundIIDocuments: {
    title: "Lumen Ridge Ventures Deeptech Fund II Documents",
    card: "Documents & Resources",
    invalid: "Invalid access token. Redirecting to signup...",
    required: "Access token required. Redirecting to signup...",
  },
  fundIDocuments: { title: "Deeptech Fund I Documents" },
  /** Subject of the access-link mail ("Your Deeptech Fund II documents access link"). */
  linkSubject: /Fund II documents access link/,
  admin: {
    section: "Potential Investor Management (Fund II)",
    accredited: "\u2713 Accredited investor confirmed",
    revoke: "Revoke access",
    resend: "Send new link",
    revokedBadge: "Revoked",
    revokeQuestion: (name: string) => `Revoke ${name}'s access to the Deeptech Fund II documents?`,
    revoked: (name: string) => ({ title: "Access revoked", description: `${name}'s access to the fund documents has been revoked.` }),
    linkSent: (name: string) => ({ title: "Link sent", description: `${name} will receive a new access link.` }),
    uploaded: { title: "Fund document uploaded", description: "The fund document has been uploaded successfully" },
  },
} as const;

/** The five fund categories (SPEC.md §2 "Fund II documents"). */
export const FUND_CATEGORIES = [
  { value: "fund_documents", label: "Fund Documents" },
  { value: "executive_summary", label: "Executive Summary" },
  { value: "pitchdeck", label: "Pitch Deck" },
  { value: "newsletters", label: "Newsletters" },
  { value: "research", label: "Research" },
] as const;

export type FundId = "fund-i" | "fund-ii";

/* ------------------------------------------------------------------------ */
/* Mail                                                                     */
/* ------------------------------------------------------------------------ */

export type Mail = SinkMail;
export { mailsTo, nextMailTo } from "./mail";

/** The Fund II access link in a mail: `${baseURL}/fund-ii/documents?token=<43 base64url characters>`. */
export function fundIILinkIn(mail: Mail, baseURL: string): string {
  const escaped = `${baseURL}/fund-ii/documents?token=`.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const match = mail.text.match(new RegExp(`${escaped}[A-Za-z0-9_-]{43}(?=\\s|$)`));
  expect(match, `a Fund II access link in: ${mail.text}`).not.toBeNull();
  return match![0];
}

/* ------------------------------------------------------------------------ */
/* Forms and pages                                                          */
/* ------------------------------------------------------------------------ */

/** The form on /fund-ii/signup. */
export function fundIISignupForm(page: Page) {
  const main = page.getByRole("main");
  return {
    name: main.getByLabel("Full Name", { exact: true }),
    email: main.getByLabel("Business email", { exact: true }),
    confirm: main.getByLabel(FUND_TEXT.fundIISignup.confirm, { exact: true }),
    submit: main.getByRole("button", { name: "Request Access" }),
    form: page.locator("form#fund-ii-signup"),
    confirmError: page.locator("#fund-ii-signup-accreditedConfirmation-error"),
  };
}

/** The form on /fund-i/signup. */
export function fundISignupForm(page: Page) {
  const main = page.getByRole("main");
  return {
    name: main.getByLabel("Full Name", { exact: true }),
    email: main.getByLabel("Email", { exact: true }),
    company: main.getByLabel("Company (optional)", { exact: true }),
    phone: main.getByLabel("Phone (optional)", { exact: true }),
    submit: main.getByRole("button", { name: /^(Access Documents|Processing\.\.\.)$/ }),
  };
}

/** The Fund II documents list (card 'Documents & Resources'). */
export function fundIIDocuments(page: Page) {
  const main = page.getByRole("main");
  return {
    heading: main.getByRole("heading", { level: 1, name: FUND_TEXT.fundIIDocuments.title, exact: true }),
    card: main.getByRole("heading", { level: 2, name: FUND_TEXT.fundIIDocuments.card, exact: true }),
    region: main.getByRole("region", { name: "Deeptech Fund II documents by category" }),
    category: (value: string) => main.locator(`details#fund-ii-${value}`),
    alert: main.getByRole("alert"),
  };
}

/** One document of a fund page, found by its heading (h3 on Fund II, h2 on Fund I). */
export function fundItem(page: Page, title: string, level: 2 | 3): Locator {
  return page
    .getByRole("main")
    .locator("li[data-testid=fund-document]")
    .filter({ has: page.getByRole("heading", { level, name: title, exact: true }) });
}

/** A fund access request in the admin list. */
export function accessRequestRow(page: Page, email: string): Locator {
  return page.locator("[data-testid=fund-access-request]").filter({ hasText: email.toLowerCase() });
}

/** The HttpOnly access cookie of a fund, if the context has one. */
export async function fundCookie(context: BrowserContext, fundId: FundId) {
  const name = fundId === "fund-i" ? "lr_fund_i" : "lr_fund_ii";
  return (await context.cookies()).find((c) => c.name === name || c.name === `__Host-${name}`);
}

/* ------------------------------------------------------------------------ */
/* API                                                                      */
/* ------------------------------------------------------------------------ */

export type UploadedFundDocument = { id: string; title: string; fileName: string; fundId: FundId; category: string };

/** POST /api/fund-documents as an admin (multipart, like the dashboard form's FormData). */
export async function uploadFundDocumentViaApi(
  request: APIRequestContext,
  adminCookie: string,
  doc: SampleDocument,
  options: { fundId: FundId; category?: string },
): Promise<UploadedFundDocument> {
  const category = options.category ?? "fund_documents";
  const response = await request.post("/api/fund-documents", {
    headers: { Cookie: adminCookie },
    multipart: {
      title: doc.title,
      description: doc.description,
      category,
      fundId: options.fundId,
      file: { name: doc.fileName, mimeType: "application/pdf", buffer: doc.bytes },
    },
    timeout: 60_000,
  });
  expect(response.status(), await response.text()).toBe(201);
  const body = (await response.json()) as { id: string; fundId: string; fileSize: string; category: string };
  expect(body.fundId).toBe(options.fundId);
  expect(body.fileSize).toBe(String(doc.bytes.length));
  return { id: body.id, title: doc.title, fileName: doc.fileName, fundId: options.fundId, category };
}

/** 'Upload Fund II document' on the admin dashboard. */
export function fundUploadForm(page: Page) {
  const section = page.locator("section#upload-fund-document");
  const form = section.locator("form#fund-upload");
  return {
    section,
    heading: section.getByRole("heading", { name: "Upload Fund II document" }),
    title: form.getByLabel("Title", { exact: true }),
    description: form.getByLabel("Description (optional)"),
    category: form.getByLabel("Category", { exact: true }),
    fund: form.getByLabel("Fund", { exact: true }),
    file: form.getByLabel("File", { exact: true }),
    submit: form.getByRole("button", { name: /^(Upload Fund Document|Uploading\.\.\.)$/ }),
  };
}
