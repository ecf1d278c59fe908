import { randomBytes } from "node:crypto";
import { expect, type APIRequestContext, type Browser, type BrowserContext, type Locator, type Page, type TestInfo } from "@playwright/test";
import { createAdmin, postLogin, registerViaApi, setStatusViaApi, userIdByEmail } from "./accounts";
import { test, uniqueEmail } from "./fixtures";
import { mintSessionCookie, startMintedSession } from "./sessions";
import { nextTotpCode, skipStep } from "../../support/totp";

/**
 * The investor and admin portals as SPEC.md (§2, §4, §8) and the account
 * copy describe them, written out here rather than imported from app/content,
 * so a change of wording that breaks the spec fails a test.
 */
export const TEXT = {
  /** SPEC §8's title; the text says a link was mailed first (decision 010). */
  registered: {
    title: "Registration Submitted",
    description:
      "Almost done: we've sent you an e-mail with a link to confirm your address. Your request goes to the admins once you confirm it.",
  },
  /** SPEC §8's registration text, on the confirmation page once the address is confirmed. */
  confirmed: "Your request has been sent to the admins for approval. You'll be notified once approved.",
  /** Under the pending answer when the registration's address is not confirmed yet. */
  confirmHint: "Confirm your address: we sent you a link.",
  resendLink: "Send the link again",
  resent: {
    title: "Check Your Email",
    description: "If a request for this address is waiting for its confirmation, we've sent it a new link. It expires in 7 days.",
  },
  loginSuccess: { title: "Login successful", description: "Welcome back!" },
  loginFailed: "Login failed",
  /** The app's wording for a pending or rejected account and for wrong credentials (not in SPEC.md). */
  pending: "Your access request is still waiting for approval.",
  invalidCredentials: "Invalid email or password",
  adminOnly: "Admin access required. This login is for administrators only.",
  approved: (name: string) => ({ title: "User Approved", description: `${name} has been approved. Confirmation email sent.` }),
  rejected: (name: string) => ({ title: "User Rejected", description: `${name}'s access request has been rejected.` }),
  rejectQuestion: (name: string) => `Reject ${name}'s access request?`,
  welcome: (name: string) => `Welcome back, ${name}`,
  resetRequested: {
    title: "Check Your Email",
    description: "If an account exists for that address, we've sent a link to reset your password. It expires in 1 hour.",
  },
  passwordChanged: { title: "Password updated", description: "Your password has been changed. Please sign in." },
  resetInvalid: { title: "Link invalid or expired", description: "This reset link is invalid or has expired. Please request a new one." },
  passwordTooShort: "Password must be at least 8 characters",
  nameRequired: "Name is required",
} as const;

export type Account = { email: string; password: string; name: string; company?: string };

/** A fresh account (unique e-mail and name, a password of at least 8 characters). */
export function newAccount(testInfo: TestInfo, label: string, extra: { company?: string } = {}): Account {
  const tag = randomBytes(3).toString("hex");
  return {
    email: uniqueEmail(testInfo, label),
    password: `pw-${randomBytes(6).toString("hex")}`,
    name: `${label[0]!.toUpperCase()}${label.slice(1)} Tester ${tag}`,
    ...extra,
  };
}

/** An approved admin of its own, with two-factor (helpers/accounts.ts createAdmin). */
export async function newAdmin(testInfo: TestInfo): Promise<Account> {
  const admin = newAccount(testInfo, "admin");
  await createAdmin(admin.email, admin.name, admin.password);
  return admin;
}

/** A RegExp matching this text literally. */
export function literal(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
}

/** An investor who registered through the API, confirmed the address with the mailed link, and is still pending. */
export async function pendingInvestor(request: APIRequestContext, testInfo: TestInfo, label = "investor"): Promise<Account> {
  const user = newAccount(testInfo, label, { company: `Photon Capital ${randomBytes(2).toString("hex")}` });
  await registerViaApi(request, user);
  return user;
}

/** An investor approved by an admin of their own (all through the API). */
export async function approvedInvestor(request: APIRequestContext, testInfo: TestInfo, label = "investor"): Promise<Account> {
  const admin = await newAdmin(testInfo);
  const user = await pendingInvestor(request, testInfo, label);
  const cookie = await mintSessionCookie(admin.email);
  await setStatusViaApi(request, cookie, await userIdByEmail(request, cookie, user.email), "approved");
  return user;
}

/** The same wait as the `hydrated` fixture, for any page (e.g. one of a second context). */
export async function waitHydrated(page: Page, jsEnabled: boolean) {
  if (!jsEnabled) return;
  await expect(page.locator("html[data-hydrated]")).toBeAttached();
}

/** A second browser (e.g. the admin's), with the project's JavaScript setting and this test's client address. */
export async function newBrowserContext(
  browser: Browser,
  options: { baseURL: string | undefined; jsEnabled: boolean; clientIp: string },
): Promise<BrowserContext> {
  return browser.newContext({
    baseURL: options.baseURL,
    javaScriptEnabled: options.jsEnabled,
    extraHTTPHeaders: { "X-Forwarded-For": options.clientIp },
    viewport: { width: 1280, height: 800 },
    locale: "en-US",
    colorScheme: "light",
  });
}

/** The sign-in form of /lp/login or /admin/login. */
export function loginForm(page: Page) {
  const main = page.getByRole("main");
  return {
    email: main.getByLabel("Email", { exact: true }),
    password: main.getByLabel("Password", { exact: true }),
    submit: main.getByRole("button", { name: /^(Sign In|Signing in\.\.\.)$/ }),
    /** The form-level message (role=alert inside the form). */
    alert: main.locator("form").getByRole("alert"),
  };
}

export async function signInWith(page: Page, account: { email: string; password: string }) {
  const form = loginForm(page);
  await form.email.fill(account.email);
  await form.password.fill(account.password);
  await form.submit.click();
}

/** The admin workspace's pages and their headings. */
export const ADMIN_PAGES = {
  overview: { path: "/admin/dashboard", heading: "Overview" },
  investors: { path: "/admin/investors", heading: "Investors" },
  documents: { path: "/admin/documents", heading: "Documents" },
  "fund-access": { path: "/admin/fund-access", heading: "Fund access" },
  "email-lists": { path: "/admin/email-lists", heading: "Email lists" },
} as const;
export type AdminPage = keyof typeof ADMIN_PAGES;

/** Open one of the admin pages and wait for its heading (and for React, with JavaScript). */
export async function openAdminPage(page: Page, jsEnabled: boolean, target: AdminPage, query = "") {
  const { path, heading } = ADMIN_PAGES[target];
  const response = await page.goto(`${path}${query}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
  await waitHydrated(page, jsEnabled);
}

/** Open /admin/login, sign in, land on the overview, then open `target` if given. */
export async function signInAsAdmin(page: Page, jsEnabled: boolean, admin: Account, target?: AdminPage) {
  const response = await page.goto("/admin/login");
  expect(response?.status()).toBe(200);
  await waitHydrated(page, jsEnabled);
  await signInWith(page, admin);
  await passTwoFactor(page, jsEnabled, admin.email);
  // bcrypt (cost 12) can take seconds on a busy machine.
  await expect(page).toHaveURL(/\/admin\/dashboard$/, { timeout: 15_000 });
  await expect(page.getByRole("heading", { level: 1, name: ADMIN_PAGES.overview.heading })).toBeVisible();
  await waitHydrated(page, jsEnabled);
  if (target && target !== "overview") await openAdminPage(page, jsEnabled, target);
}

/**
 * Start a browser session for an account the way a signed-in browser has one,
 * without the sign-in pages: a minted session (helpers/sessions.ts) in the
 * page's cookie jar. For every spec whose subject is not signing in (DESIGN.md
 * §6); the sign-in specs go through the pages (signInAsAdmin, signInWith).
 */
export async function startSession(page: Page, account: { email: string }) {
  await startMintedSession(page.context(), account.email);
}

/**
 * A real sign-in over the JSON API (with the two-factor code of a test admin)
 * through the page's own context, whose cookie jar then holds the session: for
 * the specs that read the sign-in's own record (the activity log).
 */
export async function signInOverApi(page: Page, account: { email: string; password: string }) {
  const response = await postLogin(page.context().request, account.email, account.password);
  expect(response.status(), `sign-in of ${account.email}: ${await response.text()}`).toBe(200);
}

/** An admin's session (startSession), then `target` (default the overview) open and hydrated. */
export async function openAsAdmin(page: Page, jsEnabled: boolean, admin: Account, target: AdminPage = "overview") {
  await startSession(page, admin);
  await openAdminPage(page, jsEnabled, target);
}

/** An investor's session (startSession), then their dashboard open and hydrated. */
export async function openAsInvestor(page: Page, jsEnabled: boolean, investor: { email: string; password: string }) {
  await startSession(page, investor);
  const response = await page.goto("/lp/dashboard");
  expect(response?.status()).toBe(200);
  await waitHydrated(page, jsEnabled);
}

/**
 * The code step after the password (accounts with two-factor, e.g. every test
 * admin): the code of testTotpSecret(email), once more with the next step when
 * a parallel worker used this one.
 */
export async function passTwoFactor(page: Page, jsEnabled: boolean, email: string) {
  await expect(page).toHaveURL(/\/login\/two-factor$/, { timeout: 15_000 });
  await waitHydrated(page, jsEnabled);
  const main = page.getByRole("main");
  for (let attempt = 0; attempt < 3; attempt++) {
    if (attempt > 0) {
      // A fresh code step page (the challenge lasts 5 minutes), without the last message.
      await page.goto("/login/two-factor");
      await waitHydrated(page, jsEnabled);
    }
    const { code, step } = await nextTotpCode(email);
    await main.getByLabel("Code", { exact: true }).fill(code);
    await main.getByRole("button", { name: "Verify" }).click();
    const left = page.waitForURL((url) => !url.pathname.endsWith("/login/two-factor"), { timeout: 15_000 }).then(
      () => "signed in" as const,
      () => null,
    );
    const refused = main
      .getByText("Invalid two-factor code")
      .first()
      .waitFor({ timeout: 15_000 })
      .then(
        () => "refused" as const,
        () => null,
      );
    const outcome = await Promise.race([left, refused]);
    if (outcome === "signed in") return;
    if (outcome === null) break;
    skipStep(email, step);
  }
  throw new Error(`the code step for ${email} did not sign in`);
}

/** 'Request Investor Access' on /lp/register. */
export function registerForm(page: Page) {
  const main = page.getByRole("main");
  return {
    email: main.getByLabel("Email", { exact: true }),
    password: main.getByLabel("Password", { exact: true }),
    name: main.getByLabel("Full name"),
    company: main.getByLabel(/^Company/),
    submit: main.getByRole("button", { name: /^(Request Access|Submitting\.\.\.)$/ }),
  };
}

export type AdminList = "pending" | "approved" | "rejected";

/** The status badge of each list's rows in the investors table. */
const STATUS_BADGES: Record<AdminList, string> = { pending: "Pending", approved: "Approved", rejected: "Rejected" };

/** The investors table with its tabs, empty state and pager ('Existing Investor/LP Management'). */
export function adminList(page: Page): Locator {
  return page.getByTestId("investor-list");
}

/** A user's row in the investors table, with the status badge of `list`. */
export function adminEntry(page: Page, list: AdminList, email: string): Locator {
  return adminList(page)
    .getByTestId("investor-row")
    .filter({ hasText: email.toLowerCase() })
    .filter({ has: page.getByTestId("investor-status").getByText(STATUS_BADGES[list], { exact: true }) });
}

/** A row's menu ('⋯'), opened: the reference code and the change that asks first. */
export async function openRowMenu(row: Locator): Promise<Locator> {
  const menu = row.locator("details[data-row-menu]");
  await menu.locator("summary").click();
  await expect(menu).toHaveAttribute("open", "");
  return menu;
}

/** The session cookie, if the context has one. */
export async function sessionCookie(context: BrowserContext) {
  return (await context.cookies()).find((c) => /lr_session$/.test(c.name));
}

/**
 * The shared fixtures plus `secondBrowser`: another browser (an admin's beside
 * an investor's), with the project's JavaScript setting and the test's client address.
 */
export const testWithSecondBrowser = test.extend<{ secondBrowser: () => Promise<Page> }>({
  secondBrowser: async ({ browser, baseURL, jsEnabled, clientIp }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async () => {
      const context = await newBrowserContext(browser, { baseURL, jsEnabled, clientIp });
      contexts.push(context);
      return context.newPage();
    });
    for (const context of contexts) await context.close();
  },
});
