import { ArrowLeft, Files, Info } from "lucide-react";
import { Link, useNavigate } from "react-router";
import type { Route } from "./+types/documents-upload";
import { AudienceFields } from "~/components/documents/audience-fields";
import { UploadForm } from "~/components/documents/upload-form";
import { bulkUploadCopy } from "~/content/bulk-upload";
import { documentsListCopy, documentToasts, uploadFormCopy } from "~/content/documents";
import { adminCopy } from "~/content/portal";
import { watermarkCopy } from "~/content/watermark";
import { ADMIN_PATHS } from "~/modules/admin/paths";
import { requireAdmin } from "~/modules/auth/guards.server";
import { BULK_UPLOAD_PATH } from "~/modules/bulk-upload/constants";
import { LP_CATEGORIES, LP_UPLOAD_FORM_ID, LP_UPLOAD_PATH } from "~/modules/documents/constants";
import { pageMeta } from "~/modules/seo/meta";
import { watermarkAvailable } from "~/modules/watermark/availability.server";
import { audienceState, typedUploadFields } from "./audience.server";

const LIST = `${ADMIN_PATHS.documents}#published-documents`;
const HEADING_ID = "upload-document-title";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: uploadFormCopy.title, description: documentsListCopy.uploadIntro, path: LP_UPLOAD_PATH, noindex: true });

/**
 * /admin/documents/upload: the LP upload form on its own page (decision 037).
 * With JavaScript it sends to /api/documents and goes back to the list with
 * the toast; without, it posts to /admin/documents, whose redirect lands on the
 * list (published) or back here (refused, with the form's flash). The audience
 * picker's search reloads this page by GET with what was typed and ticked.
 * Without qpdf the watermark switch is shown disabled, saying what to install.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  return {
    audience: audienceState(params, { audience: "all", watermark: false, recipientIds: [] }),
    typed: typedUploadFields(params),
    watermarkAvailable: await watermarkAvailable(),
  };
}

export default function UploadDocument({ loaderData }: Route.ComponentProps) {
  const { audience, typed, watermarkAvailable } = loaderData;
  const navigate = useNavigate();
  return (
    <div className="max-w-3xl">
      <Link
        to={LIST}
        className="inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        {bulkUploadCopy.back}
      </Link>
      <h1 id={HEADING_ID} className="mt-6 text-2xl font-bold tracking-tight sm:text-3xl">
        {uploadFormCopy.title}
      </h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{documentsListCopy.uploadIntro}</p>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
        {documentsListCopy.bulkHint}{" "}
        <Link to={BULK_UPLOAD_PATH} className="inline-flex items-center gap-1 font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300">
          <Files aria-hidden="true" className="size-4" />
          {bulkUploadCopy.linkFromDocuments}
        </Link>
      </p>
      <div className="mt-6">
        <UploadForm
          formId={LP_UPLOAD_FORM_ID}
          anchorId="upload-document"
          labelledBy={HEADING_ID}
          categories={LP_CATEGORIES}
          apiPath="/api/documents"
          pageAction={ADMIN_PATHS.documents}
          copy={uploadFormCopy}
          toasts={{ uploaded: documentToasts.uploaded, failedTitle: documentToasts.uploadFailed.title }}
          initialValues={typed}
          onUploaded={() => void navigate(LIST)}
          extraFields={(errorsFor, refused) => (
            <AudienceFields
              formId={LP_UPLOAD_FORM_ID}
              state={refused ? { ...audience, audience: refused.audience === "selected" ? "selected" : "all", watermark: refused.watermark === "on" } : audience}
              searchAction={`${LP_UPLOAD_PATH}#upload-document`}
              errorsFor={errorsFor}
              watermarkUnavailable={watermarkAvailable ? undefined : watermarkCopy.unavailable.install}
              allNote={
                <span className="inline-flex items-start gap-1.5" data-testid="available-note">
                  <Info aria-hidden="true" className="mt-px size-3.5 shrink-0" />
                  {adminCopy.footerNote}
                </span>
              }
            />
          )}
        />
      </div>
    </div>
  );
}
