import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { expect, type APIRequestContext, type Locator, type Page, type TestInfo } from "@playwright/test";
import { samplePdf } from "../../helpers/sample-files";
import { createAdmin, setStatusViaApi, userIdByEmail } from "./accounts";
import { runDir } from "./documents";
import { E2E_BCRYPT_COST, E2E_ISOLATED_SESSION_SECRET, E2E_TOTP_KEYS } from "./secrets";
import { mintSessionCookie, registerIsolatedServer } from "./sessions";
import { pendingInvestor, waitHydrated, type Account } from "./portal";

/**
 * The LP document screens as a person uses them (SPEC.md §2 "Investor
 * dashboard" and "Admin dashboard", §8, §9): the admin's upload form and
 * published documents panel, the investor's list, and the texts they show,
 * written out here (not imported from app/content) so a change of wording
 * that breaks the spec fails a test.
 */

export const DOC_TEXT = {
  emptyAll: "No documents available yet",
  emptyCategory: "No documents in this category yet",
  adminEmptyCategory: "No documents in this category",
  uploaded: { title: "Document uploaded", description: "The document has been uploaded successfully" },
  uploadFailed: "Upload failed",
  deleted: { title: "Document deleted", description: "The document has been deleted successfully" },
  downloadStarted: "Download started",
  confirmDelete: "Are you sure you want to delete this document?",
  titleRequired: "Title is required",
  fileRequired: "File is required",
  fileType: "File type must be PDF, Word, Excel, or PowerPoint",
  actions: { view: "Viewed", download: "Downloaded" },
} as const;

/** The seven LP categories in order (SPEC.md §3). */
export const LP_CATEGORIES = [
  { value: "fund_documents", label: "Fund Documents" },
  { value: "executive_summary", label: "Executive Summary" },
  { value: "pitchdeck", label: "Pitch Deck" },
  { value: "newsletters", label: "Newsletters" },
  { value: "reports", label: "Reports" },
  { value: "portfolio_company_news", label: "Portfolio Company News" },
  { value: "research", label: "Research" },
] as const;

export type LpCategoryValue = (typeof LP_CATEGORIES)[number]["value"];

/** Bytes as SPEC.md §9 shows them: megabytes with 2 decimals. */
export function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
}

/** The investor list's date ('MMM d, yyyy', SPEC.md §9) in this machine's time zone (the server's too). */
export function investorDate(date = new Date()): string {
  return new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric" }).format(date);
}

/** The admin panel's date ('MMM dd, yyyy', in UTC). */
export function adminDate(date = new Date()): string {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", month: "short", day: "2-digit", year: "numeric" }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("month")} ${part("day")}, ${part("year")}`;
}

export type SampleDocument = { title: string; description: string; fileName: string; bytes: Buffer; size: string };

/**
 * A real PDF of `size` bytes with a title and file name unique to this test,
 * its project (js / no-js) and a random tag, so parallel runs never collide.
 */
export function sampleDocument(testInfo: TestInfo, label: string, size = 1_300_000): SampleDocument {
  const project = testInfo.project.name.replace(/[^a-z0-9]/gi, "");
  const tag = randomBytes(3).toString("hex");
  const title = `${label} ${project} ${tag}`;
  const bytes = samplePdf(`${title} - Lumen Ridge Ventures`, size);
  expect(bytes.length).toBe(size);
  return {
    title,
    description: `Prepared for limited partners (${tag}).`,
    fileName: `${label.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${project}-${tag}.pdf`,
    bytes,
    size: megabytes(size),
  };
}

/** 'Upload LP document', the upload form's own page (/admin/documents/upload). */
export function uploadForm(page: Page) {
  const section = page.locator("section#upload-document");
  const form = section.locator("form#lp-upload");
  return {
    section,
    form,
    heading: page.getByRole("heading", { level: 1, name: "Upload LP document" }),
    title: form.getByLabel("Title", { exact: true }),
    description: form.getByLabel("Description (optional)"),
    category: form.getByLabel("Category"),
    file: form.getByLabel("File", { exact: true }),
    submit: form.getByRole("button", { name: /^(Upload Document|Uploading\.\.\.)$/ }),
    error: (field: "title" | "description" | "category" | "file") => page.locator(`#lp-upload-${field}-error`),
    progress: form.getByRole("progressbar", { name: "Upload progress" }),
    progressText: page.locator("#lp-upload-progress-text"),
  };
}

/** From the documents list, 'Upload' (at the top; an empty list has a second one in its empty state) opens the form on its own page. */
export async function openUpload(page: Page, jsEnabled: boolean) {
  await page.getByRole("main").getByRole("link", { name: "Upload", exact: true }).first().click();
  await expect(page).toHaveURL(/\/admin\/documents\/upload$/);
  await expect(uploadForm(page).heading).toBeVisible();
  await waitHydrated(page, jsEnabled);
}

/** Fill the upload form with a document (the file as the browser's file picker would give it). */
export async function fillUpload(page: Page, doc: { title: string; description?: string; fileName: string; bytes: Buffer; mimeType?: string }, categoryLabel = "Reports") {
  const form = uploadForm(page);
  await form.title.fill(doc.title);
  if (doc.description !== undefined) await form.description.fill(doc.description);
  await form.category.selectOption({ label: categoryLabel });
  await form.file.setInputFiles({ name: doc.fileName, mimeType: doc.mimeType ?? "application/pdf", buffer: doc.bytes });
}

/** 'Published LP documents', the list that opens /admin/documents: a table, with category tabs. */
export function publishedPanel(page: Page) {
  const section = page.locator("section#published-documents");
  return {
    section,
    heading: section.getByRole("heading", { level: 2, name: "Published LP documents" }),
    table: section.getByRole("table", { name: "Published LP documents" }),
    tabs: section.getByRole("navigation", { name: "Categories" }),
    tab: (label: string) => section.getByRole("navigation", { name: "Categories" }).getByRole("link", { name: new RegExp(`^${label}\\b`) }),
  };
}

/** One document's row in the admin list. */
export function publishedRow(page: Page, title: string): Locator {
  return page.locator("section#published-documents tr[data-testid=published-document]").filter({ hasText: title });
}

/** A row's cell under a column heading (Title, Category, Audience, Opened, Uploaded). */
export function rowCell(row: Locator, column: "title" | "category" | "audience" | "opened" | "uploaded"): Locator {
  const index = { title: 0, category: 1, audience: 2, opened: 3, uploaded: 4 }[column];
  return row.locator("td").nth(index);
}

/** Open a row's '⋯' menu (a disclosure: works without JavaScript) and answer it. */
export async function openRowMenu(page: Page, title: string): Promise<Locator> {
  const menu = publishedRow(page, title).locator("details[data-row-menu]");
  if (!(await menu.evaluate((d) => (d as HTMLDetailsElement).open))) await menu.locator("summary").click();
  await expect(menu).toHaveAttribute("open", "");
  return menu;
}

/** The investor's documents list (h2 'Documents'). */
export function investorDocuments(page: Page) {
  const main = page.getByRole("main");
  return {
    heading: main.getByRole("heading", { level: 2, name: "Documents" }),
    region: main.getByRole("region", { name: "Documents by category" }),
    category: (value: LpCategoryValue) => main.locator(`details#documents-${value}`),
  };
}

/** One document in the investor's list, found by its h3. */
export function investorItem(page: Page, title: string): Locator {
  return page
    .getByRole("region", { name: "Documents by category" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { level: 3, name: title, exact: true }) });
}

/** Open a `<details>` category by clicking its summary (works without JavaScript), unless already open. */
export async function openCategory(details: Locator) {
  if (await details.evaluate((d) => (d as HTMLDetailsElement).open)) return;
  await details.locator("summary").click();
  await expect(details).toHaveAttribute("open", "");
}

/** The document's id, from its View link (`/api/documents/{id}/view`). */
export async function documentIdFrom(viewLink: Locator): Promise<string> {
  const href = await viewLink.getAttribute("href");
  const match = /^\/api\/documents\/([^/]+)\/view$/.exec(href ?? "");
  expect(match, `a View link to /api/documents/{id}/view, got ${href}`).not.toBeNull();
  return decodeURIComponent(match![1]!);
}

/** An investor registered through the API and approved by `admin` (one admin for the whole flow). */
export async function investorApprovedBy(request: APIRequestContext, testInfo: TestInfo, admin: Account, label = "investor"): Promise<Account> {
  const user = await pendingInvestor(request, testInfo, label);
  const cookie = await mintSessionCookie(admin.email);
  await setStatusViaApi(request, cookie, await userIdByEmail(request, cookie, user.email), "approved");
  return user;
}

/** A text file with a .pdf name: the server must refuse it by its content. */
export function textFileAsPdf(testInfo: TestInfo) {
  const tag = randomBytes(3).toString("hex");
  return {
    fileName: `not-really-${testInfo.project.name.replace(/[^a-z0-9]/gi, "")}-${tag}.pdf`,
    bytes: Buffer.from(`This is plain text pretending to be a PDF (${tag}).\n`.repeat(20), "utf8"),
  };
}

/* ------------------------------------------------------------------------ */
/* A server of its own, for checks that need an empty document store.       */
/* ------------------------------------------------------------------------ */

export type IsolatedServer = {
  baseURL: string;
  /** This server's SQLite file (for a look at, or rows put straight into, its database). */
  databasePath: string;
  /** Make an approved admin with two-factor in this server's database (helpers/accounts.ts createAdmin). */
  createAdmin: (account: { email: string; name: string; password: string }) => Promise<void>;
  stop: () => Promise<void>;
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function waitHealthy(url: string, child: ChildProcess, stderr: () => string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the isolated server exited (${child.exitCode}): ${stderr()}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`the isolated server did not answer ${url} in time: ${stderr()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * The production server on a port of its own, with an empty database and
 * storage folder (under E2E_RUN_DIR) and the same build as the run's server.
 * The shared e2e server is not empty: other specs (the api project, and this
 * spec's parallel tests) upload documents into it at any moment, so the
 * "nothing yet" texts can only be checked here.
 */
export async function startIsolatedServer(): Promise<IsolatedServer> {
  const dir = fs.mkdtempSync(path.join(runDir(), "isolated-"));
  const port = await freePort();
  const baseURL = `http://localhost:${port}`;
  const env = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: baseURL,
    SESSION_SECRET: E2E_ISOLATED_SESSION_SECRET,
    TOTP_KEYS: E2E_TOTP_KEYS,
    TEST_BCRYPT_COST: E2E_BCRYPT_COST,
    DATABASE_PATH: path.join(dir, "isolated.sqlite"),
    STORAGE_DIR: path.join(dir, "uploads"),
    LOG_LEVEL: "silent",
    TRUST_PROXY: "1",
    MAIL_RATE_PER_MINUTE: "100000",
    DOCUMENT_MAIL_DEFAULT: "none",
    BUILD_DIR: process.env.BUILD_DIR ?? "build",
    // The run's mail sink (one port above the run's server), so specs can follow links in mails (newsletter confirmation).
    SMTP_URL: `smtp://127.0.0.1:${Number(process.env.E2E_PORT ?? 3210) + 1}`,
  };
  // The build's compiled server with plain node, as `npm start` runs it.
  const child = spawn(process.execPath, [path.resolve(env.BUILD_DIR, "server/index.js")], { env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-4000);
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await waitHealthy(`${baseURL}/healthz`, child, () => stderr);
  } catch (error) {
    await stop();
    throw error;
  }
  const unregister = registerIsolatedServer({ baseURL, database: env.DATABASE_PATH, secret: E2E_ISOLATED_SESSION_SECRET });
  return {
    baseURL,
    databasePath: env.DATABASE_PATH,
    createAdmin: ({ email, name, password }) => createAdmin(email, name, password, { database: env.DATABASE_PATH }),
    stop: async () => {
      unregister();
      await stop();
    },
  };
}

// Kept under its old name for the specs that import it from here.
export { useSessionCookie } from "./sessions";
