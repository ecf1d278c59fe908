import { useNavigation, useRevalidator } from "react-router";
import { fundAccessCopy } from "~/content/fund-access";
import { FundDocumentItem, NoFundDocuments, type FundDocumentView } from "./fund-document";

/**
 * The Fund I documents (SPEC.md §2): one card per document, newest first.
 * The page arrives rendered with its list; 'Loading documents...' shows while
 * the list is being fetched again (a reload of this page in the browser).
 */
export function FundIDocumentList({ documents }: { documents: FundDocumentView[] }) {
  const c = fundAccessCopy;
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const loading =
    revalidator.state === "loading" ||
    (navigation.state === "loading" && navigation.location.pathname === "/fund-i/documents");

  return (
    <div className="mt-8" aria-busy={loading || undefined}>
      {loading ? (
        <p role="status" className="mb-4 text-sm text-slate-600 dark:text-slate-300">
          {c.documents.loading}
        </p>
      ) : null}
      {documents.length === 0 ? (
        <NoFundDocuments
          title={c.fundIDocuments.empty}
          text={c.fundIDocuments.emptyDetail}
          headingLevel={2}
          className="rounded-xl py-12"
        />
      ) : (
        <ul aria-label={c.fundIDocuments.listLabel} className="grid gap-4">
          {documents.map((doc) => (
            <FundDocumentItem key={doc.id} doc={doc} headingLevel={2} />
          ))}
        </ul>
      )}
    </div>
  );
}
