import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { kitCopy } from "~/content/kit";

export type SortDirection = "asc" | "desc";

/** A sortable column's header link: where it goes (the loader reads it), and the sort it shows now. */
export type ColumnSort = { href: string; active: SortDirection | null; next: SortDirection };

/**
 * Where a column's value goes in the stacked card below 640 px:
 * - `primary`: the card's first line, in bold (the row's name);
 * - `badge`: beside the primary line (a status);
 * - `meta`: a small line under it (the key date);
 * - `detail` (default): a labelled line underneath;
 * - `actions`: the card's top right corner (the row menu).
 */
export type CardPlace = "primary" | "badge" | "meta" | "detail" | "actions";

export type DataColumn<Row> = {
  key: string;
  /** The column heading (and the label of its value on a phone card). */
  header: string;
  /** Headings the eye does not need (a row menu's): read by screen readers only. */
  headerHidden?: boolean;
  cell: (row: Row) => ReactNode;
  /** A `<col>` width class ('w-40', 'w-[30%]'); columns without one share what is left. */
  width?: string;
  card?: CardPlace;
  sort?: ColumnSort;
  /** Extra classes of the column's cells. */
  className?: string;
  /** The cells name their row (`<th scope="row">`): the first column, usually. */
  rowHeader?: boolean;
  /** `end`: heading and values to the right from 640 px (amounts, so their digits line up). */
  align?: "end";
};

const ariaSort = { asc: "ascending", desc: "descending" } as const;

function HeaderCell<Row>({ column }: { column: DataColumn<Row> }) {
  const { sort, header } = column;
  const end = column.align === "end" ? " text-right" : "";
  if (column.headerHidden) {
    return (
      <th scope="col" className="px-3 py-2">
        <span className="sr-only">{header}</span>
      </th>
    );
  }
  if (!sort) {
    return (
      <th scope="col" className={`px-3 py-2 font-semibold whitespace-nowrap${end}`}>
        {header}
      </th>
    );
  }
  const Icon = sort.active ? (sort.active === "asc" ? ArrowUp : ArrowDown) : ArrowUpDown;
  return (
    <th scope="col" aria-sort={sort.active ? ariaSort[sort.active] : "none"} aria-label={header} className={`px-3 py-2 font-semibold whitespace-nowrap${end}`}>
      <Link
        to={sort.href}
        preventScrollReset
        aria-label={kitCopy.sortBy(header, sort.next)}
        className="inline-flex items-center gap-1 rounded-sm hover:underline"
      >
        {header}
        <Icon aria-hidden="true" className={`size-3.5 shrink-0 ${sort.active ? "text-brand-700 dark:text-brand-300" : "text-slate-500 dark:text-slate-400"}`} />
      </Link>
    </th>
  );
}

/**
 * The workspaces' table (DESIGN.md §2; its cells' styles are in app.css, .data-table): one line per row, a header that stays
 * in view while the page scrolls (no box with its own scroll: lists page), sort
 * links in the headings, and below 640 px a stacked card per row: the primary
 * value with its badge, the key date, then every other column's value with its
 * heading, so nothing is hidden off-screen. No script is needed for any of it.
 */
export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  rowTestId,
  rowProps,
  sortedBy,
  emptyRow,
  dense,
}: {
  /** The table's name (its caption, read by screen readers). */
  label: string;
  columns: ReadonlyArray<DataColumn<Row>>;
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  rowTestId?: string;
  /** A row's own attributes (data-*, a tint for a row that needs attention). */
  rowProps?: (row: Row) => { className?: string } & Record<`data-${string}`, string>;
  /** Read with the caption: 'Sorted by Date, descending.' (leave out where the table's name must stay the same). */
  sortedBy?: string;
  /** With no rows: one row across the table saying so (SPEC's 'empty rows'); without it the table shows no body rows. */
  emptyRow?: ReactNode;
  /** Tighter rows, for long logs (the activity page: 50 events in 2,500 px). */
  dense?: boolean;
}) {
  return (
    <div className="mt-4 rounded-lg border border-slate-200 dark:border-slate-800">
      <table className={`data-table w-full table-fixed text-left text-sm max-sm:block${dense ? " data-table-dense" : ""}`}>
        <caption className="sr-only">
          {label}
          {sortedBy ? ` ${sortedBy}` : ""}
        </caption>
        <colgroup className="max-sm:hidden">
          {columns.map((column) => (
            <col key={column.key} className={column.width} />
          ))}
        </colgroup>
        <thead className="bg-slate-50 text-slate-700 max-sm:hidden md:sticky md:top-24 md:z-10 dark:bg-slate-900 dark:text-slate-200">
          <tr>
            {columns.map((column) => (
              <HeaderCell key={column.key} column={column} />
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 max-sm:block dark:divide-slate-800">
          {rows.length === 0 && emptyRow ? (
            <tr>
              <td colSpan={columns.length} className="py-6! text-center text-slate-600 max-sm:w-full dark:text-slate-300">
                {emptyRow}
              </td>
            </tr>
          ) : null}
          {rows.map((row) => (
            <tr key={rowKey(row)} data-testid={rowTestId} {...rowProps?.(row)}>
              {columns.map((column) => {
                const place = column.card ?? "detail";
                const Cell = column.rowHeader ? "th" : "td";
                return (
                  <Cell
                    key={column.key}
                    scope={column.rowHeader ? "row" : undefined}
                    data-card={place === "detail" ? undefined : place}
                    data-label={place === "detail" ? column.header : undefined}
                    className={[column.rowHeader ? "text-left font-normal" : null, column.align === "end" ? "sm:text-right" : null, column.className].filter(Boolean).join(" ") || undefined}
                  >
                    {column.cell(row)}
                  </Cell>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A person in a cell: the name, the e-mail address under it (cut to one line, whole in its title). */
export function PersonLines({ name, email }: { name: ReactNode; email: string | null }) {
  return (
    <>
      <span className="block font-medium">{name}</span>
      {email ? (
        <span className="block truncate text-slate-600 max-sm:whitespace-normal max-sm:wrap-anywhere dark:text-slate-300" title={email}>
          {email}
        </span>
      ) : null}
    </>
  );
}

/** A value on one line, cut with an ellipsis when long; the whole value is its title (and is read out whole). */
export function OneLine({ children, title, className = "" }: { children: ReactNode; title?: string; className?: string }) {
  return (
    <span className={`one-line ${className}`} title={title}>
      {children}
    </span>
  );
}

/**
 * A row's menu ('⋯'): the actions that change or take away (Revoke, Delete,
 * Edit code…), out of the line until asked for. A disclosure, so it opens
 * without a script; each item keeps its own confirm step.
 */
export function RowMenu({ name, open, children }: { name: string; /** Opened from the server (a no-JS post's answer to a form inside). */ open?: boolean; children: ReactNode }) {
  return (
    // Styled in app.css (.row-menu), so fifty rows of menus stay small.
    <details className="row-menu" data-row-menu="" open={open || undefined}>
      <summary title={kitCopy.rowActions(name)}>
        <svg aria-hidden="true" viewBox="0 0 24 24">
          <path d="M5 12h.01M12 12h.01M19 12h.01" />
        </svg>
        <span className="sr-only">{kitCopy.rowActions(name)}</span>
      </summary>
      <div>{children}</div>
    </details>
  );
}

/** The tones of a badge; their colours are in app.css (.badge[data-tone]). */
const badgeTones = ["neutral", "success", "warning", "danger", "info"] as const;

export type BadgeTone = (typeof badgeTones)[number];

/** A status word in a pill (Approved, Pending, Overdue…). */
export function Badge({ tone = "neutral", children }: { tone?: BadgeTone; children: ReactNode }) {
  return (
    <span className="badge" data-tone={tone}>
      {children}
    </span>
  );
}
