import { expect, mainNav, test } from "./helpers/fixtures";
import { HEADER_LINKS, main, NOT_FOUND } from "./helpers/site";
import { BASE_URL_RE } from "./helpers/origin";

/**
 * The header (SPEC.md §2, "Shared frame"): link order, the current route
 * highlighted, the logo, the border after 20 px of scrolling, the mobile menu;
 * and the fallback page for unknown paths. JavaScript on and off.
 */

test.describe("header links", () => {
  test("the logo, then Home, Focus, Portfolio, Fund, Team, Process, Contact, Investor Portal", async ({
    page,
    visit,
  }) => {
    await visit("/team");
    const links = mainNav(page).getByRole("link");
    await expect(links).toHaveCount(HEADER_LINKS.length + 1);
    await expect(links.first()).toHaveAttribute("href", "/");
    await expect(links.first()).toContainText("Lumen Ridge");
    const rest = HEADER_LINKS.map((l) => l.label);
    for (const [i, link] of HEADER_LINKS.entries()) {
      await expect(links.nth(i + 1), rest[i]).toHaveText(link.label);
      await expect(links.nth(i + 1), rest[i]).toHaveAttribute("href", link.href);
    }
  });

  // /lp/login is the investor portal, outside the public site.
  for (const current of HEADER_LINKS.filter((l) => l.href !== "/lp/login")) {
    test(`on ${current.href} only '${current.label}' is highlighted`, async ({ page, visit }) => {
      await visit(current.href);
      const nav = mainNav(page);
      const active = nav.getByRole("link", { name: current.label, exact: true });
      await expect(active).toHaveAttribute("aria-current", "page");
      // The mobile menu repeats the links (hidden at this width): count only what is on screen.
      await expect(nav.locator('[aria-current="page"]:visible')).toHaveCount(1);

      // Highlighted means it looks different from the other links, too.
      const other = nav.getByRole("link", { name: current.href === "/team" ? "Contact" : "Team", exact: true });
      const look = (el: Element) => {
        const s = getComputedStyle(el);
        return `${s.backgroundColor} ${s.color}`;
      };
      expect(await active.evaluate(look)).not.toBe(await other.evaluate(look));
    });
  }

  test("clicking a header link opens its page and moves the highlight; the logo goes home", { tag: "@no-js" }, async ({
    page,
    visit,
  }) => {
    await visit("/");
    const nav = mainNav(page);
    await expect(nav.getByRole("link", { name: "Home", exact: true })).toHaveAttribute("aria-current", "page");

    await nav.getByRole("link", { name: "Focus", exact: true }).click();
    await expect(page).toHaveURL(/\/investment-focus$/);
    await expect(main(page).getByRole("heading", { level: 1 })).toHaveText("Our Investment Focus");
    await expect(nav.getByRole("link", { name: "Focus", exact: true })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: "Home", exact: true })).not.toHaveAttribute("aria-current", "page");

    await nav.getByRole("link", { name: "Contact", exact: true }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(main(page).getByRole("heading", { level: 1 })).toHaveText("Contact Us");

    await nav.getByRole("link").first().click();
    await expect(page).toHaveURL(new RegExp(`^${BASE_URL_RE}/$`));
    await expect(main(page).getByRole("heading", { level: 1 })).toHaveText("Investing in the Future of DeepTech");
  });

  test("the banner links to the fund overview", async ({ page, visit }) => {
    await visit("/contact");
    await page.getByRole("banner").getByRole("link", { name: /open for subscriptions/i }).click();
    await expect(page).toHaveURL(/\/deeptech-fund$/);
    await expect(mainNav(page).getByRole("link", { name: "Fund", exact: true })).toHaveAttribute("aria-current", "page");
  });
});

test.describe("header border", () => {
  test("appears once the page is scrolled more than 20 pixels, and goes away at the top", async ({
    page,
    visit,
    jsEnabled,
  }) => {
    test.skip(!jsEnabled, "The border follows the scroll position through JavaScript.");
    await visit("/privacy-policy");
    const bar = page.getByTestId("site-nav-bar");
    const borderColor = () => bar.evaluate((el) => getComputedStyle(el).borderBottomColor);
    const transparent = /^(transparent|rgba\(0, 0, 0, 0\))$/;

    await expect(bar).toHaveAttribute("data-scrolled", "false");
    expect(await borderColor()).toMatch(transparent);

    await page.evaluate(() => window.scrollTo(0, 15));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(15);
    await expect(bar).toHaveAttribute("data-scrolled", "false");

    await page.evaluate(() => window.scrollTo(0, 21));
    await expect(bar).toHaveAttribute("data-scrolled", "true");
    await expect.poll(borderColor).not.toMatch(transparent);

    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(bar).toHaveAttribute("data-scrolled", "false");
    await expect.poll(borderColor).toMatch(transparent);
  });
});

test.describe("mobile menu", () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test("a button opens and closes the collapsed links; choosing a link closes it", { tag: "@no-js" }, async ({ page, visit }) => {
    await visit("/");
    const nav = mainNav(page);
    const menu = page.getByTestId("mobile-menu");
    const button = menu.locator("summary");
    await expect(button).toHaveAttribute("aria-label", "Menu");
    await expect(button).toBeVisible();

    // Collapsed: only the logo shows; no header link is on screen.
    await expect(nav.getByRole("link")).toHaveCount(1);
    await expect(nav.getByRole("link", { name: "Portfolio", exact: true })).toBeHidden();

    // Open: every header link, in order, with the current page highlighted.
    await button.click();
    await expect(menu).toHaveAttribute("open", "");
    const links = menu.getByRole("link");
    await expect(links).toHaveText(HEADER_LINKS.map((l) => l.label));
    await expect(menu.getByRole("link", { name: "Home", exact: true })).toHaveAttribute("aria-current", "page");

    // Close with the same button.
    await button.click();
    await expect(menu).not.toHaveAttribute("open");
    await expect(menu.getByRole("link", { name: "Portfolio", exact: true })).toBeHidden();

    // Choosing a link navigates and leaves the menu closed.
    await button.click();
    await expect(menu).toHaveAttribute("open", "");
    await menu.getByRole("link", { name: "Portfolio", exact: true }).click();
    await expect(page).toHaveURL(/\/portfolio$/);
    await expect(main(page).getByRole("heading", { level: 1 })).toHaveText("Our Portfolio");
    await expect(menu).not.toHaveAttribute("open");
    await expect(menu.getByRole("link", { name: "Process", exact: true })).toBeHidden();

    // And it opens again on the new page, with the new page highlighted.
    await button.click();
    await expect(menu.getByRole("link", { name: "Portfolio", exact: true })).toHaveAttribute("aria-current", "page");
  });

  test("on wide screens the links sit in the bar and the menu button is hidden", async ({
    page,
    visit,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await visit("/");
    await expect(page.getByTestId("mobile-menu")).toBeHidden();
    await expect(mainNav(page).getByRole("link", { name: "Portfolio", exact: true })).toBeVisible();
  });
});

test.describe("unknown paths", () => {
  for (const path of ["/no-such-page", "/portfolio/unknown-company", "/fund-iii"]) {
    test(`${path} answers 404 with the fallback page in the site frame`, async ({ page, visit }) => {
      await visit(path, { status: 404 });
      await expect(main(page).getByRole("heading", { level: 1 })).toHaveText(NOT_FOUND.title);
      await expect(main(page).getByText(NOT_FOUND.text, { exact: true })).toBeVisible();
      await expect(page).toHaveTitle(new RegExp(NOT_FOUND.title));
      await expect(mainNav(page)).toBeVisible();
      // No header link claims an unknown top-level page.
      if (path.split("/").length === 2) {
        await expect(mainNav(page).locator('[aria-current="page"]')).toHaveCount(0);
      }
    });
  }

  test("from the 404 page the visitor can go back home", async ({ page, visit }) => {
    await visit("/nowhere", { status: 404 });
    await main(page).getByRole("link", { name: /home/i }).click();
    await expect(page).toHaveURL(new RegExp(`^${BASE_URL_RE}/$`));
    await expect(main(page).getByRole("heading", { level: 1 })).toHaveText("Investing in the Future of DeepTech");
  });
});
