import { CircleAlert, CircleCheck, TriangleAlert } from "lucide-react";
import { kitCopy } from "~/content/kit";
import { Badge, DataTable, type DataColumn } from "./data-table";

/**
 * A row of an import as its preview shows it: its line in the file (null for a row the
 * preview adds, e.g. an entity the file leaves out) and every reason it cannot be imported (none: ready).
 */
export type ImportPreviewRow = { key: string; line: number | null; errors: readonly string[] };

const c = kitCopy.importPreview;

/**
 * An import's preview (issue 24 §9: "an import preview with errors per
 * row"): a summary ("3 rows ready, 1 with errors", announced), then every row
 * of the file in its order, with its line number, the page's own columns (what
 * the row would save) and its outcome: Ready, or each of its errors, flagged
 * in words and with an icon, not by colour alone, and the row tinted. Below
 * 640 px each row is a card (the kit's DataTable). Nothing in it needs a
 * script; the page puts its confirm form under it.
 */
export function ImportPreview<Row extends ImportPreviewRow>({
  label,
  rows,
  columns,
  testId = "import-preview",
}: {
  /** The table's name (its caption). */
  label: string;
  rows: readonly Row[];
  /** What each row would save; the first one with `rowHeader` names the row (the card's title). */
  columns: ReadonlyArray<DataColumn<Row>>;
  testId?: string;
}) {
  const withErrors = rows.filter((row) => row.errors.length > 0).length;
  const ready = rows.length - withErrors;
  const all: DataColumn<Row>[] = [
    { key: "line", header: c.line, width: "w-16", className: "tabular-nums", cell: (row) => (row.line === null ? "—" : row.line.toLocaleString("en-US")) },
    ...columns,
    {
      key: "outcome",
      header: c.outcome,
      width: "w-[34%]",
      cell: (row) =>
        // A ready row's outcome stays small (a file may have thousands): the kit's badge, no icon.
        row.errors.length === 0 ? (
          <Badge tone="success">{c.ready}</Badge>
        ) : (
          <ul className="space-y-1 font-medium whitespace-normal text-red-800 dark:text-red-200" aria-label={c.errors(row.errors.length)}>
            {row.errors.map((error) => (
              <li key={error} className="flex items-start gap-1.5">
                <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
                <span>{error}</span>
              </li>
            ))}
          </ul>
        ),
    },
  ];
  return (
    <div data-testid={testId}>
      <p role="status" data-testid="import-summary" className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm font-medium">
        <span className="inline-flex items-center gap-1.5 text-emerald-800 dark:text-emerald-200">
          <CircleCheck aria-hidden="true" className="size-4" />
          {c.readyRows(ready)}
        </span>
        <span className="sr-only">, </span>
        <span className={`inline-flex items-center gap-1.5 ${withErrors ? "text-red-800 dark:text-red-200" : "text-slate-600 dark:text-slate-300"}`}>
          {withErrors ? <TriangleAlert aria-hidden="true" className="size-4" /> : null}
          {c.withErrors(withErrors)}
        </span>
      </p>
      <DataTable
        label={label}
        columns={all}
        rows={rows}
        rowKey={(row) => row.key}
        rowTestId="import-row"
        rowProps={(row) => (row.errors.length ? { "data-outcome": "error", className: "bg-red-50/70 dark:bg-red-950/30" } : { "data-outcome": "ready" })}
      />
    </div>
  );
}
