import { beforeAll, describe, expect, it } from "vitest";
import { funds as fundContent, FUND_KEYS } from "~/content/funds";
import { getDb } from "~/modules/db/connection.server";
import { findFundBySlug, listFunds } from "~/modules/funds/funds.server";
import { loader as fundsLoader } from "~/routes/api/funds";
import { funds } from "../../db/schema";
import { apiRequest, callRouteWith, clearAccountTables, insertAdmin, insertUser, sessionCookieFor } from "../helpers/users";

/**
 * Funds as data (issue 24, decision 038): migration 0017 seeds the two funds of
 * app/content/funds.ts, and GET /api/funds answers them to approved investors
 * and admins, with the same 401/403 as the other protected JSON routes.
 */

const cookies = { admin: "", approved: "", pending: "" };

beforeAll(async () => {
  clearAccountTables();
  cookies.admin = await sessionCookieFor(await insertAdmin());
  cookies.approved = await sessionCookieFor(await insertUser({ status: "approved" }));
  cookies.pending = await sessionCookieFor(await insertUser({ status: "pending" }));
});

const getFunds = (cookie?: string) => callRouteWith(fundsLoader, apiRequest("GET", "/api/funds", { cookie }));

/** The ids migration 0017 writes (UUIDs, as the other tables' ids: decision 007). */
const SEEDED_IDS = { "fund-i": "800929af-f242-4051-b32a-a45744254c2b", "fund-ii": "0715de9f-9032-4644-87aa-33dd4450aea5" } as const;

/** Content's words for the status, as the table stores it. */
const STATUS = { Closed: "closed", Active: "open" } as const;

describe("the funds table (migration 0017)", () => {
  it("holds exactly the two funds of the content, with their names, currency, vintage years and status", () => {
    const rows = getDb().select().from(funds).all();
    expect(rows.map((f) => f.slug).sort()).toEqual([...FUND_KEYS].sort());
    for (const row of rows) {
      const content = fundContent[row.slug];
      expect(row, row.slug).toMatchObject({
        name: content.name,
        currency: content.currency,
        vintageYear: content.vintageYear,
        status: STATUS[content.status],
        paymentInstructions: null,
      });
      // Fixed in the migration, so every database names a fund by the same id.
      expect(row.id).toBe(SEEDED_IDS[row.slug]);
      expect(row.createdAt).toBeInstanceOf(Date);
    }
  });

  it("gives Fund I open access (a sign-up lets in) and Fund II access by request (a mailed link)", () => {
    expect(findFundBySlug("fund-i")).toMatchObject({ name: "Deeptech Fund I", currency: "USD", vintageYear: 2019, status: "closed", access: "open" });
    expect(findFundBySlug("fund-ii")).toMatchObject({
      name: "Deeptech Fund II",
      currency: "USD",
      vintageYear: 2024,
      status: "open",
      access: "by_request",
    });
    expect(findFundBySlug("fund-iii")).toBeUndefined();
    expect(listFunds().map((f) => f.slug)).toEqual(["fund-i", "fund-ii"]);
  });
});

describe("GET /api/funds", () => {
  const expected = () =>
    listFunds().map((f) => ({ id: f.id, slug: f.slug, name: f.name, currency: f.currency, vintageYear: f.vintageYear, status: f.status }));

  it("answers an admin both funds, oldest vintage first, with exactly their public fields", async () => {
    const response = await getFunds(cookies.admin);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    const body = (await response.json()) as Record<string, unknown>[];
    expect(body).toEqual([
      { id: expect.any(String), slug: "fund-i", name: "Deeptech Fund I", currency: "USD", vintageYear: 2019, status: "closed" },
      { id: expect.any(String), slug: "fund-ii", name: "Deeptech Fund II", currency: "USD", vintageYear: 2024, status: "open" },
    ]);
    expect(body).toEqual(expected());
    for (const fund of body) expect(Object.keys(fund).sort()).toEqual(["currency", "id", "name", "slug", "status", "vintageYear"]);
  });

  it("answers an approved investor the same list", async () => {
    const response = await getFunds(cookies.approved);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(expected());
  });

  it("refuses a pending investor (403) and a visitor (401) as the other protected JSON routes do", async () => {
    const pending = await getFunds(cookies.pending);
    expect(pending.status).toBe(403);
    expect(await pending.json()).toEqual({ error: "Your account is not approved" });
    const visitor = await getFunds();
    expect(visitor.status).toBe(401);
    expect(await visitor.json()).toEqual({ error: "Authentication required" });
  });
});
