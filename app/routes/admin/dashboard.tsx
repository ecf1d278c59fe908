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
import type { EmailListData, EmailListRowView } from "~/components/email-lists/email-list-table";
import { EmailListsSection } from "~/components/email-lists/email-lists-section";
import { EMAIL_LIST_PAGE_SIZE, parseListViews, parsePage, type ListViews } from "~/components/email-lists/params";
import {
  FUND_ACCESS_LIST_ID,
  RESEND_FUND_ACCESS_INTENT,
  REVOKE_FUND_ACCESS_INTENT,
  RevokeConfirmPanel,
  type FundAccessActionOutcome,
  type FundAccessRequestRef,
} from "~/components/fund-admin/fund-access-actions";
import {
  FUND_ACCESS_PAGE_PARAM,
  FundAccessList,
  type AdminFundAccessRequest,
  type FundAccessRequestsPage,
} from "~/components/fund-admin/fund-access-list";
import {
  DELETE_FUND_DOCUMENT_INTENT,
  FUND_UPLOAD_ANCHOR,
  FundSelect,
  fundDeleteSettings,
  fundViewPath,
  PANEL_FUNDS,
  publishedFundSectionId,
} from "~/components/fund-admin/fund-documents";
import { UserLoadError } from "~/components/portal/load-error";
import { ConfirmPanel, STATUS_INTENT, type StatusOutcome } from "~/components/portal/status-actions";
import { UserList, userListPageParam, type AdminListUser, type UserListPage } from "~/components/portal/user-list";
import { lastPageOf, LIST_PAGE_SIZE } from "~/components/ui/pager";
import { accountMessages, accountToasts } from "~/content/accounts";
import { documentToasts, publishedDocumentsCopy, uploadFormCopy } from "~/content/documents";
import {
  fundAccessToasts,
  fundAdminCopy,
  fundDocumentToasts,
  fundUploadFormCopy,
  publishedFundDocumentsCopy,
  publishedFundListLabels,
} from "~/content/fund-admin";
import { adminCopy, type ConfirmKind } from "~/content/portal";
import { summarizeAccess } from "~/modules/access-log/access-log.server";
import { requireAdmin } from "~/modules/auth/guards.server";
import { FUND_CATEGORIES, formatMegabytes, LP_CATEGORIES, LP_UPLOAD_FORM_ID, uploadMessages } from "~/modules/documents/constants";
import { deleteDocument, listDocuments } from "~/modules/documents/documents.server";
import { readListPage } from "~/modules/email-lists/email-lists.server";
import { LIST_KEYS, LISTS, MISSING_COMPANY, type ListKey, type ListRow } from "~/modules/email-lists/lists";
import { fundAccessMessages, type FundId } from "~/modules/fund-access/constants";
import {
  findFundAccessRequest,
  listFundAccessRequestsPage,
  resendFundAccessLink,
  revokeFundAccess,
  toFundAccessRead,
  type FundAccessRequest,
} from "~/modules/fund-access/fund-access.server";
import { FUND_UPLOAD_FORM_ID } from "~/modules/fund-documents/constants";
import { deleteFundDocument, listFundDocuments } from "~/modules/fund-documents/fund-documents.server";
import { AppError, isAppError } from "~/modules/http/app-error";
import { findUserById, listUsersByStatusPage, setUserStatus, toListedUser, type LpUser } from "~/modules/lp-users/lp-users.server";
import { StatusInput, type UserStatus } from "~/modules/lp-users/schema";
import { pageMeta } from "~/modules/seo/meta";
import { isEnhanced } from "~/modules/toast/enhanced";
import { redirectWithFlash } from "~/modules/toast/flash.server";
import type { ToastInput } from "~/modules/toast/toast";
import { logError } from "~/modules/logging/log.server";
import { readFormData } from "~/modules/http/form-data.server";

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

// Made once: building an Intl.DateTimeFormat costs far more than formatting with one.
const utcDateFormat = /* @__PURE__ */ new Intl.DateTimeFormat("en-US", { timeZone: "UTC", year: "numeric", month: "short", day: "2-digit" });
const utcDateTimeFormat = /* @__PURE__ */ new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  year: "numeric",
  month: "short",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

function partsOf(format: Intl.DateTimeFormat, date: Date) {
  const parts = format.formatToParts(date);
  return (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
}

/** 'MMM dd, yyyy' in UTC, so the date does not depend on the server's time zone. */
function formatUtcDate(date: Date): string {
  const part = partsOf(utcDateFormat, date);
  return `${part("month")} ${part("day")}, ${part("year")}`;
}

/** 'MMM dd, yyyy HH:mm' in UTC (the list says so), so the time does not depend on the server's time zone. */
function formatUtcDateTime(date: Date): string {
  const part = partsOf(utcDateTimeFormat, date);
  return `${part("month")} ${part("day")}, ${part("year")} ${part("hour")}:${part("minute")}`;
}

/**
 * One page of a list, newest first: `read` answers a window and the list's
 * total. A page past the end shows the last one (as the e-mail tables do).
 */
function readPage<T>(page: number, read: (range: { offset: number; limit: number }) => { rows: T[]; total: number }) {
  const windowOf = (p: number) => ({ offset: (p - 1) * LIST_PAGE_SIZE, limit: LIST_PAGE_SIZE });
  let result = read(windowOf(page));
  const lastPage = lastPageOf(result.total);
  if (page > lastPage) {
    page = lastPage;
    result = read(windowOf(page));
  }
  return { page, ...result };
}

/** One LP list's page (`?{list}.page=N`), read on its own: a failure shows in that list only. */
function readList(status: UserStatus, page: number): UserListPage {
  try {
    const result = readPage(page, (range) => {
      const { users, total } = listUsersByStatusPage(status, range);
      return { rows: users, total };
    });
    return { users: result.rows.map(toAdminListUser), page: result.page, total: result.total, failed: false };
  } catch (error) {
    logError(error);
    return { users: [], page: 1, total: 0, failed: true };
  }
}

type DocumentsData = { documents: PublishedDocument[]; failed: boolean };

/**
 * Published documents of one kind with how often each was opened (one read of the access
 * summary per kind); a failure shows in that panel only.
 */
function readPublished(
  kind: "lp" | "fund",
  list: () => { id: string; title: string; description: string | null; category: string; fileName: string; fileSize: number; createdAt: Date }[],
): DocumentsData {
  try {
    const access = summarizeAccess(kind);
    const documents = list().map((row): PublishedDocument => {
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
    logError(error);
    return { documents: [], failed: true };
  }
}

const readDocuments = () => readPublished("lp", listDocuments);
const readFundDocuments = (fundId: FundId) => readPublished("fund", () => listFundDocuments(fundId));

function toAdminFundAccessRequest(row: FundAccessRequest): AdminFundAccessRequest {
  const read = toFundAccessRead(row);
  return {
    id: read.id,
    name: read.name,
    email: read.email,
    company: row.company,
    fundId: read.fundId,
    accreditedConfirmation: read.accreditedConfirmation,
    createdAt: read.createdAt,
    requestedAt: formatUtcDateTime(row.createdAt),
    revoked: row.revokedAt !== null,
    revokedAt: row.revokedAt ? formatUtcDateTime(row.revokedAt) : null,
  };
}

/** A page of the fund access requests (`?requests.page=N`), newest first; a failure shows in the list only. */
function readFundAccessRequests(page: number): FundAccessRequestsPage {
  try {
    const result = readPage(page, (range) => {
      const { requests, total } = listFundAccessRequestsPage(range);
      return { rows: requests, total };
    });
    return { requests: result.rows.map(toAdminFundAccessRequest), page: result.page, total: result.total, failed: false };
  } catch (error) {
    logError(error);
    return { requests: [], page: 1, total: 0, failed: true };
  }
}

/** One e-mail table's page (SPEC.md §2 'Email Lists'): a missing company reads 'N/A', dates 'MMM dd, yyyy' (UTC). */
function toEmailListRow(list: ListKey, row: ListRow): EmailListRowView {
  const columns = LISTS[list].columns;
  return {
    ...(columns.includes("company") ? { company: row.company || MISSING_COMPANY } : {}),
    ...(columns.includes("name") ? { name: row.name ?? "" } : {}),
    email: row.email,
    date: formatUtcDate(new Date(row.date)),
    dateTime: row.date,
  };
}

/**
 * One e-mail table, read on its own (a failure shows in that table only):
 * at most a page of rows, in the URL's order. A page past the end shows the
 * last one.
 */
function readEmailList(list: ListKey, views: ListViews): EmailListData {
  const { sort } = views[list];
  let page = views[list].page;
  try {
    let result = readListPage(list, sort, { offset: (page - 1) * EMAIL_LIST_PAGE_SIZE, limit: EMAIL_LIST_PAGE_SIZE });
    const lastPage = Math.max(1, Math.ceil(result.total / EMAIL_LIST_PAGE_SIZE));
    if (page > lastPage) {
      page = lastPage;
      result = readListPage(list, sort, { offset: (page - 1) * EMAIL_LIST_PAGE_SIZE, limit: EMAIL_LIST_PAGE_SIZE });
    }
    return { sort, page, total: result.total, rows: result.rows.map((row) => toEmailListRow(list, row)), failed: false };
  } catch (error) {
    logError(error);
    return { sort, page: 1, total: 0, rows: [], failed: true };
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

/** The fund section's id: where a failed fund action without JavaScript comes back to. */
const FUND_SECTION_ID = "fund-management";

const confirmLists: Record<ConfirmKind, UserStatus> = {
  reject: "pending",
  revoke: "approved",
  approve: "rejected",
};

function isConfirmKind(value: string | null): value is ConfirmKind {
  return value === "reject" || value === "revoke" || value === "approve";
}

/**
 * The user of a confirm step, read by id (not from the page's rows, so a user
 * on any page can be confirmed): null unless it is an investor still in the
 * list the step was opened from.
 */
function readConfirmUser(userId: string, status: UserStatus): { id: string; name: string } | null {
  if (userId.length > 100) return null;
  try {
    const user = findUserById(userId);
    return user && !user.isAdmin && user.status === status ? { id: user.id, name: user.name } : null;
  } catch (error) {
    logError(error);
    return null;
  }
}

/** The request of the revoke confirm step, read by id (on any page of the list); null when it is gone. */
function readRevokeRequest(requestId: string): FundAccessRequestRef | null {
  try {
    const row = findFundAccessRequest(requestId);
    return row ? { id: row.id, name: row.name, fundId: row.fundId, revoked: row.revokedAt !== null } : null;
  } catch (error) {
    logError(error);
    return null;
  }
}

/**
 * The three LP lists, each read on its own so one failure shows its own error,
 * a page of at most 50 at a time (`?pending.page=N`, `approved.page`,
 * `rejected.page`; the fund access requests `requests.page`).
 * `?confirm=reject|revoke|approve&user=<id>` is the no-JavaScript confirm step,
 * and `?confirm=delete-document&document=<id>` the one of a document's delete.
 * The published LP documents are read on their own too. So are the fund
 * access requests and each fund's documents, whose confirm steps are
 * `?confirm=revoke-fund-access&request=<id>` and
 * `?confirm=delete-fund-document&document=<id>`. The confirm steps of a user
 * or a request find it in the database by id, whatever page it is on.
 * The e-mail tables are read on their own too, each sorted and paged by its
 * own query parameters (`{list}.sort`, `{list}.dir`, `{list}.page`).
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const pageOf = (name: string) => parsePage(params.get(name));
  const lists = {
    pending: readList("pending", pageOf(userListPageParam("pending"))),
    approved: readList("approved", pageOf(userListPageParam("approved"))),
    rejected: readList("rejected", pageOf(userListPageParam("rejected"))),
  };
  const documents = readDocuments();
  const fundRequests = readFundAccessRequests(pageOf(FUND_ACCESS_PAGE_PARAM));
  const fundDocuments: Record<FundId, DocumentsData> = { "fund-ii": readFundDocuments("fund-ii"), "fund-i": readFundDocuments("fund-i") };
  const emailListViews = parseListViews(params);
  const emailLists = Object.fromEntries(LIST_KEYS.map((list) => [list, readEmailList(list, emailListViews)])) as Record<
    ListKey,
    EmailListData
  >;
  const kind = params.get("confirm");
  const userId = params.get("user");
  let confirm: { kind: ConfirmKind; user: { id: string; name: string } | null } | null = null;
  if (isConfirmKind(kind) && userId) {
    confirm = { kind, user: readConfirmUser(userId, confirmLists[kind]) };
  }
  let documentConfirm: { document: { id: string; title: string; fileName: string } | null } | null = null;
  const documentId = params.get("document");
  if (kind === DELETE_DOCUMENT_INTENT && documentId) {
    const found = documents.documents.find((d) => d.id === documentId);
    documentConfirm = { document: found ? { id: found.id, title: found.title, fileName: found.fileName } : null };
  }
  let revokeConfirm: { request: FundAccessRequestRef | null } | null = null;
  const requestId = params.get("request");
  if (kind === REVOKE_FUND_ACCESS_INTENT && requestId) {
    revokeConfirm = { request: readRevokeRequest(requestId) };
  }
  let fundDocumentConfirm: { fundId: FundId; document: { id: string; title: string; fileName: string } | null } | null = null;
  if (kind === DELETE_FUND_DOCUMENT_INTENT && documentId) {
    fundDocumentConfirm = { fundId: "fund-ii", document: null };
    for (const fundId of PANEL_FUNDS) {
      const found = fundDocuments[fundId].documents.find((d) => d.id === documentId);
      if (found) fundDocumentConfirm = { fundId, document: { id: found.id, title: found.title, fileName: found.fileName } };
    }
  }
  return {
    lists,
    confirm,
    documents,
    documentConfirm,
    fundRequests,
    fundDocuments,
    revokeConfirm,
    fundDocumentConfirm,
    emailLists,
    emailListViews,
  };
}

function errorToast(error: unknown): ToastInput {
  if (!isAppError(error)) logError(error);
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
    if (!isAppError(error)) logError(error);
    const description = isAppError(error) ? error.message : "Something went wrong. Please try again.";
    return {
      toast: { title: documentToasts.deleteFailed.title, description, variant: "destructive" },
      httpStatus: isAppError(error) ? error.status : 500,
    };
  }
}

type Outcome = { toast: ToastInput; httpStatus: number };

function failed(error: unknown, title: string): Outcome {
  if (!isAppError(error)) logError(error);
  const description = isAppError(error) ? error.message : "Something went wrong. Please try again.";
  return { toast: { title, description, variant: "destructive" }, httpStatus: isAppError(error) ? error.status : 500 };
}

function fundRequestId(formData: FormData): string {
  const id = formData.get("requestId");
  if (typeof id !== "string" || id.length === 0 || id.length > 100) throw new AppError("not_found", fundAccessMessages.requestNotFound);
  return id;
}

/** intent=revoke-fund-access: the request's link and cookies stop working at once. */
function revokeFundRequest(admin: LpUser, formData: FormData): Outcome {
  try {
    const row = revokeFundAccess(admin, fundRequestId(formData));
    return { toast: { ...fundAccessToasts.revoked(row.name), variant: "destructive" }, httpStatus: 200 };
  } catch (error) {
    return failed(error, fundAccessToasts.revokeFailed.title);
  }
}

/** intent=resend-fund-access-link: e-mail a fresh link (older links stop working; a revocation is lifted). */
function resendFundLink(admin: LpUser, formData: FormData): Outcome {
  try {
    const row = resendFundAccessLink(admin, fundRequestId(formData));
    return { toast: { ...fundAccessToasts.linkSent(row.name) }, httpStatus: 200 };
  } catch (error) {
    return failed(error, fundAccessToasts.resendFailed.title);
  }
}

/** intent=delete-fund-document: delete a fund document (its row, then its file); answers the fund's panel anchor. */
async function removeFundDocument(admin: LpUser, formData: FormData): Promise<Outcome & { anchor: string }> {
  try {
    const documentId = formData.get("documentId");
    if (typeof documentId !== "string") throw new AppError("not_found", uploadMessages.documentNotFound);
    const row = await deleteFundDocument(admin, documentId);
    return { toast: { ...fundDocumentToasts.deleted }, httpStatus: 200, anchor: publishedFundSectionId(row.fundId) };
  } catch (error) {
    return { ...failed(error, fundDocumentToasts.deleteFailed.title), anchor: FUND_SECTION_ID };
  }
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const formData = await readFormData(request);
  let outcome: Outcome;
  let redirectTo = "/admin/dashboard";
  switch (formData.get("intent")) {
    case STATUS_INTENT:
      outcome = await changeStatus(admin, formData);
      break;
    case DELETE_DOCUMENT_INTENT:
      outcome = await removeDocument(admin, formData);
      redirectTo = "/admin/dashboard#published-documents";
      break;
    case REVOKE_FUND_ACCESS_INTENT:
      outcome = revokeFundRequest(admin, formData);
      redirectTo = `/admin/dashboard#${FUND_ACCESS_LIST_ID}`;
      break;
    case RESEND_FUND_ACCESS_INTENT:
      outcome = resendFundLink(admin, formData);
      redirectTo = `/admin/dashboard#${FUND_ACCESS_LIST_ID}`;
      break;
    case DELETE_FUND_DOCUMENT_INTENT: {
      const removed = await removeFundDocument(admin, formData);
      outcome = removed;
      redirectTo = `/admin/dashboard#${removed.anchor}`;
      break;
    }
    default:
      outcome = { toast: errorToast(new AppError("bad_request", "Unknown action")), httpStatus: 400 };
  }
  if (isEnhanced(formData)) {
    // A fresh id per answer: the user's buttons move lists and remount with it, and must not toast twice.
    const answer: StatusOutcome & DeleteOutcome & FundAccessActionOutcome = {
      status: outcome.httpStatus === 200 ? "success" : "error",
      toast: { ...outcome.toast, id: randomUUID() },
    };
    return data(answer, { status: outcome.httpStatus });
  }
  return redirectWithFlash(redirectTo, { toast: outcome.toast });
}

/** Intents after which the lists reload even when the answer was a 4xx. */
const ALWAYS_REVALIDATE = new Set<unknown>([
  DELETE_DOCUMENT_INTENT,
  DELETE_FUND_DOCUMENT_INTENT,
  REVOKE_FUND_ACCESS_INTENT,
  RESEND_FUND_ACCESS_INTENT,
]);

/**
 * After a delete, revoke or resend the lists reload even when it failed
 * (React Router skips that after a 4xx answer): a document or request
 * someone else already changed then shows its current state.
 */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (ALWAYS_REVALIDATE.has(formData?.get("intent"))) return true;
  return defaultShouldRevalidate;
}

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const {
    lists,
    confirm,
    documents,
    documentConfirm,
    fundRequests,
    fundDocuments,
    revokeConfirm,
    fundDocumentConfirm,
    emailLists,
    emailListViews,
  } = loaderData;
  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight">{adminCopy.title}</h1>

      <section aria-labelledby="lp-management-title" className="mt-8">
        <h2 id="lp-management-title" className="text-2xl font-semibold">
          {adminCopy.lpSection}
        </h2>
        {confirm ? <ConfirmPanel kind={confirm.kind} user={confirm.user} /> : null}
        <UserList list="pending" data={lists.pending} />
        <UserList list="approved" data={lists.approved} />
        <UserList list="rejected" data={lists.rejected} />
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

      <section id={FUND_SECTION_ID} aria-labelledby={`${FUND_SECTION_ID}-title`} className="mt-16 scroll-mt-40">
        <h2 id={`${FUND_SECTION_ID}-title`} className="text-2xl font-semibold">
          {fundAdminCopy.section}
        </h2>
        {revokeConfirm ? <RevokeConfirmPanel request={revokeConfirm.request} /> : null}
        <FundAccessList data={fundRequests} />
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
        {fundDocumentConfirm ? (
          <DeleteConfirmPanel document={fundDocumentConfirm.document} settings={fundDeleteSettings(fundDocumentConfirm.fundId)} />
        ) : null}
        {PANEL_FUNDS.map((fundId) => (
          <PublishedDocuments
            key={fundId}
            documents={fundDocuments[fundId].documents}
            failed={fundDocuments[fundId].failed}
            categories={FUND_CATEGORIES}
            deleteSettings={fundDeleteSettings(fundId)}
            viewPath={fundViewPath}
            sectionId={publishedFundSectionId(fundId)}
            copy={publishedFundDocumentsCopy[fundId]}
            listLabel={publishedFundListLabels[fundId]}
            listHeight="short"
            rowTestId="published-fund-document"
          />
        ))}
      </section>

      <EmailListsSection lists={emailLists} views={emailListViews} />

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
