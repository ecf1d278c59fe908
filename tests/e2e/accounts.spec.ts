import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { confirmRegistrationFromMail, latestMailTo, linkIn, registerViaApi, setStatusViaApi, userIdByEmail } from "./helpers/accounts";
import { mintSessionCookie } from "./helpers/sessions";
import { expect, expectToast, toast } from "./helpers/fixtures";
import { clickAndAnswerConfirm, recordWrites } from "./helpers/forms";
import { BASE_URL } from "./helpers/origin";
import {
  adminEntry,
  adminList,
  approvedInvestor,
  literal,
  loginForm,
  newAccount,
  newAdmin,
  openAsAdmin,
  openRowMenu,
  testWithSecondBrowser,
  pendingInvestor,
  registerForm,
  sessionCookie,
  signInAsAdmin,
  signInWith,
  TEXT,
  waitHydrated,
} from "./helpers/portal";

/**
 * The investor and admin portals end to end (SPEC.md §2 /lp/login,
 * /lp/register, /lp/dashboard, /admin/login, /admin/dashboard; §4; §8), with
 * JavaScript (fetchers, toasts, window.confirm, timed redirects) and without
 * it (native posts, the server's confirm step, immediate redirects):
 * register → confirm the address → admin approves → investor signs in → dashboard → logout; reject
 * with confirmation; the admin login refusing a non-admin; password reset
 * with the link read from the mail.
 */

/** The shared fixtures and `secondBrowser` (the admin's browser beside the investor's). */
const test = testWithSecondBrowser;

/** The default (non-destructive) toast is white. */
const DEFAULT_TOAST_BACKGROUND = "rgb(255, 255, 255)";

/**
 * Registering, signing in and setting a password each run bcrypt (cost 12),
 * ~0.3 s alone but several seconds on a busy machine: what follows one of
 * them gets a longer wait, and the flows a longer test timeout.
 */
const SLOW = 15_000;
test.describe.configure({ timeout: 60_000 });

/** A status tab of the investors page ('Pending 3'). */
function statusTab(page: Page, label: "All" | "Pending" | "Approved" | "Rejected") {
  return page.getByRole("navigation", { name: "Investors by status" }).getByRole("link", { name: new RegExp(`^${label}\\b`) });
}

/** expectToast after a slow call: wait for the toast first (JS toasts stay 5 s once shown). */
async function slowToast(page: Page, title: string, description: string) {
  await expect(toast(page).filter({ hasText: title }).first()).toBeVisible({ timeout: SLOW });
  await expectToast(page, title, description);
}

test("register → confirm the address → the admins are told → pending sign-in refused → admin approves → investor signs in → dashboard → logout", { tag: "@no-js" }, async ({
  page,
  request,
  context,
  visit,
  jsEnabled,
  secondBrowser,
}, testInfo) => {
  const admin = await newAdmin(testInfo);
  const user = newAccount(testInfo, "investor", { company: "Photon Capital" });

  // 1. The request, through the form.
  await visit("/lp/register");
  await expect(page.getByRole("heading", { level: 1, name: "Request Investor Access" })).toBeVisible();
  const form = registerForm(page);
  await form.email.fill(user.email);
  await form.password.fill(user.password);
  await form.name.fill(user.name);
  await form.company.fill(user.company!);
  const answered = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/lp/register"));
  await form.submit.click();
  await answered;
  const answeredAt = Date.now();

  await slowToast(page, TEXT.registered.title, TEXT.registered.description);
  if (jsEnabled) {
    // The toast shows on the register page; the move to /lp/login comes 1.5 s after the answer.
    await page.waitForURL(/\/lp\/login$/, { timeout: SLOW });
    expect(Date.now() - answeredAt, "the redirect waits (1.5 s)").toBeGreaterThanOrEqual(1000);
  } else {
    await expect(page).toHaveURL(/\/lp\/login$/);
  }
  await expect(page.getByRole("heading", { level: 1, name: "Investor Portal" })).toBeVisible();

  // 1b. The address is confirmed with the mailed link (the page itself: register-confirm.spec.ts).
  await confirmRegistrationFromMail(request, user.email, user.password, { origin: BASE_URL });

  // 2. The admins got a mail about it.
  const notice = await latestMailTo(admin.email, literal(`New investor access request: ${user.name}`));
  expect(notice.text).toContain(user.email);
  expect(notice.text).toContain(`${BASE_URL}/admin/dashboard`);

  // 3. Signing in while pending is refused, and no session starts.
  await signInWith(page, user);
  await slowToast(page, TEXT.loginFailed, TEXT.pending);
  await expect(loginForm(page).alert).toContainText(TEXT.pending);
  await expect(page).toHaveURL(/\/lp\/login$/);
  expect(await sessionCookie(context)).toBeUndefined();

  // 4. An admin, in a browser of their own, approves the request.
  const adminPage = await secondBrowser();
  await signInAsAdmin(adminPage, jsEnabled, admin, "investors");
  // The Pending tab: the requests waiting.
  await statusTab(adminPage, "Pending").click();
  await expect(adminPage).toHaveURL(/\/admin\/investors\?status=pending#investor-list$/);
  const pending = adminEntry(adminPage, "pending", user.email);
  await expect(pending).toBeVisible();
  await expect(pending).toContainText(user.name);
  await expect(pending).toContainText(user.company!);
  await expect(adminEntry(adminPage, "approved", user.email)).toHaveCount(0);
  await pending.getByRole("button", { name: "Approve" }).click();

  const approvedToast = TEXT.approved(user.name);
  await expectToast(adminPage, approvedToast.title, approvedToast.description);
  // Back on the same tab, where the request no longer waits.
  await expect(adminPage).toHaveURL(/\/admin\/investors\?status=pending(#investor-list)?$/);
  await expect(adminEntry(adminPage, "pending", user.email)).toHaveCount(0);
  await statusTab(adminPage, "Approved").click();
  const approved = adminEntry(adminPage, "approved", user.email);
  await expect(approved).toBeVisible();
  await expect(approved).toContainText(user.name);
  await expect(approved.getByText("Approved", { exact: true })).toBeVisible();
  await expect(adminEntry(adminPage, "pending", user.email)).toHaveCount(0);

  // 5. The investor got the approval mail with the sign-in link.
  const approval = await latestMailTo(user.email, /access is approved/);
  expect(approval.text).toContain(user.name);
  expect(linkIn(approval, `${BASE_URL}/lp/login`)).toBe(`${BASE_URL}/lp/login`);

  // 6. The investor signs in and sees the dashboard.
  await signInWith(page, user);
  await slowToast(page, TEXT.loginSuccess.title, TEXT.loginSuccess.description);
  await expect(page).toHaveURL(/\/lp\/dashboard$/, { timeout: SLOW });
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(TEXT.welcome(user.name));
  await expect(page.getByRole("main")).toContainText(user.email);
  expect(await sessionCookie(context)).toBeDefined();

  // 7. Logout: back at /lp/login, and the dashboard is closed again.
  await waitHydrated(page, jsEnabled);
  await page.getByRole("banner").getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/lp\/login$/);
  await expect(page.getByRole("heading", { level: 1, name: "Investor Portal" })).toBeVisible();
  expect(await sessionCookie(context)).toBeUndefined();
  await page.goto("/lp/dashboard");
  await expect(page).toHaveURL(/\/lp\/login$/);
  await expect(loginForm(page).email).toBeVisible();
});

test("Reject asks first: cancelling keeps the request pending, confirming moves it to the rejected list", { tag: "@no-js" }, async ({
  page,
  request,
  playwright,
  baseURL,
  clientIp,
  jsEnabled,
}, testInfo) => {
  const admin = await newAdmin(testInfo);
  const user = await pendingInvestor(request, testInfo, "rejectee");
  const question = TEXT.rejectQuestion(user.name);
  await signInAsAdmin(page, jsEnabled, admin, "investors");
  const pending = adminEntry(page, "pending", user.email);
  await expect(pending).toBeVisible();
  const confirmPanel = page.getByRole("region", { name: question });

  // 1. Ask, then change one's mind.
  const writes = recordWrites(page);
  // Reject is in the row's menu.
  await openRowMenu(pending);
  if (jsEnabled) {
    await clickAndAnswerConfirm(page, pending.getByRole("button", { name: "Reject" }), question, "dismiss");
  } else {
    await pending.getByRole("button", { name: "Reject" }).click();
    await expect(page).toHaveURL(/\/admin\/investors\?confirm=reject&user=[^&#]+#confirm$/);
    await expect(confirmPanel).toBeVisible();
    await expect(confirmPanel).toContainText("Please confirm");
    await confirmPanel.getByRole("link", { name: "Cancel" }).click();
    await expect(page).toHaveURL(/\/admin\/investors$/);
    await expect(confirmPanel).toHaveCount(0);
  }
  expect(writes, "nothing was posted").toEqual([]);
  await expect(toast(page)).toHaveCount(0);
  // Still pending, on the server too.
  await page.reload();
  await waitHydrated(page, jsEnabled);
  await expect(pending).toBeVisible();
  await expect(adminEntry(page, "rejected", user.email)).toHaveCount(0);

  // 2. Ask again and confirm.
  await openRowMenu(pending);
  if (jsEnabled) {
    await clickAndAnswerConfirm(page, pending.getByRole("button", { name: "Reject" }), question, "accept");
  } else {
    await pending.getByRole("button", { name: "Reject" }).click();
    await expect(confirmPanel).toBeVisible();
    await confirmPanel.getByRole("button", { name: "Reject" }).click();
    await expect(page).toHaveURL(/\/admin\/investors$/);
    await expect(confirmPanel).toHaveCount(0);
  }
  const rejectedToast = TEXT.rejected(user.name);
  await expectToast(page, rejectedToast.title, rejectedToast.description);
  // Destructive: not the default (white) notification.
  await expect(toast(page).first()).not.toHaveCSS("background-color", DEFAULT_TOAST_BACKGROUND);
  const rejected = adminEntry(page, "rejected", user.email);
  await expect(rejected).toBeVisible();
  await expect(rejected).toContainText(user.name);
  await expect(rejected.getByText("Rejected", { exact: true })).toBeVisible();
  await expect(adminEntry(page, "pending", user.email)).toHaveCount(0);
  await expect(adminEntry(page, "approved", user.email)).toHaveCount(0);
  await expect(statusTab(page, "Rejected")).toHaveText(/^Rejected\s*[1-9][\d,]*$/);

  // The rejected investor cannot sign in. (A fresh API client: the fixture's
  // pooled keep-alive socket may have been closed by the server meanwhile.)
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { "X-Forwarded-For": clientIp } });
  const login = await api.post("/api/auth/login", { data: { email: user.email, password: user.password } });
  expect(login.status()).toBe(403);
  await api.dispose();
});

test("the investors table: tabs with counts, a sort that keeps the search and tab, the reference code in the row menu, a card per row at 390 px", { tag: "@no-js" }, async ({
  page,
  request,
  jsEnabled,
}, testInfo) => {
  const admin = await newAdmin(testInfo);
  const tag = randomBytes(3).toString("hex");
  const account = (label: string, name: string) => ({ ...newAccount(testInfo, label, { company: `Tabbed Capital ${tag}` }), name: `${name} ${tag}` });
  const [zed, amy, bea] = [account("zed", "Zed Pending"), account("amy", "Amy Pending"), account("bea", "Bea Approved")];
  for (const user of [zed, amy, bea]) await registerViaApi(request, user);
  const cookie = await mintSessionCookie(admin.email);
  await setStatusViaApi(request, cookie, await userIdByEmail(request, cookie, bea.email), "approved");

  await openAsAdmin(page, jsEnabled, admin, "investors");
  const search = page.getByRole("search", { name: "Search investors" });
  await search.getByLabel("Search investors").fill(`tabbed capital ${tag}`);
  await search.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/investors\\?q=tabbed\\+capital\\+${tag}$`));
  // 1. Each tab counts the search's investors of its status; All is the default.
  await expect(statusTab(page, "All")).toHaveAttribute("aria-current", "page");
  for (const [label, n] of [["All", 3], ["Pending", 2], ["Approved", 1], ["Rejected", 0]] as const) {
    await expect(statusTab(page, label)).toHaveText(new RegExp(`^${label}\\s*${n}$`));
  }
  const rows = adminList(page).getByTestId("investor-row");
  await expect(rows).toHaveCount(3);
  await statusTab(page, "Pending").click();
  await expect(page).toHaveURL(/[?&]status=pending/);
  await expect(rows).toHaveCount(2);
  // Newest first by default; the name sort keeps the search and the tab.
  await expect(rows).toHaveText([new RegExp(amy.name), new RegExp(zed.name)]);
  await page.getByRole("link", { name: "Sort by Name, ascending" }).click();
  await expect(page).toHaveURL(new RegExp(`\\?q=tabbed\\+capital\\+${tag}&status=pending&sort=name#investor-list$`));
  await expect(rows).toHaveText([new RegExp(amy.name), new RegExp(zed.name)]);
  await page.getByRole("link", { name: "Sort by Name, descending" }).click();
  await expect(page).toHaveURL(/status=pending&sort=name&dir=desc/);
  await expect(rows).toHaveText([new RegExp(zed.name), new RegExp(amy.name)]);

  // 2. The reference code, in the row's menu.
  const row = adminEntry(page, "pending", zed.email);
  const menu = await openRowMenu(row);
  await menu.getByRole("link", { name: "Add reference code" }).click();
  if (!jsEnabled) await expect(page).toHaveURL(/&code=[\w-]+#reference-code-[\w-]+$/);
  const code = `TAB-${tag.toUpperCase()}`;
  await menu.getByLabel("Reference code").fill(code.toLowerCase());
  await menu.getByRole("button", { name: "Save" }).click();
  await expectToast(page, "Reference code saved", `${zed.name}'s reference code is now ${code}.`);
  // Back to the same view (no code panel), the code in its column, the menu closed.
  await expect(page).toHaveURL(/status=pending&sort=name&dir=desc(#[\w-]+)?$/);
  await expect(row.getByTestId("reference-code")).toHaveText(code);
  await expect(row.locator("details[data-row-menu]")).not.toHaveAttribute("open", "");

  // 3. At 390 px each row is a card showing every column's value, inside the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  const values = [zed.name, zed.company!, zed.email.toLowerCase(), "Pending", code, "Requested"];
  for (const value of values) {
    const shown = row.getByText(value, { exact: false }).first();
    await expect(shown).toBeVisible();
    const box = await shown.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390, `${value} inside the screen`).toBe(true);
  }
  await expect(row.getByRole("button", { name: "Approve" })).toBeVisible();
});

test("the admin login refuses an approved investor: 'Admin access required…' and no session", { tag: "@no-js" }, async ({
  page,
  context,
  visit,
  request,
}, testInfo) => {
  const user = await approvedInvestor(request, testInfo);
  await visit("/admin/login");
  await expect(page.getByRole("heading", { level: 1, name: "Admin Portal" })).toBeVisible();
  await signInWith(page, user);

  await expect(loginForm(page).alert).toHaveText(TEXT.adminOnly, { timeout: SLOW });
  await expect(page).toHaveURL(/\/admin\/login$/);
  await expect(loginForm(page).submit).toHaveText("Sign In");
  expect(await sessionCookie(context), "no session cookie").toBeUndefined();

  // Not signed in anywhere.
  await page.goto("/lp/dashboard");
  await expect(page).toHaveURL(/\/lp\/login$/);
  await page.goto("/admin/dashboard");
  await expect(page).toHaveURL(/\/admin\/login$/);

  // The same credentials are fine at the investor sign-in.
  await visit("/lp/login");
  await signInWith(page, user);
  await expect(page).toHaveURL(/\/lp\/dashboard$/, { timeout: SLOW });
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(TEXT.welcome(user.name));
});

test("password reset end to end: the same answer for any address, the mailed link, the new password, a spent link", { tag: "@no-js" }, async ({
  page,
  visit,
  hydrated,
  request,
}, testInfo) => {
  const user = await approvedInvestor(request, testInfo, "reset");
  const newPassword = `new-${user.password}`;
  const main = page.getByRole("main");
  const forgot = {
    email: main.getByLabel("Email", { exact: true }),
    submit: main.getByRole("button", { name: /^(Send reset link|Sending\.\.\.)$/ }),
    sent: main.getByRole("status").filter({ has: page.getByRole("heading", { name: TEXT.resetRequested.title }) }),
  };

  // 1. From the sign-in page.
  await visit("/lp/login");
  await main.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(/\/lp\/forgot-password$/);
  await expect(page.getByRole("heading", { level: 1, name: "Forgot your password?" })).toBeVisible();
  await hydrated();

  // 2. An address without an account gets the confirmation...
  await forgot.email.fill(newAccount(testInfo, "nobody").email);
  await forgot.submit.click();
  await expectToast(page, TEXT.resetRequested.title, TEXT.resetRequested.description);
  await expect(forgot.sent).toContainText(TEXT.resetRequested.description);
  const unknownAnswer = await forgot.sent.innerText();

  // ...and so does the investor's own, word for word.
  await visit("/lp/forgot-password");
  await forgot.email.fill(user.email);
  await forgot.submit.click();
  await expectToast(page, TEXT.resetRequested.title, TEXT.resetRequested.description);
  await expect(forgot.sent).toBeVisible();
  expect(await forgot.sent.innerText()).toBe(unknownAnswer);
  await expect(forgot.email).toHaveCount(0);

  // 3. The link from the mail.
  const mail = await latestMailTo(user.email, /Reset your/);
  const link = linkIn(mail, `${BASE_URL}/lp/reset-password`);
  expect(link).toMatch(/\?token=[^&\s]{10,}$/);
  await visit(link);
  await expect(page.getByRole("heading", { level: 1, name: "Choose a new password" })).toBeVisible();
  await main.getByLabel("New password").fill(newPassword);
  await main.getByRole("button", { name: /^(Set new password|Saving\.\.\.)$/ }).click();

  // 4. Back at the sign-in, told so.
  await expect(page).toHaveURL(/\/lp\/login$/, { timeout: SLOW });
  await slowToast(page, TEXT.passwordChanged.title, TEXT.passwordChanged.description);

  // 5. The old password no longer works; the new one does.
  await signInWith(page, user);
  await slowToast(page, TEXT.loginFailed, TEXT.invalidCredentials);
  await expect(page).toHaveURL(/\/lp\/login$/);
  await signInWith(page, { email: user.email, password: newPassword });
  await expect(page).toHaveURL(/\/lp\/dashboard$/, { timeout: SLOW });
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(TEXT.welcome(user.name));

  // 6. The link works once.
  await visit(link);
  await expect(page.getByRole("heading", { level: 1, name: TEXT.resetInvalid.title })).toBeVisible();
  await expect(main).toContainText(TEXT.resetInvalid.description);
  await expect(main.getByLabel("New password")).toHaveCount(0);
  await expect(main.getByRole("link", { name: "Request a new link" })).toHaveAttribute("href", "/lp/forgot-password");
});

test("registration errors show under the fields ('Password must be at least 8 characters', 'Name is required'), then it goes through", { tag: "@no-js" }, async ({
  page,
  visit,
  jsEnabled,
}, testInfo) => {
  const user = newAccount(testInfo, "fields", { company: "Qubit Works" });
  await visit("/lp/register");
  const form = registerForm(page);
  const writes = recordWrites(page);
  /**
   * Without JavaScript the browser's own checks (required, minlength) stop
   * these values first; switch them off so the server's answer is what shows,
   * as from a browser that does not check.
   */
  const serverChecksOnly = async () => {
    if (!jsEnabled) await page.locator("form#register").evaluate((f: HTMLFormElement) => (f.noValidate = true));
  };

  // 1. A 7-character password.
  await form.email.fill(user.email);
  await form.password.fill("short12");
  await form.name.fill(user.name);
  await form.company.fill(user.company!);
  if (!jsEnabled) {
    await form.submit.click();
    await expect(form.password).toHaveJSProperty("validity.tooShort", true);
    expect(writes, "the browser itself refuses it").toEqual([]);
    await serverChecksOnly();
  }
  await form.submit.click();
  await expect(form.password).toHaveAttribute("aria-invalid", "true");
  await expect(form.password).toHaveAccessibleDescription(literal(TEXT.passwordTooShort));
  await expect(page.getByRole("main").getByRole("alert").filter({ hasText: TEXT.passwordTooShort })).toBeVisible();
  for (const field of [form.email, form.name, form.company]) await expect(field).not.toHaveAttribute("aria-invalid", "true");
  await expect(form.email).toHaveValue(user.email);
  await expect(form.name).toHaveValue(user.name);
  await expect(form.company).toHaveValue(user.company!);
  await expect(page).toHaveURL(/\/lp\/register$/);
  await expect(toast(page)).toHaveCount(0);
  if (jsEnabled) expect(writes, "checked in the browser, nothing sent").toEqual([]);
  else await expect(form.password, "the password is never sent back").toHaveValue("");

  // 2. A good password, but no name.
  await form.password.fill(user.password);
  await form.name.fill("");
  await serverChecksOnly();
  await form.submit.click();
  await expect(form.name).toHaveAttribute("aria-invalid", "true");
  await expect(form.name).toHaveAccessibleDescription(TEXT.nameRequired);
  await expect(form.password).not.toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("main").getByText(TEXT.passwordTooShort)).toHaveCount(0);
  await expect(form.email).toHaveValue(user.email);
  if (jsEnabled) expect(writes).toEqual([]);

  // 3. Fixed: the request goes through.
  await form.name.fill(user.name);
  if (!jsEnabled) await form.password.fill(user.password);
  await form.submit.click();
  await slowToast(page, TEXT.registered.title, TEXT.registered.description);
  await expect(page).toHaveURL(/\/lp\/login$/, { timeout: SLOW });
});

test("a signed-in admin is sent from /lp/login and /admin/login to /admin/dashboard; Logout ends the session", { tag: "@no-js" }, async ({
  page,
  context,
  jsEnabled,
}, testInfo) => {
  const admin = await newAdmin(testInfo);
  await signInAsAdmin(page, jsEnabled, admin);
  const header = page.getByRole("banner");
  await expect(header).toContainText("Admin Portal");
  await expect(header.getByText("Administrator", { exact: true })).toBeVisible();
  await expect(header).toContainText(admin.name);

  await page.goto("/lp/login");
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await page.goto("/admin/login");
  await expect(page).toHaveURL(/\/admin\/dashboard$/);

  await waitHydrated(page, jsEnabled);
  await header.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/lp\/login$/);
  expect(await sessionCookie(context)).toBeUndefined();
  await page.goto("/admin/dashboard");
  await expect(page).toHaveURL(/\/admin\/login$/);
});
