import AxeBuilder from "@axe-core/playwright";
import type { Page, TestInfo } from "@playwright/test";
import { expect } from "./fixtures";

/** The rules the site is held to: WCAG 2.0 and 2.1, levels A and AA. */
export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * The rules whose outcome depends on the colours: what a page switched to the
 * dark theme in place (the `dark` class, as the toggle sets it) is checked
 * again for. Its markup is the same as in the light theme, where every rule
 * ran; the one element the theme swaps, the theme toggle's button, is checked
 * by its name in both themes in theme.spec.ts.
 */
export const COLOUR_RULES = ["color-contrast", "link-in-text-block"] as const;

type AxeOptions = {
  /** Only COLOUR_RULES (a page switched to the dark theme). */
  coloursOnly?: boolean;
  /** axe's best practices too (the workspace pages, workspace-layout.spec.ts). */
  bestPractice?: boolean;
};

/**
 * axe-core on the page as it is now: its violations, one line per node (rule,
 * target, help text and why), after checking that axe did look at the page (a
 * run that looked at nothing cannot fail).
 *
 * Legacy mode runs `axe.run` in the page itself. The default mode finishes
 * every scan in a new blank page (`axe.finishRun`, made for cross-origin
 * frames, which our pages do not have): that doubled each scan's cost (about
 * 0.74 → 0.39 s a scan here) for the same rules and the same results. Only the
 * violations come back with every node: the passes name their rules alone
 * (`resultTypes`, which spares axe and the protocol the rest).
 */
export async function axeViolations(page: Page, { coloursOnly = false, bestPractice = false }: AxeOptions = {}) {
  const builder = new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ["violations"] });
  const results = await (coloursOnly ? builder.withRules([...COLOUR_RULES]) : builder.withTags(bestPractice ? [...WCAG_TAGS, "best-practice"] : WCAG_TAGS)).analyze();
  if (coloursOnly) expect([...results.passes, ...results.incomplete].map((r) => r.id), `axe ran its colour rules on ${page.url()}`).toContain("color-contrast");
  else expect(results.passes.length, `axe ran its rules on ${page.url()}`).toBeGreaterThan(10);
  return {
    lines: results.violations.flatMap((v) =>
      v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.map(String).join(" ")} — ${v.help} (${n.failureSummary?.replace(/\s+/g, " ").trim()}; ${v.helpUrl})`),
    ),
    violations: results.violations,
  };
}

/** axe-core on the page as it is now; fails with each violation's line (the full results attached as JSON too). */
export async function expectNoAxeViolations(page: Page, testInfo: TestInfo, options: AxeOptions = {}) {
  const { lines, violations } = await axeViolations(page, options);
  if (violations.length > 0) {
    await testInfo.attach("axe-violations.json", { body: JSON.stringify(violations, null, 2), contentType: "application/json" });
  }
  expect(lines, `axe violations on ${page.url()}`).toEqual([]);
}
