import { randomBytes } from "node:crypto";
import { samplePdf } from "../helpers/sample-files";
import { latestMailTo } from "./helpers/accounts";
import { mailsTo } from "./helpers/mail";
import { expect, expectToast, test, toast, uniqueEmail } from "./helpers/fixtures";
import { fillPitch, holdPosts, pitchForm, recordWrites, type PitchValues } from "./helpers/forms";

/**
 * 'Submit Your Pitch' on /process end to end (SPEC.md §4 "Pitch form", §5,
 * §8): idle → submitting → 'Thank You for Submitting!' → 'Submit Another
 * Pitch', validation under the fields, and the server's failure message.
 */

function pitch(email: string): PitchValues {
  return {
    name: "Ada Founder",
    email,
    company: `Photon Forge ${randomBytes(3).toString("hex")}`,
    stage: "Series A",
    deckUrl: "https://example.com/deck.pdf",
    message: "We build photonic interconnects that cut data-centre energy use by 40%.",
  };
}

test("a complete pitch: success view, 'Success' toast, then 'Submit Another Pitch' gives an empty form", { tag: "@no-js" }, async ({
  page,
  visit,
}, testInfo) => {
  await visit("/process");
  const form = pitchForm(page);
  await fillPitch(form, pitch(uniqueEmail(testInfo, "pitch")));
  await form.submit.click();

  await expectToast(page, "Success", "Your pitch has been submitted successfully!");
  await expect(form.thanks).toBeVisible();
  await expect(form.region).toContainText("We've received your pitch and will get back to you soon.");
  await expect(form.name).toHaveCount(0);
  await expect(page).toHaveURL(/\/process(#pitch)?$/);

  await form.again.click();
  await expect(form.name).toBeVisible();
  for (const field of [form.name, form.email, form.company, form.deckUrl, form.message]) {
    await expect(field).toHaveValue("");
  }
  await expect(form.stage).toHaveValue("");
  await expect(form.thanks).toHaveCount(0);
  await expect(form.submit).toHaveText("Submit Pitch");
  await expect(form.submit).toBeEnabled();
});

test("a pitch without a deck URL is accepted", { tag: "@no-js" }, async ({ page, visit }, testInfo) => {
  await visit("/process");
  const form = pitchForm(page);
  await fillPitch(form, { ...pitch(uniqueEmail(testInfo, "nodeck")), deckUrl: "", stage: "Pre-Seed" });
  await form.submit.click();
  await expect(form.thanks).toBeVisible();
  await expectToast(page, "Success", "Your pitch has been submitted successfully!");
});

test("a bad e-mail and deck URL: 'Invalid email address' and 'Invalid URL' under the fields, values kept", { tag: "@no-js" }, async ({
  page,
  visit,
  jsEnabled,
}, testInfo) => {
  await visit("/process");
  const form = pitchForm(page);
  // Without JavaScript the browser blocks obvious mistakes itself, so use
  // values it accepts but the server refuses.
  const values = {
    ...pitch(uniqueEmail(testInfo, "bad")),
    email: jsEnabled ? "founder-at-example" : "founder@localhost",
    deckUrl: jsEnabled ? "my deck" : "ftp://example.com/deck.pdf",
  };
  await fillPitch(form, values);
  // With JavaScript these are caught in the browser; without, the server's refusal is a 303 back to the form whose flash the page renders.
  const posted = jsEnabled ? null : page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/process");
  await form.submit.click();
  if (posted) {
    expect((await posted).status()).toBe(303);
    await expect(page).toHaveURL(/\/process#pitch$/);
  }

  await expect(form.email).toHaveAccessibleDescription("Invalid email address");
  await expect(form.deckUrl).toHaveAccessibleDescription("Invalid URL");
  await expect(form.email).toHaveAttribute("aria-invalid", "true");
  await expect(form.thanks).toHaveCount(0);
  await expect(form.name).toHaveValue(values.name);
  await expect(form.company).toHaveValue(values.company);
  await expect(form.message).toHaveValue(values.message);
  await expect(form.stage).toHaveValue(values.stage);
  await expect(form.email).toHaveValue(values.email);
  await expect(form.deckUrl).toHaveValue(values.deckUrl);

  // Fixing them sends the pitch.
  await form.email.fill(uniqueEmail(testInfo, "fixed"));
  await form.deckUrl.fill("https://example.com/deck");
  await form.submit.click();
  await expect(form.thanks).toBeVisible();
});

test("with JavaScript, an empty pitch is stopped in the browser with a message under every required field", async ({
  page,
  visit,
  jsEnabled,
}) => {
  test.skip(!jsEnabled, "Without JavaScript the browser's own required-field check applies.");
  await visit("/process");
  const form = pitchForm(page);
  const writes = recordWrites(page);
  await form.submit.click();
  for (const field of [form.name, form.email, form.company, form.stage, form.message]) {
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toHaveAccessibleDescription(/\S/);
  }
  await expect(form.email).toHaveAccessibleDescription("Invalid email address");
  await expect(form.deckUrl).not.toHaveAttribute("aria-invalid", "true");
  expect(writes).toEqual([]);
});

test("without JavaScript, the browser refuses an empty pitch (required fields)", { tag: "@no-js" }, async ({
  page,
  visit,
  jsEnabled,
}) => {
  test.skip(jsEnabled, "With JavaScript the form validates itself (previous test).");
  await visit("/process");
  const form = pitchForm(page);
  const writes = recordWrites(page);
  await form.submit.click();
  await expect(form.name).toHaveJSProperty("validity.valueMissing", true);
  expect(writes).toEqual([]);
  await expect(form.thanks).toHaveCount(0);
});

test("while the pitch is sent the button reads 'Submitting...' and is disabled", async ({
  page,
  visit,
  jsEnabled,
}, testInfo) => {
  test.skip(!jsEnabled, "A pending state needs JavaScript; without it the browser navigates.");
  await visit("/process");
  const release = await holdPosts(page, "/process");
  const form = pitchForm(page);
  await fillPitch(form, pitch(uniqueEmail(testInfo, "pending")));
  await form.submit.click();
  await expect(form.submit).toHaveText("Submitting...");
  await expect(form.submit).toBeDisabled();
  release();
  await expect(form.thanks).toBeVisible();
});

test("when the server refuses (rate limit), a destructive 'Error' toast gives its message and the form stays", { tag: "@no-js" }, async ({
  page,
  visit,
  request,
}, testInfo) => {
  // Use up this client's 10 pitches (request and page share its address).
  for (let i = 0; i < 10; i++) {
    const response = await request.post("/api/pitch", {
      data: { ...pitch(uniqueEmail(testInfo, `fill${i}`)) },
    });
    expect(response.status()).toBe(201);
  }
  await visit("/process");
  const form = pitchForm(page);
  const values = pitch(uniqueEmail(testInfo, "limited"));
  await fillPitch(form, values);
  await form.submit.click();

  await expectToast(page, "Error", "Too many pitch submissions. Please try again later.");
  await expect(toast(page).first()).not.toHaveCSS("background-color", "rgb(255, 255, 255)");
  // The message also stays in the form itself.
  await expect(form.region.locator("form").getByRole("alert").filter({ hasText: "Too many pitch submissions" })).toBeVisible();
  await expect(form.thanks).toHaveCount(0);
  await expect(form.name).toHaveValue(values.name);
});

/** The firm's inbox on the e2e server (FIRM_INBOX is not set there: the default). */
const FIRM_INBOX = "hello@lumenridge.example";

/** Every mail the run's SMTP sink holds for an address whose subject matches, read once. */
const mailsIn = (to: string, subject: RegExp) => mailsTo(to, subject);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

test("a pitch with a deck upload (PDF): success, and the firm's mail names the deck with the admin link", { tag: "@no-js" }, async ({
  page,
  visit,
}, testInfo) => {
  await visit("/process");
  const form = pitchForm(page);
  const values = { ...pitch(uniqueEmail(testInfo, "deck")), deckUrl: "" };
  await fillPitch(form, values);
  await form.deck.setInputFiles({ name: "photon-forge-deck.pdf", mimeType: "application/pdf", buffer: samplePdf("Photon Forge deck") });
  await form.submit.click();

  await expectToast(page, "Success", "Your pitch has been submitted successfully!");
  await expect(form.thanks).toBeVisible();
  const mail = await latestMailTo(FIRM_INBOX, new RegExp(`^New pitch: ${escapeRegExp(values.company)} `));
  expect(mail.text).toMatch(/Uploaded deck: photon-forge-deck\.pdf \(0\.00 MB\), for admins at http:\/\/localhost:\d+\/admin\/pitches\/[^/\s]+\/deck/);
});

test("a deck that is not a PDF: 'The deck must be a PDF file' under the field, the typed values kept", { tag: "@no-js" }, async ({ page, visit }, testInfo) => {
  await visit("/process");
  const form = pitchForm(page);
  const values = pitch(uniqueEmail(testInfo, "notpdf"));
  await fillPitch(form, values);
  await form.deck.setInputFiles({ name: "deck.pdf", mimeType: "application/pdf", buffer: Buffer.from("<html>not a deck</html>") });
  await form.submit.click();

  await expect(form.deck).toHaveAccessibleDescription("The deck must be a PDF file");
  await expect(form.deck).toHaveAttribute("aria-invalid", "true");
  await expect(form.thanks).toHaveCount(0);
  await expect(form.company).toHaveValue(values.company);
  await expect(form.message).toHaveValue(values.message);
});

test("the spam trap: a filled honeypot gets the very success a founder gets, and nothing reaches the firm", { tag: "@no-js" }, async ({
  page,
  visit,
}, testInfo) => {
  await visit("/process");
  const form = pitchForm(page);
  // The field is off-screen and out of the tab order: a person never sees it, a bot fills it.
  await expect(form.honeypot).toHaveAttribute("tabindex", "-1");
  await expect(form.honeypot).toHaveAttribute("autocomplete", "off");
  const bot = pitch(uniqueEmail(testInfo, "bot"));
  await fillPitch(form, bot);
  await form.honeypot.fill("https://cheap-pills.example", { force: true });
  await form.submit.click();
  await expectToast(page, "Success", "Your pitch has been submitted successfully!");
  await expect(form.thanks).toBeVisible();
  await expect(form.region).toContainText("We've received your pitch and will get back to you soon.");

  // A founder's pitch sent after it reaches the firm; the outbox sends in order, so the bot's would be there by then.
  await form.again.click();
  const founder = pitch(uniqueEmail(testInfo, "human"));
  await fillPitch(form, founder);
  await form.submit.click();
  await expect(form.thanks).toBeVisible();
  await latestMailTo(FIRM_INBOX, new RegExp(`^New pitch: ${escapeRegExp(founder.company)} `));
  await latestMailTo(founder.email, /^We received your pitch/);
  expect(mailsIn(FIRM_INBOX, new RegExp(`^New pitch: ${escapeRegExp(bot.company)} `))).toEqual([]);
  expect(mailsIn(bot.email, /./)).toEqual([]);
});
