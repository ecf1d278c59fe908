import { randomUUID } from "node:crypto";
import { parseWithZod } from "@conform-to/zod/v4";
import { format } from "date-fns";
import { Info } from "lucide-react";
import { data, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/dashboard";
import {
  DELETE_DOCUMENT_FETCHER,
  DELETE_DOCUMENT_INTENT,
  DeleteConfirmPanel,
  type DeleteOutcome,
  type DeleteSettings,
} from "~/components/documents/delete-document";
import { PublishedDocuments, type PublishedDocument } from "~/components/documents/published-documents";
import { UploadForm } from "~/components/documents/upload-form";
import { UserLoadError } from "~/components/portal/load-error";
import { ConfirmPanel, STATUS_INTENT, type StatusOutcome } from "~/components/portal/status-actions";
import { UserList, type AdminListUser } from "~/components/portal/user-list";
import { accountMessages, accountToasts } from "~/content/accounts";
import { documentToasts, publishedDocumentsCopy, uploadFormCopy } from "~/content/documents";
import { adminCopy, type ConfirmKind } from "~/content/portal";
import { summarizeAccess } from "~/modules/access-log/access-log.server";
import { requireAdmin } from "~/modules/auth/guards.server";
import { formatMegabytes, LP_CATEGORIES, LP_UPLOAD_FORM_ID, uploadMessages } from "~/modules/documents/constants";
import { deleteDocument, listDocuments } from "~/modules/documents/documents.server";
import { AppError, isAppError } from "~/modules/http/app-error";
import { listUsersByStatus, setUserStatus, toListedUser, type LpUser } from "~/modules/lp-users/lp-users.server";
import { StatusInput, type UserStatus } from "~/modules/lp-users/schema";
import { pageMeta } from "~/modules/seo/meta";
import { isEnhanced } from "~/modules/toast/enhanced";
import { redirectWithFlash } from "~/modules/toast/flash.server";
import type { ToastInput } from "~/modules/toast/toast";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: adminCopy.title,
    description: adminCopy.lpSection,
    path: "/admin/dashboard",
    noindex: true,
  });

/** SPEC.md §9: admin dates read 'MMM dd, yyyy'. */
function toAdminListUser(user: LpUser): AdminListUser {
  const listed = toListedUser(user);
  return {
    id: listed.id,
    name: listed.name,
    email: listed.email,
    company: listed.company,
    requestedOn: format(new Date(listed.createdAt), "MMM dd, yyyy"),
  };
}

/** 'MMM dd, yyyy' in UTC, so the date does not depend on the server's time zone. */
function formatUtcDate(date: Date): string {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", year: "numeric", month: "short", day: "2-digit" }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("month")} ${part("day")}, ${part("year")}`;
}

type UserListData = { users: AdminListUser[]; failed: boolean };

function readList(status: UserStatus): UserListData {
  try {
    return { users: listUsersByStatus(status).map(toAdminListUser), failed: false };
  } catch (error) {
    console.error(error);
    return { users: [], failed: true };
  }
}

type DocumentsData = { documents: PublishedDocument[]; failed: boolean };

/** The published LP documents with how often each was opened; a failure shows in the panel only. */
function readDocuments(): DocumentsData {
  try {
    const access = summarizeAccess("lp");
    const documents = listDocuments().map((row): PublishedDocument => {
      const seen = access.get(row.id);
      return {
        id: row.id,
        title: row.title,
        description: row.description,
        category: row.category,
        fileName: row.fileName,
        size: formatMegabytes(row.fileSize),
        uploadedOn: formatUtcDate(row.createdAt),
        views: seen?.views ?? 0,
        downloads: seen?.downloads ?? 0,
        lastAccess: seen?.lastAccessAt ? formatUtcDate(seen.lastAccessAt) : null,
      };
    });
    return { documents, failed: false };
  } catch (error) {
    console.error(error);
    return { documents: [], failed: true };
  }
}

/** The LP documents' delete, with JavaScript and through the confirm step. */
const lpDeleteSettings: DeleteSettings = {
  intent: DELETE_DOCUMENT_INTENT,
  confirmParam: DELETE_DOCUMENT_INTENT,
  fetcherKey: DELETE_DOCUMENT_FETCHER,
  question: publishedDocumentsCopy.confirmDelete,
  pageAction: "/admin/dashboard",
  cancelHref: "/admin/dashboard#published-documents",
  label: publishedDocumentsCopy.delete,
  pendingLabel: publishedDocumentsCopy.deleting,
  confirmButton: publishedDocumentsCopy.confirmButton,
  cancel: publishedDocumentsCopy.cancel,
  gone: publishedDocumentsCopy.documentGone,
};

const confirmLists: Record<ConfirmKind, "pending" | "approved" | "rejected"> = {
  reject: "pending",
  revoke: "approved",
  approve: "rejected",
};

function isConfirmKind(value: string | null): value is ConfirmKind {
  return value === "reject" || value === "revoke" || value === "approve";
}

/**
 * The three LP lists, each read on its own so one failure shows its own error.
 * `?confirm=reject|revoke|approve&user=<id>` is the no-JavaScript confirm step,
 * and `?confirm=delete-document&document=<id>` the one of a document's delete.
 * The published LP documents are read on their own too.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const lists = { pending: readList("pending"), approved: readList("approved"), rejected: readList("rejected") };
  const documents = readDocuments();
  const params = new URL(request.url).searchParams;
  const kind = params.get("confirm");
  const userId = params.get("user");
  let confirm: { kind: ConfirmKind; user: { id: string; name: string } | null } | null = null;
  if (isConfirmKind(kind) && userId) {
    const user = lists[confirmLists[kind]].users.find((u) => u.id === userId);
    confirm = { kind, user: user ? { id: user.id, name: user.name } : null };
  }
  let documentConfirm: { document: { id: string; title: string; fileName: string } | null } | null = null;
  const documentId = params.get("document");
  if (kind === DELETE_DOCUMENT_INTENT && documentId) {
    const found = documents.documents.find((d) => d.id === documentId);
    documentConfirm = { document: found ? { id: found.id, title: found.title, fileName: found.fileName } : null };
  }
  return { lists, confirm, documents, documentConfirm };
}

function errorToast(error: unknown): ToastInput {
  if (!isAppError(error)) console.error(error);
  const description = isAppError(error) ? error.message : "Something went wrong. Please try again.";
  return { title: accountToasts.updateFailed.title, description, variant: "destructive" };
}

/** intent=status: approve or reject a user (also revoke an approved one, approve a rejected one). */
async function changeStatus(admin: LpUser, formData: FormData): Promise<{ toast: ToastInput; httpStatus: number }> {
  try {
    const submission = parseWithZod(formData, { schema: StatusInput });
    if (submission.status !== "success") {
      throw new AppError("bad_request", submission.error?.status?.[0] ?? "Status must be approved or rejected");
    }
    const userId = formData.get("userId");
    if (typeof userId !== "string" || userId.length === 0 || userId.length > 100) {
      throw new AppError("not_found", accountMessages.userNotFound);
    }
    const { user } = setUserStatus(admin, userId, submission.value.status);
    const toast: ToastInput =
      submission.value.status === "approved"
        ? { ...accountToasts.approved(user.name) }
        : { ...accountToasts.rejected(user.name), variant: "destructive" };
    return { toast, httpStatus: 200 };
  } catch (error) {
    return { toast: errorToast(error), httpStatus: isAppError(error) ? error.status : 500 };
  }
}

/** intent=delete-document: delete an LP document (its row, then its file). */
async function removeDocument(admin: LpUser, formData: FormData): Promise<{ toast: ToastInput; httpStatus: number }> {
  try {
    const documentId = formData.get("documentId");
    if (typeof documentId !== "string") throw new AppError("not_found", uploadMessages.documentNotFound);
    await deleteDocument(admin, documentId);
    return { toast: { ...documentToasts.deleted }, httpStatus: 200 };
  } catch (error) {
    if (!isAppError(error)) console.error(error);
    const description = isAppError(error) ? error.message : "Something went wrong. Please try again.";
    return {
      toast: { title: documentToasts.deleteFailed.title, description, variant: "destructive" },
      httpStatus: isAppError(error) ? error.status : 500,
    };
  }
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const formData = await request.formData();
  let outcome: { toast: ToastInput; httpStatus: number };
  let redirectTo = "/admin/dashboard";
  switch (formData.get("intent")) {
    case STATUS_INTENT:
      outcome = await changeStatus(admin, formData);
      break;
    case DELETE_DOCUMENT_INTENT:
      outcome = await removeDocument(admin, formData);
      redirectTo = "/admin/dashboard#published-documents";
      break;
    default:
      outcome = { toast: errorToast(new AppError("bad_request", "Unknown action")), httpStatus: 400 };
  }
  if (isEnhanced(formData)) {
    // A fresh id per answer: the user's buttons move lists and remount with it, and must not toast twice.
    const answer: StatusOutcome & DeleteOutcome = {
      status: outcome.httpStatus === 200 ? "success" : "error",
      toast: { ...outcome.toast, id: randomUUID() },
    };
    return data(answer, { status: outcome.httpStatus });
  }
  return redirectWithFlash(redirectTo, { toast: outcome.toast });
}

/**
 * After a delete the lists reload even when it failed (React Router skips
 * that after a 4xx answer): a document someone else already deleted then
 * leaves the panel instead of staying there.
 */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formData?.get("intent") === DELETE_DOCUMENT_INTENT) return true;
  return defaultShouldRevalidate;
}

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const { lists, confirm, documents, documentConfirm } = loaderData;
  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight">{adminCopy.title}</h1>

      <section aria-labelledby="lp-management-title" className="mt-8">
        <h2 id="lp-management-title" className="text-2xl font-semibold">
          {adminCopy.lpSection}
        </h2>
        {confirm ? <ConfirmPanel kind={confirm.kind} user={confirm.user} /> : null}
        <UserList list="pending" users={lists.pending.users} failed={lists.pending.failed} />
        <UserList list="approved" users={lists.approved.users} failed={lists.approved.failed} />
        <UserList list="rejected" users={lists.rejected.users} failed={lists.rejected.failed} />
        <UploadForm
          formId={LP_UPLOAD_FORM_ID}
          anchorId="upload-document"
          categories={LP_CATEGORIES}
          apiPath="/api/documents"
          pageAction="/admin/documents"
          copy={uploadFormCopy}
          toasts={{ uploaded: documentToasts.uploaded, failedTitle: documentToasts.uploadFailed.title }}
        />
        {documentConfirm ? <DeleteConfirmPanel document={documentConfirm.document} settings={lpDeleteSettings} /> : null}
        <PublishedDocuments
          documents={documents.documents}
          failed={documents.failed}
          categories={LP_CATEGORIES}
          deleteSettings={lpDeleteSettings}
          viewPath={(id) => `/api/documents/${id}/view`}
          historyPath={(id) => `/admin/documents/${id}/access`}
        />
      </section>

      {/* Later issues: 'Potential Investor Management (Fund II)' and 'Email Lists (Copy & Export)'. */}

      <p className="mt-12 flex items-start gap-2 border-t border-slate-200 pt-6 text-sm text-slate-600 dark:border-slate-800 dark:text-slate-300">
        <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        {adminCopy.footerNote}
      </p>
    </div>
  );
}

export function ErrorBoundary() {
  return <UserLoadError loginPath="/admin/login" />;
}
