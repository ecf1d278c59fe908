import type { Browser, Page } from "@playwright/test";
import { latestMailTo, linkIn } from "./helpers/accounts";
import { useSessionCookie } from "./helpers/document-ui";
import { emailList } from "./helpers/email-lists";
import { expect, test, uniqueEmail } from "./helpers/fixtures";
import { newsletterForm } from "./helpers/forms";
import { BASE_URL } from "./helpers/origin";
import { newAdmin } from "./helpers/portal";
import { mintSessionCookie } from "./helpers/sessions";

/**
 * The newsletter's double opt-in end to end (issue 16), with and without
 * JavaScript: sign up from a page's footer → the confirmation link from the
 * mail → its page (GET shows one button; the POST confirms) → the admin's
 * newsletter table lists the address as confirmed, and its CSV carries the
 * subscriber's unsubscribe link → a mail provider's RFC 8058 one-click POST
 * (no cookie, no Origin) → the address is listed as unsubscribed.
 */

const CONFIRM_SUBJECT = /^Confirm your .* newsletter subscription$/;

/** A page in a context of its own, signed in as a new admin (same JavaScript setting as the test). */
async function adminPage(browser: Browser, jsEnabled: boolean, cookie: string, clientIp: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE_URL, javaScriptEnabled: jsEnabled, extraHTTPHeaders: { "X-Forwarded-For": clientIp } });
  await useSessionCookie(context, BASE_URL, cookie);
  return context.newPage();
}

/** Show the newsletter table in one status with its GET filter form (works without JavaScript). */
async function showStatus(page: Page, status: "Confirmed" | "Pending confirmation" | "Unsubscribed") {
  const ui = emailList(page, "newsletter");
  await ui.section.getByLabel("Status").selectOption({ label: status });
  await ui.section.getByRole("button", { name: "Show Newsletter subscribers" }).click();
  await expect(ui.section.getByLabel("Status")).toHaveValue({ Confirmed: "confirmed", "Pending confirmation": "pending", Unsubscribed: "unsubscribed" }[status]);
}

test("subscribe → confirm from the mailed link → listed as confirmed → one-click unsubscribe → listed as unsubscribed", { tag: "@no-js" }, async ({
  page,
  visit,
  browser,
  playwright,
  jsEnabled,
  clientIp,
}, testInfo) => {
  test.setTimeout(90_000);
  const email = uniqueEmail(testInfo, "consent");

  // 1. Sign up from the footer of /team: the page asks to confirm by e-mail.
  await visit("/team");
  const form = newsletterForm(page, "footer");
  await form.email.fill(email);
  await form.submit.click();
  await expect(form.thanks).toBeVisible();

  // The admin sees the address as pending, not on the (default) confirmed list.
  const admin = await newAdmin(testInfo);
  const adminCookie = await mintSessionCookie(admin.email);
  const lists = await adminPage(browser, jsEnabled, adminCookie, clientIp);
  await lists.goto("/admin/email-lists");
  const table = emailList(lists, "newsletter").table;
  await expect(emailList(lists, "newsletter").section.getByLabel("Status")).toHaveValue("confirmed");
  await expect(table.getByRole("cell", { name: email, exact: true })).toHaveCount(0);
  await showStatus(lists, "Pending confirmation");
  await expect(table.getByRole("cell", { name: email, exact: true })).toBeVisible();

  // 2. The link from the mail: its page shows one button (opening it confirms nothing).
  const mail = await latestMailTo(email, CONFIRM_SUBJECT);
  const link = linkIn(mail, `${BASE_URL}/newsletter/confirm?token=`);
  expect((await page.goto(link))?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "Confirm your subscription" })).toBeVisible();
  await lists.reload();
  await expect(table.getByRole("cell", { name: email, exact: true })).toBeVisible();

  // 3. The button confirms.
  await page.getByRole("button", { name: "Confirm subscription" }).click();
  await expect(page.getByRole("status").getByRole("heading", { name: "You're subscribed" })).toBeVisible();

  // The used link does not work again.
  expect((await page.goto(link))?.status()).toBe(400);
  await expect(page.getByRole("heading", { name: "This link has already been used or has expired" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Confirm subscription" })).toHaveCount(0);

  // 4. The admin's default (confirmed) list shows it; the CSV gives its unsubscribe link.
  await lists.goto("/admin/email-lists");
  await expect(table.getByRole("cell", { name: email, exact: true })).toBeVisible();
  const csv = await (await lists.request.get("/admin/email-lists/newsletter.csv")).text();
  const line = csv.split("\r\n").find((record) => record.startsWith(`${email},`));
  expect(line, "the subscriber's row in the CSV").toBeTruthy();
  const unsubscribeUrl = line!.split(",").at(-1)!;
  expect(unsubscribeUrl).toMatch(new RegExp(`^${BASE_URL}/unsubscribe/newsletter\\?token=`));

  // 5. A mail provider's one-click POST: no cookie, no Origin, no Sec-Fetch-Site.
  const provider = await playwright.request.newContext({ extraHTTPHeaders: { "X-Forwarded-For": clientIp } });
  try {
    const oneClick = await provider.post(unsubscribeUrl, { form: { "List-Unsubscribe": "One-Click" } });
    expect(oneClick.status()).toBe(200);
    const headers = oneClick.headersArray().map((h) => h.name.toLowerCase());
    expect(headers).not.toContain("set-cookie");
    // Again is harmless.
    expect((await provider.post(unsubscribeUrl, { form: { "List-Unsubscribe": "One-Click" } })).status()).toBe(200);
  } finally {
    await provider.dispose();
  }

  // 6. Off the confirmed list, on the unsubscribed one.
  await lists.goto("/admin/email-lists");
  await expect(table.getByRole("cell", { name: email, exact: true })).toHaveCount(0);
  await showStatus(lists, "Unsubscribed");
  await expect(table.getByRole("cell", { name: email, exact: true })).toBeVisible();

  // The link's page still opens (a mail may be read later) and says what it does.
  expect((await page.goto(unsubscribeUrl))?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "Unsubscribe from the newsletter" })).toBeVisible();
  await lists.context().close();
});

test("the unsubscribe page's button unsubscribes without a sign-in; made-up links are a clear 400", { tag: "@no-js" }, async ({ page, request, visit }, testInfo) => {
  const email = uniqueEmail(testInfo, "button");
  // A confirmed subscriber, through the real link.
  expect((await request.post("/api/newsletter", { data: { email } })).status()).toBe(202);
  const link = linkIn(await latestMailTo(email, CONFIRM_SUBJECT), `${BASE_URL}/newsletter/confirm?token=`);
  await visit(link);
  await page.getByRole("button", { name: "Confirm subscription" }).click();
  await expect(page.getByRole("heading", { name: "You're subscribed" })).toBeVisible();

  // Its unsubscribe link, as the admin's CSV gives it to the mailing tool.
  const admin = await newAdmin(testInfo);
  const cookie = await mintSessionCookie(admin.email);
  const csv = await (await request.get("/admin/email-lists/newsletter.csv", { headers: { Cookie: cookie } })).text();
  const unsubscribeUrl = csv
    .split("\r\n")
    .find((record) => record.startsWith(`${email},`))
    ?.split(",")
    .at(-1);
  expect(unsubscribeUrl).toMatch(/\/unsubscribe\/newsletter\?token=/);

  await visit(unsubscribeUrl!);
  await expect(page.getByRole("heading", { name: "Unsubscribe from the newsletter" })).toBeVisible();
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(page.getByRole("status").getByRole("heading", { name: "Unsubscribed" })).toBeVisible();
  const after = await (await request.get("/admin/email-lists/newsletter.csv?status=unsubscribed", { headers: { Cookie: cookie } })).text();
  expect(after.split("\r\n").some((record) => record.startsWith(`${email},`))).toBe(true);

  await visit("/unsubscribe/newsletter?token=bm90LWEtcmVhbC1pZA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", { status: 400 });
  await expect(page.getByRole("heading", { name: "This unsubscribe link is not valid" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Unsubscribe" })).toHaveCount(0);
  await visit("/newsletter/confirm?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", { status: 400 });
  await expect(page.getByRole("heading", { name: "This link has already been used or has expired" })).toBeVisible();
});
