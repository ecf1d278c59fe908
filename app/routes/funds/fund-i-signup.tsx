import { parseWithZod } from "@conform-to/zod/v4";
import { FileLock } from "lucide-react";
import { data } from "react-router";
import type { Route } from "./+types/fund-i-signup";
import { FUND_I_DOCUMENTS_PATH, FundISignupForm } from "~/components/funds/fund-i-signup-form";
import { AccountCardHeader, CardFooterLink } from "~/components/portal/account-field";
import type { FormOutcome } from "~/components/portal/outcome";
import { Card } from "~/components/ui/form";
import { StaticToast } from "~/components/ui/toaster";
import { fundAccessCopy } from "~/content/fund-access";
import { setFundCookie } from "~/modules/fund-access/cookie.server";
import { requestFundAccess } from "~/modules/fund-access/fund-access.server";
import { FundAccessInput } from "~/modules/fund-access/schema";
import { keepRetryAfter } from "~/modules/http/keep-retry-after";
import { enforceRateLimit } from "~/modules/http/rate-limit.server";
import { pageMeta } from "~/modules/seo/meta";
import { isEnhanced } from "~/modules/toast/enhanced";
import { redirectWithFlash } from "~/modules/toast/flash.server";
import { conformFailure } from "~/modules/http/form-answer.server";
import { readFormData } from "~/modules/http/form-data.server";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: fundAccessCopy.fundISignup.metaTitle,
    description: fundAccessCopy.fundISignup.description,
    path: "/fund-i/signup",
    noindex: true,
  });

/** Keep Retry-After on a rate-limited answer. */
export const headers = keepRetryAfter;

/**
 * Fund I sign-up (SPEC.md §2, §5, §8): validate, rate-limit, record the
 * request and grant access at once as the HttpOnly Fund I cookie
 * (docs/decisions/012). With JavaScript the answer is data (toast, then the
 * form goes on after 1 s); without, a redirect to the documents with a flash.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readFormData(request);
  // This page signs up for Fund I whatever the form says.
  formData.set("fundId", "fund-i");
  const enhanced = isEnhanced(formData);
  const submission = parseWithZod(formData, { schema: FundAccessInput });
  if (submission.status !== "success") {
    const outcome: FormOutcome = { status: "error", toast: null, result: submission.reply() };
    return data(outcome, { status: 400 });
  }
  let cookieToken: string | null;
  try {
    await enforceRateLimit("fundAccess", context.clientAddress);
    cookieToken = requestFundAccess(submission.value).cookieToken;
    if (!cookieToken) throw new Error("Fund I access came without a token");
  } catch (error) {
    return conformFailure(formData, error, {
      title: fundAccessCopy.registrationFailed.title,
      fallback: fundAccessCopy.registrationFailed.fallback,
      reply: (formErrors) => submission.reply({ formErrors }),
    });
  }
  const headers = { "Set-Cookie": await setFundCookie("fund-i", cookieToken) };
  const toast = { ...fundAccessCopy.fundISignup.success };
  if (!enhanced) return redirectWithFlash(FUND_I_DOCUMENTS_PATH, { toast }, { headers });
  const outcome: FormOutcome = {
    status: "success",
    toast,
    result: submission.reply({ resetForm: true }),
    redirectTo: FUND_I_DOCUMENTS_PATH,
  };
  return data(outcome, { headers });
}

export default function FundISignup({ actionData }: Route.ComponentProps) {
  const c = fundAccessCopy.fundISignup;
  return (
    <div className="mx-auto max-w-md px-4 py-16 sm:px-6">
      {actionData?.toast ? (
        <StaticToast announce={false} toast={{ id: "fund-i-signup-result", variant: "default", ...actionData.toast }} />
      ) : null}
      <Card>
        <AccountCardHeader icon={<FileLock aria-hidden="true" className="size-6" />} title={c.title} intro={c.intro} />
        <FundISignupForm serverOutcome={actionData ?? undefined} />
        <CardFooterLink to="/fund-i">{c.back}</CardFooterLink>
      </Card>
    </div>
  );
}
