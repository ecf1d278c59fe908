import { Eye } from "lucide-react";
import { useState } from "react";
import { investorDocumentsCopy } from "~/content/documents";
import { newForYouCopy } from "~/content/portal";
import { categoryLabel, formatMegabytes } from "~/modules/documents/constants";
import type { DocumentView } from "~/modules/documents/read";
import { DownloadButton } from "../documents/download-button";
import { Badge, DataTable, type DataColumn } from "../kit/data-table";
import { buttonClass } from "../ui/form";

/** A row of "New for you": the document as the investor's list shows it, and whether this investor has opened it. */
export type NewForYouRow = DocumentView & { unread: boolean };

/** The unread mark: a dot for the eye, "Unread" for a screen reader. */
function UnreadDot() {
  return (
    <span
      role="img"
      aria-label={newForYouCopy.unread}
      title={newForYouCopy.unread}
      className="mt-1.5 inline-block size-2 shrink-0 rounded-full bg-brand-600 dark:bg-brand-400"
    />
  );
}

function columns(opened: (id: string) => void): DataColumn<NewForYouRow>[] {
  const c = newForYouCopy.columns;
  const d = investorDocumentsCopy;
  return [
    {
      key: "title",
      header: c.title,
      card: "primary",
      cell: (row) => (
        <div className="flex min-w-0 items-start gap-2">
          {/* The dot's place is kept on read rows, so the titles line up. */}
          {row.unread ? <UnreadDot /> : <span aria-hidden="true" className="inline-block size-2 shrink-0" />}
          <div className="min-w-0">
            <span className={`block break-words ${row.unread ? "font-semibold text-slate-900 dark:text-white" : "font-medium text-slate-700 dark:text-slate-200"}`}>
              {row.title}
            </span>
            <span className="mt-0.5 flex min-w-0 gap-1 text-xs font-normal text-slate-600 dark:text-slate-400">
              <span className="truncate" title={row.fileName}>
                {row.fileName}
              </span>
              <span aria-hidden="true">·</span>
              <span className="shrink-0 whitespace-nowrap">{formatMegabytes(Number(row.fileSize))}</span>
            </span>
          </div>
        </div>
      ),
    },
    { key: "category", header: c.category, card: "badge", width: "w-48", cell: (row) => <Badge>{categoryLabel(row.category)}</Badge> },
    {
      key: "date",
      header: c.date,
      card: "meta",
      width: "w-32",
      className: "whitespace-nowrap text-slate-600 dark:text-slate-300 max-sm:pl-4",
      cell: (row) => <time dateTime={row.createdAt}>{row.createdOn}</time>,
    },
    {
      key: "actions",
      header: c.actions,
      headerHidden: true,
      card: "meta",
      width: "w-64",
      className: "max-sm:pt-2 max-sm:pl-4",
      cell: (row) => (
        // A click on View or Download opens the document: its dot goes at once (the server agrees on the next load).
        <div className="flex flex-wrap gap-2 sm:flex-nowrap sm:justify-end" onClickCapture={() => opened(row.id)}>
          <a
            href={`/api/documents/${encodeURIComponent(row.id)}/view`}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={`${d.viewLabel(row.title)} ${d.opensInNewTab}`}
            className={buttonClass("secondary")}
          >
            <Eye aria-hidden="true" className="size-4" />
            {d.view}
          </a>
          <DownloadButton id={row.id} title={row.title} fileName={row.fileName} />
        </div>
      ),
    },
  ];
}

/**
 * The investor home's first section (issue 23 §3): the newest documents
 * addressed to this investor or to all, with a dot on those not opened yet,
 * the category, the date and View/Download. When every one has been opened,
 * one quiet sentence says so above them.
 */
export function NewForYou({ rows }: { rows: readonly NewForYouRow[] }) {
  const c = newForYouCopy;
  // Opened on this page since it loaded (with JavaScript); the next load reads the access log.
  const [openedHere, setOpenedHere] = useState<ReadonlySet<string>>(() => new Set());
  const shown = rows.map((row) => (row.unread && openedHere.has(row.id) ? { ...row, unread: false } : row));
  const unread = shown.filter((row) => row.unread).length;
  const opened = (id: string) => setOpenedHere((prev) => (prev.has(id) ? prev : new Set(prev).add(id)));
  return (
    <section aria-labelledby="new-for-you-title" data-testid="new-for-you" className="mt-8">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h2 id="new-for-you-title" className="text-xl font-semibold">
          {c.title}
        </h2>
        {unread > 0 ? (
          <Badge tone="info">
            <span data-testid="unread-count">{c.unreadCount(unread)}</span>
          </Badge>
        ) : null}
      </div>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{unread > 0 ? c.intro : c.allRead}</p>
      <DataTable
        label={c.tableLabel}
        sortedBy={c.sortedBy}
        columns={columns(opened)}
        rows={shown}
        rowKey={(row) => row.id}
        rowTestId="new-for-you-row"
      />
    </section>
  );
}
