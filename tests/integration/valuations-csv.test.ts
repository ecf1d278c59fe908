import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createCommitment } from "~/modules/commitments/commitments.server";
import { getDb } from "~/modules/db/connection.server";
import { createEntity } from "~/modules/entities/entities.server";
import { fundBySlug } from "~/modules/funds/funds.server";
import { isAppError } from "~/modules/http/app-error";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { VALUATIONS_BODY_BYTES, VALUATIONS_FORM_BYTES } from "~/modules/valuations/constants";
import { decodeValuationsFile, previewValuationsCsv, readValuationsCsv } from "~/modules/valuations/valuations-csv.server";
import { action as valuationsPage, loader as valuationsPageLoader } from "~/routes/admin/fund-valuations";
import { bodyLimitFor, DEFAULT_BODY_LIMIT } from "../../server/app";
import { auditEvents, valuations } from "../../db/schema";
import { expectData, expectRedirect } from "../helpers/http";
import { callRouteWith, insertAdmin, insertUser, ORIGIN, sessionCookieFor } from "../helpers/users";

/**
 * The valuations import from a CSV file (issue 24 §7) on
 * /admin/funds/{slug}/valuations, against a real SQLite file: the preview
 * names every row's entity, date and NAV, or each of its errors, and writes
 * nothing; the confirm reads the text again and imports it all or nothing;
 * hostile files (formula cells, a BOM, wrong columns, a 100,000-row file,
 * quoted commas, CRLF, other encodings) are answered with a message, never a 500.
 */

let admin: LpUser;
let cookie = "";
const ids = { atlas: "", keller: "", twinA: "", twinB: "", fundIOnly: "" };
const fundII = () => fundBySlug("fund-ii");

beforeAll(async () => {
  admin = await insertAdmin();
  cookie = await sessionCookieFor(admin);
  const owner = await insertUser({ status: "approved", name: "Olga Owner" });
  const entity = (name: string) => createEntity(admin, { name, kind: "company", members: [{ userId: owner.id, role: "owner" }] }).id;
  const commit = (entityId: string, fund: string) => createCommitment(admin, { entityId, fund, amount: "1000000.00", acceptedOn: "2024-01-15" });
  ids.atlas = entity("Atlas Holdings AG");
  ids.keller = entity("Keller, Brunner & Co");
  ids.twinA = entity("Twin Capital");
  ids.twinB = entity("twin  capital");
  ids.fundIOnly = entity("Fund One Only Ltd");
  for (const id of [ids.atlas, ids.keller, ids.twinA, ids.twinB]) commit(id, "fund-ii");
  commit(ids.fundIOnly, "fund-i");
});

const storedValuations = () => getDb().select().from(valuations).where(eq(valuations.fundId, fundII().id)).all();

/** The preview of `text` for Fund II: each row's line, entity name (or what the file says), NAV and errors. */
function preview(text: string) {
  const result = previewValuationsCsv(fundII(), text);
  return { ...result, byLine: new Map(result.rows.map((row) => [row.line, row])) };
}

/** The message of a file-level refusal (an AppError on `file`), with its status. */
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
  it("reads a clean file with a BOM, CRLF, quoted commas, names in any case and an id column, and writes nothing", () => {
    const text = `\uFEFFEntity_Name,FUND,Date,NAV\r\nAtlas Holdings AG,fund-ii,2025-12-31,1250000.00\r\n"Keller, Brunner & Co",Deeptech Fund II,2025-12-31,980400.5\r\n\r\n`;
    const result = preview(text);
    expect(result.rows.map((row) => [row.line, row.entity?.id, row.nav, row.errors])).toEqual([
      [2, ids.atlas, "1250000.00", []],
      [3, ids.keller, "980400.50", []],
    ]);
    expect(result).toMatchObject({ ready: 2, withErrors: 0, date: "2025-12-31", total: "2230400.50" });

    const byId = preview(`entity_id,entity_name,fund,date,nav\n${ids.atlas},ATLAS holdings ag,fund-ii,2025-12-31,0\n`);
    expect(byId.rows[0]).toMatchObject({ entity: { id: ids.atlas, name: "Atlas Holdings AG" }, nav: "0.00", errors: [] });
    expect(storedValuations()).toEqual([]);
  });

  it("names every error of every row: entity, fund, date, amount, formulas, duplicates, cells and the file's one date", () => {
    const text = [
      "entity,fund,date,nav",
      "Atlas Holdings AG,fund-ii,2025-12-31,100.00", // 2: a duplicate of line 9
      "Nobody Ltd,fund-ii,2025-12-31,1.00", // 3
      "Twin Capital,fund-ii,2025-12-31,1.00", // 4: two entities of the fund have this name (case and spacing aside)
      "Fund One Only Ltd,fund-ii,2025-12-31,1.00", // 5: committed to Fund I only
      "Keller,fund-i,2025-02-30,12,50", // 6: an unquoted comma: five cells
      `"Keller, Brunner & Co",fund-i,2025-02-30,"12,50"`, // 7: another fund, no such day, a comma for a point
      "=HYPERLINK(\"http://x\"),fund-ii,2025-12-31,=1+1", // 8: formulas
      "atlas holdings ag,fund-ii,2025-12-31,-5.00", // 9: negative, and the duplicate
      "Atlas Holdings AG,fund-ii,2025-09-30,5.00", // 10: another date
      ",fund-ii,2025-12-31,", // 11: no entity, no NAV
    ].join("\n");
    const result = preview(text);
    const errors = (line: number) => result.byLine.get(line)?.errors;
    expect(errors(2)).toEqual(["Listed more than once for this date (lines 2 and 9)"]);
    expect(errors(3)).toEqual(["No entity has this name"]);
    expect(errors(4)).toEqual(["2 entities in this fund have this name: use entity_id"]);
    expect(errors(5)).toEqual(["This entity has no commitment in the fund"]);
    expect(errors(6)).toEqual(["This row has 5 cells; the header has 4"]);
    expect(errors(7)).toEqual(["Another fund: this page imports Deeptech Fund II only", "Enter the date as YYYY-MM-DD", "Enter an amount like 250000.00"]);
    expect(errors(8)).toEqual(["entity: a formula is not a value. Export the values, not the formulas.", "nav: a formula is not a value. Export the values, not the formulas."]);
    expect(errors(9)).toEqual(["A NAV cannot be negative", "Listed more than once for this date (lines 2 and 9)"]);
    expect(errors(10)).toEqual(["Another date: this file's valuations are at 2025-12-31. Import each date as a file of its own."]);
    expect(errors(11)).toEqual(["Name an entity (entity_id or its name)", "Enter an amount"]);
    expect(result).toMatchObject({ ready: 0, withErrors: 10, date: "2025-12-31" });
    // What a row says is shown back as typed (cut), never resolved where it failed.
    expect(result.byLine.get(8)).toMatchObject({ entity: null, entityText: '=HYPERLINK("http://x")', navText: "=1+1", nav: null });
  });

  it("refuses a file whose header names the wrong columns, in one message that names them", () => {
    expect(refusal(() => readValuationsCsv("entity_id,fund,amount,amount\nx,fund-ii,1\n"))).toEqual({
      status: 400,
      message:
        'The header must name the columns entity_id (or entity / entity_name), fund, date and nav, separated by commas. Missing: date and nav. Not known: "amount" and "amount".',
    });
    expect(refusal(() => readValuationsCsv("entity;fund;date;nav\nAtlas;fund-ii;2025-12-31;1\n")).message).toMatch(/Missing: entity_id \(or entity\), fund, date and nav\. Not known: "entity;fund;date;nav"\./);
    expect(refusal(() => readValuationsCsv("entity,entity_name,fund,date,nav\n")).message).toMatch(/Named twice: entity\./);
    expect(refusal(() => readValuationsCsv("entity,fund,date,nav\n\n,,,\n")).message).toBe("The file has a header row but no rows under it");
    expect(refusal(() => readValuationsCsv('entity,fund,date,nav\n"Atlas,fund-ii,2025-12-31,1\n')).message).toBe("The file is not valid CSV (line 2): check its quotes");
  });

  it("refuses a 100,000-row file at once, checks 10,000 rows of one entity fast, and refuses files over 8 MB, not UTF-8, empty or binary", () => {
    const rows = Array.from({ length: 100_000 }, (_, i) => `Entity ${i},fund-ii,2025-12-31,${i}.00`);
    const started = performance.now();
    expect(refusal(() => preview(`entity,fund,date,nav\n${rows.join("\n")}\n`))).toEqual({
      status: 400,
      message: "The file has more than 10,000 rows: split it into smaller files",
    });
    expect(performance.now() - started).toBeLessThan(2_000);

    // 10,000 rows of one entity: each says so, in a message of its own size.
    const same = Array.from({ length: 10_000 }, () => "Atlas Holdings AG,fund-ii,2025-12-31,1.00");
    const sameStarted = performance.now();
    const twins = preview(`entity,fund,date,nav\n${same.join("\n")}\n`);
    expect(performance.now() - sameStarted).toBeLessThan(3_000);
    expect(twins).toMatchObject({ ready: 0, withErrors: 10_000 });
    expect(twins.rows[9_999]!.errors).toEqual(["Listed more than once for this date (lines 2, 3, 4, 5, 6 and 9,995 more)"]);

    expect(refusal(() => decodeValuationsFile(new Uint8Array(VALUATIONS_BODY_BYTES + 1)))).toEqual({ status: 413, message: "The file is larger than 8 MB" });
    expect(refusal(() => decodeValuationsFile(new Uint8Array([0x65, 0x6e, 0x74, 0xe9, 0x2c])))).toMatchObject({ status: 400, message: expect.stringMatching(/not UTF-8/) });
    expect(refusal(() => decodeValuationsFile(new Uint8Array(0))).message).toBe("The file is empty");
    expect(refusal(() => decodeValuationsFile(new TextEncoder().encode("entity\u0000,fund"))).message).toBe("The file is not a CSV text file.");
  });
});

describe("the import page", () => {
  const page = "/admin/funds/fund-ii/valuations";
  const multipart = (fields: Record<string, string | File>) => {
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    return new Request(ORIGIN + page, { method: "POST", headers: { Cookie: cookie }, body });
  };
  const post = (fields: Record<string, string | File>) => callRouteWith(valuationsPage as never, multipart(fields), { params: { slug: "fund-ii" } });
  const csvFile = (text: string, name = "nav-q4.csv") => new File([text], name, { type: "text/csv" });
  type Answer = {
    status: string;
    step: string;
    fields?: Record<string, string[]>;
    csv?: string;
    preview?: { ready: number; withErrors: number; figures: { label: string; value: string }[]; rows: { line: number; entity: string; nav: string; date: string; errors: string[] }[] };
  };

  const clean = "entity_name,fund,date,nav\nAtlas Holdings AG,fund-ii,2025-12-31,1250000.00\n\"Keller, Brunner & Co\",fund-ii,2025-12-31,980400.50\n";

  it("previews a file without JavaScript: rows formatted in the fund's currency, the text kept for the confirm; a file with errors is a 400 and cannot be confirmed", async () => {
    const ok = expectData<Answer>(await post({ intent: "valuations", step: "preview", file: csvFile(clean) }));
    expect(ok.status).toBe(200);
    expect(ok.data.preview).toMatchObject({ ready: 2, withErrors: 0 });
    expect(ok.data.preview!.figures.map((f) => [f.label, f.value])).toEqual([
      ["Valuation date", "Dec 31, 2025"],
      ["Entities ready", "2"],
      ["Total NAV ready", "$2,230,400.50"],
    ]);
    expect(ok.data.preview!.rows.map((row) => [row.line, row.entity, row.date, row.nav])).toEqual([
      [2, "Atlas Holdings AG", "Dec 31, 2025", "$1,250,000.00"],
      [3, "Keller, Brunner & Co", "Dec 31, 2025", "$980,400.50"],
    ]);
    expect(ok.data.csv).toBe(clean);

    const bad = expectData<Answer>(await post({ intent: "valuations", step: "preview", file: csvFile(`${clean}Nobody Ltd,fund-ii,2025-12-31,=1+1\n`) }));
    expect(bad.status).toBe(400);
    expect(bad.data.preview).toMatchObject({ ready: 2, withErrors: 1 });
    expect(bad.data.preview!.rows[2]).toMatchObject({ entity: "Nobody Ltd", nav: "=1+1", errors: ["nav: a formula is not a value. Export the values, not the formulas.", "No entity has this name"] });
    expect(bad.data.csv).toBeUndefined();
    expect(storedValuations()).toEqual([]);
  });

  it("answers a missing, empty, too large or wrongly shaped file at the file field (400 / 413)", async () => {
    const missing = expectData<Answer>(await post({ intent: "valuations", step: "preview" }));
    expect([missing.status, missing.data.fields]).toEqual([400, { file: ["Choose a CSV file"] }]);
    const large = expectData<Answer>(await post({ intent: "valuations", step: "preview", file: csvFile("x".repeat(VALUATIONS_BODY_BYTES + 1)) }));
    expect([large.status, large.data.fields]).toEqual([413, { file: ["The file is larger than 8 MB"] }]);
    const columns = expectData<Answer>(await post({ intent: "valuations", step: "preview", file: csvFile("name,value\nAtlas,1\n") }));
    expect(columns.status).toBe(400);
    expect(columns.data.fields?.file?.[0]).toMatch(/^The header must name the columns/);
  });

  it("imports on confirm, reading the text again: all rows or none, then 303 to the fund page with the audit row", async () => {
    // A text changed after its preview (a row with an error now) is refused whole, with its new preview.
    const tampered = expectData<Answer>(await post({ intent: "valuations", step: "confirm", csv: `${clean}Atlas Holdings AG,fund-ii,2025-12-31,-1.00\n`, expected: "2" }));
    expect(tampered.status).toBe(400);
    expect(tampered.data.preview).toMatchObject({ ready: 1, withErrors: 2 });
    expect(tampered.data.fields).toEqual({ form: ["The file changed since its preview. Check the preview again before importing."] });
    // The count the admin confirmed must be the count read now.
    const recount = expectData<Answer>(await post({ intent: "valuations", step: "confirm", csv: clean, expected: "3" }));
    expect(recount.status).toBe(400);
    // (A multipart form sends its line breaks as CRLF.)
    expect(recount.data.csv?.replace(/\r\n/g, "\n")).toBe(clean);
    expect(storedValuations()).toEqual([]);

    const done = expectRedirect(await post({ intent: "valuations", step: "confirm", csv: clean.replace(/\n/g, "\r\n"), expected: "2" }));
    expect(done).toMatchObject({ status: 303, location: "/admin/funds/fund-ii#valuations" });
    expect(done.cookie).toBeTruthy();
    expect(
      storedValuations()
        .map((v) => [v.entityId, v.date, v.navMinor])
        .sort(),
    ).toEqual(
      [
        [ids.atlas, "2025-12-31", 125_000_000],
        [ids.keller, "2025-12-31", 98_040_050],
      ].sort(),
    );
    const audit = getDb().select().from(auditEvents).where(eq(auditEvents.event, "valuation.imported")).all();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.details!)).toMatchObject({ fund: "fund-ii", date: "2025-12-31", values: 2, total: "2230400.50" });
  });

  it("is the unknown fund's 404 for another slug, and its posts may be 8 MB (the page and its .data twin; other pages keep 64 KB)", async () => {
    await expect(callRouteWith(valuationsPageLoader as never, new Request(`${ORIGIN}/admin/funds/fund-iii/valuations`, { headers: { Cookie: cookie } }), { params: { slug: "fund-iii" } })).rejects.toMatchObject({
      init: { status: 404 },
    });
    const type = "multipart/form-data; boundary=x";
    expect(bodyLimitFor(page, type)).toBe(VALUATIONS_FORM_BYTES);
    expect(bodyLimitFor(`${page}.data`, type)).toBe(VALUATIONS_FORM_BYTES);
    expect(VALUATIONS_FORM_BYTES).toBeGreaterThan(VALUATIONS_BODY_BYTES);
    expect(bodyLimitFor("/admin/funds/fund-ii", type)).toBe(DEFAULT_BODY_LIMIT);
    expect(bodyLimitFor("/admin/funds/fund-ii/valuations/x", type)).toBe(DEFAULT_BODY_LIMIT);
  });
});
