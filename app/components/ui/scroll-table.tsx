import type { ReactNode } from "react";

/** A header cell: its label, and whether it stays on one line. */
export type ScrollTableColumn = { label: string; nowrap?: boolean };

/**
 * A plain table that scrolls sideways inside a focusable, labelled region
 * (a keyboard user can scroll it too): a hidden caption, one header row, and
 * the rows the caller gives (`children`). `className` places the region;
 * `tableClassName` sets the table's minimum width.
 */
export function ScrollTable({
  label,
  caption,
  columns,
  className = "",
  tableClassName = "",
  children,
}: {
  label: string;
  caption: string;
  columns: readonly ScrollTableColumn[];
  className?: string;
  tableClassName?: string;
  children: ReactNode;
}) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className={`${className} overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-800`}>
      <table className={`w-full ${tableClassName} text-left text-sm`}>
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-slate-700 dark:bg-slate-900 dark:text-slate-200">
          <tr>
            {columns.map((column) => (
              <th key={column.label} scope="col" className={column.nowrap ? "px-4 py-3 font-semibold whitespace-nowrap" : "px-4 py-3 font-semibold"}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 dark:divide-slate-800">{children}</tbody>
      </table>
    </div>
  );
}

/** A person in a cell: the name in bold, the e-mail address under it. */
export function PersonLines({ name, email }: { name: ReactNode; email: ReactNode }) {
  return (
    <>
      <span className="block font-medium">{name}</span>
      <span className="block break-all text-slate-600 dark:text-slate-300">{email}</span>
    </>
  );
}
