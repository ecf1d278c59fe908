import { parseWithZod } from "@conform-to/zod/v4";
import { FUND_I_DOCUMENTS_PATH, FUND_I_FORM_ID } from "~/components/funds/fund-i-signup-form";
import { FUND_II_FORM_ID } from "~/components/funds/fund-ii-signup-form";
import { fundAccessCopy } from "~/content/fund-access";
import type { FundId } from "~/modules/fund-access/constants";
import { setFundCookie } from "~/modules/fund-access/cookie.server";
import { requestFundAccess } from "~/modules/fund-access/fund-access.server";
import { FundAccessInput } from "~/modules/fund-access/schema";
import { answerConform, formFailure } from "~/modules/http/form-answer.server";
import { readFormData } from "~/modules/http/form-data.server";
import { enforceRateLimit } from "~/modules/http/rate-limit.server";

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
 * (toast; Fund I then goes on to the documents); without, a 303 with a flash
 * (answerForm): on to the next page on success, back to the form otherwise.
 */
const FORM_IDS: Record<FundId, string> = { "fund-i": FUND_I_FORM_ID, "fund-ii": FUND_II_FORM_ID };

export async function answerFundSignup(request: Request, clientAddress: string, fundId: FundId) {
  const formData = await readFormData(request);
  formData.set("fundId", fundId);
  // Without JavaScript a refusal goes back to the form (303) with its outcome in the flash; the typed name, company, e-mail and phone kept.
  const back = { formId: FORM_IDS[fundId], redirectTo: `/${fundId}/signup`, keep: ["name", "company", "email", "phone"] } as const;
  const submission = parseWithZod(formData, { schema: FundAccessInput });
  if (submission.status !== "success") {
    return answerConform(formData, { ...back, httpStatus: 400, toast: null, result: submission.reply() });
  }
  let cookieValue: string | null;
  try {
    await enforceRateLimit("fundAccess", clientAddress);
    cookieValue = requestFundAccess(submission.value).cookieValue;
    // A page that goes on to the documents needs the access cookie (an open fund's sign-up gives one).
    if (AFTER[fundId].goesOn && !cookieValue) throw new Error(`${fundId} access came without a cookie value`);
  } catch (error) {
    const failure = formFailure(error, fundAccessCopy.registrationFailed.fallback);
    return answerConform(formData, {
      ...back,
      httpStatus: failure.httpStatus,
      toast: { title: fundAccessCopy.registrationFailed.title, description: failure.message, variant: "destructive" },
      result: submission.reply({ formErrors: [failure.message] }),
      retryAfterSeconds: failure.retryAfterSeconds,
    });
  }
  const headers = cookieValue ? { "Set-Cookie": await setFundCookie(fundId, cookieValue) } : undefined;
  const { toast, next, goesOn } = AFTER[fundId];
  return answerConform(formData, {
    ...back,
    httpStatus: 200,
    toast: { ...toast },
    result: submission.reply({ resetForm: true }),
    redirectTo: next,
    headers,
    extra: goesOn ? { redirectTo: next } : {},
  });
}
