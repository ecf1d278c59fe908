import { createHmac } from "node:crypto";
import { expectNoAxeViolations } from "./helpers/axe";
import { request as playwrightRequest, type APIRequestContext, type Page, type TestInfo } from "@playwright/test";
import { setStatusViaApi, userIdByEmail } from "./helpers/accounts";
import { withDb } from "./helpers/documents";
import { expect, test } from "./helpers/fixtures";
import { BASE_URL } from "./helpers/origin";
import { newAdmin, openAsInvestor, pendingInvestor, waitHydrated, type Account } from "./helpers/portal";
import { E2E_SESSION_SECRET } from "./helpers/secrets";
import { mintSessionCookie } from "./helpers/sessions";

/**
 * New-document e-mails, with JavaScript and without: the investor's choice on
 * /lp/account (each, weekly digest, none), the one-click unsubscribe a mail
 * provider POSTs to the List-Unsubscribe link (no cookie, no Origin, no
 * Sec-Fetch-Site: it must pass the server's cross-site check as it is), and
 * the page that link opens in a browser, whose button works without
 * JavaScript. The texts are written out here, not imported, so a change of
 * wording fails; so is the token's recipe (the e2e server's SESSION_SECRET).
 */

test.describe.configure({ timeout: 90_000 });

const TEXT = {
  panel: "New-document e-mails",
  each: "Each new document",
  weekly: "Weekly digest (Mondays, 08:00 Zurich time)",
  none: "None",
  save: "Save e-mail preference",
  savedWeekly: "You will get a weekly digest on Mondays at 08:00 Zurich time.",
  savedNone: "You will no longer get new-document e-mails.",
  pageTitle: "Stop new-document e-mails",
  button: "Stop new-document e-mails",
  done: "You will no longer get new-document e-mails.",
  accountLink: "Go to your account page",
  invalid: "This unsubscribe link is not valid",
} as const;

/** The List-Unsubscribe token of an investor: base64url(id) "." base64url(HMAC-SHA256(key, purpose + id)). */
function unsubscribeToken(userId: string): string {
  const key = createHmac("sha256", E2E_SESSION_SECRET).update("key:document-mail-unsubscribe").digest();
  const mac = createHmac("sha256", key).update(`document-mail-unsubscribe:v1:${userId}`).digest("base64url");
  return `${Buffer.from(userId, "utf8").toString("base64url")}.${mac}`;
}
const unsubscribePath = (token: string) => `/unsubscribe/documents?token=${encodeURIComponent(token)}`;

/** An approved investor and their id (approved by an admin of their own, through the API). */
async function investorWithId(request: APIRequestContext, testInfo: TestInfo): Promise<Account & { id: string }> {
  const admin = await newAdmin(testInfo);
  const user = await pendingInvestor(request, testInfo);
  const cookie = await mintSessionCookie(admin.email);
  const id = await userIdByEmail(request, cookie, user.email);
  await setStatusViaApi(request, cookie, id, "approved");
  // The e2e server starts investors with new-document e-mails off (DOCUMENT_MAIL_DEFAULT=none, so the
  // suite's uploads do not mail every test investor); these tests start from the product's default.
  withDb((db) => db.prepare("update lp_users set document_mail = 'each' where id = ?").run(id), { write: true });
  return { ...user, id };
}

/** The investor's session (signing in is not what this spec tests), then the dashboard. */
async function signIn(page: Page, jsEnabled: boolean, account: Pick<Account, "email" | "password">) {
  await openAsInvestor(page, jsEnabled, account);
}

async function openAccount(page: Page, jsEnabled: boolean) {
  await page.goto("/lp/account");
  await expect(page.getByRole("heading", { level: 2, name: TEXT.panel })).toBeVisible();
  await waitHydrated(page, jsEnabled);
}

const choice = (page: Page, name: string) => page.locator("form#document-mail").getByRole("radio", { name, exact: true });

/** A client with no cookie jar and no browser headers, as a mail provider's server is. */
async function mailProvider(): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL: BASE_URL, maxRedirects: 0 });
}

test("the account page: choose each new document, a weekly digest or none; the choice is kept", { tag: "@no-js" }, async ({ page, request, jsEnabled }, testInfo) => {
  const investor = await investorWithId(request, testInfo);
  await signIn(page, jsEnabled, investor);
  await openAccount(page, jsEnabled);

  await expect(choice(page, TEXT.each)).toBeChecked();
  await expect(choice(page, TEXT.weekly)).not.toBeChecked();
  await expect(choice(page, TEXT.none)).not.toBeChecked();

  await choice(page, TEXT.weekly).check();
  await page.getByRole("button", { name: TEXT.save }).click();
  await expect(page.getByRole("status").filter({ hasText: TEXT.savedWeekly })).toBeVisible();
  await expect(choice(page, TEXT.weekly)).toBeChecked();

  await openAccount(page, jsEnabled);
  await expect(choice(page, TEXT.weekly)).toBeChecked();

  await choice(page, TEXT.none).check();
  await page.getByRole("button", { name: TEXT.save }).click();
  await expect(page.getByRole("status").filter({ hasText: TEXT.savedNone })).toBeVisible();
  await openAccount(page, jsEnabled);
  await expect(choice(page, TEXT.none)).toBeChecked();
});

test("one-click unsubscribe: a provider's POST without cookies turns the e-mails off; the account page then shows None", { tag: "@no-js" }, async ({
  page,
  request,
  jsEnabled,
}, testInfo) => {
  const investor = await investorWithId(request, testInfo);
  const token = unsubscribeToken(investor.id);
  const provider = await mailProvider();
  try {
    // A foreign or tampered token: 400, nothing changes.
    const tampered = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`;
    const refused = await provider.post(unsubscribePath(tampered), { form: { "List-Unsubscribe": "One-Click" } });
    expect(refused.status()).toBe(400);

    // The server's cross-site check stands: a form posted from another site is refused.
    const crossSite = await provider.post(unsubscribePath(token), {
      form: { "List-Unsubscribe": "One-Click" },
      headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    });
    expect(crossSite.status()).toBe(403);

    await signIn(page, jsEnabled, investor);
    await openAccount(page, jsEnabled);
    await expect(choice(page, TEXT.each)).toBeChecked();

    // RFC 8058: POST List-Unsubscribe=One-Click to the link, no cookie, no Origin, no Sec-Fetch-Site.
    const done = await provider.post(unsubscribePath(token), { form: { "List-Unsubscribe": "One-Click" } });
    expect(done.status()).toBe(200);
    expect(done.headers()["set-cookie"]).toBeUndefined();
    expect(await done.text()).toContain(TEXT.done);
    // A replay (providers retry), here as multipart: still 200.
    const again = await provider.post(unsubscribePath(token), { multipart: { "List-Unsubscribe": "One-Click" } });
    expect(again.status()).toBe(200);

    await openAccount(page, jsEnabled);
    await expect(choice(page, TEXT.none)).toBeChecked();
    await expect(choice(page, TEXT.each)).not.toBeChecked();
  } finally {
    await provider.dispose();
  }
});

test("the link's page: one button, a real form; a bad link is a 400 page", { tag: "@no-js" }, async ({ page, request, visit, jsEnabled }, testInfo) => {
  const investor = await investorWithId(request, testInfo);
  const token = unsubscribeToken(investor.id);

  const bad = await visit(unsubscribePath(`${token}x`), { status: 400 });
  expect(bad?.status()).toBe(400);
  await expect(page.getByRole("heading", { level: 1, name: TEXT.invalid })).toBeVisible();
  await expect(page.getByRole("button", { name: TEXT.button })).toHaveCount(0);

  await visit(unsubscribePath(token));
  await expect(page.getByRole("heading", { level: 1, name: TEXT.pageTitle })).toBeVisible();
  await expect(page.locator('form[method="post"]').getByRole("button", { name: TEXT.button })).toBeVisible();
  await page.getByRole("button", { name: TEXT.button }).click();
  await expect(page.getByRole("status").filter({ hasText: TEXT.done })).toBeVisible();
  await expect(page.getByRole("link", { name: TEXT.accountLink })).toHaveAttribute("href", "/lp/account");

  // The investor's account agrees.
  await page.context().clearCookies();
  await signIn(page, jsEnabled, investor);
  await openAccount(page, jsEnabled);
  await expect(choice(page, TEXT.none)).toBeChecked();
});

for (const theme of ["light", "dark"] as const) {
  test(`the link's page and its answer have no axe violations (${theme} theme)`, async ({ page, context, baseURL, request, visit, jsEnabled }, testInfo) => {
    test.skip(!jsEnabled, "axe runs once, on the JavaScript-on pages (the js project)");
    await context.addCookies([{ name: "theme", value: theme, url: baseURL! }]);
    const investor = await investorWithId(request, testInfo);
    const expectNoViolations = () => expectNoAxeViolations(page, testInfo);
    await visit(unsubscribePath(unsubscribeToken(investor.id)));
    if (theme === "dark") await expect(page.locator("html")).toHaveClass(/\bdark\b/);
    await expectNoViolations();
    await page.getByRole("button", { name: TEXT.button }).click();
    await expect(page.getByRole("status").filter({ hasText: TEXT.done })).toBeVisible();
    await expectNoViolations();
    await visit(unsubscribePath("not-a-token"), { status: 400 });
    await expectNoViolations();
  });
}
