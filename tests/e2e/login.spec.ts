import { expect, expectToast, test } from "./helpers/fixtures";
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
