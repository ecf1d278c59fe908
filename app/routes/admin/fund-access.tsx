import type { ShouldRevalidateFunctionArgs } from "react-router";
import { AdminPageHeader, adminPageTitle } from "~/components/admin/page-header";
import type { Route } from "./+types/fund-access";
import { EmptyState } from "~/components/kit/empty-state";
import { DeleteConfirmPanel } from "~/components/documents/delete-document";
import { PublishedDocuments } from "~/components/documents/published-documents";
import { UploadForm } from "~/components/documents/upload-form";
import { RESEND_FUND_ACCESS_INTENT, REVOKE_FUND_ACCESS_INTENT, RevokeConfirmPanel } from "~/components/fund-admin/fund-access-actions";
import { FUND_ACCESS_PAGE_PARAM, FundAccessList } from "~/components/fund-admin/fund-access-list";
import {
  DELETE_FUND_DOCUMENT_INTENT,
  FUND_UPLOAD_ANCHOR,
  FundSelect,
  fundDeleteSettings,
  fundViewPath,
  PANEL_FUNDS,
  publishedFundSectionId,
} from "~/components/fund-admin/fund-documents";
import { parsePage } from "~/components/email-lists/params";
import {
  fundAdminCopy,
  fundDocumentToasts,
  fundUploadFormCopy,
  publishedFundDocumentsCopy,
  publishedFundListLabels,
} from "~/content/fund-admin";
import { ADMIN_PATHS } from "~/modules/admin/paths";
import { requireAdmin } from "~/modules/auth/guards.server";
import { FUND_CATEGORIES, FUND_UPLOAD_FORM_ID } from "~/modules/documents/constants";
import { fundDocuments } from "~/modules/documents/documents.server";
import type { FundId } from "~/modules/fund-access/constants";
import { readFormData } from "~/modules/http/form-data.server";
import { pageMeta } from "~/modules/seo/meta";
import { answerAdminIntent } from "./actions.server";
import { readFundAccessRequests, readPublished, readRevokeRequest, type DocumentsData } from "./lists.server";

const PAGE = ADMIN_PATHS["fund-access"];
const INTENTS = [REVOKE_FUND_ACCESS_INTENT, RESEND_FUND_ACCESS_INTENT, DELETE_FUND_DOCUMENT_INTENT] as const;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: adminPageTitle("fund-access"), description: fundUploadFormCopy.title, path: PAGE, noindex: true });

/**
 * /admin/fund-access, 'Potential Investor Management (Fund II)': the fund
 * access requests (`?requests.page=N`), the fund document upload form and
 * each fund's published documents. The confirm steps without JavaScript are
 * `?confirm=revoke-fund-access&request=<id>` and
 * `?confirm=delete-fund-document&document=<id>`.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const requests = readFundAccessRequests(parsePage(params.get(FUND_ACCESS_PAGE_PARAM)));
  const published = Object.fromEntries(
    PANEL_FUNDS.map((fundId) => [fundId, readPublished(fundDocuments, () => fundDocuments.list(fundId))]),
  ) as Record<FundId, DocumentsData>;
  const kind = params.get("confirm");
  const requestId = params.get("request");
  const documentId = params.get("document");
  const revokeConfirm = kind === REVOKE_FUND_ACCESS_INTENT && requestId ? { request: readRevokeRequest(requestId) } : null;
  let documentConfirm: { fundId: FundId; document: { id: string; title: string; fileName: string } | null } | null = null;
  if (kind === DELETE_FUND_DOCUMENT_INTENT && documentId) {
    documentConfirm = { fundId: "fund-ii", document: null };
    for (const fundId of PANEL_FUNDS) {
      const found = published[fundId].documents.find((d) => d.id === documentId);
      if (found) documentConfirm = { fundId, document: { id: found.id, title: found.title, fileName: found.fileName } };
    }
  }
  return { requests, published, revokeConfirm, documentConfirm };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return answerAdminIntent(admin, await readFormData(request), PAGE, INTENTS);
}

/** After a delete, revoke or resend the page reloads even when it failed: someone else may have changed it first. */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (INTENTS.some((intent) => intent === formData?.get("intent"))) return true;
  return defaultShouldRevalidate;
}

export default function FundAccess({ loaderData }: Route.ComponentProps) {
  const { requests, published, revokeConfirm, documentConfirm } = loaderData;
  return (
    <div>
      <AdminPageHeader page="fund-access" specName={fundAdminCopy.section} />
      {revokeConfirm ? <RevokeConfirmPanel request={revokeConfirm.request} /> : null}
      <FundAccessList data={requests} />
      <UploadForm
        formId={FUND_UPLOAD_FORM_ID}
        anchorId={FUND_UPLOAD_ANCHOR}
        categories={FUND_CATEGORIES}
        defaultCategory="fund_documents"
        apiPath="/api/fund-documents"
        pageAction="/admin/fund-documents"
        copy={fundUploadFormCopy}
        toasts={{ uploaded: fundDocumentToasts.uploaded, failedTitle: fundDocumentToasts.uploadFailed.title }}
        extraFields={(errorsFor) => <FundSelect formId={FUND_UPLOAD_FORM_ID} errors={errorsFor("fundId")} />}
      />
      {documentConfirm ? (
        <DeleteConfirmPanel document={documentConfirm.document} settings={fundDeleteSettings(documentConfirm.fundId)} />
      ) : null}
      {PANEL_FUNDS.every((fundId) => !published[fundId].failed && published[fundId].documents.length === 0) ? (
        <section aria-labelledby="fund-documents-title" className="mt-10" data-testid="fund-documents-empty">
          <h2 id="fund-documents-title" className="text-lg font-semibold">
            {fundAdminCopy.noDocuments.title}
          </h2>
          <EmptyState action={{ to: `#${FUND_UPLOAD_ANCHOR}`, label: fundAdminCopy.noDocuments.action }}>{fundAdminCopy.noDocuments.text}</EmptyState>
        </section>
      ) : (
        PANEL_FUNDS.map((fundId) =>
          !published[fundId].failed && published[fundId].documents.length === 0 ? (
            <section key={fundId} id={publishedFundSectionId(fundId)} aria-labelledby={`${publishedFundSectionId(fundId)}-title`} className="mt-10">
              <h2 id={`${publishedFundSectionId(fundId)}-title`} className="text-lg font-semibold">
                {publishedFundDocumentsCopy[fundId].title}
              </h2>
              <EmptyState>{fundAdminCopy.noFundDocuments(fundAdminCopy.fundNames[fundId])}</EmptyState>
            </section>
          ) : (
            <PublishedDocuments
              key={fundId}
              documents={published[fundId].documents}
              failed={published[fundId].failed}
              categories={FUND_CATEGORIES}
              deleteSettings={fundDeleteSettings(fundId)}
              viewPath={fundViewPath}
              sectionId={publishedFundSectionId(fundId)}
              copy={publishedFundDocumentsCopy[fundId]}
              listLabel={publishedFundListLabels[fundId]}
              rowTestId="published-fund-document"
            />
          ),
        )
      )}
    </div>
  );
}
