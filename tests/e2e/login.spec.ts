import { expect, expectToast, test } from "./helpers/fixtures";
import { approvedInvestor, loginForm, signInWith } from "./helpers/portal";
import { recordWrites } from "./helpers/forms";
import { main } from "./helpers/site";
import { BASE_URL } from "./helpers/origin";

/**
 * /login (SPEC.md §2, "Client login"): Sign In only shows the toast
 * 'Login Attempted' / 'Authentication system coming soon.'; with JavaScript
 * it makes no call at all, without it the form posts and the server shows
 * the same notice.
 */

test("Sign In shows 'Login Attempted' / 'Authentication system coming soon.'", { tag: "@no-js" }, async ({
  page,
  visit,
  jsEnabled,
}) => {
  await visit("/login");
  const writes = recordWrites(page);
  const m = main(page);
  await m.getByLabel(/username/i).fill("founder");
  await m.getByLabel(/password/i).fill("correct horse battery staple");
  await m.getByRole("button", { name: "Sign In" }).click();

  await expectToast(page, "Login Attempted", "Authentication system coming soon.");
  await expect(page).toHaveURL(/\/login$/);
  if (jsEnabled) {
    expect(writes, "with JavaScript, Sign In makes no call").toEqual([]);
  } else {
    expect(writes).toEqual([`POST ${BASE_URL}/login`]);
  }
  // Nothing signed anyone in: the form is still there.
  await expect(m.getByRole("button", { name: "Sign In" })).toBeVisible();
});

test("with JavaScript, one toast at a time, and its close control dismisses it", async ({ page, visit, jsEnabled }) => {
  test.skip(!jsEnabled, "Without JavaScript the notice is a plain server-rendered box.");
  await visit("/login");
  const m = main(page);
  await m.getByLabel(/username/i).fill("founder");
  await m.getByLabel(/password/i).fill("secret-password");
  await m.getByRole("button", { name: "Sign In" }).click();
  await m.getByRole("button", { name: "Sign In" }).click();
  const visible = page.getByTestId("toast").filter({ visible: true });
  await expect(visible).toHaveCount(1);
  await expect(visible).toContainText("Login Attempted");
  await visible.getByRole("button", { name: "Close" }).click();
  await expect(page.getByTestId("toast").filter({ visible: true })).toHaveCount(0);
});

test("both fields are required: an empty Sign In does nothing", { tag: "@no-js" }, async ({ page, visit }) => {
  await visit("/login");
  const writes = recordWrites(page);
  const m = main(page);
  await m.getByRole("button", { name: "Sign In" }).click();
  await expect(m.getByLabel(/username/i)).toHaveJSProperty("validity.valueMissing", true);
  await m.getByLabel(/username/i).fill("founder");
  await m.getByRole("button", { name: "Sign In" }).click();
  await expect(m.getByLabel(/password/i)).toHaveJSProperty("validity.valueMissing", true);
  expect(writes).toEqual([]);
  await expect(page.getByTestId("toast")).toHaveCount(0);
});

test("'Request access' goes to /lp/register", async ({ page, visit }) => {
  await visit("/login");
  const link = main(page).getByRole("link", { name: "Request access" });
  await expect(link).toHaveAttribute("href", "/lp/register");
});

test("the investor sign-in refused: 'Login failed', the message in the form, the e-mail kept and never the password", { tag: "@no-js" }, async ({
  page,
  visit,
  jsEnabled,
  request,
}, testInfo) => {
  const investor = await approvedInvestor(request, testInfo, "refused");
  await visit("/lp/login");
  const form = loginForm(page);
  const signInPost = () => page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/lp/login"));

  // An address the browser accepts but the server refuses: the field's message, the typed value kept.
  let posted = signInPost();
  await signInWith(page, { email: "investor@localhost", password: "a password typed here" });
  // With JavaScript the answer is data with its status; without, a 303 back to the page whose flash it renders.
  expect((await posted).status()).toBe(jsEnabled ? 400 : 303);
  await expect(form.email).toHaveAccessibleDescription("Invalid email address");
  await expect(form.email).toHaveAttribute("aria-invalid", "true");
  await expect(form.email).toHaveValue("investor@localhost");
  // Without JavaScript the page is new: the password is not sent back (with it, the field keeps what was typed).
  if (!jsEnabled) await expect(form.password).toHaveValue("");

  // A wrong password: 'Login failed' with the server's message, no session.
  posted = signInPost();
  await signInWith(page, { email: investor.email, password: "not the right password" });
  expect((await posted).status()).toBe(jsEnabled ? 401 : 303);
  await expectToast(page, "Login failed", "Invalid email or password");
  await expect(form.alert).toHaveText("Invalid email or password");
  await expect(form.email).toHaveValue(investor.email);
  if (!jsEnabled) await expect(form.password).toHaveValue("");
  await expect(page).toHaveURL(/\/lp\/login$/);
  expect(await page.content()).not.toContain("not the right password");
});
