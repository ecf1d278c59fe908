import { ArrowDown, ArrowUp, ArrowUpDown, MoreHorizontal } from "lucide-react";
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
};

const cardOrder: Record<CardPlace, string> = {
  primary: "max-sm:order-1 max-sm:min-w-0 max-sm:flex-1 max-sm:font-semibold",
  badge: "max-sm:order-2",
  actions: "max-sm:order-3",
  meta: "max-sm:order-4 max-sm:w-full max-sm:text-xs max-sm:text-slate-600 max-sm:dark:text-slate-300",
  detail: "max-sm:order-5 max-sm:w-full",
};

const ariaSort = { asc: "ascending", desc: "descending" } as const;

function HeaderCell<Row>({ column }: { column: DataColumn<Row> }) {
  const { sort, header } = column;
  if (column.headerHidden) {
    return (
      <th scope="col" className="px-3 py-2">
        <span className="sr-only">{header}</span>
      </th>
    );
  }
  if (!sort) {
    return (
      <th scope="col" className="px-3 py-2 font-semibold whitespace-nowrap">
        {header}
      </th>
    );
  }
  const Icon = sort.active ? (sort.active === "asc" ? ArrowUp : ArrowDown) : ArrowUpDown;
  return (
    <th scope="col" aria-sort={sort.active ? ariaSort[sort.active] : "none"} className="px-3 py-2 font-semibold whitespace-nowrap">
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
 * The workspaces' table (DESIGN.md §2): one line per row, a header that stays
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
  sortedBy,
}: {
  /** The table's name (its caption, read by screen readers). */
  label: string;
  columns: ReadonlyArray<DataColumn<Row>>;
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  rowTestId?: string;
  /** 'Sorted by date, descending.' read with the caption. */
  sortedBy?: string;
}) {
  return (
    <div className="mt-4 rounded-lg border border-slate-200 dark:border-slate-800">
      <table className="w-full table-fixed text-left text-sm max-sm:block">
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
          {rows.map((row) => (
            <tr key={rowKey(row)} data-testid={rowTestId} className="align-top max-sm:flex max-sm:flex-wrap max-sm:items-start max-sm:gap-x-2 max-sm:px-4 max-sm:py-3">
              {columns.map((column) => {
                const place = column.card ?? "detail";
                return (
                  <td key={column.key} className={`px-3 py-2 max-sm:block max-sm:px-0 max-sm:py-0.5 ${cardOrder[place]} ${column.className ?? ""}`}>
                    {place === "detail" ? <span className="mr-1 text-xs text-slate-600 sm:hidden dark:text-slate-300">{column.header}:</span> : null}
                    {column.cell(row)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A value on one line, cut with an ellipsis when long; the whole value is its title (and is read out whole). */
export function OneLine({ children, title, className = "" }: { children: ReactNode; title?: string; className?: string }) {
  return (
    <span className={`block truncate max-sm:inline ${className}`} title={title}>
      {children}
    </span>
  );
}

/**
 * A row's menu ('⋯'): the actions that change or take away (Revoke, Delete,
 * Edit code…), out of the line until asked for. A disclosure, so it opens
 * without a script; each item keeps its own confirm step.
 */
export function RowMenu({ name, children }: { name: string; children: ReactNode }) {
  return (
    <details className="group relative inline-block text-left" data-row-menu="">
      <summary
        className="flex size-8 cursor-pointer list-none items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 group-open:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800 dark:group-open:bg-slate-800 [&::-webkit-details-marker]:hidden"
        title={kitCopy.rowActions(name)}
      >
        <MoreHorizontal aria-hidden="true" className="size-5" />
        <span className="sr-only">{kitCopy.rowActions(name)}</span>
      </summary>
      <div className="absolute right-0 z-20 mt-1 flex w-72 max-w-[calc(100vw-2rem)] flex-col gap-2 rounded-lg border border-slate-200 bg-white p-3 text-left shadow-lg dark:border-slate-700 dark:bg-slate-900">
        {children}
      </div>
    </details>
  );
}

const badgeTones = {
  neutral: "border-slate-300 bg-slate-50 text-slate-800 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100",
  success: "border-emerald-300 bg-emerald-50 text-emerald-800 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-200",
  warning: "border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200",
  danger: "border-red-300 bg-red-50 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200",
  info: "border-brand-300 bg-brand-50 text-brand-800 dark:border-brand-700 dark:bg-brand-900 dark:text-brand-100",
} as const;

export type BadgeTone = keyof typeof badgeTones;

/** A status word in a pill (Approved, Pending, Overdue…). */
export function Badge({ tone = "neutral", children }: { tone?: BadgeTone; children: ReactNode }) {
  return <span className={`inline-block rounded-full border px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${badgeTones[tone]}`}>{children}</span>;
}
