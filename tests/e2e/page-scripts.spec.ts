import { publicPages } from "../../app/content/sitemap";
import { expect, test } from "./helpers/fixtures";

/**
 * Every page of the site frame runs its scripts inside the page's
 * Content-Security-Policy: the browser reports no violation while the page
 * loads and hydrates. A page that loads the validation library only to read
 * a constant (a path, a length) broke this: zod probes for eval support with
 * `new Function("")`, which the policy forbids, and Chrome reports it (and
 * Lighthouse's best-practices score drops). The pages behind mailed links are
 * opened with a link that does not work (a 400 page): the same route module
 * and scripts as a good link.
 */

const FRAME_PAGES = [
  ...publicPages,
  "/newsletter",
  "/lp/login",
  "/lp/register",
  "/lp/forgot-password",
  "/admin/login",
  "/login/two-factor",
  "/fund-i/signup",
  "/fund-ii/signup",
];
const MAILED_LINK_PAGES = ["/lp/register/confirm?token=not-a-token", "/newsletter/confirm?token=not-a-token", "/unsubscribe/newsletter?token=not-a-token", "/unsubscribe/documents?token=not-a-token"];

test.beforeEach(async ({ page, jsEnabled }) => {
  test.skip(!jsEnabled, "without JavaScript no script runs");
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} blocked ${e.blockedURI || "(inline)"} in ${e.sourceFile}:${e.lineNumber}`));
  });
});

for (const path of [...FRAME_PAGES, ...MAILED_LINK_PAGES]) {
  test(`${path}: no Content-Security-Policy violation while it loads and hydrates`, async ({ page, visit }) => {
    await visit(path, { status: path.includes("not-a-token") ? 400 : 200 });
    await page.waitForLoadState("networkidle");
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
  });
}
