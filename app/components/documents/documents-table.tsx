import { ExternalLink, History, Trash2 } from "lucide-react";
import { Link } from "react-router";
import { audienceCopy, documentsListCopy, investorDocumentsCopy, publishedDocumentsCopy } from "~/content/documents";
import { Badge, DataTable, OneLine, RowMenu, type DataColumn } from "../kit/data-table";
import { LoadFailed } from "../kit/empty-state";
import { DeleteDocumentButton, type DeleteSettings } from "./delete-document";
import type { PublishedDocument } from "./published-documents";

const c = documentsListCopy;

/** A row menu's item: a full-width line (links and the delete's button alike). */
const menuItem =
  "flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm font-medium text-slate-800 hover:bg-slate-100 dark:text-slate-100 dark:hover:bg-slate-800";
const menuDanger =
  "flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm font-medium text-red-800 hover:bg-red-50 aria-disabled:cursor-not-allowed aria-disabled:opacity-70 dark:text-red-200 dark:hover:bg-red-950";
const muted = "text-xs text-slate-600 dark:text-slate-300";

type Paths = { view: (id: string) => string; history: (id: string) => string };

function columns(categoryLabel: (value: string) => string, deleteSettings: DeleteSettings, paths: Paths): DataColumn<PublishedDocument>[] {
  return [
    {
      key: "title",
      header: c.columns.title,
      card: "primary",
      cell: (d) => (
        <>
          <Link to={paths.history(d.id)} className="block truncate font-semibold text-slate-900 hover:underline max-sm:whitespace-normal dark:text-white" title={d.title}>
            {d.title}
          </Link>
          <span className={`flex min-w-0 gap-1 font-normal ${muted}`}>
            <span className="truncate" title={d.fileName}>
              {d.fileName}
            </span>
            <span aria-hidden="true">·</span>
            <span className="sr-only">, </span>
            <span className="shrink-0 tabular-nums">{d.size}</span>
          </span>
        </>
      ),
    },
    {
      key: "category",
      header: c.columns.category,
      width: "w-44",
      cell: (d) => <OneLine>{categoryLabel(d.category)}</OneLine>,
    },
    {
      key: "audience",
      header: c.columns.audience,
      width: "w-52",
      cell: (d) =>
        d.audience ? (
          <span className="inline-flex flex-wrap gap-1" data-testid="document-audience">
            <Badge tone={d.audience.kind === "selected" ? "info" : "neutral"}>{d.audience.summary}</Badge>
            {d.audience.watermarked ? <Badge tone="warning">{audienceCopy.watermarked}</Badge> : null}
          </span>
        ) : null,
    },
    {
      key: "opened",
      header: c.columns.opened,
      width: "w-28",
      className: "whitespace-nowrap tabular-nums",
      cell: (d) => (d.audience ? <span data-testid="document-opened">{c.opened(d.audience.opened, d.audience.of)}</span> : null),
    },
    {
      key: "uploaded",
      header: c.columns.uploaded,
      width: "w-32",
      card: "meta",
      className: "whitespace-nowrap tabular-nums",
      cell: (d) => d.uploadedOn,
    },
    {
      key: "actions",
      header: c.columns.actions,
      headerHidden: true,
      width: "w-14",
      card: "actions",
      className: "text-right",
      cell: (d) => (
        <RowMenu name={d.title}>
          <a href={paths.view(d.id)} target="_blank" rel="noopener noreferrer" className={menuItem}>
            <ExternalLink aria-hidden="true" className="size-4 shrink-0" />
            {c.viewFile}
            <span className="sr-only">
              {" "}
              {d.title} {investorDocumentsCopy.opensInNewTab}
            </span>
          </a>
          <Link to={paths.history(d.id)} className={menuItem}>
            <History aria-hidden="true" className="size-4 shrink-0" />
            {publishedDocumentsCopy.history}
            <span className="sr-only"> of {d.title}</span>
          </Link>
          <div className="border-t border-slate-200 pt-1 dark:border-slate-700">
            <DeleteDocumentButton document={d} settings={deleteSettings} className={menuDanger} icon={<Trash2 aria-hidden="true" className="size-4 shrink-0" />} />
          </div>
        </RowMenu>
      ),
    },
  ];
}

/**
 * 'Published LP documents' (issue 23 §3): one row per document (title with
 * its file and size, category, audience, opened N of M, date), the row menu
 * with View, the access history and Delete (its confirm step as before). The
 * title opens the document's page (access history, audience, read status).
 * The page shows the deletes' outcome (`useDeleteOutcome`): the table goes
 * when its last row does.
 */
export function DocumentsTable({
  documents,
  failed,
  categories,
  deleteSettings,
  viewPath,
  historyPath,
}: {
  documents: PublishedDocument[];
  failed: boolean;
  categories: readonly { value: string; label: string }[];
  deleteSettings: DeleteSettings;
  viewPath: (id: string) => string;
  historyPath: (id: string) => string;
}) {
  if (failed) {
    return (
      <LoadFailed title={publishedDocumentsCopy.loadFailedTitle} description={publishedDocumentsCopy.loadFailedDescription} />
    );
  }
  const labelOf = (value: string) => categories.find((x) => x.value === value)?.label ?? value;
  return (
    <DataTable
      label={c.tableLabel}
      columns={columns(labelOf, deleteSettings, { view: viewPath, history: historyPath })}
      rows={documents}
      rowKey={(d) => d.id}
      rowTestId="published-document"
    />
  );
}
