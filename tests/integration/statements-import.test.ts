import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/modules/db/connection.server";
import { fundBySlug } from "~/modules/funds/funds.server";
import { isAppError } from "~/modules/http/app-error";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { importPnlCsv, MAX_LISTED_ERRORS, previewPnlCsv, RefusedPnlImport } from "~/modules/statements/pnl-import.server";
import { MAX_PNL_ROWS } from "~/modules/statements/pnl-csv.server";
import { tieOutQuarter } from "~/modules/statements/tie-out.server";
import { action as importApi, loader as importApiLoader } from "~/routes/api/statements-import";
import { auditEvents, pnlRows, statementQuarters } from "../../db/schema";
import { bodyLimitFor, IMPORT_BODY_LIMIT } from "../../server/app";
import { Q1_PNL, Q2_PNL, writeStatementsFixture, type StatementsFixture } from "../helpers/statements-fixture";
import { callRouteWith, insertAdmin, insertUser, ORIGIN, sessionCookieFor } from "../helpers/users";

/**
 * The P&L import (issue 25 §1, §6) against a real SQLite file: the preview
 * reads each row and ties it out against the valuation at the quarter's end,
 * writes nothing; the import is all or nothing and refuses, row by row, a
 * quarter that does not tie to the cent; hostile files (formula cells, a BOM,
 * wrong columns, non-numeric and overlong cells, too many rows) are answered
 * with a message; and the JSON endpoint answers 200 / 201 / 422.
 */

let admin: LpUser;
let cookie = "";
let investorCookie = "";
let ids: StatementsFixture;
const fundII = () => fundBySlug("fund-ii");
const HEADER = "entity,fund,quarter,management_fees,partnership_expenses,other_income,realized_gain,unrealized_gain_change,carried_interest_change";

beforeAll(async () => {
  admin = await insertAdmin();
  cookie = await sessionCookieFor(admin);
  investorCookie = await sessionCookieFor(await insertUser({ status: "approved" }));
  ids = await writeStatementsFixture(admin);
});

const stored = (quarter: string) =>
  getDb()
    .select()
    .from(pnlRows)
    .where(and(eq(pnlRows.fundId, fundII().id), eq(pnlRows.quarter, quarter)))
    .all();

/** The preview of `text` for Fund II, with its rows by line and by entity name. */
function preview(text: string) {
  const result = previewPnlCsv(fundII(), text);
  return { ...result, byLine: new Map(result.rows.map((row) => [row.line, row])), byName: new Map(result.rows.map((row) => [row.entity?.name ?? row.entityText, row])) };
}

/** A file-level refusal (an AppError on `file`): its status and message. */
function refusal(run: () => unknown): { status: number; message: string } {
  try {
    run();
  } catch (error) {
    if (!isAppError(error)) throw error;
    expect(Object.keys(error.options.fields ?? {})).toEqual(["file"]);
    return { status: error.status, message: error.message };
  }
  throw new Error("expected a refusal");
}

describe("the preview", () => {
  it("reads a quarter that ties: each entity by id or name, its amounts and its tie-out; writes nothing", () => {
    const result = preview(Q2_PNL(ids));
    expect(result).toMatchObject({ quarter: "2025-Q2", ok: true, errorCount: 0, ready: 2 });
    expect(result.rows.map((row) => [row.line, row.entity?.name, row.errors, row.tieOut])).toEqual([
      [2, "Atlas Holdings AG", [], { endingNavExpected: "285000.00", endingNavActual: "285000.00", difference: "0.00", ok: true, problem: null }],
      [3, "Brunner Ventures GmbH", [], { endingNavExpected: "95000.00", endingNavActual: "95000.00", difference: "0.00", ok: true, problem: null }],
    ]);
    expect(result.byLine.get(2)!.amounts).toEqual({
      managementFees: "-7500.00",
      partnershipExpenses: "0.00",
      otherIncome: "0.00",
      realizedGain: "0.00",
      unrealizedGainChange: "42500.00",
      carriedInterestChange: "0.00",
    });
    // The id in the `entity` column, names in any case and spacing.
    const byId = preview(Q1_PNL(ids).replace("Brunner Ventures GmbH", "  brunner   VENTURES gmbh "));
    expect(byId).toMatchObject({ quarter: "2025-Q1", ok: true });
    expect(byId.rows.map((row) => row.entity?.id)).toEqual([ids.atlas, ids.brunner]);
    expect(stored("2025-Q1")).toEqual([]);
    expect(stored("2025-Q2")).toEqual([]);
  });

  it("refuses a quarter off by a cent, row by row, with the exact difference (actual − expected)", () => {
    const result = preview(Q2_PNL(ids, "42500.01"));
    expect(result).toMatchObject({ ok: false, errorCount: 1, ready: 1 });
    const atlas = result.byName.get("Atlas Holdings AG")!;
    expect(atlas.tieOut).toEqual({ endingNavExpected: "285000.01", endingNavActual: "285000.00", difference: "-0.01", ok: false, problem: "does_not_tie" });
    expect(atlas.errors).toEqual(["Does not tie out: the roll-forward gives $285,000.01, the valuation is $285,000.00 (difference -$0.01)"]);
    expect(result.byName.get("Brunner Ventures GmbH")!.tieOut).toMatchObject({ difference: "0.00", ok: true });

    const under = preview(Q2_PNL(ids, "42499.99"));
    expect(under.byName.get("Atlas Holdings AG")!.tieOut).toMatchObject({ endingNavExpected: "284999.99", difference: "0.01", ok: false });
  });

  it("accepts a BOM, CRLF, quoted cells, blank lines and headers in any order and case", () => {
    const text = `\uFEFFQuarter,Entity_ID,FUND,Management-Fees,partnership_expenses,other_income,realized_gain,unrealized_gain_change,carried_interest_change\r\n2025-q2,${ids.atlas},Deeptech Fund II,"-7500",0,0,0,"42500",0\r\n\r\n2025-Q2,${ids.brunner},fund-ii,-2500,0.00,0,0,14500.0,-0\r\n`;
    const result = preview(text);
    expect(result).toMatchObject({ quarter: "2025-Q2", ok: true, ready: 2 });
    expect(result.rows.map((row) => row.line)).toEqual([2, 4]);
  });

  it("refuses wrong columns, an empty file and a header alone as the file's one message", () => {
    expect(refusal(() => preview("entity,fund,quarter,fees\nAtlas,fund-ii,2025-Q2,1"))).toEqual({
      status: 400,
      message:
        "The header must name the columns entity (or entity_id), fund, quarter, management_fees, partnership_expenses, other_income, realized_gain, unrealized_gain_change and carried_interest_change, separated by commas. Missing: management_fees, partnership_expenses, other_income, realized_gain, unrealized_gain_change and carried_interest_change. Not known: \"fees\".",
    });
    expect(refusal(() => preview(`${HEADER},quarter\n`)).message).toContain("Named twice: quarter.");
    expect(refusal(() => preview(HEADER.replace("entity,", "entity_id,entity,"))).message).toContain("Named twice: entity and entity_id.");
    expect(refusal(() => preview(""))).toEqual({ status: 400, message: "The file is empty" });
    expect(refusal(() => preview(`${HEADER}\n`))).toEqual({ status: 400, message: "The file has a header row but no rows under it" });
  });

  it("refuses formula cells, non-numeric, overlong and too large amounts, each on its row and column", () => {
    const text = [
      HEADER,
      `Atlas Holdings AG,fund-ii,2025-Q2,=SUM(A1:A9),0,0,0,+42500,0`,
      `Brunner Ventures GmbH,fund-ii,2025-Q2,-2500.00,abc,0,0,14500.001,${"9".repeat(19)}`,
      `@Brunner,fund-ii,2025-Q2,0,0,0,0,0,${"1".repeat(100)}`,
    ].join("\n");
    const result = preview(text);
    expect(result.ok).toBe(false);
    expect(result.byLine.get(2)!.errors).toEqual([
      "management_fees: a formula is not a value. Export the values, not the formulas.",
      "unrealized_gain_change: a formula is not a value. Export the values, not the formulas.",
    ]);
    expect(result.byLine.get(3)!.errors).toEqual([
      "partnership_expenses: Enter an amount like 250000.00",
      "unrealized_gain_change: Use at most 2 decimal places",
      "carried_interest_change: The amount is too large",
    ]);
    const line4 = result.byLine.get(4)!;
    expect(line4.errors).toEqual(["entity: a formula is not a value. Export the values, not the formulas.", "carried_interest_change: The amount is too large"]);
    // What the preview shows back of a long cell is cut.
    expect(line4.cells.carriedInterestChange).toHaveLength(80);
    // A negative number is not a formula; 16 digits stored as an integer column is the limit.
    expect(preview(Q2_PNL(ids).replace("-7500.00", "-90071992547409.92")).byLine.get(2)!.errors).toEqual([expect.stringContaining("amount is too large")]);
    // A row longer than the limit refuses the file.
    expect(refusal(() => preview(`${HEADER}\nAtlas Holdings AG,fund-ii,2025-Q2,${"1".repeat(3000)},0,0,0,0,0`)).message).toBe("A row is too long (line 2)");
  });

  it("names a row of another quarter or fund, a missing entity, an entity twice and entities without a commitment at the quarter's end", () => {
    const text = [
      HEADER,
      `Atlas Holdings AG,fund-ii,2025-Q2,-7500,0,0,0,42500,0`,
      `Atlas Holdings AG,fund-ii,2025-Q2,-7500,0,0,0,42500,0`,
      `Brunner Ventures GmbH,fund-ii,2025-Q3,-2500,0,0,0,14500,0`,
      `Keller Pension Fund,fund-ii,2025-Q2,0,0,0,0,0,0`,
      `Fund One Only Ltd,fund-ii,2025-Q2,0,0,0,0,0,0`,
      `Nobody Ltd,fund-i,2025-Q2,0,0,0,0,0,0`,
      `Atlas Holdings AG,fund-ii,Q2 2025,0,0,0,0,0,0`,
    ].join("\n");
    const result = preview(text);
    expect(result.quarter).toBe("2025-Q2");
    expect(Object.fromEntries(result.rows.map((row) => [row.line ?? row.entityText, row.errors]))).toEqual({
      2: ["Listed more than once for this quarter (lines 2 and 3)"],
      3: ["Listed more than once for this quarter (lines 2 and 3)"],
      4: ["Another quarter: this file's rows are for 2025-Q2. Import each quarter as a file of its own."],
      5: ["This entity's commitment starts after the quarter's end (2025-06-30): it has no P&L for this quarter"],
      6: ["This entity has no commitment in the fund"],
      7: ["No entity has this name", "Another fund: this page imports Deeptech Fund II only"],
      8: ["Enter the quarter as YYYY-Q1 to YYYY-Q4, like 2025-Q3".replace("2025", "2026")],
      // Brunner's only row is of another quarter: for 2025-Q2 it is missing.
      "Brunner Ventures GmbH": ["No row for this entity: every entity with a commitment in the fund at the quarter's end needs one"],
    });
    expect(result.rows.at(-1)).toMatchObject({ line: null, entity: { id: ids.brunner }, tieOut: null });
  });

  it("says which quarter has no valuation at its end", () => {
    const text = [HEADER, `Atlas Holdings AG,fund-ii,2025-Q3,0,0,0,0,0,0`, `Brunner Ventures GmbH,fund-ii,2025-Q3,0,0,0,0,0,0`, `Keller Pension Fund,fund-ii,2025-Q3,0,0,0,0,0,0`].join("\n");
    const result = preview(text);
    expect(result.rows.map((row) => [row.tieOut?.problem, row.tieOut?.endingNavActual, row.errors])).toEqual([
      ["no_valuation", null, ["No valuation at the quarter's end (2025-09-30): import the NAVs first"]],
      ["no_valuation", null, ["No valuation at the quarter's end (2025-09-30): import the NAVs first"]],
      ["no_valuation", null, ["No valuation at the quarter's end (2025-09-30): import the NAVs first"]],
    ]);
    // Contributions count by due date: Call 2 (due 2025-07-15) is in Q3's expected NAV.
    expect(result.rows[0]!.tieOut!.endingNavExpected).toBe("435000.00");
  });

  it("refuses a file of more rows than the limit at once", () => {
    const rows = Array.from({ length: MAX_PNL_ROWS + 1 }, (_, i) => `Entity ${i},fund-ii,2025-Q2,0,0,0,0,0,0`);
    const started = performance.now();
    expect(refusal(() => preview([HEADER, ...rows].join("\n")))).toEqual({ status: 400, message: "The file has more than 10,000 rows: split it into smaller files" });
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe("the import", () => {
  it("writes the quarter all at once with its audit row, and replaces it when imported again", () => {
    const done = importPnlCsv(admin, fundII(), Q1_PNL(ids), 2);
    expect(done).toMatchObject({ fund: "fund-ii", quarter: "2025-Q1", count: 2 });
    expect(stored("2025-Q1").map((row) => [row.entityId, row.managementFeesMinor, row.unrealizedGainChangeMinor])).toEqual(
      expect.arrayContaining([
        [ids.atlas, -500_000, 0],
        [ids.brunner, -200_000, 0],
      ]),
    );
    const audit = getDb().select().from(auditEvents).where(eq(auditEvents.event, "statements.pnl_imported")).all();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.details ?? "{}")).toMatchObject({ fund: "fund-ii", quarter: "2025-Q1", count: 2 });

    // The stored rows tie the quarter out.
    expect(tieOutQuarter(fundII(), "2025-Q1", null).map((row) => [row.entity.name, row.ok, row.difference])).toEqual([
      ["Atlas Holdings AG", true, 0n],
      ["Brunner Ventures GmbH", true, 0n],
    ]);
    // Keller's commitment starts in Q3: not a row of Q2's tie-out; without Q2's P&L, every row says so.
    expect(tieOutQuarter(fundII(), "2025-Q2", null).map((row) => [row.entity.name, row.problem])).toEqual([
      ["Atlas Holdings AG", "no_pnl"],
      ["Brunner Ventures GmbH", "no_pnl"],
    ]);

    importPnlCsv(admin, fundII(), Q1_PNL(ids).replace("-5000.00,0,0,0,0,0", "-6000.00,0,0,0,1000.00,0"), null);
    expect(stored("2025-Q1")).toHaveLength(2);
    expect(stored("2025-Q1").find((row) => row.entityId === ids.atlas)).toMatchObject({ managementFeesMinor: -600_000, unrealizedGainChangeMinor: 100_000 });
  });

  it("refuses, 422 with the preview, a quarter that does not tie, or whose rows changed since the preview; nothing is written", () => {
    const attempt = (text: string, expected: number | null) => {
      try {
        importPnlCsv(admin, fundII(), text, expected);
      } catch (error) {
        if (error instanceof RefusedPnlImport) return error;
        throw error;
      }
      throw new Error("expected a refusal");
    };
    const offByACent = attempt(Q2_PNL(ids, "42500.01"), 2);
    expect(offByACent.status).toBe(422);
    expect(offByACent.message).toBe("Nothing was imported: 1 row has an error. Correct the file and preview it again.");
    expect(offByACent.preview.rows[0]!.tieOut).toMatchObject({ difference: "-0.01" });
    expect(stored("2025-Q2")).toEqual([]);

    const changed = attempt(Q2_PNL(ids), 3);
    expect(changed).toMatchObject({ status: 422, message: "The file changed since its preview. Check the preview again before importing." });
    expect(stored("2025-Q2")).toEqual([]);
  });

  it("refuses a published quarter (409), and takes it again once reopened", () => {
    const version = getDb()
      .insert(statementQuarters)
      .values({ fundId: fundII().id, quarter: "2025-Q1", version: 1, status: "published", publishedAt: new Date() })
      .returning()
      .get();
    try {
      importPnlCsv(admin, fundII(), Q1_PNL(ids), null);
      throw new Error("expected a conflict");
    } catch (error) {
      expect(isAppError(error) && error.status).toBe(409);
      expect((error as Error).message).toContain("2025-Q1 is published and closed");
    }
    getDb().update(statementQuarters).set({ status: "reopened" }).where(eq(statementQuarters.id, version.id)).run();
    expect(importPnlCsv(admin, fundII(), Q1_PNL(ids), null)).toMatchObject({ quarter: "2025-Q1", count: 2 });
    getDb().delete(statementQuarters).where(eq(statementQuarters.id, version.id)).run();
  });
});

describe("POST /api/statements/import", () => {
  const post = (query: string, body: BodyInit, contentType: string | null, who = cookie) => {
    const headers = new Headers({ Cookie: who });
    if (contentType) headers.set("Content-Type", contentType);
    return callRouteWith(importApi as never, new Request(`${ORIGIN}/api/statements/import${query}`, { method: "POST", headers, body }));
  };
  type Answer = {
    error?: string;
    quarter: string | null;
    fund: string;
    ok: boolean;
    rows: { entity: { id: string; name: string }; endingNavExpected: string; endingNavActual: string | null; difference: string | null; ok: boolean }[];
    errors: { line: number | null; entity: { id: string; name: string } | null; entityText: string; message: string }[];
    moreErrors: number;
    fields?: Record<string, string[]>;
  };
  const json = async (response: Response) => (await response.json()) as Answer;

  it("answers the preview (200) and writes it with ?commit=1 (201), the same body", async () => {
    const previewed = await post("?fund=fund-ii", Q2_PNL(ids), "text/csv");
    expect(previewed.status).toBe(200);
    const body = await json(previewed);
    expect(body).toEqual({
      quarter: "2025-Q2",
      fund: "fund-ii",
      ok: true,
      rows: [
        { entity: { id: ids.atlas, name: "Atlas Holdings AG" }, endingNavExpected: "285000.00", endingNavActual: "285000.00", difference: "0.00", ok: true },
        { entity: { id: ids.brunner, name: "Brunner Ventures GmbH" }, endingNavExpected: "95000.00", endingNavActual: "95000.00", difference: "0.00", ok: true },
      ],
      errors: [],
      moreErrors: 0,
    });
    expect(stored("2025-Q2")).toEqual([]);

    // Multipart, with the file in a `file` field.
    const form = new FormData();
    form.set("file", new File([Q2_PNL(ids)], "q2.csv", { type: "text/csv" }));
    const committed = await callRouteWith(
      importApi as never,
      new Request(`${ORIGIN}/api/statements/import?fund=fund-ii&commit=1`, { method: "POST", headers: { Cookie: cookie }, body: form }),
    );
    expect(committed.status).toBe(201);
    expect(await json(committed)).toEqual(body);
    expect(stored("2025-Q2")).toHaveLength(2);
  });

  it("answers 422 with the preview when a row does not tie, the difference per row, and writes nothing", async () => {
    const before = stored("2025-Q2");
    const response = await post("?fund=fund-ii&commit=1", Q2_PNL(ids, "42500.01"), "text/csv; charset=utf-8");
    expect(response.status).toBe(422);
    const body = await json(response);
    expect(body).toMatchObject({
      error: "Nothing was imported: 1 row has an error. Correct the file and preview it again.",
      quarter: "2025-Q2",
      ok: false,
      rows: [
        { entity: { id: ids.atlas, name: "Atlas Holdings AG" }, endingNavExpected: "285000.01", endingNavActual: "285000.00", difference: "-0.01", ok: false },
        { entity: { id: ids.brunner }, difference: "0.00", ok: true },
      ],
      errors: [{ line: 2, entity: { id: ids.atlas, name: "Atlas Holdings AG" }, entityText: "Atlas Holdings AG", message: expect.stringContaining("difference -$0.01") }],
      moreErrors: 0,
    });
    expect(stored("2025-Q2")).toEqual(before);
  });

  it(`lists the first ${MAX_LISTED_ERRORS} row errors and counts the rest`, async () => {
    const rows = Array.from({ length: 60 }, (_, i) => `Nobody ${i},fund-ii,2025-Q2,0,0,0,0,0,0`);
    const body = await json(await post("?fund=fund-ii", [HEADER, ...rows].join("\n"), "text/csv"));
    // 60 unknown entities, and the two committed entities the file leaves out.
    expect(body.errors).toHaveLength(MAX_LISTED_ERRORS);
    expect(body.moreErrors).toBe(62 - MAX_LISTED_ERRORS);
    expect(body.errors[0]).toEqual({ line: 2, entity: null, entityText: "Nobody 0", message: "No entity has this name" });
    expect(body.rows).toEqual([]);
  });

  it("refuses a missing or unknown fund (400 on fund), a file it cannot read (400 on file), another content type (415), GET (405)", async () => {
    for (const query of ["", "?fund=", "?fund=fund-x", "?fund=%3Cscript%3E"]) {
      const response = await post(query, Q2_PNL(ids), "text/csv");
      expect(response.status, query).toBe(400);
      expect(Object.keys((await json(response)).fields ?? {})).toEqual(["fund"]);
    }
    const wrong = await post("?fund=fund-ii", "a,b\n1,2", "text/csv");
    expect(wrong.status).toBe(400);
    expect((await json(wrong)).fields?.file?.[0]).toContain("The header must name the columns");
    expect((await post("?fund=fund-ii", new Uint8Array([0xff, 0xfe, 0x00, 0x41]), "text/csv")).status).toBe(400);
    expect((await post("?fund=fund-ii", JSON.stringify({ csv: "x" }), "application/json")).status).toBe(415);
    expect((await post("?fund=fund-ii", new FormData(), null)).status).toBe(400);
    const get = await callRouteWith(importApiLoader as never, new Request(`${ORIGIN}/api/statements/import?fund=fund-ii`, { headers: { Cookie: cookie } }));
    expect(get.status).toBe(405);
  });

  it("is for admins only (401 signed out, 403 an investor), and its body may be 8 MB", async () => {
    expect((await post("?fund=fund-ii", Q2_PNL(ids), "text/csv", "")).status).toBe(401);
    expect((await post("?fund=fund-ii", Q2_PNL(ids), "text/csv", investorCookie)).status).toBe(403);
    expect(bodyLimitFor("/api/statements/import", "text/csv")).toBe(IMPORT_BODY_LIMIT);
    expect(IMPORT_BODY_LIMIT).toBe(8 * 1024 * 1024);
    const tooLarge = await post("?fund=fund-ii", new Uint8Array(8 * 1024 * 1024 + 1).fill(0x30), "text/csv");
    expect(tooLarge.status).toBe(413);
  });
});
