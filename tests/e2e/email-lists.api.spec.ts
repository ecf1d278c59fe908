import { randomBytes } from "node:crypto";
import contentDisposition from "content-disposition";
import type { APIRequestContext, APIResponse } from "@playwright/test";
import { adminSession, approvedInvestorSession, newApiContext, type Session } from "./helpers/documents";
import {
  asRows,
  DEFAULT_SORT,
  EXPORT_HEADERS,
  expectCsvShape,
  expectSameRows,
  expectSorted,
  exportFileNamePattern,
  LIST_KEYS,
  LISTS,
  parseTsv,
  recordsToRows,
  registerUser,
  requestFundAccess,
  setUserStatuses,
  subscribe,
  type Column,
  type Direction,
  type ListKey,
  type Row,
  type SeedUser,
  type Sort,
} from "./helpers/email-lists";
import { expect, test } from "./helpers/fixtures";
import { expectJsonError } from "./helpers/http";

/**
 * The admin e-mail lists over HTTP (SPEC.md §2 'Email Lists (Copy &
 * Export)', §6, §7): GET /api/newsletter/subscribers and the
 * /admin/email-lists/{list}.csv|.tsv exports (what Download CSV links to and
 * Copy All fetches) — who may read them, what they answer, and the order of
 * their rows.
 *
 * The run's server is shared with specs that add users, subscribers and fund
 * requests at any moment, so nothing here counts a whole list: each test
 * seeds its own rows, marked with a random tag in their e-mail addresses, and
 * checks them — present or absent, and in every sort the relative order of
 * the tagged rows (a subsequence of the export keeps the export's order).
 * The exact whole-list checks (totals, every row, empty lists) are in
 * email-lists.spec.ts, on a server of its own.
 */

test.describe.configure({ timeout: 360_000 }); // 72 full exports of every row the whole run has made; slow on a busy 2-core machine

let admin: Session;
let investor: Session;
let anonymous: APIRequestContext;

test.beforeAll(async () => {
  admin = await adminSession("lists-admin");
  investor = await approvedInvestorSession(admin, "lists-investor");
  anonymous = await newApiContext();
});

test.afterAll(async () => {
  await Promise.all([admin?.context.dispose(), investor?.context.dispose(), anonymous?.dispose()]);
});

const CONTENT_TYPES = { csv: "text/csv; charset=utf-8", tsv: "text/tab-separated-values; charset=utf-8" } as const;

function exportPath(list: string, format: "csv" | "tsv", sort?: Sort): string {
  return `/admin/email-lists/${list}.${format}${sort ? `?sort=${sort.column}&dir=${sort.direction}` : ""}`;
}

/** Today's date in UTC, and yesterday's (a request made just after midnight may still name the day before). */
function recentUtcDays(): string[] {
  const now = Date.now();
  return [new Date(now).toISOString().slice(0, 10), new Date(now - 60_000).toISOString().slice(0, 10)];
}

async function expectExportAnswer(response: APIResponse, list: ListKey, format: "csv" | "tsv"): Promise<string> {
  const text = await response.text();
  expect(response.status(), `${list}.${format}: ${text.slice(0, 200)}`).toBe(200);
  const headers = response.headers();
  expect(headers["content-type"], `${list}.${format}: Content-Type`).toBe(CONTENT_TYPES[format]);
  const disposition = contentDisposition.parse(headers["content-disposition"] ?? "");
  // The CSV is a file to save; the TSV is what Copy All reads.
  expect(disposition.type).toBe(format === "csv" ? "attachment" : "inline");
  expect(disposition.parameters.filename).toMatch(exportFileNamePattern(list, format));
  expect(recentUtcDays()).toContain(disposition.parameters.filename!.slice(-14, -4));
  expect(headers["cache-control"] ?? "", `${list}.${format}: not cached`).toContain("no-store");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  return text;
}

const header = (list: ListKey) => LISTS[list].columns.map((column) => EXPORT_HEADERS[column]);

test.describe("GET /api/newsletter/subscribers", () => {
  test("an admin gets every subscriber as { email, createdAt }, newest first", async () => {
    const tag = randomBytes(4).toString("hex");
    const first = `Older.${tag}@Example.com`;
    const second = `newer.${tag}@example.com`;
    await subscribe(anonymous, first);
    await subscribe(anonymous, second);

    const response = await admin.context.get("/api/newsletter/subscribers");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toMatch(/^application\/json/);
    const subscribers = (await response.json()) as unknown[];
    expect(Array.isArray(subscribers)).toBe(true);
    expect(subscribers.length).toBeGreaterThanOrEqual(2);
    // One assertion over every subscriber (an expect per row costs more with each expect a test has made).
    const misshapen = subscribers.filter((item) => {
      const { email, createdAt, ...rest } = item as { email: unknown; createdAt: unknown };
      return Object.keys(rest).length > 0 || typeof email !== "string" || typeof createdAt !== "string" || Number.isNaN(Date.parse(createdAt));
    });
    expect(misshapen, "each subscriber has exactly email and createdAt (a date)").toEqual([]);
    const list = subscribers as { email: string; createdAt: string }[];
    // Both, stored lower-cased, the newer one first.
    const older = list.findIndex((s) => s.email === first.toLowerCase());
    const newer = list.findIndex((s) => s.email === second);
    expect(older, "the first address is listed").toBeGreaterThanOrEqual(0);
    expect(newer, "the second address is listed").toBeGreaterThanOrEqual(0);
    expect(newer).toBeLessThan(older);
    expect(Date.parse(list[newer]!.createdAt)).toBeGreaterThan(Date.parse(list[older]!.createdAt));
    expect(Math.abs(Date.now() - Date.parse(list[newer]!.createdAt)), "createdAt is the time of subscribing").toBeLessThan(10 * 60_000);
    const times = list.map((s) => Date.parse(s.createdAt));
    expect(
      times.every((t, i) => i === 0 || t <= times[i - 1]!),
      "the whole list is newest first",
    ).toBe(true);
    // The same addresses as the newsletter export.
    const exported = parseTsv(await expectExportAnswer(await admin.context.get(exportPath("newsletter", "tsv")), "newsletter", "tsv"));
    const mine = exported.filter((cells) => cells[0]!.includes(tag)).map((cells) => cells[0]);
    expect(mine).toEqual([second, first.toLowerCase()]);
  });

  test("an investor gets 403 and an anonymous caller 401, with no subscriber in the answer", async () => {
    const tag = randomBytes(4).toString("hex");
    const address = `secret.${tag}@example.com`;
    await subscribe(anonymous, address);

    const asInvestor = await investor.context.get("/api/newsletter/subscribers");
    const investorBody = await expectJsonError(asInvestor, 403);
    expect(JSON.stringify(investorBody)).not.toContain(address);

    const asNobody = await anonymous.get("/api/newsletter/subscribers");
    const nobodyBody = await expectJsonError(asNobody, 401);
    expect(JSON.stringify(nobodyBody)).not.toContain(address);
  });
});

test.describe("GET /admin/email-lists/{list}.csv and .tsv", () => {
  test("an admin gets each list as CSV (attachment, BOM, CRLF) and TSV (inline), with the list's header row", async () => {
    for (const list of LIST_KEYS) {
      for (const sort of [undefined, { column: "email", direction: "asc" } as Sort]) {
        const csv = await expectExportAnswer(await admin.context.get(exportPath(list, "csv", sort)), list, "csv");
        expectCsvShape(csv, list);
        const tsv = await expectExportAnswer(await admin.context.get(exportPath(list, "tsv", sort)), list, "tsv");
        expect(tsv.charCodeAt(0), "no byte order mark in the TSV").not.toBe(0xfeff);
        expect(tsv.endsWith("\n"), "no trailing newline in the TSV").toBe(false);
        expect(tsv.includes("\r"), "no CR in the TSV").toBe(false);
        const records = parseTsv(tsv);
        expect(records[0]).toEqual(header(list));
        expect(records.filter((record) => record.length !== header(list).length), "every TSV record has the list's columns").toEqual([]);
      }
    }
  });

  test("an investor gets 403 and an anonymous caller 401 (JSON, not a redirect to the login page), for every list and format", async () => {
    for (const list of LIST_KEYS) {
      for (const format of ["csv", "tsv"] as const) {
        await expectJsonError(await investor.context.get(exportPath(list, format)), 403);
        await expectJsonError(await anonymous.get(exportPath(list, format)), 401);
        await expectJsonError(await anonymous.get(exportPath(list, format, { column: "email", direction: "asc" })), 401);
      }
    }
  });

  test("an unknown list or format is 404", async () => {
    for (const path of [
      "/admin/email-lists/unknown.csv",
      "/admin/email-lists/pending-users.tsv",
      "/admin/email-lists/subscribers.csv",
      "/admin/email-lists/newsletter.xlsx",
      "/admin/email-lists/newsletter.json",
      "/admin/email-lists/newsletter",
      "/admin/email-lists/lp-users.csv.tsv",
      "/admin/email-lists/.csv",
    ]) {
      const response = await admin.context.get(path);
      expect(response.status(), path).toBe(404);
      expect(response.headers()["content-type"] ?? "", path).not.toMatch(/^text\/(csv|tab-separated-values)/);
    }
  });
});

test.describe("the exports' order (this test's tagged rows among everyone's)", () => {
  test("every list in every sort: the tagged rows are all there, in the rule's order, the same in CSV and TSV; formulas neutralised", async () => {
    const tag = randomBytes(4).toString("hex");
    const mail = (local: string) => `${local}.${tag}@example.com`;
    // Made in this order: names and companies in mixed case, some without a company, one name a formula.
    const users: SeedUser[] = [
      { name: "Walter Wu", company: "nova Robotics", email: mail("walter"), status: "rejected" },
      { name: "alice Adams", email: mail("zz-alice"), status: "rejected" },
      { name: "Bob Brown", company: "Acme Corp", email: mail("Bob").toUpperCase(), status: "rejected" },
      { name: "carol Chen", company: "beta Labs", email: mail("carol"), status: "approved" },
      { name: '=HYPERLINK("x")', company: "Zeta Fusion", email: mail("eve"), status: "pending" },
      { name: "Dave Diaz", email: mail("a-dave"), status: "rejected" },
    ];
    const fundII = [
      { name: "zoe Zimmer", email: mail("a-zoe") },
      { name: "+1 Adam Apple", email: mail("zed-adam") },
      { name: "bella Brook", email: mail("m-bella") },
      { name: "Carl Cobb", email: mail("c-carl") },
    ];
    const fundI = { name: "Fiona First", email: mail("fiona") };
    const subscribers = [mail("m-one"), mail("Z-two"), mail("a-three"), mail("q-four")];

    for (const user of users) await registerUser(anonymous, user);
    await setUserStatuses(admin.context, admin.cookie, users);
    for (const request of fundII) await requestFundAccess(anonymous, { ...request, fundId: "fund-ii" });
    await requestFundAccess(anonymous, { ...fundI, fundId: "fund-i" });
    for (const email of subscribers) await subscribe(anonymous, email);

    const seeded: Record<ListKey, Row[]> = {
      "lp-users": asRows(users, "lp-users"),
      "rejected-lp-users": asRows(
        users.filter((u) => u.status === "rejected"),
        "rejected-lp-users",
      ),
      "fund-ii-requests": asRows(fundII, "fund-ii-requests"),
      newsletter: asRows(
        subscribers.map((email) => ({ email })),
        "newsletter",
      ),
    };

    for (const list of LIST_KEYS) {
      const made = seeded[list].map((row) => row.email);
      const sorts: (Sort | undefined)[] = [undefined];
      for (const column of LISTS[list].columns) for (const direction of ["asc", "desc"] as Direction[]) sorts.push({ column, direction });
      for (const requested of sorts) {
        const sort = requested ?? DEFAULT_SORT;
        const what = `${list} sorted by ${requested ? `${sort.column} ${sort.direction}` : "default"}`;
        const csvText = await expectExportAnswer(await admin.context.get(exportPath(list, "csv", requested)), list, "csv");
        const tsvText = await expectExportAnswer(await admin.context.get(exportPath(list, "tsv", requested)), list, "tsv");
        const csvRecords = expectCsvShape(csvText, list);
        const tsvRecords = parseTsv(tsvText);
        expect(tsvRecords[0]).toEqual(header(list));

        const emailIndex = LISTS[list].columns.indexOf("email");
        const ours = (records: string[][]) => records.filter((cells, i) => i > 0 && cells[emailIndex]!.includes(`.${tag}@`));
        const csvOurs = ours(csvRecords);
        const tsvOurs = ours(tsvRecords);
        // The same rows in the same order in both formats (the copy and the file agree).
        expect(tsvOurs, `${what}: TSV and CSV agree`).toEqual(csvOurs);

        const rows = recordsToRows(list, [header(list), ...csvOurs]);
        expectSameRows(rows, seeded[list], what);
        if (sort.column === "date") {
          // Minutes only in the file: the order is checked against the order they were made in.
          expect(
            rows.map((row) => row.email),
            what,
          ).toEqual(sort.direction === "asc" ? made : [...made].reverse());
        } else {
          expectSorted(rows, sort, what);
        }
        for (const cells of csvOurs) {
          expect(cells[LISTS[list].columns.indexOf("date")], `${what}: dates as 'yyyy-MM-dd HH:mm'`).toMatch(
            /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/,
          );
        }

        if (list === "lp-users" || list === "rejected-lp-users") {
          expect(csvOurs.find((cells) => cells[2] === mail("zz-alice"))?.[0], `${what}: a missing company is 'N/A'`).toBe("N/A");
        }
        if (list === "lp-users") {
          expect(csvOurs.find((cells) => cells[2] === mail("eve"))?.[1], `${what}: formula neutralised in the CSV`).toBe(
            `'=HYPERLINK("x")`,
          );
          expect(csvText).toContain(`,"'=HYPERLINK(""x"")",${mail("eve")},`);
          expect(tsvText).toContain(`\t'=HYPERLINK("x")\t${mail("eve")}\t`);
        }
        if (list === "fund-ii-requests") {
          expect(csvOurs.find((cells) => cells[1] === mail("zed-adam"))?.[0], `${what}: formula neutralised`).toBe("'+1 Adam Apple");
          expect(tsvText).toContain(`'+1 Adam Apple\t${mail("zed-adam")}\t`);
          expect(csvText, "a Fund I request is not on the Fund II list").not.toContain(mail("fiona"));
        }
      }
    }
  });
});

/** The columns each list sorts by (SPEC.md §2), as the exports' header rows name them. */
test("each export has exactly its list's columns: LP lists company, name, e-mail, date; Fund II name, e-mail, date; newsletter e-mail, date", async () => {
  const expected: Record<ListKey, Column[]> = {
    "lp-users": ["company", "name", "email", "date"],
    "rejected-lp-users": ["company", "name", "email", "date"],
    "fund-ii-requests": ["name", "email", "date"],
    newsletter: ["email", "date"],
  };
  for (const list of LIST_KEYS) {
    const tsv = await expectExportAnswer(await admin.context.get(exportPath(list, "tsv")), list, "tsv");
    expect(tsv.split("\n")[0]).toBe(expected[list].map((column) => EXPORT_HEADERS[column]).join("\t"));
  }
});

/**
 * SPEC.md §2: sorting is case-insensitive, accented capitals included (the
 * database folds with JavaScript's toLowerCase; SQLite's NOCASE folds A–Z only).
 */
test("sorting by name is case-insensitive for accented capitals too ('éric' before 'Éva')", async () => {
  const tag = randomBytes(4).toString("hex");
  const users: SeedUser[] = [
    { name: `Éva ${tag}`, email: `eva.${tag}@example.com`, status: "pending" },
    { name: `éric ${tag}`, email: `eric.${tag}@example.com`, status: "pending" },
  ];
  for (const user of users) await registerUser(anonymous, user);
  const tsv = await expectExportAnswer(
    await admin.context.get(exportPath("lp-users", "tsv", { column: "name", direction: "asc" })),
    "lp-users",
    "tsv",
  );
  const names = parseTsv(tsv)
    .map((cells) => cells[1]!)
    .filter((name) => name.endsWith(` ${tag}`));
  expect(names).toEqual([`éric ${tag}`, `Éva ${tag}`]);
});
