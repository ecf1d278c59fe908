import { Eye } from "lucide-react";
import { investorDocumentsCopy } from "~/content/documents";
import { formatMegabytes, LP_CATEGORIES } from "~/modules/documents/constants";
import { EmptyState } from "../kit/empty-state";
import { buttonClass } from "../ui/form";
import { CategorySection } from "./category-section";
import { DownloadButton } from "./download-button";
import type { DocumentView } from "~/modules/documents/read";

/**
 * An LP document as the investor list shows it: the read shape of SPEC.md §3
 * (DocumentView of modules/documents/read.ts) plus `createdOn`, the
 * date the loader formatted on the server ('MMM d, yyyy', SPEC.md §9), so the
 * server and browser markup agree and no date library reaches the browser.
 */
export type InvestorDocument = DocumentView;

/**
 * The investor's documents (SPEC.md §2 "Investor dashboard", §8): the seven LP
 * categories in order, each a collapsed `<details>` with a count badge (an
 * empty one greyed, still there with SPEC's text), inside a focusable region
 * capped at 600 px that scrolls (SPEC.md §9). Below 640 px the list is not
 * capped: a phone scrolls the page, never a box inside it (issue 23).
 */
export function InvestorDocumentList({ documents, failed }: { documents: InvestorDocument[]; failed: boolean }) {
  const c = investorDocumentsCopy;
  if (failed) {
    return (
      <p
        role="alert"
        className="mt-4 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
      >
        {c.loadError}
      </p>
    );
  }
  if (documents.length === 0) {
    return <EmptyState testId="documents-empty">{c.emptyAll}</EmptyState>;
  }
  return (
    <section
      aria-label={c.listLabel}
      tabIndex={0}
      data-testid="investor-documents"
      className="mt-4 rounded-lg border border-slate-200 px-3 sm:max-h-[600px] sm:px-4 sm:overflow-y-auto dark:border-slate-800"
    >
      {LP_CATEGORIES.map((category) => {
        const inCategory = documents.filter((d) => d.category === category.value);
        return (
          <CategorySection
            key={category.value}
            id={`documents-${category.value}`}
            label={category.label}
            count={inCategory.length}
            quiet
          >
            {inCategory.length === 0 ? (
              <p className="py-2 text-sm text-slate-600 dark:text-slate-300">{c.emptyCategory}</p>
            ) : (
              <ul className="space-y-3">
                {inCategory.map((doc) => (
                  <DocumentItem key={doc.id} doc={doc} />
                ))}
              </ul>
            )}
          </CategorySection>
        );
      })}
    </section>
  );
}

function DocumentItem({ doc }: { doc: InvestorDocument }) {
  const c = investorDocumentsCopy;
  return (
    <li className="flex flex-wrap items-start justify-between gap-4 rounded-lg border border-slate-200 p-3 sm:p-4 dark:border-slate-800">
      <div className="min-w-0 flex-1 basis-64">
        <h3 className="font-semibold break-words text-slate-900 dark:text-slate-100">{doc.title}</h3>
        {doc.description ? (
          <p className="mt-1 text-sm break-words whitespace-pre-line text-slate-700 dark:text-slate-300">
            {doc.description}
          </p>
        ) : null}
        <p className="mt-2 flex flex-wrap gap-x-2 text-xs text-slate-600 dark:text-slate-400">
          <span className="break-all">{doc.fileName}</span>
          <span aria-hidden="true">·</span>
          <span>{formatMegabytes(Number(doc.fileSize))}</span>
          <span aria-hidden="true">·</span>
          <time dateTime={doc.createdAt}>{doc.createdOn}</time>
        </p>
      </div>
      <div className="flex shrink-0 flex-wrap gap-2">
        <a
          href={`/api/documents/${encodeURIComponent(doc.id)}/view`}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={`${c.viewLabel(doc.title)} ${c.opensInNewTab}`}
          className={buttonClass("secondary")}
        >
          <Eye aria-hidden="true" className="size-4" />
          {c.view}
        </a>
        <DownloadButton id={doc.id} title={doc.title} fileName={doc.fileName} />
      </div>
    </li>
  );
}
