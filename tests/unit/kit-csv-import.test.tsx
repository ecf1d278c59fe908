import { renderToString } from "react-dom/server";
import { createRoutesStub, useFetcher } from "react-router";
import { describe, expect, it } from "vitest";
import { CsvFormat } from "~/components/kit/csv-format";
import { CsvUploadForm, ImportConfirm, ImportLayout } from "~/components/kit/csv-import";

/** Server-renders what `make` returns on a route (the forms need a router and a fetcher). */
function render(make: (fetcher: ReturnType<typeof useFetcher>) => React.ReactNode): string {
  function Page() {
    const fetcher = useFetcher();
    return <>{make(fetcher)}</>;
  }
  const Stub = createRoutesStub([{ path: "/", Component: Page }]);
  return renderToString(<Stub initialEntries={["/"]} />);
}

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ")
    .trim();
const columns = [
  { name: "entity_id", text: "The entity's id." },
  { name: "nav", text: "The NAV, like 1250000.00." },
];

describe("the CSV import pages' kit pieces", () => {
  it("tells the file's columns, the page's notes and an example, as a panel named by its heading or folded under a summary", () => {
    const open = render(() => (
      <CsvFormat title="The file's columns" columns={columns} exampleTitle="Example" example={"entity_id,nav\nabc,1.00"}>
        <p>Amounts without a currency sign.</p>
      </CsvFormat>
    ));
    expect(open).toMatch(/^<section aria-labelledby="format-title"[^>]*><h2 id="format-title"[^>]*>The file&#x27;s columns<\/h2>/);
    expect(text(open)).toBe("The file's columns entity_id The entity's id. nav The NAV, like 1250000.00. Amounts without a currency sign. Example entity_id,nav abc,1.00");
    expect(open).toContain("<details");

    const folded = render(() => <CsvFormat title="The file's columns" columns={columns} exampleTitle="Example" example="x" folded="The files' columns" />);
    expect(folded).toMatch(/^<details[^>]*><summary[^>]*>The files&#x27; columns<\/summary><h2[^>]*>The file&#x27;s columns<\/h2>/);
    expect(folded).not.toContain('id="format-title"');
  });

  it("makes the upload form a multipart post of the intent's preview step, named by its heading, with the page's fields", () => {
    const html = render((fetcher) => (
      <CsvUploadForm fetcher={fetcher} action="/import" intent="valuations" titleId="upload-title" copy={{ title: "Upload a CSV file", submit: "Preview the import", submitting: "Reading..." }} limitBytes={10} busy={false}>
        {({ tooLarge }) => <input name="file" type="file" data-too-large={String(tooLarge)} />}
      </CsvUploadForm>
    ));
    expect(html).toMatch(/<form aria-labelledby="upload-title"[^>]*action="\/import" enctype="multipart\/form-data" method="post">/i);
    expect(html).toContain('<input type="hidden" name="intent" value="valuations"/><input type="hidden" name="step" value="preview"/><input');
    // The page's file field, told whether the chosen files are too large (none chosen yet).
    expect(html).toMatch(/<input [^>]*data-too-large="false"[^>]*name="file"\/>/);
    expect(text(html)).toBe("Upload a CSV file Preview the import");
  });

  it("ends a preview with its confirm form carrying the fields back, or with why nothing can be imported, then the confirm's refusal", () => {
    const confirm = render((fetcher) => (
      <ImportConfirm fetcher={fetcher} action="/import" intent="valuations" copy={{ confirming: "Importing...", fixAndRetry: "Nothing was imported." }} label="Import 2 valuations" busy={false} fields={{ expected: 2, csv: "a,b" }} multipart errors={undefined}>
        <p>Nothing is saved until you import.</p>
      </ImportConfirm>
    ));
    expect(confirm).toMatch(/<form aria-label="Import 2 valuations"[^>]*enctype="multipart\/form-data" method="post">/i);
    expect(confirm).toContain('<input type="hidden" name="step" value="confirm"/><input type="hidden" name="expected" value="2"/><input type="hidden" name="csv" value="a,b"/>');
    expect(text(confirm)).toBe("Nothing is saved until you import. Import 2 valuations");

    const refused = render((fetcher) => (
      <ImportConfirm fetcher={fetcher} action="/import" intent="valuations" copy={{ confirming: "Importing...", fixAndRetry: "Nothing was imported." }} label="Import" busy={false} fields={null} refusedTestId="preview-refused" errors={["The file changed since its preview"]}>
        <p>Not shown</p>
      </ImportConfirm>
    ));
    expect(refused).not.toContain("<form");
    expect(refused).toContain('data-testid="preview-refused"');
    expect(text(refused)).toBe("Nothing was imported. The file changed since its preview");
    expect(refused).toMatch(/<p id="preview-error"[^>]*role="alert">The file changed since its preview<\/p>/);
  });

  it("lays the form beside the format, and once there is a preview, the format again under it for a narrow screen", () => {
    const before = render(() => <ImportLayout form={<form aria-label="upload" />} format={<aside>format</aside>} preview={null} />);
    expect(before.match(/<aside>/g)).toHaveLength(1);
    const after = render(() => <ImportLayout form={<form aria-label="upload" />} format={<aside>format</aside>} preview={<section>preview</section>} />);
    expect(after).toMatch(/<div class="max-lg:hidden"><aside>format<\/aside><\/div><\/div><section>preview<\/section><div class="mt-8 lg:hidden"><aside>format<\/aside><\/div>/);
  });
});
