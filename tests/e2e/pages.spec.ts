import type { Page } from "@playwright/test";
import { expect, mainNav, test } from "./helpers/fixtures";
import { companyCards, footer, main, PORTFOLIO_FILTERS, PORTFOLIO_SIZE, QUICK_LINKS, SECTOR_CARDS } from "./helpers/site";

/**
 * Every public route renders the headings and texts SPEC.md §2 gives it, in
 * the shared frame (banner, header, footer). Runs with JavaScript on and off.
 */

/** The frame every public page shares: the pinned banner, the header, one h1, the footer. */
async function expectFrame(page: Page) {
  const banner = page.getByRole("banner").getByRole("link", { name: /open for subscriptions/i });
  await expect(banner).toBeVisible();
  await expect(banner).toHaveAttribute("href", "/deeptech-fund");
  await expect(mainNav(page)).toBeVisible();
  await expect(main(page).getByRole("heading", { level: 1 })).toHaveCount(1);
  await expect(footer(page)).toBeVisible();
  await expect(page).toHaveTitle(/\S/);
}

test.describe("shared frame", () => {
  test("the banner stays pinned at the top while the page scrolls", async ({ page, visit }) => {
    await visit("/privacy-policy");
    await expectFrame(page);
    await page.mouse.wheel(0, 2000);
    const banner = page.getByRole("banner").getByRole("link", { name: /open for subscriptions/i });
    await expect(banner).toBeInViewport();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
  });

  test("footer: logo, description, contact e-mail, newsletter, Quick Links, copyright, offices, profile, legal links", async ({
    page,
    visit,
  }) => {
    await visit("/");
    await expectFrame(page);
    const f = footer(page);
    await expect(f.getByRole("link", { name: /Lumen Ridge/ })).toHaveAttribute("href", "/");
    const mail = f.locator('a[href^="mailto:"]');
    await expect(mail).toHaveCount(1);
    const address = (await mail.getAttribute("href"))!.slice("mailto:".length);
    expect(address).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
    await expect(mail).toHaveText(address);
    await expect(f.getByRole("textbox", { name: /email/i })).toBeVisible();
    await expect(f.getByRole("button", { name: "Subscribe" })).toBeVisible();

    const quick = f.getByRole("navigation", { name: "Quick Links" });
    await expect(quick.getByRole("heading", { name: "Quick Links" })).toBeVisible();
    const links = quick.getByRole("link");
    await expect(links).toHaveText(QUICK_LINKS.map((l) => l.label));
    for (const [i, link] of QUICK_LINKS.entries()) {
      await expect(links.nth(i)).toHaveAttribute("href", link.href);
    }

    await expect(f).toContainText(/©\s*2025/);
    await expect(f).toContainText("Zurich");
    await expect(f).toContainText("Cape Town");
    await expect(f).toContainText("London");
    const social = f.locator('a[target="_blank"]');
    await expect(social).toHaveCount(1);
    await expect(social).toHaveAttribute("href", /^https:\/\//);
    await expect(social).toHaveAttribute("rel", /noopener/);
    await expect(f.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacy-policy");
    await expect(f.getByRole("link", { name: "Terms of Service" })).toHaveAttribute("href", "/terms-of-service");
  });
});

test("home: hero badge, headline, tagline, subtitle, 'View Portfolio' and 'Stay Updated'", async ({ page, visit }) => {
  await visit("/");
  await expectFrame(page);
  const m = main(page);
  await expect(m.getByText("Backing Breakthrough Technologies", { exact: true })).toBeVisible();
  await expect(m.getByRole("heading", { level: 1 })).toHaveText("Investing in the Future of DeepTech");
  await expect(m.getByText("Compound Innovation Into Value", { exact: true })).toBeVisible();
  await expect(m).toContainText(/breakthrough scientific and engineering innovation/i);
  const cta = m.getByRole("link", { name: "View Portfolio" });
  await expect(cta).toHaveAttribute("href", "/portfolio");
  await expect(m.getByRole("heading", { name: "Stay Updated" })).toBeVisible();
  await expect(m.getByRole("textbox", { name: /email/i })).toBeVisible();
  await expect(m.getByRole("button", { name: "Subscribe" })).toBeVisible();

  await cta.click();
  await expect(page).toHaveURL(/\/portfolio$/);
  await expect(main(page).getByRole("heading", { level: 1 })).toHaveText("Our Portfolio");
});

test("investment focus: 8 sectors in 3 columns, 'Who We Back' criteria and 'What We Look For'", async ({
  page,
  visit,
}) => {
  await visit("/investment-focus");
  await expectFrame(page);
  const m = main(page);
  await expect(m.getByRole("heading", { level: 1 })).toHaveText("Our Investment Focus");
  const sectorHeadings = m.getByRole("heading", { level: 3 }).filter({ hasText: new RegExp(`^(${SECTOR_CARDS.join("|")})$`) });
  await expect(sectorHeadings).toHaveText([...SECTOR_CARDS]);

  // Three columns on large screens: the first three cards share a row, the fourth starts the next.
  const tops = await Promise.all([0, 1, 2, 3].map(async (i) => (await sectorHeadings.nth(i).boundingBox())!.y));
  expect(Math.abs(tops[0]! - tops[1]!)).toBeLessThan(2);
  expect(Math.abs(tops[0]! - tops[2]!)).toBeLessThan(2);
  expect(tops[3]!).toBeGreaterThan(tops[0]! + 20);

  const criteria = m.getByRole("region", { name: "Who We Back" });
  await expect(criteria.getByRole("heading", { level: 2 })).toHaveText("Who We Back");
  await expect(criteria.getByRole("listitem")).toHaveCount(4);
  for (const [criterion, value] of [
    [/check size/i, "$50K - $2M"],
    [/stage/i, "Pre-Seed to Series B"],
    [/geography/i, "North America and Europe"],
    [/traction/i, "Prototype/MVP or beyond"],
  ] as const) {
    const card = criteria.getByRole("listitem").filter({ has: page.getByRole("heading", { name: criterion }) });
    await expect(card).toHaveCount(1);
    await expect(card).toContainText(value);
  }

  const lookFor = m.getByRole("region", { name: "What We Look For" });
  await expect(lookFor.getByRole("heading", { level: 2 })).toHaveText("What We Look For");
  expect(await lookFor.getByRole("listitem").count()).toBeGreaterThanOrEqual(3);
});

test("portfolio: 'Our Portfolio', 24 companies with sector, description, metric, website and initials; the filters", async ({
  page,
  visit,
}) => {
  await visit("/portfolio");
  await expectFrame(page);
  const m = main(page);
  await expect(m.getByRole("heading", { level: 1 })).toHaveText("Our Portfolio");
  const cards = companyCards(page);
  await expect(cards).toHaveCount(PORTFOLIO_SIZE);

  for (let i = 0; i < PORTFOLIO_SIZE; i++) {
    const card = cards.nth(i);
    await expect(card.getByRole("heading")).toHaveText(/\S/);
    // Its sector, exactly one of the filter values.
    const sectors = PORTFOLIO_FILTERS.slice(1).map((s) => card.getByText(s, { exact: true }));
    const present = await Promise.all(sectors.map((s) => s.count()));
    expect(present.reduce((a, b) => a + b, 0), `card ${i} shows one sector`).toBe(1);
    // The website opens in a new tab without handing over the opener.
    const website = card.locator('a[href^="http"]');
    await expect(website).toHaveCount(1);
    await expect(website).toHaveAttribute("target", "_blank");
    await expect(website).toHaveAttribute("rel", /noopener/);
    // A logo, or the two-letter initials as fallback.
    const logo = await card.locator("img").count();
    if (logo === 0) {
      const name = (await card.getByRole("heading").innerText()).trim();
      const initials = card.getByText(/^[A-Z0-9]{2}$/).first();
      await expect(initials).toBeVisible();
      expect((await initials.innerText()).charAt(0), `initials of ${name}`).toBe(name.charAt(0).toUpperCase());
    }
    // Name, sector, description and metric: at least four lines of text.
    const text = (await card.innerText()).split("\n").filter((l) => l.trim());
    expect(text.length, `card ${i}: ${text.join(" | ")}`).toBeGreaterThanOrEqual(4);
  }

  // Filter controls, in the order of the spec.
  const labels = await m.locator("a, button").allInnerTexts();
  const filters = labels.map((l) => l.trim()).filter((l) => (PORTFOLIO_FILTERS as readonly string[]).includes(l));
  expect(filters).toEqual([...PORTFOLIO_FILTERS]);
});

test("fund overview: Fund I closed → /portfolio, Fund II active → /fund-ii/signup, structure and partners", async ({
  page,
  visit,
}) => {
  await visit("/deeptech-fund");
  await expectFrame(page);
  const m = main(page);
  await expect(m.getByRole("heading", { level: 1 })).toBeVisible();

  const fundI = m.getByRole("listitem").filter({ has: page.getByRole("heading", { name: /Fund I$/ }) });
  const fundII = m.getByRole("listitem").filter({ has: page.getByRole("heading", { name: /Fund II$/ }) });
  await expect(fundI).toHaveCount(1);
  await expect(fundII).toHaveCount(1);
  await expect(fundI.getByText("Closed", { exact: true })).toBeVisible();
  await expect(fundI.getByText("Active", { exact: true })).toHaveCount(0);
  await expect(fundI.locator('a[href="/portfolio"]')).toBeVisible();
  await expect(fundII.getByText("Active", { exact: true })).toBeVisible();
  await expect(fundII.getByText("Closed", { exact: true })).toHaveCount(0);
  await expect(fundII.locator('a[href="/fund-ii/signup"]')).toBeVisible();

  const structure = m.getByRole("region", { name: "Fund Structure" });
  await expect(structure.getByRole("heading", { level: 2 })).toHaveText("Fund Structure");
  for (const item of [/fund life/i, /LP base/i, /investment strategy/i, /GP commitment/i, /value beyond capital/i]) {
    await expect(structure.getByRole("heading", { name: item })).toBeVisible();
  }
  await expect(structure).toContainText("10 years");
  await expect(structure).toContainText("2-year extension");
  await expect(structure).toContainText("50+");
  await expect(structure).toContainText("2.5x");

  const partners = m.getByRole("region", { name: "Co-Investment Partners" });
  await expect(partners.getByRole("heading", { level: 2 })).toHaveText("Co-Investment Partners");
  const external = partners.locator('a[href^="http"]');
  await expect(external).toHaveCount(3);
  for (let i = 0; i < 3; i++) {
    await expect(external.nth(i)).toHaveAttribute("target", "_blank");
    await expect(external.nth(i)).toHaveAttribute("rel", /noopener/);
  }
});

for (const fund of [
  { path: "/fund-i", status: "Closed", other: "Active" },
  { path: "/fund-ii", status: "Active", other: "Closed" },
] as const) {
  test(`${fund.path}: back link to /deeptech-fund, status ${fund.status} and an overview`, async ({ page, visit }) => {
    await visit(fund.path);
    await expectFrame(page);
    const m = main(page);
    await expect(m.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(m.getByText(fund.status, { exact: true })).toBeVisible();
    await expect(m.getByText(fund.other, { exact: true })).toHaveCount(0);
    await expect(m.getByRole("heading", { name: /overview/i })).toBeVisible();
    const back = m.getByRole("link", { name: /back/i });
    await expect(back).toHaveAttribute("href", "/deeptech-fund");
    await back.click();
    await expect(page).toHaveURL(/\/deeptech-fund$/);
    await expect(main(page).getByRole("region", { name: "Fund Structure" })).toBeVisible();
  });
}

test("team: 'Our Team' with an empty list", async ({ page, visit }) => {
  await visit("/team");
  await expectFrame(page);
  const m = main(page);
  await expect(m.getByRole("heading", { level: 1 })).toHaveText("Our Team");
  await expect(m.getByRole("listitem")).toHaveCount(0);
});

test("process: mission card, five-step Investment Process with timeframes, commitment, 'Submit Your Pitch'", async ({
  page,
  visit,
}) => {
  await visit("/process");
  await expectFrame(page);
  const m = main(page);
  await expect(m.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(m.getByRole("heading", { level: 2, name: /mission/i })).toBeVisible();

  const steps = m.getByRole("region", { name: "Investment Process" });
  await expect(steps.getByRole("heading", { level: 2 })).toHaveText("Investment Process");
  const items = steps.getByRole("listitem");
  await expect(items).toHaveCount(5);
  const expected = [
    ["Initial Review", "1-2 weeks"],
    ["Deep Dive", "2-3 weeks"],
    ["Partner Meeting", "1 week"],
    ["Term Sheet", "1-2 weeks"],
    ["Partnership", /ongoing/i],
  ] as const;
  for (const [i, [title, timeframe]] of expected.entries()) {
    await expect(items.nth(i).getByRole("heading")).toHaveText(title);
    await expect(items.nth(i)).toContainText(timeframe);
  }
  await expect(steps).toContainText(/within 5 business days/);
  await expect(steps).toContainText(/within 2 weeks/);

  const pitch = m.getByRole("region", { name: "Submit Your Pitch" });
  await expect(pitch.getByRole("heading", { level: 2 })).toHaveText("Submit Your Pitch");
  await expect(pitch.getByRole("button", { name: "Submit Pitch" })).toBeVisible();
  const stage = pitch.getByRole("combobox", { name: /stage/i });
  for (const option of ["Pre-Seed", "Seed", "Series A", "Series B", "Other"]) {
    await expect(stage.locator("option", { hasText: new RegExp(`^${option}$`) })).toHaveCount(1);
  }
});

test("contact: 'Contact Us', pitches go to the Process page, offices line and the info e-mail", async ({
  page,
  visit,
}) => {
  await visit("/contact");
  await expectFrame(page);
  const m = main(page);
  await expect(m.getByRole("heading", { level: 1 })).toHaveText("Contact Us");
  await expect(m.getByText("Zurich - Cape Town - London", { exact: true })).toBeVisible();
  const mail = m.locator('a[href^="mailto:"]');
  await expect(mail).toHaveCount(1);
  const address = (await mail.getAttribute("href"))!.slice("mailto:".length);
  await expect(mail).toHaveText(address);
  await expect(footer(page).locator(`a[href="mailto:${address}"]`)).toHaveCount(1);

  const toProcess = m.locator('a[href^="/process"]');
  await expect(toProcess.first()).toBeVisible();
  await toProcess.first().click();
  await expect(page).toHaveURL(/\/process(#pitch)?$/);
  await expect(main(page).getByRole("heading", { name: "Submit Your Pitch" })).toBeVisible();
});

test("client login: username, password, 'Sign In' and 'Request access' to /lp/register", async ({ page, visit }) => {
  await visit("/login");
  await expectFrame(page);
  const m = main(page);
  await expect(m.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(m.getByLabel(/username/i)).toBeVisible();
  await expect(m.getByLabel(/password/i)).toHaveAttribute("type", "password");
  await expect(m.getByRole("button", { name: "Sign In" })).toBeVisible();
  await expect(m.getByRole("link", { name: "Request access" })).toHaveAttribute("href", "/lp/register");
});

for (const doc of [
  { path: "/privacy-policy", title: "Privacy Policy" },
  { path: "/terms-of-service", title: "Terms of Service" },
] as const) {
  test(`${doc.path}: '${doc.title}', last updated October 6, 2025`, async ({ page, visit }) => {
    await visit(doc.path);
    await expectFrame(page);
    const m = main(page);
    await expect(m.getByRole("heading", { level: 1 })).toHaveText(doc.title);
    await expect(m).toContainText(/last updated:?\s*October 6, 2025/i);
    expect(await m.getByRole("heading", { level: 2 }).count()).toBeGreaterThanOrEqual(3);
  });
}
