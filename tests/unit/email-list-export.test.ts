import { describe, expect, it } from "vitest";
import {
  EXPORT_HEADERS,
  exportCells,
  exportDate,
  exportFileName,
  exportHeaders,
  exportHref,
  parseExportFile,
  toCsv,
  toTsv,
} from "~/modules/email-lists/export";
import { DEFAULT_SORT, LIST_KEYS, type ListRow } from "~/modules/email-lists/lists";
import { neutralizeFormula } from "~/modules/export/csv";

const BOM = "\uFEFF";
const DATE = "2026-03-05T14:07:09.123Z";

const lp = (overrides: Partial<ListRow> = {}): ListRow => ({
  company: "Acme Robotics",
  name: "Ada Lovelace",
  email: "ada@example.com",
  date: DATE,
  ...overrides,
});

/** A small RFC 4180 reader (quoted fields, doubled quotes, CRLF records) to read our CSV back. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = "";
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      record.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      i++;
    } else field += c;
  }
  if (field !== "" || record.length) throw new Error(`CSV does not end with CRLF: ${JSON.stringify(text.slice(-20))}`);
  return records;
}

describe("columns and headers", () => {
  it("follow each list's columns", () => {
    expect(exportHeaders("lp-users")).toEqual(["Company", "Name", "Email", "Date (UTC)"]);
    expect(exportHeaders("rejected-lp-users")).toEqual(["Company", "Name", "Email", "Date (UTC)"]);
    expect(exportHeaders("fund-ii-requests")).toEqual(["Name", "Email", "Date (UTC)"]);
    expect(exportHeaders("newsletter")).toEqual(["Email", "Date (UTC)"]);
    expect(EXPORT_HEADERS.date).toBe("Date (UTC)");
  });

  it("write a missing or empty company as 'N/A', as the table shows it", () => {
    expect(exportCells("lp-users", lp({ company: undefined }))[0]).toBe("N/A");
    expect(exportCells("lp-users", lp({ company: "" }))[0]).toBe("N/A");
    expect(exportCells("lp-users", lp())).toEqual(["Acme Robotics", "Ada Lovelace", "ada@example.com", "2026-03-05 14:07"]);
    expect(exportCells("fund-ii-requests", lp())).toEqual(["Ada Lovelace", "ada@example.com", "2026-03-05 14:07"]);
    expect(exportCells("newsletter", { email: "n@example.com", date: DATE })).toEqual(["n@example.com", "2026-03-05 14:07"]);
  });
});

describe("exportDate", () => {
  it.each([
    [DATE, "2026-03-05 14:07"],
    ["1999-12-31T23:59:59.999Z", "1999-12-31 23:59"],
    ["2026-01-01T00:00:00.000Z", "2026-01-01 00:00"],
    ["not a date", "not a date"],
    ["", ""],
  ])("%j → %j (UTC, as stored)", (iso, expected) => {
    expect(exportDate(iso)).toBe(expected);
  });
});

describe("neutralizeFormula", () => {
  it.each(["=SUM(A1:A9)", "+1", "-1+2", "@cmd", "\tx", "\rx", '=HYPERLINK("http://evil.example","x")'])(
    "prefixes %j with a single quote",
    (value) => {
      expect(neutralizeFormula(value)).toBe(`'${value}`);
    },
  );

  it.each(["Ada", "a=b", "ada+tag@example.com", "x-y", "'quoted", "", " =1", "Émile", "2026-03-05 14:07"])("leaves %j alone", (value) => {
    expect(neutralizeFormula(value)).toBe(value);
  });
});

describe("toTsv (Copy All)", () => {
  it("writes a header row, then one line per row, '\\n' between lines and none at the end", () => {
    const text = toTsv("lp-users", [lp(), lp({ company: undefined, name: "Bob", email: "bob@example.com" })]);
    expect(text).toBe(
      [
        "Company\tName\tEmail\tDate (UTC)",
        "Acme Robotics\tAda Lovelace\tada@example.com\t2026-03-05 14:07",
        "N/A\tBob\tbob@example.com\t2026-03-05 14:07",
      ].join("\n"),
    );
  });

  it("is just the header for an empty list, for every list", () => {
    for (const list of LIST_KEYS) expect(toTsv(list, [])).toBe(exportHeaders(list).join("\t"));
  });

  it("turns tabs and line breaks inside values into spaces, so every row stays one line of the right width", () => {
    const text = toTsv("fund-ii-requests", [lp({ name: "Ada\tLove\r\nlace\nthe\rfirst" })]);
    const lines = text.split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe("Ada Love lace the first\tada@example.com\t2026-03-05 14:07");
    expect(lines.every((line) => line.split("\t").length === 3)).toBe(true);
  });

  it("neutralises formula-looking cells (= + - @) and keeps quotes and commas as they are", () => {
    const text = toTsv("lp-users", [
      lp({ company: "=cmd|' /C calc'!A0", name: '+Ada "the" Countess, of Lovelace', email: "-x@example.com" }),
      lp({ company: "@SUM(1)", name: "\tTabbed" }),
    ]);
    const [, first, second] = text.split("\n");
    expect(first).toBe(`'=cmd|' /C calc'!A0\t'+Ada "the" Countess, of Lovelace\t'-x@example.com\t2026-03-05 14:07`);
    // A leading tab became a space: no longer a formula trigger.
    expect(second).toBe("'@SUM(1)\t Tabbed\tada@example.com\t2026-03-05 14:07");
  });

  it("keeps non-ASCII names as they are", () => {
    const text = toTsv("fund-ii-requests", [lp({ name: "Zoë Ångström 王小明 😀", email: "zoë@exämple.com" })]);
    expect(text.split("\n")[1]).toBe("Zoë Ångström 王小明 😀\tzoë@exämple.com\t2026-03-05 14:07");
  });

  it("writes the newsletter list as e-mail and date", () => {
    expect(toTsv("newsletter", [{ email: "a@example.com", date: DATE }])).toBe("Email\tDate (UTC)\na@example.com\t2026-03-05 14:07");
  });
});

describe("toCsv (Download CSV)", () => {
  it("starts with a UTF-8 BOM and ends every record, the last included, with CRLF", () => {
    const csv = toCsv("fund-ii-requests", [lp({ name: "A", email: "a@example.com" }), lp({ name: "B", email: "b@example.com" })]);
    expect(csv).toBe(`${BOM}Name,Email,Date (UTC)\r\nA,a@example.com,2026-03-05 14:07\r\nB,b@example.com,2026-03-05 14:07\r\n`);
    expect(csv.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
  });

  it("is the BOM and the header for an empty list", () => {
    expect(toCsv("lp-users", [])).toBe(`${BOM}Company,Name,Email,Date (UTC)\r\n`);
    expect(toCsv("fund-ii-requests", [])).toBe(`${BOM}Name,Email,Date (UTC)\r\n`);
    expect(toCsv("newsletter", [])).toBe(`${BOM}Email,Date (UTC),Unsubscribe URL\r\n`);
  });

  it("the newsletter's CSV adds each row's unsubscribe link (empty when it has none), formula-safe like every cell", () => {
    const url = "https://www.lumenridge.example/unsubscribe/newsletter?token=abc.def";
    const csv = toCsv("newsletter", [
      { email: "a@example.com", date: DATE, unsubscribeUrl: url },
      { email: "b@example.com", date: DATE },
      { email: "c@example.com", date: DATE, unsubscribeUrl: "=HYPERLINK(1)" },
    ]);
    expect(parseCsv(csv.slice(1))).toEqual([
      ["Email", "Date (UTC)", "Unsubscribe URL"],
      ["a@example.com", "2026-03-05 14:07", url],
      ["b@example.com", "2026-03-05 14:07", ""],
      ["c@example.com", "2026-03-05 14:07", "'=HYPERLINK(1)"],
    ]);
    // Copy All (TSV) stays the table's columns.
    expect(toTsv("newsletter", [{ email: "a@example.com", date: DATE, unsubscribeUrl: url }])).toBe("Email\tDate (UTC)\na@example.com\t2026-03-05 14:07");
  });

  it("quotes fields with commas, double quotes or line breaks (quotes doubled), and only those", () => {
    const csv = toCsv("lp-users", [
      lp({ company: "Cobalt, Nickel & Co", name: 'Ada "Countess" Lovelace', email: "ada@example.com" }),
      lp({ company: "Line\r\nBreak", name: "Bare\nLF", email: "cr\ronly@example.com" }),
    ]);
    const lines = csv.slice(1).split("\r\n");
    expect(lines[1]).toBe(`"Cobalt, Nickel & Co","Ada ""Countess"" Lovelace",ada@example.com,2026-03-05 14:07`);
    expect(parseCsv(csv.slice(1))).toEqual([
      ["Company", "Name", "Email", "Date (UTC)"],
      ["Cobalt, Nickel & Co", 'Ada "Countess" Lovelace', "ada@example.com", "2026-03-05 14:07"],
      ["Line\r\nBreak", "Bare\nLF", "cr\ronly@example.com", "2026-03-05 14:07"],
    ]);
  });

  it.each(["=", "+", "-", "@", "\t", "\r"])("neutralises a cell starting with %j (a leading single quote)", (start) => {
    const value = `${start}HYPERLINK("http://evil.example","click")`;
    const csv = toCsv("fund-ii-requests", [lp({ name: value, email: `${start}x@example.com` })]);
    const [, row] = parseCsv(csv.slice(1));
    expect(row).toEqual([`'${value}`, `'${start}x@example.com`, "2026-03-05 14:07"]);
  });

  it("keeps non-ASCII names as they are (the BOM lets Excel read them as UTF-8)", () => {
    const csv = toCsv("lp-users", [lp({ company: "Øresund Ventures", name: "José García 李雷 😀", email: "jose@example.com" })]);
    expect(csv.startsWith(BOM)).toBe(true);
    expect(parseCsv(csv.slice(1))[1]).toEqual(["Øresund Ventures", "José García 李雷 😀", "jose@example.com", "2026-03-05 14:07"]);
    const bytes = new TextEncoder().encode(csv);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it("reads back to exactly the cells of every row, for every list", () => {
    const rows: ListRow[] = [
      lp(),
      lp({ company: undefined, name: "O'Brien, Seán", email: "sean@example.com" }),
      lp({ company: '"Quoted" Ltd', name: "-minus", email: "@at@example.com" }),
    ];
    for (const list of LIST_KEYS) {
      const parsed = parseCsv(toCsv(list, rows).slice(1));
      const link = list === "newsletter" ? [""] : [];
      expect(parsed[0]).toEqual([...exportHeaders(list), ...(list === "newsletter" ? ["Unsubscribe URL"] : [])]);
      expect(parsed.slice(1)).toEqual(rows.map((row) => [...exportCells(list, row).map(neutralizeFormula), ...link]));
    }
  });
});

describe("file names and addresses", () => {
  it.each([
    ["newsletter.csv", { list: "newsletter", format: "csv" }],
    ["lp-users.tsv", { list: "lp-users", format: "tsv" }],
    ["rejected-lp-users.csv", { list: "rejected-lp-users", format: "csv" }],
    ["fund-ii-requests.tsv", { list: "fund-ii-requests", format: "tsv" }],
  ])("parseExportFile(%j)", (file, expected) => {
    expect(parseExportFile(file)).toEqual(expected);
  });

  it.each(["newsletter", "newsletter.xlsx", "newsletter.CSV", "users.csv", ".csv", "newsletter.csv.tsv", "", undefined])(
    "parseExportFile(%j) is null",
    (file) => {
      expect(parseExportFile(file)).toBeNull();
    },
  );

  it("names the file after the firm, the list and the UTC day", () => {
    expect(exportFileName("newsletter", "csv", new Date("2026-11-21T23:30:00.000Z"))).toBe("lumen-ridge-newsletter-2026-11-21.csv");
    expect(exportFileName("lp-users", "tsv", new Date("2026-01-02T00:00:00.000Z"))).toBe("lumen-ridge-lp-users-2026-01-02.tsv");
  });

  it("builds the export address with the sort", () => {
    expect(exportHref("newsletter", "tsv")).toBe(`/admin/email-lists/newsletter.tsv?sort=${DEFAULT_SORT.column}&dir=${DEFAULT_SORT.direction}`);
    expect(exportHref("newsletter", "csv", DEFAULT_SORT, { status: "confirmed" })).toBe(`/admin/email-lists/newsletter.csv?sort=date&dir=desc`);
    expect(exportHref("newsletter", "csv", DEFAULT_SORT, { status: "unsubscribed" })).toBe(`/admin/email-lists/newsletter.csv?sort=date&dir=desc&status=unsubscribed`);
    expect(exportHref("lp-users", "csv", { column: "company", direction: "asc" })).toBe(
      "/admin/email-lists/lp-users.csv?sort=company&dir=asc",
    );
  });
});
