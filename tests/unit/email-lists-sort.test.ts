import { describe, expect, it } from "vitest";
import {
  DEFAULT_SORT,
  isListKey,
  LIST_KEYS,
  LISTS,
  MISSING_COMPANY,
  nextSort,
  parseSort,
  sortKey,
  sortRows,
  type ListRow,
  type SortColumn,
  type SortState,
} from "~/modules/email-lists/lists";

/** SPEC.md §2 'Email Lists (Copy & Export)': the sort rules of the four admin tables. */

const COLUMNS: Record<string, SortColumn[]> = {
  "lp-users": ["company", "name", "email", "date"],
  "rejected-lp-users": ["company", "name", "email", "date"],
  "fund-ii-requests": ["name", "email", "date"],
  newsletter: ["email", "date"],
};

const rows: ListRow[] = [
  { company: "beta Capital", name: "carol", email: "Carol@example.com", date: "2026-03-01T10:00:00.000Z" },
  { company: "Alpha Partners", name: "Bob", email: "bob@example.com", date: "2026-01-15T08:30:00.000Z" },
  { name: "alice", email: "ALICE@example.com", date: "2026-05-20T23:59:59.999Z" },
  { company: "Zeta", name: "Dave", email: "dave@example.com", date: "2025-12-31T00:00:00.000Z" },
];
const names = (list: readonly ListRow[]) => list.map((row) => row.name);

describe("the four lists", () => {
  it("are the LP users (all statuses), rejected LP users, Fund II requests and newsletter subscribers", () => {
    expect(LIST_KEYS).toEqual(["lp-users", "rejected-lp-users", "fund-ii-requests", "newsletter"]);
    expect(LIST_KEYS.map((key) => LISTS[key].key)).toEqual([...LIST_KEYS]);
  });

  it.each(Object.entries(COLUMNS))("%s sorts by %j", (key, columns) => {
    expect(isListKey(key)).toBe(true);
    expect(LISTS[key as keyof typeof LISTS].columns).toEqual(columns);
  });

  it("has the empty texts and toast labels of the spec", () => {
    expect(LIST_KEYS.map((key) => LISTS[key].empty)).toEqual([
      "No LP users yet",
      "No rejected LP users",
      "No Fund II access requests yet",
      "No newsletter subscribers yet",
    ]);
    expect(LIST_KEYS.map((key) => LISTS[key].label)).toEqual([
      "LP portal users",
      "Rejected LP users",
      "Fund II access requests",
      "Newsletter subscribers",
    ]);
  });

  it.each([["lp"], ["LP-USERS"], [""], [null], [undefined], [42], ["newsletter "]])("isListKey(%j) is false", (value) => {
    expect(isListKey(value)).toBe(false);
  });
});

describe("nextSort (clicking a column header)", () => {
  it("starts at date descending", () => {
    expect(DEFAULT_SORT).toEqual({ column: "date", direction: "desc" });
  });

  it.each(LIST_KEYS.flatMap((list) => LISTS[list].columns.map((column) => [list, column] as const)))(
    "%s: a new column %s starts ascending (date: descending), clicking it again toggles",
    (_list, column) => {
      const from: SortState = column === "email" ? { column: "name", direction: "desc" } : { column: "email", direction: "asc" };
      const first = nextSort(from, column);
      expect(first).toEqual({ column, direction: column === "date" ? "desc" : "asc" });
      const second = nextSort(first, column);
      expect(second).toEqual({ column, direction: first.direction === "asc" ? "desc" : "asc" });
      expect(nextSort(second, column)).toEqual(first);
    },
  );

  it("clicking date while date is active (the default) turns it ascending", () => {
    expect(nextSort(DEFAULT_SORT, "date")).toEqual({ column: "date", direction: "asc" });
  });

  it("a new column starts ascending even when the current sort is descending, and vice versa for date", () => {
    expect(nextSort({ column: "date", direction: "desc" }, "company")).toEqual({ column: "company", direction: "asc" });
    expect(nextSort({ column: "name", direction: "asc" }, "date")).toEqual({ column: "date", direction: "desc" });
  });
});

describe("sortRows", () => {
  it("defaults to newest first", () => {
    expect(names(sortRows(rows, DEFAULT_SORT))).toEqual(["alice", "carol", "Bob", "Dave"]);
  });

  it.each([
    [{ column: "company", direction: "asc" }, ["Bob", "carol", "alice", "Dave"]],
    [{ column: "company", direction: "desc" }, ["Dave", "alice", "carol", "Bob"]],
    [{ column: "name", direction: "asc" }, ["alice", "Bob", "carol", "Dave"]],
    [{ column: "name", direction: "desc" }, ["Dave", "carol", "Bob", "alice"]],
    [{ column: "email", direction: "asc" }, ["alice", "Bob", "carol", "Dave"]],
    [{ column: "email", direction: "desc" }, ["Dave", "carol", "Bob", "alice"]],
    [{ column: "date", direction: "asc" }, ["Dave", "Bob", "carol", "alice"]],
    [{ column: "date", direction: "desc" }, ["alice", "carol", "Bob", "Dave"]],
  ] as [SortState, string[]][])("sorts by %j", (sort, expected) => {
    expect(names(sortRows(rows, sort))).toEqual(expected);
  });

  it("ignores case ('alice' < 'Bob' < 'carol'), where a plain comparison would put capitals first", () => {
    const mixed: ListRow[] = [
      { name: "carol", email: "c@x", date: "2026-01-01T00:00:00.000Z" },
      { name: "Bob", email: "b@x", date: "2026-01-01T00:00:00.000Z" },
      { name: "alice", email: "a@x", date: "2026-01-01T00:00:00.000Z" },
      { name: "ALAN", email: "d@x", date: "2026-01-01T00:00:00.000Z" },
    ];
    expect(names(sortRows(mixed, { column: "name", direction: "asc" }))).toEqual(["ALAN", "alice", "Bob", "carol"]);
    expect(sortRows(mixed, { column: "email", direction: "asc" }).map((row) => row.email)).toEqual(["a@x", "b@x", "c@x", "d@x"]);
  });

  it("counts a missing or empty company as 'N/A' (between 'mmm' and 'n/b', equal to a literal 'n/a')", () => {
    expect(MISSING_COMPANY).toBe("N/A");
    const companies: ListRow[] = [
      { company: "n/b", name: "1", email: "1@x", date: "2026-01-01T00:00:00.000Z" },
      { name: "2 (none)", email: "2@x", date: "2026-01-01T00:00:00.000Z" },
      { company: "Mmm", name: "3", email: "3@x", date: "2026-01-01T00:00:00.000Z" },
      { company: "", name: "4 (empty)", email: "4@x", date: "2026-01-01T00:00:00.000Z" },
      { company: "n/a", name: "5 (literal)", email: "5@x", date: "2026-01-01T00:00:00.000Z" },
      { company: "Acme", name: "6", email: "6@x", date: "2026-01-01T00:00:00.000Z" },
    ];
    expect(names(sortRows(companies, { column: "company", direction: "asc" }))).toEqual([
      "6",
      "3",
      "2 (none)",
      "4 (empty)",
      "5 (literal)",
      "1",
    ]);
    expect(sortKey(companies[1] as ListRow, "company")).toBe("n/a");
    expect(sortKey(companies[3] as ListRow, "company")).toBe("n/a");
  });

  it("is stable in both directions: ties keep their input order", () => {
    const ties: ListRow[] = [
      { name: "Same", email: "first@x", date: "2026-01-01T00:00:00.000Z" },
      { name: "other", email: "other@x", date: "2026-01-02T00:00:00.000Z" },
      { name: "same", email: "second@x", date: "2026-01-01T00:00:00.000Z" },
      { name: "SAME", email: "third@x", date: "2026-01-01T00:00:00.000Z" },
    ];
    const emails = (sort: SortState) => sortRows(ties, sort).map((row) => row.email);
    expect(emails({ column: "name", direction: "asc" })).toEqual(["other@x", "first@x", "second@x", "third@x"]);
    expect(emails({ column: "name", direction: "desc" })).toEqual(["first@x", "second@x", "third@x", "other@x"]);
    expect(emails({ column: "date", direction: "desc" })).toEqual(["other@x", "first@x", "second@x", "third@x"]);
  });

  it("compares dates as instants (ISO strings), including milliseconds", () => {
    const close: ListRow[] = [
      { email: "b@x", date: "2026-01-01T00:00:00.002Z" },
      { email: "a@x", date: "2026-01-01T00:00:00.001Z" },
      { email: "c@x", date: "2025-12-31T23:59:59.999Z" },
    ];
    expect(sortRows(close, { column: "date", direction: "asc" }).map((row) => row.email)).toEqual(["c@x", "a@x", "b@x"]);
  });

  it("leaves its input alone", () => {
    const copy = [...rows];
    sortRows(rows, { column: "name", direction: "asc" });
    expect(rows).toEqual(copy);
  });
});

describe("parseSort (?sort=&dir=)", () => {
  it.each([
    ["lp-users", null, null, DEFAULT_SORT],
    ["lp-users", "", "asc", DEFAULT_SORT],
    ["lp-users", "size", "asc", DEFAULT_SORT],
    ["lp-users", "Company", "asc", DEFAULT_SORT],
    ["newsletter", "company", "asc", DEFAULT_SORT],
    ["newsletter", "name", "desc", DEFAULT_SORT],
    ["fund-ii-requests", "company", "asc", DEFAULT_SORT],
    ["lp-users", "company", "desc", { column: "company", direction: "desc" }],
    ["rejected-lp-users", "name", "asc", { column: "name", direction: "asc" }],
    ["fund-ii-requests", "email", "desc", { column: "email", direction: "desc" }],
    ["newsletter", "date", "asc", { column: "date", direction: "asc" }],
    // A known column without a (valid) direction starts where clicking it would.
    ["lp-users", "company", null, { column: "company", direction: "asc" }],
    ["newsletter", "email", "up", { column: "email", direction: "asc" }],
    ["fund-ii-requests", "name", "ASC", { column: "name", direction: "asc" }],
    ["fund-ii-requests", "email", "", { column: "email", direction: "asc" }],
  ] as const)("%s ?sort=%j&dir=%j → %j", (list, column, direction, expected) => {
    expect(parseSort(list, column, direction)).toEqual(expected);
  });

  // Hand-made URLs (?sort=date without a valid dir) start the way choosing the column does.
  it("?sort=date without a valid dir starts descending, like choosing date does", () => {
    expect(parseSort("newsletter", "date", null)).toEqual({ column: "date", direction: "desc" });
    expect(parseSort("fund-ii-requests", "date", "DESC")).toEqual({ column: "date", direction: "desc" });
  });

  it("accepts every column of every list in both directions", () => {
    for (const list of LIST_KEYS) {
      for (const column of LISTS[list].columns) {
        for (const direction of ["asc", "desc"] as const) {
          expect(parseSort(list, column, direction)).toEqual({ column, direction });
        }
      }
    }
  });
});
