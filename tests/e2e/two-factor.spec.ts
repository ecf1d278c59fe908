import type { Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { expect, test } from "./helpers/fixtures";
import { createAdmin } from "./helpers/accounts";
import { approvedInvestor, newAccount, signInWith, waitHydrated, type Account } from "./helpers/portal";

/**
 * Two-factor sign-in end to end, with JavaScript and without: an investor
 * turns it on from /lp/account (the test reads the key shown as text and
 * computes the code, as an authenticator app would), keeps the 10 recovery
 * codes shown once, then signs in with a code and with a recovery code.
 * The texts are written out here, not imported, so a change of wording fails.
 */

const TEXT = {
  codeStep: "Two-factor authentication",
  enabled: "Two-factor authentication is on. Save your recovery codes now.",
  codesLeft: (n: number) => `Two-factor authentication is on. ${n} recovery codes left.`,
  invalid: "Invalid two-factor code",
  qr: "QR code to add this account to an authenticator app",
};

test.describe.configure({ timeout: 90_000 });
/** bcrypt (cost 12) can take seconds on a busy machine. */
const SLOW = 15_000;

/** The code an authenticator app shows `offsetSteps` steps from now (RFC 6238: SHA-1, 6 digits, 30 s). */
function codeFor(secret: string, offsetSteps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

async function signInAtLpLogin(page: Page, jsEnabled: boolean, account: Account) {
  await page.goto("/lp/login");
  await waitHydrated(page, jsEnabled);
  await signInWith(page, account);
}

async function logout(page: Page, jsEnabled: boolean) {
  await waitHydrated(page, jsEnabled);
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/lp\/login$/, { timeout: SLOW });
}

/** The code step: fill the code and submit. */
async function enterCode(page: Page, jsEnabled: boolean, code: string) {
  await expect(page).toHaveURL(/\/login\/two-factor$/, { timeout: SLOW });
  await expect(page.getByRole("heading", { level: 1, name: TEXT.codeStep })).toBeVisible();
  await waitHydrated(page, jsEnabled);
  const main = page.getByRole("main");
  await main.getByLabel("Code", { exact: true }).fill(code);
  await main.getByRole("button", { name: "Verify" }).click();
}

test("an investor turns two-factor on, then signs in with a code and with a recovery code", { tag: "@no-js" }, async ({ page, request, jsEnabled }, testInfo) => {
  const investor = await approvedInvestor(request, testInfo);

  // Signed in with the password alone, the investor opens the account page.
  await signInAtLpLogin(page, jsEnabled, investor);
  await expect(page).toHaveURL(/\/lp\/dashboard$/, { timeout: SLOW });
  await waitHydrated(page, jsEnabled);
  await page.getByTestId("lp-sidebar").getByRole("link", { name: "Account", exact: true }).click();
  await expect(page).toHaveURL(/\/lp\/account$/);
  await expect(page.getByRole("heading", { level: 1, name: "Account", exact: true })).toBeVisible();
  await waitHydrated(page, jsEnabled);

  // The QR code is inline SVG from the server; the key is shown as text for manual entry.
  const qr = page.getByRole("img", { name: TEXT.qr });
  await expect(qr.locator("svg")).toBeVisible();
  const secret = (await page.locator("#two-factor-secret").textContent())?.trim() ?? "";
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);

  // A wrong code is refused under the field.
  const main = page.getByRole("main");
  const setupCode = main.getByLabel("6-digit code from the app");
  const wrong = String((Number(codeFor(secret)) + 500_000) % 1_000_000).padStart(6, "0");
  await setupCode.fill(wrong);
  await main.getByRole("button", { name: "Turn on two-factor" }).click();
  await expect(main.getByText(TEXT.invalid).first()).toBeVisible();

  await main.getByLabel("6-digit code from the app").fill(codeFor(secret));
  await main.getByRole("button", { name: "Turn on two-factor" }).click();
  await expect(page.getByRole("status").filter({ hasText: TEXT.enabled })).toBeVisible();

  // Ten recovery codes, shown once, with a .txt download holding the same codes.
  const list = main.getByRole("list", { name: "Your recovery codes" });
  const codes = (await list.getByRole("listitem").allTextContents()).map((c) => c.trim());
  expect(codes).toHaveLength(10);
  for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  expect(new Set(codes).size).toBe(10);
  const download = main.getByRole("link", { name: "Download as .txt" });
  await expect(download).toHaveAttribute("download", "lumen-ridge-recovery-codes.txt");
  const href = decodeURIComponent((await download.getAttribute("href")) ?? "");
  expect(href.startsWith("data:text/plain;charset=utf-8,")).toBe(true);
  for (const code of codes) expect(href).toContain(code);
  await expect(main.getByText(TEXT.codesLeft(10))).toBeVisible();

  // Reloaded, the page no longer shows the codes.
  await page.goto("/lp/account");
  await expect(main.getByText(TEXT.codesLeft(10))).toBeVisible();
  await expect(main.getByRole("list", { name: "Your recovery codes" })).toHaveCount(0);
  await logout(page, jsEnabled);

  // The password alone now opens only the code step; a wrong code is refused there.
  await signInAtLpLogin(page, jsEnabled, investor);
  await enterCode(page, jsEnabled, wrong);
  await expect(page.getByRole("main").getByText(TEXT.invalid).first()).toBeVisible();
  await expect(page).toHaveURL(/\/login\/two-factor$/);
  // The code step refuses the code the setup used; the app's next code (one step of drift) works.
  await enterCode(page, jsEnabled, codeFor(secret, 1));
  await expect(page).toHaveURL(/\/lp\/dashboard$/, { timeout: SLOW });
  await expect(page.getByRole("heading", { level: 1, name: `Welcome back, ${investor.name}` })).toBeVisible();
  await logout(page, jsEnabled);

  // A recovery code signs in once.
  await signInAtLpLogin(page, jsEnabled, investor);
  await enterCode(page, jsEnabled, codes[0]!.toUpperCase());
  await expect(page).toHaveURL(/\/lp\/dashboard$/, { timeout: SLOW });
  await page.goto("/lp/account");
  await expect(page.getByRole("main").getByText(TEXT.codesLeft(9))).toBeVisible();
  await logout(page, jsEnabled);

  await signInAtLpLogin(page, jsEnabled, investor);
  await enterCode(page, jsEnabled, codes[0]!);
  await expect(page.getByRole("main").getByText(TEXT.invalid).first()).toBeVisible();
  await expect(page).toHaveURL(/\/login\/two-factor$/);
});

test("the code step without a password step says the sign-in expired and opens nothing", { tag: "@no-js" }, async ({ page }) => {
  await page.goto("/login/two-factor");
  await expect(page.getByRole("main").getByText("Your sign-in has expired. Please sign in again.")).toBeVisible();
  await expect(page.getByRole("main").getByLabel("Code", { exact: true })).toHaveCount(0);
  await page.goto("/lp/dashboard");
  await expect(page).toHaveURL(/\/lp\/login$/);
});

test("an admin without two-factor is sent to set it up after the password, and reaches the workspace only once it is on", { tag: "@no-js" }, async ({
  page,
  jsEnabled,
}, testInfo) => {
  const admin = newAccount(testInfo, "admin");
  await createAdmin(admin.email, admin.name, admin.password, { twoFactor: false });
  await page.goto("/admin/login");
  await waitHydrated(page, jsEnabled);
  await signInWith(page, admin);
  await expect(page).toHaveURL(/\/admin\/account$/, { timeout: SLOW });
  const main = page.getByRole("main");
  await expect(main.getByText("The admin portal requires two-factor authentication. Set it up to continue.")).toBeVisible();
  // Nothing else opens meanwhile; the workspace shows no navigation.
  await expect(page.getByTestId("admin-sidebar")).toHaveCount(0);
  await page.goto("/admin/investors");
  await expect(page).toHaveURL(/\/admin\/account$/);
  await page.goto("/lp/dashboard");
  await expect(page).toHaveURL(/\/admin\/account$/);
  await waitHydrated(page, jsEnabled);

  const secret = (await page.locator("#two-factor-secret").textContent())?.trim() ?? "";
  await main.getByLabel("6-digit code from the app").fill(codeFor(secret));
  await main.getByRole("button", { name: "Turn on two-factor" }).click();
  await expect(page.getByRole("status").filter({ hasText: TEXT.enabled })).toBeVisible();
  await expect(main.getByRole("list", { name: "Your recovery codes" }).getByRole("listitem")).toHaveCount(10);
  await main.getByRole("link", { name: "Continue to the admin dashboard" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
});
