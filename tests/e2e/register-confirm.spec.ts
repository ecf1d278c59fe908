import type { Page } from "@playwright/test";
import { latestMailTo, mailCountTo, REGISTRATION_CONFIRM_SUBJECT } from "./helpers/accounts";
import { expect, expectToast, toast } from "./helpers/fixtures";
import { BASE_URL } from "./helpers/origin";
import {
  adminEntry,
  literal,
  loginForm,
  newAccount,
  newAdmin,
  testWithSecondBrowser,
  openAdminPage,
  registerForm,
  sessionCookie,
  signInAsAdmin,
  signInWith,
  TEXT,
  type Account,
} from "./helpers/portal";

/**
 * A registration proves its address before anyone acts on it (issue 21 M3;
 * decision 028), with JavaScript and without: the form's answer says a link
 * was mailed; until it is confirmed the admin sees nothing and signing in
 * answers as for a pending account, plus the confirm hint and 'Send the link
 * again'; the mailed link's page asks for the registration's password, and
 * its button sends the request to the admins, who then see it.
 */

/** The shared fixtures and `secondBrowser` (the admin's browser beside the investor's). */
const test = testWithSecondBrowser;

/** Registering, signing in and confirming each run bcrypt (cost 12): slow on a busy machine. */
const SLOW = 15_000;
test.describe.configure({ timeout: 90_000 });

const CONFIRM_LINK = new RegExp(`${BASE_URL.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/lp/register/confirm\\?token=[A-Za-z0-9_-]{43}`);

async function slowToast(page: Page, title: string, description: string) {
  await expect(toast(page).filter({ hasText: title }).first()).toBeVisible({ timeout: SLOW });
  await expectToast(page, title, description);
}

/** Request access through the form, as a visitor does; the answer says a link was mailed. */
async function registerThroughForm(page: Page, visit: (path: string) => Promise<unknown>, user: Account) {
  await visit("/lp/register");
  const form = registerForm(page);
  await form.email.fill(user.email);
  await form.password.fill(user.password);
  await form.name.fill(user.name);
  await form.company.fill(user.company ?? "");
  await form.submit.click();
  await slowToast(page, TEXT.registered.title, TEXT.registered.description);
  await expect(page).toHaveURL(/\/lp\/login$/, { timeout: SLOW });
}

/** The newest confirmation link mailed to the address, once `count` of them have arrived. */
async function confirmationLink(user: Account, count: number): Promise<string> {
  await expect.poll(() => mailCountTo(user.email, REGISTRATION_CONFIRM_SUBJECT), { timeout: SLOW }).toBe(count);
  const mail = await latestMailTo(user.email, REGISTRATION_CONFIRM_SUBJECT, `${BASE_URL}/lp/register/confirm?token=`);
  // Anyone can type an address: the mail carries nothing the registrant wrote.
  expect(mail.text).not.toContain(user.name);
  expect(mail.text).not.toContain(user.company!);
  return CONFIRM_LINK.exec(mail.text)![0];
}

test("register → the admin sees nothing → sign-in: pending + confirm hint → the mailed link and the password → the admin sees the request", { tag: "@no-js" }, async ({
  page,
  context,
  visit,
  jsEnabled,
  secondBrowser,
}, testInfo) => {
  const admin = await newAdmin(testInfo);
  const user = newAccount(testInfo, "confirmer", { company: "Photon Capital" });

  // 1. The request, through the form: the answer says a link was mailed.
  await registerThroughForm(page, visit, user);

  // 2. Before the address is confirmed, the admin sees nothing of it, and got no mail about it.
  const adminPage = await secondBrowser();
  await signInAsAdmin(adminPage, jsEnabled, admin, "investors");
  await expect(adminEntry(adminPage, "pending", user.email)).toHaveCount(0);
  await expect(adminPage.getByRole("main")).not.toContainText(user.email);
  // (Every admin hears of every confirmed request, a parallel test's too: only this one's counts.)
  expect(mailCountTo(admin.email, literal(`New investor access request: ${user.name}`))).toBe(0);

  // 3. Signing in: the right password gets the pending answer and the confirm hint, and no session.
  await signInWith(page, user);
  await slowToast(page, TEXT.loginFailed, TEXT.pending);
  await expect(loginForm(page).alert).toContainText(TEXT.pending);
  await expect(page.getByRole("main").getByText(TEXT.confirmHint)).toBeVisible();
  await expect(page.getByRole("button", { name: TEXT.resendLink })).toBeVisible();
  expect(await sessionCookie(context)).toBeUndefined();
  //    A wrong password gets the usual answer, nothing about a registration.
  await visit("/lp/login");
  await signInWith(page, { email: user.email, password: "not-the-password" });
  await slowToast(page, TEXT.loginFailed, TEXT.invalidCredentials);
  await expect(page.getByRole("main").getByText(TEXT.confirmHint)).toHaveCount(0);
  await expect(page.getByRole("button", { name: TEXT.resendLink })).toHaveCount(0);

  // 4. The link from the mail: its page shows the address and asks for the password (opening it confirms nothing).
  const link = await confirmationLink(user, 1);
  await visit(link);
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 1, name: "Confirm your e-mail address" })).toBeVisible();
  await expect(main.getByLabel("Email")).toHaveValue(user.email);
  await openAdminPage(adminPage, jsEnabled, "investors");
  await expect(adminEntry(adminPage, "pending", user.email)).toHaveCount(0);

  //    A wrong password is asked again; the right one sends the request (SPEC's text).
  await main.getByLabel("Password").fill("not-the-password");
  await main.getByRole("button", { name: "Confirm and send my request" }).click();
  await expect(main.getByText("This is not the password of this request.")).toBeVisible({ timeout: SLOW });
  await main.getByLabel("Password").fill(user.password);
  await main.getByRole("button", { name: "Confirm and send my request" }).click();
  await expect(main.getByRole("status").getByRole("heading", { name: "Address confirmed" })).toBeVisible({ timeout: SLOW });
  await expect(main).toContainText(TEXT.confirmed);
  await expect(page).toHaveURL(/\/lp\/register\/confirm\?confirmed=1$/);

  // 5. Now the admin sees the request, and was mailed about it.
  await openAdminPage(adminPage, jsEnabled, "investors");
  const pending = adminEntry(adminPage, "pending", user.email);
  await expect(pending).toBeVisible();
  await expect(pending).toContainText(user.name);
  await expect(pending).toContainText(user.company!);
  const notice = await latestMailTo(admin.email, literal(`New investor access request: ${user.name}`));
  expect(notice.text).toContain(user.email);

  // 6. The link is spent; signing in is the pending account's answer, without the hint.
  await visit(link, { status: 400 });
  await expect(page.getByRole("heading", { level: 1, name: "This link is no longer valid" })).toBeVisible();
  await visit("/lp/login");
  await signInWith(page, user);
  await slowToast(page, TEXT.loginFailed, TEXT.pending);
  await expect(page.getByRole("main").getByText(TEXT.confirmHint)).toHaveCount(0);
});

test("'Send the link again' from the sign-in page mails a new link; the old one no longer works", { tag: "@no-js" }, async ({ page, visit }, testInfo) => {
  const user = newAccount(testInfo, "resender", { company: "Quark Partners" });
  await registerThroughForm(page, visit, user);
  const first = await confirmationLink(user, 1);

  await signInWith(page, user);
  await slowToast(page, TEXT.loginFailed, TEXT.pending);
  await page.getByRole("button", { name: TEXT.resendLink }).click();
  await expect(page).toHaveURL(/\/lp\/login$/, { timeout: SLOW });
  await slowToast(page, TEXT.resent.title, TEXT.resent.description);
  const second = await confirmationLink(user, 2);
  expect(second).not.toBe(first);

  await visit(first, { status: 400 });
  await expect(page.getByRole("heading", { level: 1, name: "This link is no longer valid" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Request access again" })).toHaveAttribute("href", "/lp/register");
  await visit(second);
  await page.getByRole("main").getByLabel("Password").fill(user.password);
  await page.getByRole("main").getByRole("button", { name: "Confirm and send my request" }).click();
  await expect(page.getByRole("main")).toContainText(TEXT.confirmed, { timeout: SLOW });
});
