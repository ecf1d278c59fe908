import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "~/modules/validation/z";
import { accountPageCopy } from "~/content/account";
import { documentMailCopy } from "~/content/document-mail";
import { twoFactorCopy } from "~/content/two-factor";
import { ACCOUNT_INTENTS, type AccountAnswer, type AccountIntent } from "~/modules/auth/account-form";
import { changePassword, listSessions, revokeOtherSessions, revokeSession } from "~/modules/auth/account.server";
import { currentSessionId, type LpUser } from "~/modules/auth/session.server";
import { answerForm, formFailure } from "~/modules/http/form-answer.server";
import { readFormData } from "~/modules/http/form-data.server";
import { ChangePasswordInput } from "~/modules/lp-users/schema";
import { adminDateTime } from "~/modules/dates/format";
import { setDocumentMailPreference } from "~/modules/document-mail/document-mail.server";
import { DocumentMailInput } from "~/modules/document-mail/schema";
import { CodeInput } from "~/modules/two-factor/schema";
import { beginEnrolment, confirmEnrolment, disableTwoFactor, regenerateRecoveryCodes, twoFactorState } from "~/modules/two-factor/two-factor.server";

/**
 * The account page's data: who is signed in, their sessions, their two-factor state and, while it is off, the secret to set up;
 * for an investor, their new-document e-mail preference (admins get no document mail: null).
 */
export async function accountLoader(request: Request, user: LpUser) {
  const twoFactor = twoFactorState(user.id);
  const sessionId = await currentSessionId(request);
  return {
    email: user.email,
    isAdmin: user.isAdmin,
    documentMail: user.isAdmin ? null : user.documentMail,
    twoFactor,
    // The pending secret is this session's own (another session of the account is never shown it).
    enrolment: twoFactor.enabled || !sessionId ? null : await beginEnrolment(user, sessionId),
    sessions: listSessions(user, sessionId).map((session) => ({
      ...session,
      started: accountPageCopy.sessions.at(adminDateTime(session.createdAt)),
      lastSeen: accountPageCopy.sessions.at(adminDateTime(session.lastSeenAt)),
    })),
  };
}

const AccountForm = z.discriminatedUnion("intent", [
  CodeInput.extend({ intent: z.literal(["enable-2fa", "disable-2fa", "regenerate-codes"]) }),
  ChangePasswordInput.extend({ intent: z.literal("change-password") }),
  z.object({ intent: z.literal("revoke-session"), sessionId: z.string().trim().min(1).max(64) }),
  z.object({ intent: z.literal("revoke-others") }),
  DocumentMailInput.extend({ intent: z.literal("document-mail") }),
]);

type Done = Omit<AccountAnswer, "intent" | "status" | "toast">;

/**
 * The account page's action, shared by /lp/account and /admin/account. Two-factor:
 * turn it on (a code confirms this session's pending secret; every other session
 * of the account ends), off (a current code; never
 * for admins), new recovery codes (a current TOTP code). Password: change it
 * (the current one checked; every other session ends). Sessions: sign one
 * out, or all but this one. New-document e-mails (investors): each, weekly or none.
 */
export async function accountAction(request: Request, user: LpUser, clientAddress: string) {
  const formData = await readFormData(request);
  const intent: AccountIntent = ACCOUNT_INTENTS.find((i) => i === formData.get("intent")) ?? "enable-2fa";
  const page = new URL(request.url).pathname;
  /**
   * Through answerForm: a post without `_enhanced` (the page's forms are plain posts, with or without JavaScript)
   * goes back to the page (303) with the answer in the flash. New recovery codes are the exception: shown this
   * once, on the answer itself, never put in a cookie (the flash is signed, not sealed), so that answer renders in place.
   */
  const answer = (httpStatus: number, body: Done & { fieldErrors?: Record<string, string[]> | undefined }, retryAfterSeconds?: number) =>
    answerForm(formData, {
      httpStatus,
      toast: null,
      redirectTo: body.codes ? undefined : page,
      retryAfterSeconds,
      form: { formId: intent, status: httpStatus < 400 ? "success" : "error", message: body.message || undefined, fieldErrors: body.fieldErrors },
      extra: { intent, ...body },
    });
  const submission = parseWithZod(formData, { schema: AccountForm });
  if (submission.status !== "success") {
    const fieldErrors = Object.fromEntries(Object.entries(submission.error ?? {}).filter((entry): entry is [string, string[]] => !!entry[1]?.length));
    const message = Object.values(fieldErrors).flat()[0] ?? "";
    return answer(400, { message, fieldErrors });
  }
  const form = submission.value;
  const currentId = await currentSessionId(request);
  try {
    return answer(200, await perform());
  } catch (error) {
    const failure = formFailure(error);
    return answer(failure.httpStatus, { message: failure.message, fieldErrors: failure.fields }, failure.retryAfterSeconds);
  }

  async function perform(): Promise<Done> {
    const copy = twoFactorCopy.account;
    switch (form.intent) {
      case "enable-2fa":
        return { message: copy.enabled, codes: await confirmEnrolment(user, form.code, clientAddress, currentId) };
      case "regenerate-codes":
        return { message: copy.regenerated, codes: await regenerateRecoveryCodes(user, form.code, clientAddress) };
      case "disable-2fa":
        await disableTwoFactor(user, form.code, clientAddress);
        return { message: copy.disabled };
      case "change-password":
        await changePassword(user, form, currentId);
        return { message: accountPageCopy.password.done };
      case "revoke-session":
        revokeSession(user, form.sessionId, currentId);
        return { message: accountPageCopy.sessions.revoked };
      case "revoke-others":
        return { message: accountPageCopy.sessions.revokedOthers(revokeOtherSessions(user, currentId)) };
      case "document-mail":
        setDocumentMailPreference(user, form.documentMail, "account");
        return { message: documentMailCopy.saved[form.documentMail] };
    }
  }
}
