import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { DataColumn } from "~/components/kit/data-table";
import { FreshCodeField } from "~/components/kit/fresh-code-field";
import { ImportPreview, type ImportPreviewRow } from "~/components/kit/import-preview";

/** Server-renders `element` on a route (the kit's pieces may need a router). */
function render(element: React.ReactNode): string {
  const Stub = createRoutesStub([{ path: "/", Component: () => <>{element}</> }]);
  return renderToString(<Stub initialEntries={["/"]} />);
}

type Row = ImportPreviewRow & { entity: string; nav: string };
const columns: DataColumn<Row>[] = [
  { key: "entity", header: "Entity", rowHeader: true, card: "primary", cell: (row) => row.entity },
  { key: "nav", header: "NAV", cell: (row) => row.nav },
];

describe("the kit's import preview", () => {
  const rows: Row[] = [
    { key: "2", line: 2, errors: [], entity: "Atlas Holdings AG", nav: "$1,250,000.00" },
    { key: "3", line: 3, errors: ["No entity has this name", "Enter an amount like 250000.00"], entity: "Nobody Ltd", nav: "12,50" },
  ];
  const html = render(<ImportPreview label="The file's rows" rows={rows} columns={columns} />);

  it("sums up the rows ready and with errors, announced", () => {
    const summary = /<p role="status" data-testid="import-summary"[^>]*>(.*?)<\/p>/.exec(html)?.[1] ?? "";
    expect(summary.replace(/<[^>]+>/g, "")).toBe("1 row ready, 1 with errors");
  });

  it("shows every row with its line, the page's columns and its outcome: Ready, or each error in words", () => {
    expect(html).toMatch(/<tr data-testid="import-row" data-outcome="ready"[^>]*>.*?>2<\/td>.*?Atlas Holdings AG.*?\$1,250,000.00.*?Ready/);
    expect(html).toMatch(/<tr data-testid="import-row" data-outcome="error" class="[^"]*bg-red-50[^"]*">.*?>3<\/td>.*?Nobody Ltd/);
    expect(html).toContain('aria-label="2 errors"');
    expect(html).toContain("<span>No entity has this name</span>");
    expect(html).toContain("<span>Enter an amount like 250000.00</span>");
    // Each value labelled on the phone card.
    expect(html).toContain('data-label="Line"');
    expect(html).toContain('data-label="Outcome"');
  });
});

describe("the kit's fresh two-factor code field", () => {
  it("is labelled, offers the one-time code on the numeric keypad, starts empty and points to its hint", () => {
    const html = render(<FreshCodeField id="payment-code" />);
    const input = /<input[^>]*>/.exec(html)?.[0] ?? "";
    expect(html).toMatch(/<label[^>]*for="payment-code"[^>]*>.*Two-factor code.*<\/label>/);
    for (const attribute of ['name="code"', 'autoComplete="one-time-code"', 'inputMode="numeric"', 'required=""', 'value=""', 'aria-describedby="payment-code-hint"']) {
      expect(input.replace("autocomplete", "autoComplete").replace("inputmode", "inputMode")).toContain(attribute);
    }
    expect(html).toContain('id="payment-code-hint"');
  });

  it("shows its message and marks itself invalid", () => {
    const html = render(<FreshCodeField id="payment-code" errors={["Invalid two-factor code"]} />);
    expect(html).toMatch(/<input[^>]*aria-invalid="true"[^>]*aria-describedby="payment-code-hint payment-code-error"/);
    expect(html).toMatch(/<p id="payment-code-error"[^>]*role="alert">Invalid two-factor code<\/p>/);
  });
});
