import type { Page } from "@playwright/test";
import { latestMailTo } from "./helpers/accounts";
import { expect, test } from "./helpers/fixtures";
import { approvedInvestor, signInWith, waitHydrated, type Account } from "./helpers/portal";

/**
 * The account page's sessions and password, with JavaScript and without: an
 * investor signed in on two browsers sees both sessions (browser and system
 * from the user agent, the address, 'This device'), signs the other one out
 * ('Sign out all other sessions', effective at its next request), then
 * changes the password, which ends the other browser's new session too.
 * The texts are written out here, not imported, so a change of wording fails.
 */

test.describe.configure({ timeout: 90_000 });
/** bcrypt (cost 12) can take seconds on a busy machine. */
const SLOW = 15_000;
const FIREFOX_ON_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

async function signIn(page: Page, jsEnabled: boolean, account: Pick<Account, "email" | "password">) {
  await page.goto("/lp/login");
  await waitHydrated(page, jsEnabled);
  await signInWith(page, account);
  await expect(page).toHaveURL(/\/lp\/dashboard$/, { timeout: SLOW });
}

async function openAccount(page: Page, jsEnabled: boolean) {
  await page.goto("/lp/account");
  await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
  await waitHydrated(page, jsEnabled);
}

const sessionRows = (page: Page) => page.getByRole("table", { name: "Active sessions" }).locator("tbody tr");

test("sessions: both browsers are listed; 'Sign out all other sessions' ends the other one at its next request", { tag: "@no-js" }, async ({
  page,
  browser,
  baseURL,
  request,
  jsEnabled,
  clientIp,
}, testInfo) => {
  const investor = await approvedInvestor(request, testInfo);
  const otherContext = await browser.newContext({
    baseURL,
    javaScriptEnabled: jsEnabled,
    userAgent: FIREFOX_ON_WINDOWS,
    extraHTTPHeaders: { "X-Forwarded-For": "198.51.100.77" },
  });
  try {
    const other = await otherContext.newPage();
    await signIn(other, jsEnabled, investor);
    await signIn(page, jsEnabled, investor);
    await openAccount(page, jsEnabled);

    // Two rows: this device (Chromium, this test's address) and the other browser.
    await expect(sessionRows(page)).toHaveCount(2);
    const mine = sessionRows(page).filter({ hasText: "This device" });
    await expect(mine).toContainText(clientIp);
    // Headless Chromium names itself "HeadlessChrome": ua-parser-js reads "Chrome Headless".
    await expect(mine).toContainText(/Chrome (Headless )?\d+ on Linux/);
    await expect(mine.getByRole("button", { name: /^Sign out/ })).toHaveCount(0);
    const theirs = sessionRows(page).filter({ hasText: "Firefox 133 on Windows 10" });
    await expect(theirs).toContainText("198.51.100.77");
    await expect(theirs).not.toContainText("This device");
    await expect(theirs.getByRole("button", { name: /^Sign out the session of Firefox 133 on Windows 10 started / })).toBeVisible();

    await page.getByRole("button", { name: "Sign out all other sessions" }).click();
    await expect(page.getByRole("status").filter({ hasText: "1 other session has been signed out." })).toBeVisible();
    await expect(sessionRows(page)).toHaveCount(1);
    await expect(page.getByText("No other session is signed in.")).toBeVisible();

    // The other browser is out at its next request; this one is not.
    await other.goto("/lp/dashboard");
    await expect(other).toHaveURL(/\/lp\/login$/);
    await page.goto("/lp/dashboard");
    await expect(page).toHaveURL(/\/lp\/dashboard$/);

    // One session signed out by its own button.
    await signIn(other, jsEnabled, investor);
    await openAccount(page, jsEnabled);
    await sessionRows(page).filter({ hasText: "Firefox 133" }).getByRole("button", { name: /^Sign out/ }).click();
    await expect(page.getByRole("status").filter({ hasText: "The session has been signed out." })).toBeVisible();
    await expect(sessionRows(page)).toHaveCount(1);
    await other.goto("/lp/account");
    await expect(other).toHaveURL(/\/lp\/login$/);
  } finally {
    await otherContext.close();
  }
});

test("change password: the current one is checked; the new one works, the old one not, and every other session ends", { tag: "@no-js" }, async ({
  page,
  browser,
  baseURL,
  request,
  jsEnabled,
}, testInfo) => {
  const investor = await approvedInvestor(request, testInfo);
  const otherContext = await browser.newContext({ baseURL, javaScriptEnabled: jsEnabled, extraHTTPHeaders: { "X-Forwarded-For": "198.51.100.78" } });
  try {
    const other = await otherContext.newPage();
    await signIn(other, jsEnabled, investor);
    await signIn(page, jsEnabled, investor);
    await openAccount(page, jsEnabled);

    const form = page.locator("form#change-password");
    await form.getByLabel("Current password").fill("not-the-password");
    await form.getByLabel("New password").fill(`${investor.password}-new`);
    await form.getByRole("button", { name: "Change password" }).click();
    await expect(form.getByText("The current password is not correct.")).toBeVisible({ timeout: SLOW });

    const next = `${investor.password}-new`;
    await page.locator("form#change-password").getByLabel("Current password").fill(investor.password);
    await page.locator("form#change-password").getByLabel("New password").fill(next);
    await page.locator("form#change-password").getByRole("button", { name: "Change password" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Your password has been changed. Every other session has been signed out." })).toBeVisible({
      timeout: SLOW,
    });
    await expect(sessionRows(page)).toHaveCount(1);

    // The other browser is signed out; this one stays.
    await other.goto("/lp/dashboard");
    await expect(other).toHaveURL(/\/lp\/login$/);
    await page.goto("/lp/dashboard");
    await expect(page).toHaveURL(/\/lp\/dashboard$/);

    // The account is told, and only the new password signs in.
    const mail = await latestMailTo(investor.email, /Security notice/);
    expect(mail.text).toContain("The password of your account was changed");
    expect((await request.post("/api/auth/login", { data: { email: investor.email, password: investor.password } })).status()).toBe(401);
    expect((await request.post("/api/auth/login", { data: { email: investor.email, password: next } })).status()).toBe(200);
  } finally {
    await otherContext.close();
  }
});
