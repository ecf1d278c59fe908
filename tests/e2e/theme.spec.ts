import type { Page } from "@playwright/test";
import { expect, test } from "./helpers/fixtures";

/**
 * The light/dark toggle (SPEC.md §2; DESIGN.md §3): with JavaScript the class
 * on <html>, localStorage `theme` and the `theme` cookie change in place;
 * without it the toggle posts to /theme and the server renders the class from
 * the cookie. Either way the choice survives reloads and navigation.
 */

const WHITE = "rgb(255, 255, 255)";
const toDark = (page: Page) => page.getByRole("button", { name: "Switch to dark theme" });
const toLight = (page: Page) => page.getByRole("button", { name: "Switch to light theme" });
const html = (page: Page) => page.locator("html");

async function themeCookie(page: Page): Promise<string | undefined> {
  return (await page.context().cookies()).find((c) => c.name === "theme")?.value;
}

async function storedTheme(page: Page): Promise<string | null> {
  return page.evaluate(() => localStorage.getItem("theme"));
}

test.use({ colorScheme: "light" });

test("switching to dark and back persists across reloads and pages", { tag: "@no-js" }, async ({ page, visit, hydrated, jsEnabled }) => {
  await visit("/portfolio");
  await expect(html(page)).not.toHaveClass(/\bdark\b/);
  await expect(html(page)).toHaveCSS("background-color", WHITE);
  await expect(toLight(page)).toBeHidden();

  await toDark(page).click();
  await expect(html(page)).toHaveClass(/\bdark\b/);
  await expect(html(page)).not.toHaveCSS("background-color", WHITE);
  await expect(toLight(page)).toBeVisible();
  await expect(toDark(page)).toBeHidden();
  // The visitor stays where they were.
  await expect(page).toHaveURL(/\/portfolio$/);
  await expect.poll(() => themeCookie(page)).toBe("dark");
  if (jsEnabled) expect(await storedTheme(page)).toBe("dark");

  await page.reload();
  await hydrated();
  await expect(html(page)).toHaveClass(/\bdark\b/);
  await expect(html(page)).not.toHaveCSS("background-color", WHITE);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Team", exact: true }).click();
  await expect(page).toHaveURL(/\/team$/);
  await expect(html(page)).toHaveClass(/\bdark\b/);

  await toLight(page).click();
  await expect(html(page)).not.toHaveClass(/\bdark\b/);
  await expect(html(page)).toHaveCSS("background-color", WHITE);
  await expect(page).toHaveURL(/\/team$/);
  await expect.poll(() => themeCookie(page)).toBe("light");
  if (jsEnabled) expect(await storedTheme(page)).toBe("light");

  await page.reload();
  await hydrated();
  await expect(html(page)).not.toHaveClass(/\bdark\b/);
  await expect(html(page)).toHaveCSS("background-color", WHITE);
  await expect(toDark(page)).toBeVisible();
});

test.describe("with a dark system preference", () => {
  test.use({ colorScheme: "dark" });

  test("the theme starts dark when nothing is stored", { tag: "@no-js" }, async ({ page, visit, jsEnabled }) => {
    await visit("/");
    await expect(html(page)).not.toHaveCSS("background-color", WHITE);
    await expect(toLight(page)).toBeVisible();
    if (jsEnabled) await expect(html(page)).toHaveClass(/\bdark\b/);
  });

  test("a stored light preference wins over the system", { tag: "@no-js" }, async ({ page, visit, hydrated }) => {
    await visit("/");
    await toLight(page).click();
    await expect(html(page)).toHaveCSS("background-color", WHITE);
    await page.reload();
    await hydrated();
    await expect(html(page)).toHaveCSS("background-color", WHITE);
    await expect(html(page)).not.toHaveClass(/\bdark\b/);
    await expect(toDark(page)).toBeVisible();
  });
});

test("with JavaScript, a preference stored only in localStorage is applied on load", async ({
  page,
  visit,
  jsEnabled,
}) => {
  test.skip(!jsEnabled, "localStorage is only read by the page's script.");
  await page.goto("/");
  await page.evaluate(() => localStorage.setItem("theme", "dark"));
  await visit("/contact");
  await expect(html(page)).toHaveClass(/\bdark\b/);
  await expect(toLight(page)).toBeVisible();
});
