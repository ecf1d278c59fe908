import type { Page } from "@playwright/test";
import { expect, test } from "./helpers/fixtures";
import { companyCards, expectSelected, filterControl, PORTFOLIO_FILTERS, PORTFOLIO_SIZE } from "./helpers/site";

/**
 * The portfolio filter (SPEC.md §2 "Portfolio"): a filter matches the
 * company's sector exactly. With JavaScript and without it (links with a
 * query parameter, handled by the loader).
 */

const SECTORS = PORTFOLIO_FILTERS.slice(1);

/** How many cards show each sector, read from the unfiltered grid. */
async function countBySector(page: Page): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const cards = companyCards(page);
  for (const sector of SECTORS) {
    counts.set(sector, await cards.filter({ has: page.getByText(sector, { exact: true }) }).count());
  }
  return counts;
}

async function expectOnlySector(page: Page, sector: string, expected: number) {
  const cards = companyCards(page);
  await expect(cards).toHaveCount(expected);
  for (let i = 0; i < expected; i++) {
    await expect(cards.nth(i).getByText(sector, { exact: true })).toBeVisible();
  }
}

test("each filter shows exactly the companies of its sector; 'All' shows all 24", { tag: "@no-js" }, async ({ page, visit }) => {
  await visit("/portfolio");
  await expect(companyCards(page)).toHaveCount(PORTFOLIO_SIZE);
  await expectSelected(filterControl(page, "All"), true);
  const counts = await countBySector(page);
  expect([...counts.values()].reduce((a, b) => a + b, 0), "every company has one listed sector").toBe(PORTFOLIO_SIZE);

  for (const sector of ["AI", "Quantum and Data Solutions", "Space"]) {
    const expected = counts.get(sector)!;
    expect(expected, `${sector} has companies`).toBeGreaterThan(0);
    await filterControl(page, sector).click();
    await expect(page).toHaveURL(new RegExp(`/portfolio\\?sector=${encodeURIComponent(sector).replace(/%20/g, "(%20|\\+)")}$`));
    await expectOnlySector(page, sector, expected);
    await expectSelected(filterControl(page, sector), true);
    await expectSelected(filterControl(page, "All"), false);
  }

  await filterControl(page, "All").click();
  await expect(page).toHaveURL(/\/portfolio$/);
  await expect(companyCards(page)).toHaveCount(PORTFOLIO_SIZE);
  await expectSelected(filterControl(page, "All"), true);
});

test("a filtered view can be opened directly and every sector filter matches exactly", { tag: "@no-js" }, async ({
  page,
  visit,
}) => {
  // The sizes per sector, from the unfiltered page.
  await visit("/portfolio");
  const counts = await countBySector(page);
  for (const sector of SECTORS) {
    await visit(`/portfolio?sector=${encodeURIComponent(sector)}`);
    await expectOnlySector(page, sector, counts.get(sector)!);
    await expectSelected(filterControl(page, sector), true);
  }
  // A sector is matched exactly, not regardless of case.
  await visit("/portfolio?sector=ai");
  await expect(companyCards(page)).not.toHaveCount(counts.get("AI")!);
});
