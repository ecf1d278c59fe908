import { ArrowLeft, Download, ExternalLink, FileText, FolderOpen } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { fundAccessCopy } from "~/content/fund-access";
import type { DocumentView, FundDocumentRead } from "~/modules/documents/read";
import { buttonClass } from "../ui/form";

/**
 * A fund document as the fund pages show it: the read shape of SPEC.md §3
 * (fileSize as ready-made text, "1.25 MB") plus `createdOn`, the date the
 * loader formatted on the server ('Jan 5, 2025'), so no date library reaches the browser.
 */
export type FundDocumentView = DocumentView<FundDocumentRead>;

/** The frame of a fund documents page: the link back to the fund, the page heading and its introduction. */
export function FundDocumentsPage({
  back,
  title,
  intro,
  children,
}: {
  back: { to: string; label: string };
  title: string;
  intro?: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto max-w-4xl px-4 py-16 sm:px-6">
      <Link
        to={back.to}
        className="inline-flex items-center gap-2 text-sm font-medium text-brand-700 hover:underline dark:text-brand-300"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        {back.label}
      </Link>
      <h1 className="mt-6 text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
      {intro ? <p className="mt-3 text-slate-600 dark:text-slate-300">{intro}</p> : null}
      {children}
    </div>
  );
}

/** A list with nothing in it yet: an icon, a heading of the given level and a line of text. */
export function NoFundDocuments({
  title,
  text,
  headingLevel,
  className,
}: {
  title: string;
  text: string;
  headingLevel: 2 | 3;
  className: string;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <div
      className={`flex flex-col items-center gap-2 border border-dashed border-slate-300 px-6 text-center dark:border-slate-700 ${className}`}
    >
      <FolderOpen aria-hidden="true" className="size-10 text-slate-500 dark:text-slate-400" />
      <Heading className="text-lg font-semibold">{title}</Heading>
      <p className="text-sm text-slate-600 dark:text-slate-300">{text}</p>
    </div>
  );
}

/** 'View' (new tab, inline) and 'Download' (attachment): plain links, the server checks access on each. */
export function FundDocumentLinks({ doc }: { doc: FundDocumentView }) {
  const c = fundAccessCopy.documents;
  const id = encodeURIComponent(doc.id);
  return (
    <div className="flex shrink-0 flex-wrap gap-2">
      <a
        href={`/api/fund-documents/view/${id}`}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={c.viewLabel(doc.title)}
        className={buttonClass("secondary")}
      >
        <ExternalLink aria-hidden="true" className="size-4" />
        {c.view}
      </a>
      <a
        href={`/api/fund-documents/download/${id}`}
        download={doc.fileName}
        aria-label={c.downloadLabel(doc.title)}
        className={buttonClass("primary")}
      >
        <Download aria-hidden="true" className="size-4" />
        {c.download}
      </a>
    </div>
  );
}

/** Date and size under a document's title. */
function DocumentFacts({ doc }: { doc: FundDocumentView }) {
  return (
    <p className="mt-2 flex flex-wrap gap-x-2 text-xs text-slate-600 dark:text-slate-400">
      <time dateTime={doc.createdAt}>{doc.createdOn}</time>
      <span aria-hidden="true">·</span>
      <span className="sr-only">, </span>
      <span className="tabular-nums">{doc.fileSize}</span>
    </p>
  );
}

/** One document of a list: title (as a heading of the given level), description, date, size, View and Download. */
export function FundDocumentItem({ doc, headingLevel }: { doc: FundDocumentView; headingLevel: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <li
      className="flex flex-wrap items-start justify-between gap-4 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
      data-testid="fund-document"
    >
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <FileText aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-brand-700 dark:text-brand-300" />
        <div className="min-w-0">
          <Heading className="font-semibold break-words text-slate-900 dark:text-slate-100">{doc.title}</Heading>
          {doc.description ? (
            <p className="mt-1 text-sm break-words whitespace-pre-line text-slate-700 dark:text-slate-300">
              {doc.description}
            </p>
          ) : null}
          <DocumentFacts doc={doc} />
        </div>
      </div>
      <FundDocumentLinks doc={doc} />
    </li>
  );
}
