import { randomBytes, randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, expectToast, test, uniqueEmail } from "./helpers/fixtures";
import { fillPitch, pitchForm } from "./helpers/forms";
import { insertPitchRow, mailWithHeaders } from "./helpers/pitches";
import { samplePdf } from "../helpers/sample-files";
import { newAdmin, newBrowserContext, openAsAdmin, waitHydrated } from "./helpers/portal";

/**
 * The pitch inbox end to end (issue 16), with JavaScript and without: a founder
 * pitches from /contact with a deck (PDF) → an admin finds the pitch on /admin/pitches (search and
 * status filter), opens it and its deck, sets it In review and takes it, adds an internal note,
 * picks a reply template, edits it and sends it → the timeline shows each step with
 * who and when, the list says 'answered on …', and the founder's mail has Reply-To
 * the firm's inbox.
 *
 * The texts are written out here, not imported from app/content, so a change of
 * wording that breaks the page fails a test.
 */

const FIRM_INBOX = "hello@lumenridge.example";

/** 'Nov 25, 2026' for a moment, in the firm's zone (as the clock reads days). */
function firmDate(at: Date): string {
  return at.toLocaleDateString("en-US", { timeZone: "Europe/Zurich", month: "short", day: "2-digit", year: "numeric" });
}

function sidebar(page: Page) {
  return page.getByTestId("admin-sidebar");
}

test("a pitch from /contact is found, triaged, noted and answered; the timeline and the founder's mail show it", { tag: "@no-js" }, async ({
  page,
  visit,
  browser,
  baseURL,
  jsEnabled,
  clientIp,
}, testInfo) => {
  test.setTimeout(120_000);
  const tag = randomBytes(4).toString("hex");
  const founder = {
    name: `Ada Founder ${tag}`,
    email: uniqueEmail(testInfo, "pitch-inbox"),
    company: `Inbox Photonics ${tag}`,
    stage: "Seed",
    deckUrl: "https://example.com/inbox-deck.pdf",
    message: "We build photonic interconnects for data centres.",
  };

  // The founder: /contact → the pitch form.
  await visit("/contact");
  await page.getByRole("main").getByRole("link", { name: "Submit your pitch" }).click();
  await expect(page).toHaveURL(/\/process/);
  await waitHydrated(page, jsEnabled);
  const form = pitchForm(page);
  await fillPitch(form, founder);
  await form.deck.setInputFiles({ name: `inbox-deck-${tag}.pdf`, mimeType: "application/pdf", buffer: samplePdf(`Inbox deck ${tag}`) });
  await form.submit.click();
  await expect(form.thanks).toBeVisible();

  // The admin, in a browser of their own.
  const admin = await newAdmin(testInfo);
  const context = await newBrowserContext(browser, { baseURL, jsEnabled, clientIp });
  const adminPage = await context.newPage();
  try {
    await openAsAdmin(adminPage, jsEnabled, admin);
    // The overview counts overdue pitches; the navigation leads to the inbox.
    await expect(adminPage.getByTestId("count-overduePitches")).toHaveText(/^\d[\d,]*$/);
    await sidebar(adminPage).getByRole("link", { name: /^Pitches/ }).click();
    await expect(adminPage.getByRole("heading", { level: 1, name: "Pitches" })).toBeVisible();
    await expect(sidebar(adminPage).getByRole("link", { name: /^Pitches/ })).toHaveAttribute("aria-current", "page");
    await waitHydrated(adminPage, jsEnabled);

    // Find it: a search for the company and the status New (a GET form).
    const filters = adminPage.getByRole("search", { name: "Filter pitches" });
    await filters.getByLabel("Search").fill(founder.company);
    await filters.getByLabel("Status").selectOption({ label: "New" });
    await filters.getByRole("button", { name: "Filter" }).click();
    await expect(adminPage).toHaveURL(/[?&]status=new/);
    const rows = adminPage.getByTestId("pitch-row");
    await expect(rows).toHaveCount(1);
    const row = rows.first();
    for (const text of [founder.company, founder.name, founder.email, "Seed", "New", "Nobody"]) {
      await expect(row).toContainText(text);
    }
    // Due at the end of the 5th business day after the Zurich day it came in (4 once that day is over).
    await expect(row).toContainText(/due in [45] business days/);
    await row.getByRole("link", { name: founder.company }).click();

    // The pitch page: the submission.
    await expect(adminPage.getByRole("heading", { level: 1, name: `Pitch: ${founder.company}` })).toBeVisible();
    await waitHydrated(adminPage, jsEnabled);
    const submission = adminPage.getByRole("region", { name: "Submission" });
    await expect(submission).toContainText(founder.message);
    await expect(submission.getByRole("link", { name: founder.deckUrl })).toHaveAttribute("href", founder.deckUrl);
    const pitchUrl = adminPage.url().replace(/[?#].*$/, "");
    // The uploaded deck: named on the page, opened by the admin (a PDF, logged on the timeline).
    await expect(submission).toContainText(`inbox-deck-${tag}.pdf`);
    const deckLink = submission.getByRole("link", { name: "Open the deck" });
    const deckHref = await deckLink.getAttribute("href");
    expect(deckHref).toBe(`${new URL(pitchUrl).pathname}/deck`);
    const deck = await adminPage.request.get(deckHref ?? "");
    expect(deck.status()).toBe(200);
    expect(deck.headers()["content-type"]).toBe("application/pdf");
    expect((await deck.body()).subarray(0, 5).toString()).toBe("%PDF-");
    await adminPage.reload();
    await waitHydrated(adminPage, jsEnabled);

    // Status: In review.
    const status = adminPage.getByRole("region", { name: "Status" });
    await status.getByLabel("Status").selectOption({ label: "In review" });
    await status.getByRole("button", { name: "Save status" }).click();
    await expectToast(adminPage, "Status saved", `${founder.company} is now In review.`);
    await expect(status.getByLabel("Status")).toHaveValue("in_review");

    // Owner: the admin.
    const owner = adminPage.getByRole("region", { name: "Owner" });
    await owner.getByLabel("Owner").selectOption({ label: admin.name });
    await owner.getByRole("button", { name: "Save owner" }).click();
    await expectToast(adminPage, "Owner saved", `${admin.name} now owns ${founder.company}.`);

    // An internal note.
    const noteText = `Strong team, early market (${tag}).`;
    const notes = adminPage.getByRole("region", { name: "Internal note" });
    await notes.getByLabel("Note", { exact: true }).fill(noteText);
    await notes.getByRole("button", { name: "Add note" }).click();
    await expectToast(adminPage, "Note added");
    await expect(notes.getByLabel("Note", { exact: true })).toHaveValue("");

    // A reply from a template, edited before sending.
    const reply = adminPage.getByRole("region", { name: "Reply to the founder" });
    await reply.getByLabel("Template").selectOption({ label: "Let's talk: partner call" });
    if (!jsEnabled) await reply.getByRole("button", { name: "Use template" }).click();
    const subject = reply.getByLabel("Subject");
    const body = reply.getByLabel("Message");
    await expect(subject).toHaveValue(`${founder.company}: a call with Lumen Ridge Ventures`);
    await expect(body).toHaveValue(new RegExp(`^Dear ${founder.name},\\n`));
    const editedSubject = `${founder.company}: a partner call next week`;
    const editedBody = `Dear ${founder.name},\n\nWe would like to meet you next week (${tag}).\n\nKind regards,\nThe Lumen Ridge Ventures team`;
    await subject.fill(editedSubject);
    await body.fill(editedBody);
    const sentBefore = new Date();
    await reply.getByRole("button", { name: "Send reply" }).click();
    await expectToast(adminPage, "Reply sent", `Your reply to ${founder.email} is on its way.`);
    const sentAfter = new Date();
    await expect(subject).toHaveValue("");
    expect(adminPage.url().replace(/[?#].*$/, "")).toBe(pitchUrl);

    // The timeline: every step, with who and when, oldest first.
    const events = adminPage.getByTestId("pitch-event");
    const who = `by ${admin.name} (${admin.email})`;
    const expected = [
      ["deck_opened", "Opened the deck"],
      ["status", "Status changed from New to In review"],
      ["owner", `Owner changed from Nobody to ${admin.name}`],
      ["note", "Added a note"],
      ["reply", `Replied to the founder: ${editedSubject}`],
    ] as const;
    await expect(events).toHaveCount(expected.length);
    for (const [index, [kind, text]] of expected.entries()) {
      const event = events.nth(index);
      await expect(event).toHaveAttribute("data-kind", kind);
      await expect(event).toContainText(text);
      await expect(event).toContainText(who);
      await expect(event.locator("time")).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}T/);
    }
    await expect(events.nth(3)).toContainText(noteText);
    await expect(events.nth(4)).toContainText(`We would like to meet you next week (${tag}).`);
    await expect(adminPage.getByTestId("pitch-timeline")).toContainText(`Pitch received from ${founder.name} (${founder.email})`);

    // The list: answered, In review, owned.
    await adminPage.goto(`/admin/pitches?q=${encodeURIComponent(founder.company)}`);
    const answered = adminPage.getByTestId("pitch-row");
    await expect(answered).toHaveCount(1);
    const days = [...new Set([firmDate(sentBefore), firmDate(sentAfter)])];
    await expect(answered).toContainText(new RegExp(`answered on (${days.join("|")})`));
    await expect(answered).toContainText("In review");
    await expect(answered).toContainText(admin.name);

    // The founder's mail: from the firm, answers to the firm's inbox.
    const mail = await mailWithHeaders(founder.email, new RegExp(editedSubject.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
    expect(mail.headers["reply-to"]).toBe(FIRM_INBOX);
    expect(mail.text).toContain(`We would like to meet you next week (${tag}).`);
  } finally {
    await context.close();
  }
});

test("the badge counts overdue pitches; bad filters answer 400 with a message at the field; the overdue filter and the pages are links that keep the filters", { tag: "@no-js" }, async ({ browser, baseURL, jsEnabled, clientIp }, testInfo) => {
  test.setTimeout(90_000);
  // An overdue pitch: the navigation's badge counts it (among the run's others).
  insertPitchRow({ company: `Overdue ${randomBytes(4).toString("hex")}`, daysAgo: 30 });
  const admin = await newAdmin(testInfo);
  const context = await newBrowserContext(browser, { baseURL, jsEnabled, clientIp });
  const page = await context.newPage();
  try {
    await openAsAdmin(page, jsEnabled, admin);
    await expect(sidebar(page).getByTestId("nav-badge-pitches")).toHaveText(/^[1-9][\d,]*$/);
    await expect(sidebar(page).getByRole("link", { name: /^Pitches/ })).toHaveAccessibleName(/^Pitches\W+[\d,]+ due within a business day or overdue$/);
    const response = await page.goto("/admin/pitches?status=open");
    expect(response?.status()).toBe(400);
    await expect(page.getByRole("alert").filter({ hasText: "Some filters could not be used." })).toBeVisible();
    await expect(page.getByLabel("Status")).toHaveAttribute("aria-invalid", "true");
    await page.goto("/admin/pitches");
    await waitHydrated(page, jsEnabled);
    const filters = page.getByRole("search", { name: "Filter pitches" });
    await filters.getByLabel("Overdue only").check();
    await filters.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/[?&]overdue=1/);
    await expect(filters.getByLabel("Overdue only")).toBeChecked();
    // Every row the filter shows is overdue.
    const clocks = await page.getByTestId("pitch-row").locator("td:last-child").allTextContents();
    for (const clock of clocks) expect(clock).toMatch(/^overdue by \d+ business days?$/);
    await expect(page.getByRole("link", { name: "Download CSV" })).toHaveAttribute("href", "/admin/pitches.csv?overdue=1");

    // Paging: 25 a page, the filters kept on the page links.
    const tag = `Paged${randomBytes(4).toString("hex")}`;
    for (let i = 0; i < 26; i++) insertPitchRow({ company: `${tag} ${String(i).padStart(2, "0")}`, daysAgo: 26 - i });
    await page.goto(`/admin/pitches?q=${tag}`);
    await waitHydrated(page, jsEnabled);
    await expect(page.getByTestId("pitch-row")).toHaveCount(25);
    await expect(page.getByTestId("pitch-row").first()).toContainText(`${tag} 25`);
    await expect(page.getByText("Showing 1–25 of 26")).toBeVisible();
    await page.getByRole("link", { name: "Next page of Pitches" }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]q=${tag}.*[?&]page=2|[?&]page=2.*[?&]q=${tag}`));
    await expect(page.getByTestId("pitch-row")).toHaveCount(1);
    await expect(page.getByTestId("pitch-row").first()).toContainText(`${tag} 00`);
  } finally {
    await context.close();
  }
});

test("a pitch, a bulk batch or a document's access history that is not there: 404, the not-found notice inside the admin frame, and the way back to its list", async ({
  browser,
  baseURL,
  jsEnabled,
  clientIp,
}, testInfo) => {
  const admin = await newAdmin(testInfo);
  const context = await newBrowserContext(browser, { baseURL, jsEnabled, clientIp });
  const page = await context.newPage();
  try {
    await openAsAdmin(page, jsEnabled, admin);
    const main = page.getByRole("main");

    const pitch = await page.goto(`/admin/pitches/${randomUUID()}`);
    expect(pitch?.status()).toBe(404);
    await waitHydrated(page, jsEnabled);
    await expect(page).toHaveTitle(/^Pitch not found/);
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("Pitch not found");
    await expect(main.getByText("No pitch has this address.")).toBeVisible();
    // In the frame: the sidebar with the admin's pages, the account, not the 'could not load the user' page.
    await expect(sidebar(page).getByRole("link", { name: /^Pitches/ })).toBeVisible();
    await expect(sidebar(page).getByRole("link", { name: /^Documents/ })).toBeVisible();
    await expect(page.getByText(admin.name, { exact: true }).first()).toBeVisible();
    await expect(page.getByText("Failed to load user information")).toHaveCount(0);
    await main.getByRole("link", { name: "All pitches" }).click();
    await expect(page).toHaveURL(/\/admin\/pitches$/);
    await expect(main.getByRole("heading", { level: 1, name: "Pitches" })).toBeVisible();

    const batch = await page.goto(`/admin/documents/bulk/${"0".repeat(32)}`);
    expect(batch?.status()).toBe(404);
    await waitHydrated(page, jsEnabled);
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("Batch not found");
    await expect(main.getByText(/^This batch no longer exists: it was published or cancelled, or it expired/)).toBeVisible();
    await expect(sidebar(page).getByRole("link", { name: /^Documents/ })).toBeVisible();
    await main.getByRole("link", { name: "Back to the bulk upload" }).click();
    await expect(page).toHaveURL(/\/admin\/documents\/bulk$/);
    await expect(main.getByRole("heading", { level: 1, name: "Bulk upload per-investor documents" })).toBeVisible();

    // A document's access history, for a document that is not there (a well-formed id, and a malformed one).
    for (const id of [randomUUID(), "not-a-document"]) {
      const access = await page.goto(`/admin/documents/${id}/access`);
      expect(access?.status()).toBe(404);
      await waitHydrated(page, jsEnabled);
      await expect(main.getByRole("heading", { level: 1 })).toHaveText("Access history");
      await expect(main.getByText("This document no longer exists.")).toBeVisible();
      await expect(sidebar(page).getByRole("link", { name: /^Documents/ })).toBeVisible();
    }
    await main.getByRole("link", { name: "Back to the LP documents" }).click();
    await expect(page).toHaveURL(/\/admin\/documents(#published-documents)?$/);
  } finally {
    await context.close();
  }
});
