import type { APIResponse, BrowserContext, Page, TestInfo } from "@playwright/test";
import {
  adminSession,
  approvedInvestorSession,
  uploadDocument,
} from "./helpers/documents";
import {
  investorDocuments,
  openCategory,
  openRowMenu,
  publishedPanel,
  publishedRow,
  sampleDocument,
  useSessionCookie,
  type LpCategoryValue,
} from "./helpers/document-ui";
import { expectNoAxeViolations } from "./helpers/axe";
import { expect, test } from "./helpers/fixtures";
import { insertPitchRow } from "./helpers/pitches";
import { latestMailTo, userIdByEmail } from "./helpers/accounts";

/**
 * Automated accessibility checks (axe-core, WCAG 2.0/2.1 A and AA rules) on
 * every public page, the fund document pages (with access, and Fund II's
 * refusal), and the workspace pages in the states a user puts them in (a
 * category or a row menu open, a form's errors, the phone menu), in the light
 * and the dark theme (each workspace page as it loads is checked, with the
 * best-practice rules too, in workspace-layout.spec.ts): each page is loaded
 * light (the `theme` cookie; the server renders the class from it), checked,
 * switched to dark in place (the class, as the toggle sets it: the markup is
 * otherwise the same) and checked again by the rules that read colours
 * (helpers/axe.ts COLOUR_RULES), with whatever the test opened.
 * axe finds a part of what a person would: these pages were also checked by
 * hand (keyboard, screen reader names) when they were built.
 */

const THEMES = ["light", "dark"] as const;

const PUBLIC_PAGES = [
  "/",
  "/investment-focus",
  "/portfolio",
  "/deeptech-fund",
  "/fund-i",
  "/fund-ii",
  "/team",
  "/process",
  "/contact",
  "/login",
  "/privacy-policy",
  "/terms-of-service",
  "/newsletter",
  "/lp/login",
  "/lp/register",
  "/lp/register/confirm?confirmed=1",
  "/lp/forgot-password",
  "/lp/reset-password",
  "/admin/login",
  "/login/two-factor",
  "/fund-i/signup",
  "/fund-ii/signup",
] as const;

test.skip(
  ({ javaScriptEnabled }) => javaScriptEnabled === false,
  "axe runs once, on the JavaScript-on pages (the js project)",
);

/** The theme class on <html>. */
async function expectTheme(page: Page, theme: (typeof THEMES)[number]) {
  const html = page.locator("html");
  if (theme === "dark") await expect(html).toHaveClass(/\bdark\b/);
  else await expect(html).not.toHaveClass(/\bdark\b/);
}

/**
 * axe on the page as loaded (the light theme, from the cookie), then on the
 * same page switched to dark the way the theme toggle does it: no reload, so
 * an opened menu, an opened category or a form's errors stay as they are.
 */
async function expectNoViolationsInEitherTheme(page: Page, testInfo: TestInfo) {
  await expectTheme(page, "light");
  await test.step("light theme", () => expectNoAxeViolations(page, testInfo));
  // The colours' transitions (links, buttons) run to their end before axe reads the colours.
  await page.evaluate(async () => {
    document.documentElement.classList.remove("light");
    document.documentElement.classList.add("dark");
    await Promise.all(document.getAnimations().map((animation) => animation.finished));
  });
  await expectTheme(page, "dark");
  // The markup is the same: in the dark theme the rules that read colours run again (helpers/axe.ts).
  await test.step("dark theme", () => expectNoAxeViolations(page, testInfo, { coloursOnly: true }));
}

type Portal = {
  adminCookie: string;
  investorCookie: string;
  document: { id: string; title: string; category: LpCategoryValue };
  /** An entity the investor owns, with a Fund I commitment (its row menu holds the raise form). */
  entity: { id: string; commitmentId: string };
};

let portal: Promise<Portal> | undefined;

/**
 * Once per worker: an admin, an approved investor and a document the investor
 * viewed and downloaded (so the access history has rows), all over the API.
 */
function portalData(testInfo: TestInfo): Promise<Portal> {
  portal ??= (async () => {
    const admin = await adminSession("a11y-admin");
    const investor = await approvedInvestorSession(admin, "a11y-investor");
    const doc = sampleDocument(testInfo, "Accessibility Review", 200_000);
    const category: LpCategoryValue = "newsletters";
    const uploaded = await uploadDocument(
      admin.context,
      { title: doc.title, description: doc.description, category },
      { name: doc.fileName, mimeType: "application/pdf", buffer: doc.bytes },
    );
    expect(uploaded.status(), await uploaded.text()).toBe(201);
    const { id } = (await uploaded.json()) as { id: string };
    for (const action of ["view", "download"]) {
      const response = await investor.context.get(
        `/api/documents/${id}/${action}`,
      );
      expect(response.status(), `${action} ${id}`).toBe(200);
    }
    const entity = await created<{ id: string }>(
      admin.context.post("/api/entities", {
        data: { name: `Accessibility Review Trust ${testInfo.project.name}`, kind: "trust", members: [{ userId: await userIdByEmail(admin.context, "", investor.email), role: "owner" }] },
      }),
    );
    const commitment = await created<{ id: string }>(
      admin.context.post("/api/commitments", { data: { entityId: entity.id, fund: "fund-i", amount: "100000.00", acceptedOn: "2024-01-15" } }),
    );
    await admin.context.dispose();
    await investor.context.dispose();
    return {
      adminCookie: admin.cookie,
      investorCookie: investor.cookie,
      document: { id, title: doc.title, category },
      entity: { id: entity.id, commitmentId: commitment.id },
    };
  })();
  return portal;
}

/** A 201 answer's JSON. */
async function created<T>(response: Promise<APIResponse>): Promise<T> {
  const answer = await response;
  expect(answer.status(), `${answer.url()}: ${await answer.text()}`).toBe(201);
  return (await answer.json()) as T;
}

/** The browser signed in as the worker's admin or investor (portalData); returns the portal's data. */
async function signedIn(context: BrowserContext, baseURL: string, testInfo: TestInfo, role: "admin" | "investor"): Promise<Portal> {
  const data = await portalData(testInfo);
  await useSessionCookie(context, baseURL, role === "admin" ? data.adminCookie : data.investorCookie);
  return data;
}

test.describe("light and dark theme", () => {
  test.beforeEach(async ({ context, baseURL }) => {
    await context.addCookies([
      { name: "theme", value: "light", url: baseURL! },
    ]);
  });

  // The public pages in two tests, every other page each (a test per page spent a third of its time
  // on its own browser context and first load): a step per page.
  for (const half of [0, 1] as const) {
    test(`the public pages have no axe violations (${half === 0 ? "first" : "second"} half)`, async ({ page, visit }, testInfo) => {
      // Half of the public pages, each checked twice: a minute on a slow, busy machine.
      test.setTimeout(90_000);
      for (const path of PUBLIC_PAGES.filter((_, i) => i % 2 === half)) {
        await test.step(path, async () => {
          await visit(path);
          await expectNoViolationsInEitherTheme(page, testInfo);
        });
      }
    });
  }

  test("the 404 page has no axe violations", async ({
    page,
    visit,
  }, testInfo) => {
    await visit("/no-such-page-for-axe", { status: 404 });
    await expect(page.getByRole("heading", { level: 1 })).toContainText("404");
    await expectNoViolationsInEitherTheme(page, testInfo);
  });

  for (const fund of ["fund-i", "fund-ii"] as const) {
    test(`/${fund}/documents with access has no axe violations`, async ({
      page,
      context,
      baseURL,
      visit,
    }, testInfo) => {
      // An admin sees the same page a fund access holder sees.
      await signedIn(context, baseURL!, testInfo, "admin");
      await visit(`/${fund}/documents`);
      await expect(page).toHaveURL(`${baseURL}/${fund}/documents`);
      await expectNoViolationsInEitherTheme(page, testInfo);
    });
  }

  test("/fund-ii/documents refusing a bad link has no axe violations", async ({
    page,
  }, testInfo) => {
    // The page moves on to the sign-up after 2 s: hold the clock while axe looks at the alert.
    await page.clock.install();
    await page.goto("/fund-ii/documents?token=not-a-real-token");
    await expect(page.getByTestId("fund-access-error")).toBeVisible();
    await expectNoViolationsInEitherTheme(page, testInfo);
  });

  test("the investor dashboard with a document, its category open, has no axe violations", async ({
    page,
    context,
    baseURL,
    visit,
  }, testInfo) => {
    const { document } = await signedIn(context, baseURL!, testInfo, "investor");
    await visit("/lp/dashboard");
    const list = investorDocuments(page);
    await openCategory(list.category(document.category));
    await expect(
      page.getByRole("heading", {
        level: 3,
        name: document.title,
        exact: true,
      }),
    ).toBeVisible();
    await expectNoViolationsInEitherTheme(page, testInfo);
  });

  // Every admin and LP page as it loads is checked, with axe's best-practice rules too, in
  // workspace-layout.spec.ts; here, the states those pages can be put in.

  test("the newsletter's confirmation page (its button), its thank-you and a bad unsubscribe link's page have no axe violations", async ({
    page,
    visit,
    request,
  }, testInfo) => {
    const email = `a11y-${testInfo.project.name}-${Date.now()}@example.com`;
    const signUp = await request.post("/api/newsletter", {
      data: { email },
      headers: {
        "X-Forwarded-For": `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
      },
    });
    expect(signUp.status(), await signUp.text()).toBe(202);
    const mail = await latestMailTo(
      email,
      /^Confirm your .* newsletter subscription$/,
    );
    const link = mail.text.match(
      /https?:\/\/\S+(\/newsletter\/confirm\?token=\S+)/,
    )?.[1];
    expect(link, "a confirmation link in the mail").toBeTruthy();
    for (const [path, status] of [
      [link!, 200],
      ["/newsletter/confirm?confirmed=1", 200],
      ["/unsubscribe/newsletter?token=not-a-real-token", 400],
    ] as const) {
      await visit(path, { status });
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectNoViolationsInEitherTheme(page, testInfo);
    }
  });

  test("a pitch's page, a reply template chosen, has no axe violations", async ({
    page,
    context,
    baseURL,
    visit,
  }, testInfo) => {
    await signedIn(context, baseURL!, testInfo, "admin");
    const company = `A11y Pitch ${testInfo.project.name}`;
    const id = insertPitchRow({ company, daysAgo: 30 });
    await visit(`/admin/pitches/${id}?template=tell-us-more`);
    await expect(
      page.getByRole("heading", { level: 1, name: `Pitch: ${company}` }),
    ).toBeVisible();
    await expectNoViolationsInEitherTheme(page, testInfo);
  });

  test("/lp/account, two-factor off (QR code, key, code field), sessions and password, has no axe violations", async ({
    page,
    context,
    baseURL,
    visit,
  }, testInfo) => {
    await signedIn(context, baseURL!, testInfo, "investor");
    await visit("/lp/account");
    await expect(
      page.getByRole("img", {
        name: "QR code to add this account to an authenticator app",
      }),
    ).toBeVisible();
    await expectNoViolationsInEitherTheme(page, testInfo);
  });

  test("the admin menu below the md width, open, has no axe violations", async ({
    page,
    context,
    baseURL,
    visit,
  }, testInfo) => {
    await signedIn(context, baseURL!, testInfo, "admin");
    await page.setViewportSize({ width: 390, height: 844 });
    await visit("/admin/investors");
    await page.getByTestId("admin-menu").locator("summary").click();
    await expect(
      page.getByTestId("admin-menu").getByRole("link", { name: /^Investors/ }),
    ).toHaveAttribute("aria-current", "page");
    await expectNoViolationsInEitherTheme(page, testInfo);
  });

  test("/admin/documents with a document, its row menu open, has no axe violations", async ({
    page,
    context,
    baseURL,
    visit,
  }, testInfo) => {
    const { document } = await signedIn(context, baseURL!, testInfo, "admin");
    await visit("/admin/documents");
    await expect(publishedPanel(page).table).toBeVisible();
    await expect(publishedRow(page, document.title)).toBeVisible();
    const menu = await openRowMenu(page, document.title);
    await expect(menu.getByRole("button", { name: `Delete ${document.title}`, exact: true })).toBeVisible();
    await expectNoViolationsInEitherTheme(page, testInfo);
  });

  test("an entity's page, a member's row menu open at its confirm step and two forms showing their errors, has no axe violations", async ({
    page,
    context,
    baseURL,
    visit,
  }, testInfo) => {
    const { entity } = await signedIn(context, baseURL!, testInfo, "admin");
    await visit(`/admin/entities/${entity.id}`);
    // 'Add a member' with an address no investor has.
    const members = page.getByRole("region", { name: "Members" });
    await members.getByLabel("Investor's e-mail").fill(`nobody-a11y-${testInfo.project.name}@example.com`);
    await members.getByRole("button", { name: "Add member" }).click();
    await expect(page.locator("#member-email-error")).toHaveText("No approved investor has this e-mail address");
    // The commitment's row menu: its raise form with an amount it refuses.
    const raise = page.getByTestId("commitment-row").locator("details[data-row-menu]");
    await raise.locator("summary").click();
    await raise.getByLabel("New amount").fill("12,50");
    await raise.getByLabel("Effective from").fill("2025-01-15");
    await raise.getByRole("button", { name: "Raise", exact: true }).click();
    await expect(page.locator(`#raise-${entity.commitmentId}-amount-error`)).toHaveText("Enter an amount like 250000.00");
    await expect(raise).toHaveAttribute("open", "");
    // The owner's row menu, open at its confirm step.
    const remove = members.getByTestId("member-row").locator("details[data-row-menu]");
    await remove.locator(":scope > summary").click();
    await remove.getByText("Remove from the entity").click();
    await expect(remove.getByRole("button", { name: "Remove", exact: true })).toBeVisible();
    await expectNoViolationsInEitherTheme(page, testInfo);
  });

  test("the admin upload form showing its errors has no axe violations", async ({
    page,
    context,
    baseURL,
    visit,
  }, testInfo) => {
    await signedIn(context, baseURL!, testInfo, "admin");
    await visit("/admin/documents/upload");
    await page
      .locator("form#lp-upload")
      .getByRole("button", { name: "Upload Document" })
      .click();
    await expect(page.locator("#lp-upload-title-error")).toBeVisible();
    await expect(page.locator("#lp-upload-file-error")).toBeVisible();
    await expectNoViolationsInEitherTheme(page, testInfo);
  });
});
