import { describe, expect, it } from "vitest";
import { CSV_BOM, csvCell, csvRecord, csvResponse, csvStream, downloadHeaders } from "~/modules/export/csv";

/** The one CSV writer every export streams through (modules/export/csv.ts). */

// Response.text() drops a leading byte order mark: decode with it kept.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

async function text(body: ReadableStream<Uint8Array> | Response): Promise<string> {
  return decoder.decode(await (body instanceof Response ? body : new Response(body)).arrayBuffer());
}

async function chunks(stream: ReadableStream<Uint8Array>): Promise<string[]> {
  const out: string[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(decoder.decode(value));
  }
}

describe("csvCell", () => {
  it.each(["=", "+", "-", "@", "\t", "\r"])("neutralises a cell that starts with %j", (start) => {
    const cell = csvCell(`${start}1+1`);
    expect(cell.replace(/^"/, "").startsWith(`'${start}`)).toBe(true);
  });

  it("neutralises a formula that also needs quoting", () => {
    expect(csvCell('=HYPERLINK("http://evil","x")')).toBe(`"'=HYPERLINK(""http://evil"",""x"")"`);
  });

  it("quotes commas, double quotes and line breaks, doubling the quotes", () => {
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("one\ntwo")).toBe('"one\ntwo"');
    expect(csvCell("one\r\ntwo")).toBe('"one\r\ntwo"');
  });

  it("leaves a plain value, and a sign inside it, as it is", () => {
    expect(csvCell("Ada Lovelace")).toBe("Ada Lovelace");
    expect(csvCell("a=b-c+d@e")).toBe("a=b-c+d@e");
    expect(csvCell("")).toBe("");
  });

  it("ends a record with CRLF", () => {
    expect(csvRecord(["a", "b,c", "=1"])).toBe(`a,"b,c",'=1\r\n`);
  });
});

describe("csvStream", () => {
  it("yields the byte order mark and header first, then a chunk per batch", async () => {
    const batches = [[{ n: "=1" }, { n: "two" }], [{ n: "a,b" }]].values();
    const parts = await chunks(csvStream(["Name"], batches, (row) => [row.n]));
    expect(parts).toEqual([`${CSV_BOM}Name\r\n`, `'=1\r\ntwo\r\n`, `"a,b"\r\n`]);
  });

  it("is the header alone when there are no rows", async () => {
    expect(await text(csvStream(["A", "B"], [].values(), (row: never) => row))).toBe(`${CSV_BOM}A,B\r\n`);
  });

  it("closes the batches when the download is cancelled", async () => {
    let closed = false;
    function* batches() {
      try {
        for (;;) yield [["x"]];
      } finally {
        closed = true;
      }
    }
    const reader = csvStream(["X"], batches(), (row: string[]) => row).getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    expect(closed).toBe(true);
  });
});

describe("csvResponse", () => {
  it("answers the stream as a named, uncached attachment", async () => {
    const response = csvResponse({ fileName: "rows-2026-11-26.csv", header: ["A"], batches: [[1, 2]].values(), cells: (n: number) => [String(n)] });
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="rows-2026-11-26.csv"');
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(await text(response)).toBe(`${CSV_BOM}A\r\n1\r\n2\r\n`);
  });

  it("names other downloads the same way", () => {
    expect(new Headers(downloadHeaders("x.tsv", "text/tab-separated-values; charset=utf-8", "inline")).get("Content-Disposition")).toBe('inline; filename="x.tsv"');
  });
});
