import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { DataTable, type DataColumn } from "~/components/kit/data-table";
import { EmptyState } from "~/components/kit/empty-state";
import { hrefWith, keptParams } from "~/components/kit/query";

/** Server-renders `element` on a route (the kit's links need a router). */
function render(element: React.ReactNode): string {
  const Stub = createRoutesStub([{ path: "/", Component: () => <>{element}</> }]);
  return renderToString(<Stub initialEntries={["/"]} />);
}

describe("the kit's addresses", () => {
  it("a sort link changes its own parameters and keeps the others (the search, the status tab)", () => {
    const href = hrefWith("/admin/investors", "?q=ada&status=approved&page=3", { sort: "name", dir: "asc", page: null });
    const url = new URL(href, "http://x");
    expect(url.pathname).toBe("/admin/investors");
    expect(Object.fromEntries(url.searchParams)).toEqual({ q: "ada", status: "approved", sort: "name", dir: "asc" });
  });

  it("an empty or null value removes its parameter; no query leaves no '?'; a hash is kept", () => {
    expect(hrefWith("/admin/pitches", "?status=new", { status: "" })).toBe("/admin/pitches");
    expect(hrefWith("/admin/pitches", "", { page: 2 }, "list")).toBe("/admin/pitches?page=2#list");
  });

  it("a GET form keeps every parameter but its own", () => {
    expect(keptParams("?q=ada&sort=name&page=2&status=pending", ["status", "page"])).toEqual([
      ["q", "ada"],
      ["sort", "name"],
    ]);
  });
});

type Row = { id: string; name: string; email: string; status: string; joined: string };

const columns: ReadonlyArray<DataColumn<Row>> = [
  { key: "name", header: "Name", card: "primary", rowHeader: true, cell: (row) => row.name, sort: { href: "/?sort=name&q=ada", active: null, next: "asc" } },
  { key: "status", header: "Status", card: "badge", cell: (row) => row.status },
  { key: "joined", header: "Joined", card: "meta", cell: (row) => row.joined },
  { key: "email", header: "Email", cell: (row) => row.email },
];

describe("DataTable", () => {
  const rows: Row[] = [
    { id: "1", name: "Ada Lovelace", email: "ada@example.com", status: "Approved", joined: "Nov 26, 2026" },
    { id: "2", name: "Grace Hopper", email: "grace@example.com", status: "Pending", joined: "Nov 25, 2026" },
  ];

  it("a sortable heading is a link that names what it does, and keeps the other parameters", () => {
    const html = render(<DataTable label="Investors" columns={columns} rows={rows} rowKey={(row) => row.id} />);
    expect(html).toContain('aria-sort="none"');
    expect(html).toMatch(/<a(?=[^>]*aria-label="Sort by Name, ascending")(?=[^>]*href="\/\?sort=name&amp;q=ada")[^>]*>Name/);
  });

  it("every value of every row is in its own cell, and the phone card labels each secondary value with its heading", () => {
    const html = render(<DataTable label="Investors" columns={columns} rows={rows} rowKey={(row) => row.id} rowTestId="row" />);
    for (const row of rows) for (const value of [row.name, row.email, row.status, row.joined]) expect(html).toContain(`>${value}</`);
    // The primary value names its row; the badge and the date have their places in the card; the e-mail is a labelled detail.
    expect(html).toMatch(/<th scope="row" data-card="primary"[^>]*>Ada Lovelace<\/th>/);
    expect(html).not.toContain("data-label=\"Name\"");
    expect(html).toMatch(/<td data-card="badge"[^>]*>Approved<\/td>/);
    expect(html).toMatch(/<td data-card="meta"[^>]*>Nov 26, 2026<\/td>/);
    expect(html).toMatch(/<td data-label="Email"[^>]*>ada@example.com<\/td>/);
    expect(html.match(/data-testid="row"/g)).toHaveLength(2);
  });

  it("with no rows: SPEC's empty row when given, across every column", () => {
    const html = render(<DataTable label="LP users" columns={columns} rows={[]} rowKey={(row) => row.id} emptyRow="No LP users yet" />);
    expect(html).toMatch(/<td colSpan="4"[^>]*>No LP users yet<\/td>/);
  });
});

describe("EmptyState", () => {
  it("says so in one sentence, announced, with the next action as a link", () => {
    const html = render(<EmptyState action={{ to: "/admin/documents/upload", label: "Upload" }}>No documents yet.</EmptyState>);
    expect(html).toMatch(/role="status"/);
    expect(html).toContain("<p>No documents yet.</p>");
    expect(html).toMatch(/<a[^>]*href="\/admin\/documents\/upload"[^>]*>Upload<\/a>/);
  });
});
