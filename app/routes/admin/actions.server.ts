import { parseWithZod } from "@conform-to/zod/v4";
import { referenceCodeFormId, SET_REFERENCE_CODE_INTENT } from "~/components/admin/reference-code-form";
import { DELETE_DOCUMENT_INTENT } from "~/components/documents/delete-document";
import { RESEND_FUND_ACCESS_INTENT, REVOKE_FUND_ACCESS_INTENT } from "~/components/fund-admin/fund-access-actions";
import { DELETE_FUND_DOCUMENT_INTENT } from "~/components/fund-admin/fund-documents";
import { STATUS_INTENT } from "~/components/portal/status-actions";
import { referenceCodeCopy } from "~/content/admin-workspace";
import { accountMessages, accountToasts } from "~/content/accounts";
import { documentToasts } from "~/content/documents";
import { fundAccessToasts, fundDocumentToasts } from "~/content/fund-admin";
import { AUDIENCE_FORM_ID, REMIND_INTENT, SET_AUDIENCE_INTENT } from "~/modules/documents/constants";
import { readStatusCopy } from "~/content/documents";
import { fundDocuments, lpDocuments, remindUnopenedAudience, setLpDocumentAudience } from "~/modules/documents/documents.server";
import { AudienceFields } from "~/modules/documents/schema";
import { zodFields } from "~/modules/storage/accept-upload.server";
import { fundAccessMessages, requestMessages, uploadMessages } from "~/content/validation";
import { resendFundAccessLink, revokeFundAccess } from "~/modules/fund-access/fund-access.server";
import { AppError } from "~/modules/http/app-error";
import { failureAnswer, answerForm, formFailure, runFormAction } from "~/modules/http/form-answer.server";
import { setUserStatus, type LpUser } from "~/modules/lp-users/lp-users.server";
import { ReferenceCodeInput, setReferenceCode } from "~/modules/lp-users/reference-code.server";
import { StatusInput } from "~/modules/lp-users/schema";
import { safeRedirectPath } from "~/modules/toast/flash.server";

/**
 * The admin pages' form intents, one function each; a page's action passes
 * on the intents it shows. Each answers through answerForm: data for an
 * enhanced post, a redirect back to `page` with a flash without JavaScript.
 */

/** An id field of a form: a short string, else the thing cannot exist. */
function idField(formData: FormData, name: string, notFound: string): string {
  const value = formData.get(name);
  if (typeof value !== "string" || value.length === 0 || value.length > 100) throw new AppError("not_found", notFound);
  return value;
}

/** intent=status: approve or reject an investor (also revoke an approved one, approve a rejected one). */
function changeStatus(admin: LpUser, formData: FormData, page: string) {
  return runFormAction(
    formData,
    () => {
      const submission = parseWithZod(formData, { schema: StatusInput });
      if (submission.status !== "success") {
        throw new AppError("bad_request", submission.error?.status?.[0] ?? "Status must be approved or rejected");
      }
      const { user } = setUserStatus(admin, idField(formData, "userId", accountMessages.userNotFound), submission.value.status);
      return { user, status: submission.value.status };
    },
    {
      success: ({ user, status }) => ({
        toast: status === "approved" ? accountToasts.approved(user.name) : { ...accountToasts.rejected(user.name), variant: "destructive" },
      }),
      failureTitle: accountToasts.updateFailed.title,
      redirectTo: page,
    },
  );
}

/**
 * intent=set-reference-code: give an investor a reference code, change it or
 * remove it (empty field). A refusal (bad format, a code another investor
 * holds) is the field's message: in the enhanced answer's `fields`, and in the
 * flash of the investor's form without JavaScript (the typed value kept).
 */
async function changeReferenceCode(admin: LpUser, formData: FormData, page: string) {
  const formId = referenceCodeFormId(String(formData.get("userId") ?? "").slice(0, 100));
  // Without JavaScript, back to the same search and page of the lists, at the investor's form.
  const query = String(formData.get("query") ?? "");
  const back = safeRedirectPath(`${page}${/^\?[^#\s]{1,500}$/.test(query) ? query : ""}#${formId}`, page);
  try {
    const userId = idField(formData, "userId", accountMessages.userNotFound);
    const submission = parseWithZod(formData, { schema: ReferenceCodeInput });
    if (submission.status !== "success") {
      const message = submission.error?.referenceCode?.[0] ?? referenceCodeCopy.invalid;
      const typed = String(formData.get("referenceCode") ?? "").slice(0, 200);
      throw new AppError("bad_request", message, { fields: { referenceCode: [message] }, values: { referenceCode: typed } });
    }
    const code = submission.value.referenceCode;
    const { user } = setReferenceCode(admin, userId, code);
    return answerForm(formData, {
      httpStatus: 200,
      toast: code ? referenceCodeCopy.saved(user.name, code) : referenceCodeCopy.removed(user.name),
      redirectTo: back,
      form: { formId, status: "success" },
    });
  } catch (error) {
    const failure = formFailure(error);
    const answer = failureAnswer(failure, { title: referenceCodeCopy.failedTitle, redirectTo: back, formId });
    return answerForm(formData, { ...answer, extra: { fields: failure.fields ?? {} } });
  }
}

/** intent=delete-document: delete an LP document (its row, then its file). */
function removeDocument(admin: LpUser, formData: FormData, page: string) {
  return runFormAction(formData, () => lpDocuments.delete(admin, idField(formData, "documentId", uploadMessages.documentNotFound)), {
    success: () => ({ toast: documentToasts.deleted }),
    failureTitle: documentToasts.deleteFailed.title,
    redirectTo: `${page}#published-documents`,
  });
}

/** intent=revoke-fund-access: the request's link and cookies stop working at once. */
function revokeFundRequest(admin: LpUser, formData: FormData, page: string) {
  return runFormAction(formData, () => revokeFundAccess(admin, idField(formData, "requestId", fundAccessMessages.requestNotFound)), {
    success: (row) => ({ toast: { ...fundAccessToasts.revoked(row.name), variant: "destructive" } }),
    failureTitle: fundAccessToasts.revokeFailed.title,
    redirectTo: `${page}#fund-access-requests`,
  });
}

/** intent=resend-fund-access-link: e-mail a fresh link (older links stop working; a revocation is lifted). */
function resendFundLink(admin: LpUser, formData: FormData, page: string) {
  return runFormAction(formData, () => resendFundAccessLink(admin, idField(formData, "requestId", fundAccessMessages.requestNotFound)), {
    success: (row) => ({ toast: fundAccessToasts.linkSent(row.name) }),
    failureTitle: fundAccessToasts.resendFailed.title,
    redirectTo: `${page}#fund-access-requests`,
  });
}

/** intent=delete-fund-document: delete a fund document; without JavaScript back at its fund's panel. */
function removeFundDocument(admin: LpUser, formData: FormData, page: string) {
  return runFormAction(formData, () => fundDocuments.delete(admin, idField(formData, "documentId", uploadMessages.documentNotFound)), {
    success: (row) => ({ toast: fundDocumentToasts.deleted, redirectTo: `${page}#published-${row.fundId}-documents` }),
    failureTitle: fundDocumentToasts.deleteFailed.title,
    redirectTo: page,
  });
}

/** The audience form's fields (repeated recipientIds), checked by the upload's own rules. */
function audienceFields(formData: FormData): AudienceFields {
  const parsed = zodFields(AudienceFields)({
    audience: String(formData.get("audience") ?? ""),
    recipientIds: formData.getAll("recipientIds").map(String),
    watermark: String(formData.get("watermark") ?? ""),
  });
  if ("errors" in parsed) {
    const first = Object.values(parsed.errors)[0]?.[0] ?? requestMessages.formFailed;
    throw new AppError("bad_request", first, { fields: parsed.errors });
  }
  return parsed.data;
}

/** intent=set-audience: who an LP document is for, and its watermark switch. */
function saveAudience(admin: LpUser, formData: FormData, page: string) {
  return runFormAction(
    formData,
    () => setLpDocumentAudience(admin, idField(formData, "documentId", uploadMessages.documentNotFound), audienceFields(formData)),
    {
      success: () => ({ toast: readStatusCopy.saved }),
      failureTitle: readStatusCopy.saveFailed.title,
      redirectTo: `${page}#document-audience`,
      formId: AUDIENCE_FORM_ID,
    },
  );
}

/** intent=remind-unopened: a reminder mail to each investor of the audience who has not opened the document. */
function remindUnopened(admin: LpUser, formData: FormData, page: string) {
  return runFormAction(formData, () => remindUnopenedAudience(admin, idField(formData, "documentId", uploadMessages.documentNotFound)), {
    success: ({ queued, skipped }) => ({ toast: readStatusCopy.reminded(queued, skipped) }),
    failureTitle: readStatusCopy.remindFailed.title,
    redirectTo: `${page}#read-status`,
  });
}

const INTENTS = {
  [SET_AUDIENCE_INTENT]: saveAudience,
  [REMIND_INTENT]: remindUnopened,
  [STATUS_INTENT]: changeStatus,
  [SET_REFERENCE_CODE_INTENT]: changeReferenceCode,
  [DELETE_DOCUMENT_INTENT]: removeDocument,
  [REVOKE_FUND_ACCESS_INTENT]: revokeFundRequest,
  [RESEND_FUND_ACCESS_INTENT]: resendFundLink,
  [DELETE_FUND_DOCUMENT_INTENT]: removeFundDocument,
} as const;

export type AdminIntent = keyof typeof INTENTS;

/** Run the form's intent if `page` offers it; any other intent is a 400. */
export async function answerAdminIntent(admin: LpUser, formData: FormData, page: string, offered: readonly AdminIntent[]) {
  const intent = formData.get("intent");
  const run = offered.find((name) => name === intent);
  if (!run) {
    return answerForm(
      formData,
      failureAnswer({ httpStatus: 400, message: requestMessages.unknownAction }, { title: accountToasts.updateFailed.title, redirectTo: page }),
    );
  }
  return INTENTS[run](admin, formData, page);
}
