import { randomBytes } from "node:crypto";
import fs from "node:fs";
import type { APIRequestContext, APIResponse } from "@playwright/test";
import { registerViaApi, setStatusViaApi, userIdByEmail } from "./helpers/accounts";
import { startIsolatedServer } from "./helpers/document-ui";
import { randomClientIp } from "./helpers/documents";
import { expect, test } from "./helpers/fixtures";
import { newBrowserContext, waitHydrated } from "./helpers/portal";
import { mintSessionCookie, useSessionCookie } from "./helpers/sessions";

/**
 * The investor's capital account beyond its figures (issue 24 §8): the chart
 * is SVG in the server's HTML (no script draws it), its data is a table under
 * "Show the chart's data", the full ledger lists every transaction and
 * filters with a plain GET form, and its CSV downloads with its header row.
 * One flow, with JavaScript and without.
 *
 * A server of its own (as capital-accounts.spec.ts): a call is split over
 * every commitment in force in the fund, so the run's server, where other
 * specs record commitments, would change the shares. The history is seeded
 * through the JSON API: a Fund II commitment, two calls paid in full, a
 * distribution and three valuations, from 2023-Q1 to 2024-Q2 (six quarters).
 *
 * The texts are written out here, not imported from app/content.
 */

test.describe.configure({ timeout: 90_000 });

async function json<T>(response: Promise<APIResponse>, status: number): Promise<T> {
  const answer = await response;
  expect(answer.status(), `${answer.url()}: ${await answer.text()}`).toBe(status);
  return (await answer.json()) as T;
}

test("the chart is SVG in the server's HTML with its data as a table; the ledger lists and filters the transactions and downloads them as CSV", { tag: "@no-js" }, async ({
  browser,
  playwright,
  jsEnabled,
  clientIp,
}) => {
  const server = await startIsolatedServer();
  const contexts: APIRequestContext[] = [];
  const request = async (headers: Record<string, string>) => {
    const context = await playwright.request.newContext({ baseURL: server.baseURL, extraHTTPHeaders: { "X-Forwarded-For": randomClientIp(), ...headers }, maxRedirects: 0 });
    contexts.push(context);
    return context;
  };
  try {
    const tag = randomBytes(4).toString("hex");
    const admin = { email: `ledger-admin-${tag}@example.com`, name: "Ledger Admin", password: `pw-${tag}-${tag}` };
    await server.createAdmin(admin);
    const api = await request({ Cookie: await mintSessionCookie(admin.email) });
    const investor = { email: `nora-${tag}@example.com`, password: `pw-${tag}-${tag}`, name: `Nora Lindqvist ${tag}` };
    await registerViaApi(await request({}), investor);
    const investorId = await userIdByEmail(api, "", investor.email);
    await setStatusViaApi(api, "", investorId, "approved");

    // The history: Nora's entity alone in Fund II, so each call is hers in full.
    const entityName = `Lindqvist Family Office ${tag}`;
    const entity = await json<{ id: string }>(api.post("/api/entities", { data: { name: entityName, kind: "company", members: [{ userId: investorId, role: "owner" }] } }), 201);
    await json(api.post("/api/commitments", { data: { entityId: entity.id, fund: "fund-ii", amount: "400000.00", acceptedOn: "2023-01-10" } }), 201);
    for (const [noticeDate, dueDate, paidOn] of [
      ["2023-02-01", "2023-02-28", "2023-02-20"],
      ["2023-08-01", "2023-08-31", "2023-08-25"],
    ] as const) {
      const call = await json<{ id: string }>(
        api.post("/api/capital-calls", {
          data: { fund: "fund-ii", noticeDate, dueDate, lines: [{ type: "investment", amount: "90000.00" }, { type: "management_fee", amount: "10000.00" }] },
        }),
        201,
      );
      await json(api.post(`/api/capital-calls/${call.id}/publish`), 200);
      await json(api.post(`/api/capital-calls/${call.id}/payments`, { data: { entityId: entity.id, amount: "100000.00", receivedOn: paidOn } }), 201);
    }
    const distribution = await json<{ id: string }>(api.post("/api/distributions", { data: { fund: "fund-ii", paymentDate: "2024-03-29", lines: [{ type: "realized_gain", amount: "30000.00" }] } }), 201);
    await json(api.post(`/api/distributions/${distribution.id}/publish`), 200);
    for (const [date, nav] of [
      ["2023-06-30", "98000.00"],
      ["2023-12-31", "205000.00"],
      ["2024-06-30", "190000.00"],
    ] as const) {
      await json(api.post("/api/valuations", { data: { fund: "fund-ii", date, values: [{ entityId: entity.id, nav }] } }), 201);
    }
    const cookie = await mintSessionCookie(investor.email);

    // The server's HTML, no script run: the chart is an <svg> image with its summary.
    const html = await (await (await request({ Cookie: cookie })).get("/lp/capital-account")).text();
    expect(html).toMatch(
      /<svg viewBox="0 0 100 100" preserveAspectRatio="none" role="img" aria-label="Deeptech Fund II, Lindqvist Family Office \w+, from Q1 2023 to Q2 2024: paid in \$200,000\.00 and distributions \$30,000\.00 by the end of Q2 2024; NAV \$190,000\.00 at the end of Q2 2024\."/,
    );
    expect(html).toMatch(/<path d="M0,100H[\d.]+V[\d.]+H[\d.]+V[\d.]+H100"/);

    // In the browser: the chart, its legend, and its data as a table of six quarters.
    const context = await newBrowserContext(browser, { baseURL: server.baseURL, jsEnabled, clientIp });
    await useSessionCookie(context, server.baseURL, cookie);
    const page = await context.newPage();
    expect((await page.goto("/lp/capital-account"))?.status()).toBe(200);
    await waitHydrated(page, jsEnabled);
    const fund = page.getByTestId("capital-fund");
    const chart = fund.getByRole("img", { name: /^Deeptech Fund II, Lindqvist Family Office/ });
    await expect(chart).toBeVisible();
    expect(await chart.evaluate((svg) => svg.tagName.toLowerCase())).toBe("svg");
    await expect(fund.getByRole("listitem")).toHaveText(["Paid in (cumulative)", "Distributions (cumulative)", "NAV"]);
    await fund.getByText("Show the chart's data").click();
    const table = fund.getByRole("table", { name: /: paid in, distributions and NAV at the end of each period$/ });
    await expect(table.getByRole("row")).toHaveText([
      /^Period\s*Paid in \(cumulative\)\s*Distributions \(cumulative\)\s*NAV$/,
      /^Q1 2023\s*\$100,000\.00\s*\$0\.00\s*—$/,
      /^Q2 2023\s*\$100,000\.00\s*\$0\.00\s*\$98,000\.00$/,
      /^Q3 2023\s*\$200,000\.00\s*\$0\.00\s*—$/,
      /^Q4 2023\s*\$200,000\.00\s*\$0\.00\s*\$205,000\.00$/,
      /^Q1 2024\s*\$200,000\.00\s*\$30,000\.00\s*—$/,
      /^Q2 2024\s*\$200,000\.00\s*\$30,000\.00\s*\$190,000\.00$/,
    ]);

    // The full ledger, one link away: every transaction, newest first, each call's reference linked to its notice.
    await page.getByRole("link", { name: "Full ledger" }).click();
    await expect(page).toHaveURL(/\/lp\/capital-account\/ledger$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Ledger");
    await waitHydrated(page, jsEnabled);
    const rows = page.getByTestId("ledger-transaction");
    // Two calls of two lines, two payments, a distribution, three valuations.
    await expect(rows).toHaveCount(10);
    await expect(rows.first()).toContainText("Valuation");
    await expect(rows.first()).toContainText("$190,000.00");
    // The oldest last: Call 1's lines in their order (each with its notice PDF's link once the background job has made it).
    await expect(rows.nth(8)).toContainText(/^Feb 01, 2023Capital call: Investment.*Call 1(PDF)?\$90,000\.00$/);
    await expect(rows.nth(9)).toContainText(/^Feb 01, 2023Capital call: Management fee.*Call 1(PDF)?\$10,000\.00$/);
    await expect(rows.filter({ hasText: "Payment received" })).toHaveCount(2);
    await expect(rows.filter({ hasText: "Distribution: Realized gain" }).getByRole("link", { name: "Distribution 1", exact: true })).toHaveAttribute("href", `/lp/notices/${distribution.id}`);
    await expect(page.getByText("Showing 1–10 of 10")).toBeVisible();

    // Filtered by a plain GET form: one entity, one fund.
    const filters = page.getByRole("search", { name: "Filter the ledger" });
    await filters.getByLabel("Entity").selectOption({ label: entityName });
    await filters.getByLabel("Fund").selectOption({ label: "Deeptech Fund II" });
    await filters.getByRole("button", { name: "Show" }).click();
    await expect(page).toHaveURL(new RegExp(`\\?entity=${entity.id}&fund=fund-ii$`));
    await expect(rows).toHaveCount(10);

    // The CSV of the same filters: a download whose first line is the header row.
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download CSV" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^lumen-ridge-capital-ledger-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = fs.readFileSync((await download.path())!, "utf8").replace(/^\uFEFF/, "").split("\r\n");
    expect(lines[0]).toBe("Date,Entity,Fund,Transaction,Type,Reference,Amount,Currency");
    expect(lines[1]).toBe(`2024-06-30,${entityName},Deeptech Fund II,Valuation,,,190000.00,USD`);
    expect(lines.filter(Boolean)).toHaveLength(11);
    await context.close();
  } finally {
    for (const context of contexts) await context.dispose();
    await server.stop();
  }
});
