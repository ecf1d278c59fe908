import { Files, Plus } from "lucide-react";
import { useRef } from "react";
import { AdminPageHeader, adminPageTitle } from "~/components/admin/page-header";
import { Link, useLocation, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/documents";
import {
  DELETE_DOCUMENT_FETCHER,
  DELETE_DOCUMENT_INTENT,
  DeleteConfirmPanel,
  useDeleteOutcome,
  type DeleteSettings,
} from "~/components/documents/delete-document";
import { DocumentsTable } from "~/components/documents/documents-table";
import { parsePage } from "~/components/email-lists/params";
import { EmptyState } from "~/components/kit/empty-state";
import { FilterTabs } from "~/components/kit/filter-tabs";
import { hrefWith } from "~/components/kit/query";
import { buttonClass } from "~/components/ui/form";
import { lastPageOf, LIST_PAGE_SIZE, Pager } from "~/components/ui/pager";
import { documentsListCopy, publishedDocumentsCopy } from "~/content/documents";
import { ADMIN_PATHS } from "~/modules/admin/paths";
import { requireAdmin } from "~/modules/auth/guards.server";
import { BULK_UPLOAD_PATH } from "~/modules/bulk-upload/constants";
import { LP_CATEGORIES, LP_UPLOAD_PATH } from "~/modules/documents/constants";
import { lpDocuments } from "~/modules/documents/documents.server";
import { readFormData } from "~/modules/http/form-data.server";
import { pageMeta } from "~/modules/seo/meta";
import { answerAdminIntent } from "./actions.server";
import { readPublished } from "./lists.server";
import { isMultipart, uploadLpDocument } from "./uploads.server";

const PAGE = ADMIN_PATHS.documents;
const SECTION = "published-documents";
const CATEGORY_PARAM = "category";
const PAGE_PARAM = "page";
const c = documentsListCopy;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: adminPageTitle("documents"), description: c.intro, path: PAGE, noindex: true });

/** The LP documents' delete, with JavaScript and through the confirm step. */
const deleteSettings: DeleteSettings = {
  intent: DELETE_DOCUMENT_INTENT,
  confirmParam: DELETE_DOCUMENT_INTENT,
  fetcherKey: DELETE_DOCUMENT_FETCHER,
  question: publishedDocumentsCopy.confirmDelete,
  pageAction: PAGE,
  cancelHref: `${PAGE}#${SECTION}`,
  label: publishedDocumentsCopy.delete,
  pendingLabel: publishedDocumentsCopy.deleting,
  confirmButton: publishedDocumentsCopy.confirmButton,
  cancel: publishedDocumentsCopy.cancel,
  gone: publishedDocumentsCopy.documentGone,
};

/**
 * /admin/documents: the published LP documents as a table, newest first, 50 a
 * page (`?page=N`), optionally one category (`?category=`), with who each is
 * for and how many of them opened it. The upload form has its own page
 * (/admin/documents/upload; decision 037). `?confirm=delete-document&document=<id>`
 * is the delete's confirm step without JavaScript.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const { documents, failed } = readPublished(lpDocuments, () => lpDocuments.list());
  const asked = params.get(CATEGORY_PARAM);
  const category = LP_CATEGORIES.find((x) => x.value === asked)?.value ?? null;
  const counts = LP_CATEGORIES.map((x) => ({ ...x, count: documents.filter((d) => d.category === x.value).length }));
  const inView = category ? documents.filter((d) => d.category === category) : documents;
  const page = Math.min(parsePage(params.get(PAGE_PARAM)), lastPageOf(inView.length));
  const rows = inView.slice((page - 1) * LIST_PAGE_SIZE, page * LIST_PAGE_SIZE);

  const documentId = params.get("document");
  let confirm: { document: { id: string; title: string; fileName: string } | null } | null = null;
  if (params.get("confirm") === DELETE_DOCUMENT_INTENT && documentId) {
    const found = documents.find((d) => d.id === documentId);
    confirm = { document: found ? { id: found.id, title: found.title, fileName: found.fileName } : null };
  }
  return { failed, rows, total: inView.length, all: documents.length, page, category, counts, confirm };
}

/** A multipart post is the upload form without JavaScript (from /admin/documents/upload); a plain form post is a delete. */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  if (isMultipart(request)) return uploadLpDocument(admin, request);
  return answerAdminIntent(admin, await readFormData(request), PAGE, [DELETE_DOCUMENT_INTENT]);
}

/** After a delete the list reloads even when it failed (someone else may have deleted it first). */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formData?.get("intent") === DELETE_DOCUMENT_INTENT) return true;
  return defaultShouldRevalidate;
}

export default function AdminDocuments({ loaderData }: Route.ComponentProps) {
  const { failed, rows, total, all, page, category, counts, confirm } = loaderData;
  const { search } = useLocation();
  // Here, not in the table: the last row's delete replaces the table with the empty state.
  const sectionRef = useRef<HTMLElement>(null);
  useDeleteOutcome(deleteSettings.fetcherKey, sectionRef);
  const categoryLabel = category ? LP_CATEGORIES.find((x) => x.value === category)?.label : null;
  const tabs = [
    { key: "all", label: c.allCategories, count: all, href: hrefWith(PAGE, search, { [CATEGORY_PARAM]: null, [PAGE_PARAM]: null, confirm: null, document: null }, SECTION) },
    ...counts
      .filter((x) => x.count > 0 || x.value === category)
      .map((x) => ({
        key: x.value,
        label: x.label,
        count: x.count,
        href: hrefWith(PAGE, search, { [CATEGORY_PARAM]: x.value, [PAGE_PARAM]: null, confirm: null, document: null }, SECTION),
      })),
  ];
  return (
    <div>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <AdminPageHeader page="documents" intro={c.intro} />
        <div className="flex flex-wrap gap-2">
          <Link to={BULK_UPLOAD_PATH} className={buttonClass("secondary")}>
            <Files aria-hidden="true" className="size-4" />
            {c.bulkUpload}
          </Link>
          <Link to={LP_UPLOAD_PATH} className={buttonClass("primary")}>
            <Plus aria-hidden="true" className="size-4" />
            {c.upload}
          </Link>
        </div>
      </div>
      {confirm ? <DeleteConfirmPanel document={confirm.document} settings={deleteSettings} /> : null}
      <section ref={sectionRef} tabIndex={-1} id={SECTION} aria-labelledby={`${SECTION}-title`} className="mt-8 scroll-mt-40 outline-none" data-testid={SECTION}>
        <h2 id={`${SECTION}-title`} className="text-lg font-semibold">
          {publishedDocumentsCopy.title}
        </h2>
        {failed ? (
          <DocumentsTable documents={[]} failed categories={LP_CATEGORIES} deleteSettings={deleteSettings} viewPath={viewPath} historyPath={historyPath} />
        ) : all === 0 ? (
          <EmptyState action={{ to: LP_UPLOAD_PATH, label: c.upload }}>{c.empty}</EmptyState>
        ) : (
          <>
            <FilterTabs label={c.categoryTabs} tabs={tabs} current={category ?? "all"} />
            {rows.length === 0 ? (
              <EmptyState>{publishedDocumentsCopy.emptyCategory}</EmptyState>
            ) : (
              <DocumentsTable documents={rows} failed={false} categories={LP_CATEGORIES} deleteSettings={deleteSettings} viewPath={viewPath} historyPath={historyPath} />
            )}
            <Pager
              label={categoryLabel ? `${publishedDocumentsCopy.title}: ${categoryLabel}` : publishedDocumentsCopy.title}
              page={page}
              total={total}
              shown={rows.length}
              hrefFor={(p) => hrefWith(PAGE, search, { [PAGE_PARAM]: p > 1 ? p : null, confirm: null, document: null }, SECTION)}
            />
          </>
        )}
      </section>
    </div>
  );
}

const viewPath = (id: string) => `/api/documents/${id}/view`;
const historyPath = (id: string) => `/admin/documents/${id}/access`;
