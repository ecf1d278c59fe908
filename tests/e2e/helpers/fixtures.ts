import { createHash, randomBytes } from "node:crypto";
import { test as base, expect, type Locator, type Page, type Response, type TestInfo } from "@playwright/test";

/**
 * A client address of its own for every test (the server trusts
 * X-Forwarded-For in the e2e run), so per-IP rate limits on the newsletter and
 * pitch forms are never tripped by other tests: 10.a.b.c from a hash of the
 * test, its project, its repeat and its retry.
 */
export function clientIpFor(testInfo: TestInfo): string {
  const digest = createHash("sha256")
    .update(`${testInfo.testId}|${testInfo.project.name}|${testInfo.repeatEachIndex}|${testInfo.retry}`)
    .digest();
  return `10.${digest[0]}.${digest[1]}.${(digest[2] ?? 0) % 254 + 1}`;
}

/** A fresh e-mail address, unique per test run and project. */
export function uniqueEmail(testInfo: TestInfo, label: string): string {
  const project = testInfo.project.name.replace(/[^a-z0-9]/gi, "");
  return `${label}-${project}-${Date.now().toString(36)}-${randomBytes(4).toString("hex")}@example.com`;
}

type Fixtures = {
  /** True in the "js" project, false in "no-js". */
  jsEnabled: boolean;
  /** This test's client address (also sent as X-Forwarded-For by page and request). */
  clientIp: string;
  /**
   * With JavaScript on, wait until React has hydrated the page (app/root.tsx
   * then sets <html data-hydrated>), so clicks exercise the enhanced behaviour
   * and not the native fallback. Without JavaScript there is nothing to wait for.
   */
  hydrated: () => Promise<void>;
  /** Open a page, expect its HTTP status (200 unless told), then wait for hydration. */
  visit: (path: string, options?: { status?: number }) => Promise<Response | null>;
};

/** The binding through which the pages report Content-Security-Policy violations (the `page` fixture). */
export const CSP_BINDING = "__e2eCspViolation";

export const test = base.extend<Fixtures>({
  /**
   * Every page of every JavaScript-on test runs its scripts inside the
   * page's Content-Security-Policy: each document reports the violations the
   * browser sees (`securitypolicyviolation`, from its first script on, across
   * navigations), and the test fails at its end if there was one. A page that
   * loads the validation library only to read a constant once broke this (zod
   * probes for eval support with `new Function("")`), which also costs
   * Lighthouse's best-practices score. Without JavaScript no script runs.
   */
  page: async ({ page, jsEnabled }, use) => {
    const violations: string[] = [];
    if (jsEnabled) {
      await page.exposeBinding(CSP_BINDING, ({ frame }, text: string) => {
        violations.push(`${frame.url()}: ${text}`);
      });
      await page.addInitScript((binding) => {
        document.addEventListener("securitypolicyviolation", (e) => {
          const w = window as unknown as Record<string, unknown>;
          const report = w[binding] as ((text: string) => Promise<void>) | undefined;
          // The binding's promise settles once the test's side has the report: page-scripts.spec waits for it.
          w[`${binding}Done`] = report?.(`${e.violatedDirective} blocked ${e.blockedURI || "(inline)"} in ${e.sourceFile}:${e.lineNumber}`);
        });
      }, CSP_BINDING);
    }
    await use(page);
    expect(violations, "Content-Security-Policy violations while the test's pages ran").toEqual([]);
  },
  clientIp: [
    async ({}, use, testInfo) => {
      await use(clientIpFor(testInfo));
    },
    { option: true },
  ],
  extraHTTPHeaders: async ({ extraHTTPHeaders, clientIp }, use) => {
    await use({ ...extraHTTPHeaders, "X-Forwarded-For": clientIp });
  },
  jsEnabled: async ({ javaScriptEnabled }, use) => {
    await use(javaScriptEnabled !== false);
  },
  hydrated: async ({ page, jsEnabled }, use) => {
    await use(async () => {
      if (!jsEnabled) return;
      await expect(page.locator("html[data-hydrated]")).toBeAttached();
    });
  },
  visit: async ({ page, hydrated }, use) => {
    await use(async (path, { status = 200 } = {}) => {
      const response = await page.goto(path);
      expect(response?.status(), `GET ${path}`).toBe(status);
      await hydrated();
      return response;
    });
  },
});

export { expect };

/** The notification (Radix toast with JavaScript, the server-rendered box without). */
export function toast(page: Page): Locator {
  return page.getByTestId("toast");
}

/** Assert a notification with this title and description is on screen (toasts auto-dismiss after 5 s). */
export async function expectToast(page: Page, title: string, description?: string) {
  const box = toast(page).filter({ hasText: title });
  await expect(box.first()).toBeVisible();
  if (description !== undefined) await expect(box.first()).toContainText(description);
}

/** The header's main navigation bar. */
export function mainNav(page: Page): Locator {
  return page.getByRole("navigation", { name: "Main" });
}
