import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { FUND_I_DOCUMENTS_PATH } from "~/components/funds/fund-i-signup-form";
import type { FormOutcome } from "~/components/portal/outcome";
import { fundAccessCopy } from "~/content/fund-access";
import type { FundId } from "~/modules/fund-access/constants";
import { setFundCookie } from "~/modules/fund-access/cookie.server";
import { requestFundAccess } from "~/modules/fund-access/fund-access.server";
import { FundAccessInput } from "~/modules/fund-access/schema";
import { conformFailure } from "~/modules/http/form-answer.server";
import { readFormData } from "~/modules/http/form-data.server";
import { enforceRateLimit } from "~/modules/http/rate-limit.server";
import { isEnhanced } from "~/modules/toast/enhanced";
import { redirectWithFlash } from "~/modules/toast/flash.server";

/**
 * Where each sign-up goes on: Fund I grants access at once and opens the
 * documents; Fund II mails a link, so the visitor stays on an empty form.
 */
const AFTER: Record<FundId, { toast: { title: string; description: string; duration?: number }; next: string; goesOn: boolean }> = {
  "fund-i": { toast: fundAccessCopy.fundISignup.success, next: FUND_I_DOCUMENTS_PATH, goesOn: true },
  "fund-ii": { toast: fundAccessCopy.fundIISignup.success, next: "/fund-ii/signup", goesOn: false },
};

/**
 * A fund sign-up form's action (SPEC.md §2, §5, §8; decision 012): the page's
 * own fund whatever the form says, validated, rate-limited and recorded. Fund I
 * access comes as its HttpOnly cookie. With JavaScript the answer is data
 * (toast; Fund I then goes on to the documents); without, a redirect with a flash.
 */
export async function answerFundSignup(request: Request, clientAddress: string, fundId: FundId) {
  const formData = await readFormData(request);
  formData.set("fundId", fundId);
  const submission = parseWithZod(formData, { schema: FundAccessInput });
  if (submission.status !== "success") {
    const outcome: FormOutcome = { status: "error", toast: null, result: submission.reply() };
    return data(outcome, { status: 400 });
  }
  let cookieValue: string | null;
  try {
    await enforceRateLimit("fundAccess", clientAddress);
    cookieValue = requestFundAccess(submission.value).cookieValue;
    if (fundId === "fund-i" && !cookieValue) throw new Error("Fund I access came without a cookie value");
  } catch (error) {
    return conformFailure(formData, error, {
      title: fundAccessCopy.registrationFailed.title,
      fallback: fundAccessCopy.registrationFailed.fallback,
      reply: (formErrors) => submission.reply({ formErrors }),
    });
  }
  const headers = cookieValue ? { "Set-Cookie": await setFundCookie(fundId, cookieValue) } : undefined;
  const { toast, next, goesOn } = AFTER[fundId];
  if (!isEnhanced(formData)) return redirectWithFlash(next, { toast: { ...toast } }, headers ? { headers } : {});
  const outcome: FormOutcome = {
    status: "success",
    toast: { ...toast },
    result: submission.reply({ resetForm: true }),
    ...(goesOn ? { redirectTo: next } : {}),
  };
  return data(outcome, headers ? { headers } : undefined);
}
