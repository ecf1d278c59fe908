import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { z } from "zod";
import { twoFactorCopy } from "~/content/two-factor";
import type { LpUser } from "~/modules/auth/session.server";
import { formFailure, retryAfterHeaders } from "~/modules/http/form-answer.server";
import { readFormData } from "~/modules/http/form-data.server";
import { ACCOUNT_INTENTS, type AccountAnswer } from "~/modules/two-factor/account-form";
import { CodeInput } from "~/modules/two-factor/schema";
import {
  beginEnrolment,
  confirmEnrolment,
  disableTwoFactor,
  regenerateRecoveryCodes,
  twoFactorState,
} from "~/modules/two-factor/two-factor.server";

/** The account page's data: who is signed in, their two-factor state, and the secret to set up while it is off. */
export async function accountLoader(user: LpUser) {
  const twoFactor = twoFactorState(user.id);
  return {
    email: user.email,
    isAdmin: user.isAdmin,
    twoFactor,
    enrolment: twoFactor.enabled ? null : await beginEnrolment(user),
  };
}

const AccountForm = CodeInput.extend({ intent: z.enum(ACCOUNT_INTENTS) });

/**
 * The account page's action, shared by /lp/account and /admin/account: turn
 * two-factor on (a code confirms the pending secret), turn it off (a current
 * code; never for admins), make new recovery codes (a current TOTP code).
 */
export async function accountAction(request: Request, user: LpUser, clientAddress: string) {
  const formData = await readFormData(request);
  const intent = ACCOUNT_INTENTS.find((i) => i === formData.get("intent")) ?? "enable-2fa";
  const submission = parseWithZod(formData, { schema: AccountForm });
  if (submission.status !== "success") {
    const fieldErrors = submission.error ?? {};
    const message = Object.values(fieldErrors).flat()[0] ?? "";
    return data<AccountAnswer>({ intent, status: "error", message, fieldErrors: { code: fieldErrors.code ?? [message] } }, { status: 400 });
  }
  const { code } = submission.value;
  const copy = twoFactorCopy.account;
  try {
    switch (submission.value.intent) {
      case "enable-2fa":
        return data<AccountAnswer>({ intent, status: "success", message: copy.enabled, codes: await confirmEnrolment(user, code, clientAddress) });
      case "regenerate-codes":
        return data<AccountAnswer>({ intent, status: "success", message: copy.regenerated, codes: await regenerateRecoveryCodes(user, code, clientAddress) });
      case "disable-2fa":
        await disableTwoFactor(user, code, clientAddress);
        return data<AccountAnswer>({ intent, status: "success", message: copy.disabled });
    }
  } catch (error) {
    const failure = formFailure(error);
    const headers = retryAfterHeaders(failure.retryAfterSeconds);
    return data<AccountAnswer>(
      { intent, status: "error", message: failure.message, fieldErrors: { code: failure.fields?.code ?? [failure.message] } },
      { status: failure.httpStatus, ...(headers ? { headers } : {}) },
    );
  }
}
