import { ExternalLink, FileText, History } from "lucide-react";
import { useRef } from "react";
import { Link } from "react-router";
import { audienceCopy, investorDocumentsCopy, publishedDocumentsCopy } from "~/content/documents";
import { CategorySection } from "./category-section";
import { DeleteDocumentButton, useDeleteOutcome, type DeleteSettings } from "./delete-document";
import { LoadFailed } from "../kit/empty-state";

/** A document as the admin panel shows it; the loader formats size and dates ('MMM dd, yyyy', SPEC.md §9). */
export type PublishedDocument = {
  id: string;
  title: string;
  description: string | null;
  category: string;
  fileName: string;
  /** e.g. "1.25 MB" */
  size: string;
  uploadedOn: string;
  views: number;
  downloads: number;
  /** null: never viewed or downloaded. */
  lastAccess: string | null;
  /** LP documents: who it is for (ready-made text), whether views are stamped, and 'Opened by N of M' (and its numbers). */
  audience?: { kind: "all" | "selected"; summary: string; watermarked: boolean; openedBy: string; opened: number; of: number };
};

/** Texts of the panel that content/documents.ts does not have. */
export const publishedPanelText = {
  listLabel: "Published LP documents by category",
  uploaded: (date: string) => `Uploaded ${date}`,
  historyOf: (title: string) => ` of ${title}`,
} as const;

/** The panel's texts: content/documents.ts `publishedDocumentsCopy` for LP documents, or another panel's. */
export type PublishedDocumentsCopy = {
  [K in keyof typeof publishedDocumentsCopy]: (typeof publishedDocumentsCopy)[K] extends (...args: infer A) => string
    ? (...args: A) => string
    : string;
};

type Copy = PublishedDocumentsCopy;

const linkClass =
  "inline-flex items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-slate-900 shadow-sm transition-colors hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800";

/**
 * A fund's published documents (SPEC.md §2): the categories as collapsible
 * sections with count badges, in a named list area (the page scrolls, not
 * the area: decision 010). Each
 * document: title, file name, size, how often it was opened, its access
 * history, View (new tab) and Delete.
 */
export function PublishedDocuments({
  documents,
  failed,
  categories,
  deleteSettings,
  viewPath,
  historyPath,
  sectionId = "published-documents",
  copy = publishedDocumentsCopy,
  listLabel = publishedPanelText.listLabel,
  rowTestId = "published-document",
}: {
  documents: PublishedDocument[];
  failed: boolean;
  categories: readonly { value: string; label: string }[];
  deleteSettings: DeleteSettings;
  viewPath: (id: string) => string;
  historyPath?: (id: string) => string;
  sectionId?: string;
  copy?: Copy;
  listLabel?: string;
  /** Each row's data-testid (another panel's rows can then be told apart from the LP ones). */
  rowTestId?: string;
}) {
  const regionRef = useRef<HTMLElement>(null);
  useDeleteOutcome(deleteSettings.fetcherKey, regionRef);
  const titleId = `${sectionId}-title`;

  return (
    <section id={sectionId} className="mt-10 scroll-mt-40" data-testid={sectionId}>
      <h2 id={titleId} className="text-lg font-semibold">
        {copy.title}
      </h2>
      {failed ? (
        <LoadFailed title={copy.loadFailedTitle} description={copy.loadFailedDescription} className="mt-3" />
      ) : (
        <section ref={regionRef} aria-label={listLabel} className="mt-3 rounded-lg border border-slate-200 px-4 dark:border-slate-800">
          {categories.map((category) => {
            const inCategory = documents.filter((d) => d.category === category.value);
            return (
              <CategorySection key={category.value} id={`${sectionId}-${category.value}`} label={category.label} count={inCategory.length}>
                {inCategory.length === 0 ? (
                  <p className="py-2 text-sm text-slate-600 dark:text-slate-300">{copy.emptyCategory}</p>
                ) : (
                  <ul className="divide-y divide-slate-200 dark:divide-slate-800">
                    {inCategory.map((document) => (
                      <DocumentRow
                        key={document.id}
                        document={document}
                        copy={copy}
                        deleteSettings={deleteSettings}
                        viewHref={viewPath(document.id)}
                        historyHref={historyPath?.(document.id)}
                        testId={rowTestId}
                      />
                    ))}
                  </ul>
                )}
              </CategorySection>
            );
          })}
        </section>
      )}
    </section>
  );
}

function DocumentRow({
  document,
  copy,
  deleteSettings,
  viewHref,
  historyHref,
  testId,
}: {
  document: PublishedDocument;
  copy: Copy;
  deleteSettings: DeleteSettings;
  viewHref: string;
  historyHref: string | undefined;
  testId: string;
}) {
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 py-3" data-testid={testId}>
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <FileText aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-slate-500 dark:text-slate-400" />
        <div className="min-w-0">
          <p className="font-semibold break-words">{document.title}</p>
          {document.description ? (
            <p className="mt-0.5 text-sm break-words text-slate-700 dark:text-slate-300">{document.description}</p>
          ) : null}
          <p className="mt-0.5 text-sm text-slate-600 dark:text-slate-300">
            <span className="break-all">{document.fileName}</span>
            <span aria-hidden="true"> · </span>
            <span className="sr-only">, </span>
            <span className="tabular-nums">{document.size}</span>
            <span aria-hidden="true"> · </span>
            <span className="sr-only">, </span>
            {publishedPanelText.uploaded(document.uploadedOn)}
          </p>
          <p className="mt-0.5 text-xs text-slate-600 tabular-nums dark:text-slate-400">
            {copy.views(document.views)}
            <span aria-hidden="true"> · </span>
            <span className="sr-only">, </span>
            {copy.downloads(document.downloads)}
            <span aria-hidden="true"> · </span>
            <span className="sr-only">, </span>
            {document.lastAccess ? copy.lastAccess(document.lastAccess) : copy.neverOpened}
          </p>
          {document.audience ? (
            <p className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-700 dark:text-slate-300" data-testid="document-audience">
              <span className="rounded-full bg-brand-50 px-2 py-0.5 font-medium text-brand-800 dark:bg-brand-900 dark:text-brand-100">
                {document.audience.summary}
              </span>
              {document.audience.watermarked ? (
                <span className="rounded-full bg-amber-50 px-2 py-0.5 font-medium text-amber-900 dark:bg-amber-950 dark:text-amber-100">
                  {audienceCopy.watermarked}
                </span>
              ) : null}
              <span className="tabular-nums">{document.audience.openedBy}</span>
            </p>
          ) : null}
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {historyHref ? (
          <Link to={historyHref} className={linkClass}>
            <History aria-hidden="true" className="size-4" />
            {copy.history}
            <span className="sr-only">{publishedPanelText.historyOf(document.title)}</span>
          </Link>
        ) : null}
        <a href={viewHref} target="_blank" rel="noopener noreferrer" className={linkClass}>
          <ExternalLink aria-hidden="true" className="size-4" />
          {copy.view}
          <span className="sr-only">
            {" "}
            {document.title} {investorDocumentsCopy.opensInNewTab}
          </span>
        </a>
        <DeleteDocumentButton document={document} settings={deleteSettings} />
      </div>
    </li>
  );
}
