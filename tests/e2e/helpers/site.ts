import { expect, type Locator, type Page } from "@playwright/test";

/**
 * The site as SPEC.md describes it, written out here (not imported from
 * app/content) so a change to the copy that breaks the spec fails a test.
 */

/** Header links in order (SPEC.md §2, "Shared frame"). */
export const HEADER_LINKS = [
  { href: "/", label: "Home" },
  { href: "/investment-focus", label: "Focus" },
  { href: "/portfolio", label: "Portfolio" },
  { href: "/deeptech-fund", label: "Fund" },
  { href: "/team", label: "Team" },
  { href: "/process", label: "Process" },
  { href: "/contact", label: "Contact" },
  { href: "/lp/login", label: "Investor Portal" },
] as const;

/** The footer's Quick Links grid, in order. */
export const QUICK_LINKS = [
  { href: "/investment-focus", label: "Focus" },
  { href: "/portfolio", label: "Portfolio" },
  { href: "/deeptech-fund", label: "Fund" },
  { href: "/team", label: "Team" },
  { href: "/process", label: "Process" },
  { href: "/contact", label: "Contact" },
] as const;

export const SECTOR_CARDS = [
  "Advanced Materials",
  "Artificial Intelligence",
  "Biotechnology",
  "Blockchain Technology",
  "Neurotechnology",
  "Quantum and Data Solutions",
  "Robotics",
  "Space",
] as const;

export const PORTFOLIO_FILTERS = [
  "All",
  "Advanced Materials",
  "AI",
  "Biotech",
  "Blockchain",
  "Neurotechnology",
  "Quantum and Data Solutions",
  "Robotics",
  "Space",
] as const;

export const PORTFOLIO_SIZE = 24;

export const NOT_FOUND = {
  title: "404 Page Not Found",
  text: "Did you forget to add the page to the router?",
} as const;

export function main(page: Page): Locator {
  return page.getByRole("main");
}

export function footer(page: Page): Locator {
  return page.getByRole("contentinfo");
}

/** A company card on /portfolio. */
export function companyCards(page: Page): Locator {
  return main(page).getByRole("article");
}

/** A portfolio filter control, whether it is a link or a button. */
export function filterControl(page: Page, label: string): Locator {
  return main(page)
    .getByRole("link", { name: label, exact: true })
    .or(main(page).getByRole("button", { name: label, exact: true }));
}

/** The link or button is marked as the current choice (aria-current or aria-pressed). */
export async function expectSelected(control: Locator, selected: boolean) {
  const state = await control.evaluate((el) => ({
    current: el.getAttribute("aria-current"),
    pressed: el.getAttribute("aria-pressed"),
  }));
  const isSelected = (state.current !== null && state.current !== "false") || state.pressed === "true";
  expect(isSelected, `selected state of ${await control.textContent()}`).toBe(selected);
}
