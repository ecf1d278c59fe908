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

/**
 * axe-core on the page as it is now; fails with each violation's rule, help
 * text and the nodes it found (attached to the result as JSON too).
 *
 * Legacy mode runs `axe.run` in the page itself. The default mode finishes
 * every scan in a new blank page (`axe.finishRun`, made for cross-origin
 * frames, which our pages do not have): that doubled each scan's cost (about
 * 0.74 → 0.39 s a scan here) for the same rules and the same results.
 */
export async function expectNoAxeViolations(page: Page, testInfo: TestInfo, { coloursOnly = false }: { coloursOnly?: boolean } = {}) {
  const builder = new AxeBuilder({ page }).setLegacyMode(true);
  const results = await (coloursOnly ? builder.withRules([...COLOUR_RULES]) : builder.withTags(WCAG_TAGS)).analyze();
  const violations = results.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: `${v.help} (${v.helpUrl})`,
    nodes: v.nodes.map((n) => ({
      target: n.target.map(String).join(" "),
      why: n.failureSummary?.replace(/\s+/g, " ").trim(),
    })),
  }));
  if (violations.length > 0) {
    await testInfo.attach("axe-violations.json", { body: JSON.stringify(results.violations, null, 2), contentType: "application/json" });
  }
  expect(violations, `axe violations on ${page.url()}:\n${JSON.stringify(violations, null, 2)}`).toEqual([]);
  // A run that looked at nothing cannot fail: make sure axe checked the page.
  if (coloursOnly) expect([...results.passes, ...results.incomplete].map((r) => r.id), "axe ran its colour rules").toContain("color-contrast");
  else expect(results.passes.length, "axe ran its rules").toBeGreaterThan(10);
}
