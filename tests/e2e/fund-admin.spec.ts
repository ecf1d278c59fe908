import { randomBytes } from "node:crypto";
import type { APIRequestContext, APIResponse } from "@playwright/test";
import { registerViaApi, setStatusViaApi, userIdByEmail } from "./helpers/accounts";
import { startIsolatedServer, type IsolatedServer } from "./helpers/document-ui";
import { randomClientIp } from "./helpers/documents";
import { expect, expectToast, test as base } from "./helpers/fixtures";
import { literal } from "./helpers/portal";
import { mintSessionCookie, useSessionCookie } from "./helpers/sessions";

/**
 * A fund's operations beside its page (issue 24 §7): the valuations import
 * from a CSV file on /admin/funds/fund-ii/valuations. A file with an error
 * row is previewed with every row's outcome and cannot be imported; the
 * corrected file's preview is confirmed (without JavaScript the confirm form
 * carries the file's text in a hidden field, read again by the server) and
 * its NAVs show on the fund's page.
 *
 * Why a server of its own: the fund's valuations and commitments are the
 * fund's as a whole (its page sums every NAV at a date), so the run's server,
 * where other specs record Fund II commitments, would change the totals.
 *
 * The texts are written out here, not imported from app/content, so a change
 * of wording that breaks the page fails a test.
 */

type Lab = { server: IsolatedServer; admin: { email: string }; api: APIRequestContext };

const test = base.extend<object, { lab: Lab }>({
  lab: [
    async ({ playwright }, use) => {
      const server = await startIsolatedServer();
      try {
        const tag = randomBytes(4).toString("hex");
        const admin = { email: `fund-admin-${tag}@example.com`, name: "Fund Admin", password: `pw-${tag}-${tag}` };
        await server.createAdmin(admin);
        const api = await playwright.request.newContext({
          baseURL: server.baseURL,
          extraHTTPHeaders: { Cookie: await mintSessionCookie(admin.email), "X-Forwarded-For": randomClientIp() },
          maxRedirects: 0,
        });
        await use({ server, admin, api });
        await api.dispose();
      } finally {
        await server.stop();
      }
    },
    { scope: "worker" },
  ],
  baseURL: async ({ lab }, use) => {
    await use(lab.server.baseURL);
  },
});

test.describe.configure({ timeout: 90_000 });

async function json<T>(response: Promise<APIResponse>, status: number): Promise<T> {
  const answer = await response;
  expect(answer.status(), `${answer.url()}: ${await answer.text()}`).toBe(status);
  return (await answer.json()) as T;
}

test("a CSV of valuations: its preview shows each row's outcome and an error row blocks the import; the corrected file imports all its rows", { tag: "@no-js" }, async ({
  page,
  visit,
  baseURL,
  lab,
  playwright,
}) => {
  const tag = randomBytes(3).toString("hex");
  // An approved investor to own the entities, and two entities with Fund II commitments (JSON API).
  const email = `olga-${tag}@example.com`;
  const visitor = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { "X-Forwarded-For": randomClientIp() } });
  try {
    await registerViaApi(visitor, { email, password: `pw-${tag}-${tag}`, name: `Olga Owner ${tag}` });
  } finally {
    await visitor.dispose();
  }
  const ownerId = await userIdByEmail(lab.api, "", email);
  await setStatusViaApi(lab.api, "", ownerId, "approved");
  const atlas = `Atlas Holdings ${tag}`;
  const keller = `Keller, Brunner & Co ${tag}`;
  for (const name of [atlas, keller]) {
    const entity = await json<{ id: string }>(lab.api.post("/api/entities", { data: { name, kind: "company", members: [{ userId: ownerId, role: "owner" }] } }), 201);
    await json(lab.api.post("/api/commitments", { data: { entityId: entity.id, fund: "fund-ii", amount: "2000000.00", acceptedOn: "2024-01-15" } }), 201);
  }

  await useSessionCookie(page.context(), baseURL!, await mintSessionCookie(lab.admin.email));
  await visit("/admin/funds/fund-ii/valuations");
  await expect(page.getByRole("heading", { level: 1, name: "Import valuations" })).toBeVisible();
  const upload = page.getByRole("form", { name: "Upload a CSV file" });
  const csv = (nav: string) => Buffer.from(`\uFEFFentity_name,fund,date,nav\r\n${atlas},fund-ii,2025-12-31,1250000.00\r\n"${keller}",fund-ii,2025-12-31,${nav}\r\n`);

  // A formula where the NAV should be: the row says why, and nothing can be imported.
  await upload.getByLabel("CSV file").setInputFiles({ name: "nav-q4.csv", mimeType: "text/csv", buffer: csv("=1+1") });
  await upload.getByRole("button", { name: "Preview the import" }).click();
  const preview = page.getByRole("region", { name: "Preview: nav-q4.csv" });
  await expect(preview.getByRole("status")).toHaveText("1 row ready, 1 with errors");
  await expect(preview.getByTestId("import-row")).toHaveText([
    new RegExp(`^2\\s*${literal(atlas).source}\\s*Dec 31, 2025\\s*\\$1,250,000\\.00\\s*Ready$`),
    new RegExp(`^3\\s*${literal(keller).source}\\s*Dec 31, 2025\\s*=1\\+1\\s*nav: a formula is not a value\\. Export the values, not the formulas\\.$`),
  ]);
  await expect(preview).toContainText("Nothing was imported. Correct the rows with errors in the file and upload it again.");
  await expect(preview.getByRole("button", { name: /^Import/ })).toHaveCount(0);

  // The corrected file: every row ready, then imported all at once.
  await upload.getByLabel("CSV file").setInputFiles({ name: "nav-q4-fixed.csv", mimeType: "text/csv", buffer: csv("980400.50") });
  await upload.getByRole("button", { name: "Preview the import" }).click();
  const fixed = page.getByRole("region", { name: "Preview: nav-q4-fixed.csv" });
  await expect(fixed.getByRole("status")).toHaveText("2 rows ready, 0 with errors");
  await expect(fixed.getByTestId("preview-total")).toHaveText("$2,230,400.50");
  await fixed.getByRole("button", { name: "Import 2 valuations" }).click();

  await expect(page).toHaveURL(/\/admin\/funds\/fund-ii#valuations$/);
  await expectToast(page, "Valuations imported", "2 NAVs of Deeptech Fund II at Dec 31, 2025 saved.");
  const valuations = page.getByRole("region", { name: "Valuations" });
  await expect(valuations.getByRole("row").filter({ hasText: "Dec 31, 2025" })).toHaveText(/Dec 31, 2025\s*2\s*\$2,230,400\.50/);
});
