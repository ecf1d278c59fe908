import { expect, expectToast, test, toast, uniqueEmail } from "./helpers/fixtures";
import { holdPosts, newsletterForm, recordWrites } from "./helpers/forms";
import { latestMailTo } from "./helpers/accounts";
import { subscribe } from "./helpers/email-lists";
import { BASE_URL, BASE_URL_RE } from "./helpers/origin";

/** The success toast's text: the address still has to be confirmed (double opt-in, decision 010). */
const SUCCESS = "Almost done: we've sent you an e-mail with a link to confirm your subscription.";
const CONFIRM_SUBJECT = /^Confirm your .* newsletter subscription$/;

/**
 * The newsletter form end to end (SPEC.md §4 "Newsletter form", §5, §8):
 * with JavaScript (fetcher, toasts, client validation) and without it (a
 * native post, the result rendered by the server on the way back). Signing up
 * mails a confirmation link (the whole double opt-in: newsletter-consent.spec.ts).
 */

test("subscribing from the home hero: the check-your-inbox thank-you replaces the form, a 'Success' toast shows, a link is mailed", { tag: "@no-js" }, async ({
  page,
  visit,
  request,
}, testInfo) => {
  await visit("/");
  const hero = newsletterForm(page, "hero");
  const email = uniqueEmail(testInfo, "hero");
  await hero.email.fill(email);
  await hero.submit.click();

  await expectToast(page, "Success", SUCCESS);
  await expect(hero.thanks).toBeVisible();
  await expect(hero.email).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`^${BASE_URL_RE}/(#newsletter-hero)?$`));
  // The footer's own form is untouched.
  await expect(newsletterForm(page, "footer").email).toBeVisible();

  // The confirmation link is on its way; until it is confirmed, subscribing again answers as for anyone.
  const mail = await latestMailTo(email, CONFIRM_SUBJECT);
  expect(mail.text).toMatch(/\/newsletter\/confirm\?token=[A-Za-z0-9_-]{43}/);
  const again = await request.post("/api/newsletter", { data: { email } });
  expect(again.status()).toBe(202);
});

test("subscribing from the footer of another page (a same-origin post) keeps the visitor on that page", { tag: "@no-js" }, async ({
  page,
  visit,
}, testInfo) => {
  await visit("/team");
  const form = newsletterForm(page, "footer");
  await form.email.fill(uniqueEmail(testInfo, "footer"));
  const posted = page.waitForRequest((r) => r.method() === "POST");
  await form.submit.click();

  // A same-origin browser post passes the cross-site check.
  const post = await posted;
  const headers = await post.allHeaders();
  expect(headers["origin"]).toBe(BASE_URL);
  expect(headers["sec-fetch-site"]).toBe("same-origin");
  expect((await post.response())!.status()).toBeLessThan(400);
  await expectToast(page, "Success", SUCCESS);
  await expect(form.thanks).toBeVisible();
  await expect(page).toHaveURL(/\/team(#newsletter-footer)?$/);
  await expect(page.getByRole("main").getByRole("heading", { level: 1 })).toHaveText("Our Team");
});

test("a confirmed address: destructive 'Error' toast 'This email is already subscribed.'", { tag: "@no-js" }, async ({
  page,
  visit,
  request,
}, testInfo) => {
  const email = uniqueEmail(testInfo, "dup");
  await subscribe(request, email);

  await visit("/");
  const hero = newsletterForm(page, "hero");
  await hero.email.fill(email);
  await hero.submit.click();

  await expectToast(page, "Error", "This email is already subscribed.");
  // Destructive: it does not look like the default (white) notification.
  await expect(toast(page).first()).not.toHaveCSS("background-color", "rgb(255, 255, 255)");
  await expect(hero.thanks).toHaveCount(0);
  await expect(hero.email).toBeVisible();
  await expect(hero.email).toHaveValue(email);
});

test("an invalid address shows 'Invalid email address' under the field and subscribes nothing", { tag: "@no-js" }, async ({
  page,
  visit,
  jsEnabled,
  request,
}) => {
  await visit("/");
  const hero = newsletterForm(page, "hero");
  const writes = recordWrites(page);
  // Without JavaScript the browser itself blocks obvious mistakes, so use an
  // address it accepts but the server refuses (no dot in the domain).
  const invalid = jsEnabled ? "not-an-email" : "founder@localhost";
  await hero.email.fill(invalid);
  await hero.submit.click();

  await expect(hero.email).toHaveAccessibleDescription("Invalid email address");
  await expect(hero.email).toHaveAttribute("aria-invalid", "true");
  await expect(hero.email).toHaveValue(invalid);
  await expect(hero.thanks).toHaveCount(0);
  if (jsEnabled) {
    expect(writes, "client validation sends nothing").toEqual([]);
  }
  // Nothing was stored: the server still refuses this address.
  expect((await request.post("/api/newsletter", { data: { email: invalid } })).status()).toBe(400);
});

test("after an invalid address, a corrected one subscribes", { tag: "@no-js" }, async ({ page, visit, jsEnabled }, testInfo) => {
  await visit("/");
  const hero = newsletterForm(page, "hero");
  await hero.email.fill("someone@localhost");
  const posted = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/newsletter"));
  await hero.submit.click();
  // With JavaScript the form's answer is data with its status; without, a 303 back here whose flash the page renders.
  expect((await posted).status()).toBe(jsEnabled ? 400 : 303);
  await expect(hero.email).toHaveAccessibleDescription("Invalid email address");
  await expect(hero.email).toHaveValue("someone@localhost");
  await expect(page).toHaveURL(jsEnabled ? /\/$/ : /\/#newsletter-hero$/);

  await hero.email.fill(uniqueEmail(testInfo, "fixed"));
  await hero.submit.click();
  await expectToast(page, "Success", SUCCESS);
  await expect(hero.thanks).toBeVisible();
});

test("while the request is in flight the button reads 'Subscribing...' and is disabled", async ({
  page,
  visit,
  jsEnabled,
}, testInfo) => {
  test.skip(!jsEnabled, "A pending state needs JavaScript; without it the browser navigates.");
  await visit("/");
  const release = await holdPosts(page, "/newsletter");
  const hero = newsletterForm(page, "hero");
  await hero.email.fill(uniqueEmail(testInfo, "pending"));
  await hero.submit.click();
  await expect(hero.submit).toHaveText("Subscribing...");
  await expect(hero.submit).toBeDisabled();
  release();
  await expect(hero.thanks).toBeVisible();
  await expectToast(page, "Success", SUCCESS);
});
