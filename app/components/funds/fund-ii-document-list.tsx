import { fundAccessCopy } from "~/content/fund-access";
import { FUND_CATEGORIES } from "~/modules/documents/constants";
import { CategorySection } from "../documents/category-section";
import { Card } from "../ui/form";
import { FundDocumentItem, NoFundDocuments, type FundDocumentView } from "./fund-document";

/**
 * 'Documents & Resources' (SPEC.md §2): the total count, then the five fund
 * categories as collapsed `<details>` with count badges, in a list area capped
 * at 400 px (SPEC.md §9) that is a named, focusable region so it scrolls from
 * the keyboard too.
 */
export function FundIIDocumentList({ documents }: { documents: FundDocumentView[] }) {
  const c = fundAccessCopy;
  return (
    <Card className="mt-8">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="fund-ii-documents-title" className="text-xl font-semibold">
          {c.fundIIDocuments.cardTitle}
        </h2>
        <p className="rounded-full bg-brand-50 px-3 py-1 text-sm font-semibold text-brand-800 tabular-nums dark:bg-brand-900 dark:text-brand-100">
          {c.documents.documentCount(documents.length)}
        </p>
      </div>
      {documents.length === 0 ? (
        <NoFundDocuments
          title={c.fundIIDocuments.emptyTitle}
          text={c.fundIIDocuments.emptyText}
          headingLevel={3}
          className="mt-6 rounded-lg py-10"
        />
      ) : (
        <div
          role="region"
          aria-label={c.fundIIDocuments.listLabel}
          tabIndex={0}
          data-testid="fund-ii-documents"
          className="mt-4 max-h-[400px] overflow-y-auto rounded-lg border border-slate-200 px-4 dark:border-slate-800"
        >
          {FUND_CATEGORIES.map((category) => {
            const inCategory = documents.filter((d) => d.category === category.value);
            return (
              <CategorySection
                key={category.value}
                id={`fund-ii-${category.value}`}
                label={category.label}
                count={inCategory.length}
              >
                {inCategory.length === 0 ? (
                  <p className="py-2 text-sm text-slate-600 dark:text-slate-300">{c.fundIIDocuments.emptyCategory}</p>
                ) : (
                  <ul className="space-y-3">
                    {inCategory.map((doc) => (
                      <FundDocumentItem key={doc.id} doc={doc} headingLevel={3} />
                    ))}
                  </ul>
                )}
              </CategorySection>
            );
          })}
        </div>
      )}
    </Card>
  );
}
