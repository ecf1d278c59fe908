import type { ReactNode } from "react";

/** One column of an import's file: its header name (shown as code) and what it holds. */
export type CsvFormatColumn = { readonly name: string; readonly text: string };

/**
 * The panel that tells a CSV import's file (the valuations, P&L and history
 * import pages): its heading, each column's name and meaning, the page's
 * notes (`children`, between the list and the example), and an example file
 * in a disclosure. Beside the upload form on a wide screen (the page places
 * it). `folded` (its summary's words) makes the whole panel a disclosure, the
 * heading inside it: a page folds it once a preview is shown.
 */
export function CsvFormat({
  title,
  columns,
  exampleTitle,
  example,
  folded,
  children,
}: {
  title: string;
  columns: readonly CsvFormatColumn[];
  exampleTitle: string;
  example: string;
  folded?: string;
  children?: ReactNode;
}) {
  const body = (
    <>
      <dl className="mt-3 space-y-2 text-sm">
        {columns.map((column) => (
          <div key={column.name}>
            <dt className="font-mono text-xs font-semibold break-words text-slate-900 dark:text-slate-100">{column.name}</dt>
            <dd className="text-slate-600 dark:text-slate-300">{column.text}</dd>
          </div>
        ))}
      </dl>
      {children}
      <details className="mt-4 text-sm">
        <summary className="cursor-pointer font-medium text-brand-700 dark:text-brand-300">{exampleTitle}</summary>
        <pre className="mt-2 overflow-x-auto rounded-md bg-slate-50 p-3 font-mono text-xs leading-relaxed text-slate-800 dark:bg-slate-950 dark:text-slate-200">{example}</pre>
      </details>
    </>
  );
  if (folded) {
    return (
      <details className="rounded-xl border border-slate-200 p-5 dark:border-slate-800">
        <summary className="cursor-pointer text-base font-semibold">{folded}</summary>
        <h2 className="mt-3 text-sm font-semibold">{title}</h2>
        {body}
      </details>
    );
  }
  return (
    <section aria-labelledby="format-title" className="rounded-xl border border-slate-200 p-5 dark:border-slate-800">
      <h2 id="format-title" className="text-base font-semibold">
        {title}
      </h2>
      {body}
    </section>
  );
}
