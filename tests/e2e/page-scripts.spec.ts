import { CSP_BINDING, expect, test } from "./helpers/fixtures";

/**
 * Every JavaScript-on test checks its pages' Content-Security-Policy: the
 * `page` fixture (helpers/fixtures.ts) fails a test whose pages report a
 * violation. The site frame's pages are all opened by a11y.spec (each public
 * page, sign-in, registration and fund sign-up, with a wait for two axe runs
 * after hydration); the pages behind mailed links are opened here with a link
 * that does not work (a 400 page): the same route module and scripts as a
 * good link. Each waits until the network is idle, so a route chunk loaded
 * after hydration is seen too.
 */
const MAILED_LINK_PAGES = ["/lp/register/confirm?token=not-a-token", "/newsletter/confirm?token=not-a-token", "/unsubscribe/newsletter?token=not-a-token", "/unsubscribe/documents?token=not-a-token"];

test.skip(({ javaScriptEnabled }) => javaScriptEnabled === false, "without JavaScript no script runs");

test("the pages behind mailed links load and hydrate with no Content-Security-Policy violation", async ({ page, visit }) => {
  for (const path of MAILED_LINK_PAGES) {
    await visit(path, { status: 400 });
    await page.waitForLoadState("networkidle");
    await expect(page.locator("html[data-hydrated]")).toBeAttached();
  }
});

test("a violation fails the test: an inline script the policy refuses is reported", async ({ page, visit }) => {
  test.fail(true, "the page fixture must fail a test whose page reports a violation");
  await visit("/");
  // No nonce: the policy refuses it, as it would a script an attacker slipped into the page. The
  // evaluation returns once the fixture's report of the violation has reached the test's side (its
  // binding's promise), however busy the machine.
  await page.evaluate(
    (done) =>
      new Promise<void>((resolve) => {
        document.addEventListener("securitypolicyviolation", () => setTimeout(() => void Promise.resolve((window as unknown as Record<string, unknown>)[done]).then(() => resolve())), { once: true });
        const script = document.createElement("script");
        script.textContent = "window.__ran = true";
        document.body.append(script);
      }),
    `${CSP_BINDING}Done`,
  );
  expect(await page.evaluate(() => (window as unknown as { __ran?: boolean }).__ran ?? false)).toBe(false);
});
