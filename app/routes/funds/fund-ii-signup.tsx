import { parseWithZod } from "@conform-to/zod/v4";
import { ShieldCheck } from "lucide-react";
import { data } from "react-router";
import type { Route } from "./+types/fund-ii-signup";
import { FundIISignupForm } from "~/components/funds/fund-ii-signup-form";
import { AccountCardHeader, CardFooterLink } from "~/components/portal/account-field";
import type { FormOutcome } from "~/components/portal/outcome";
import { Card } from "~/components/ui/form";
import { StaticToast } from "~/components/ui/toaster";
import { fundAccessCopy } from "~/content/fund-access";
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
    title: fundAccessCopy.fundIISignup.metaTitle,
    description: fundAccessCopy.fundIISignup.description,
    path: "/fund-ii/signup",
    noindex: true,
  });

/** Keep Retry-After on a rate-limited answer. */
export const headers = keepRetryAfter;

/**
 * Fund II access request (SPEC.md §2, §4, §5, §8): validate (the
 * accredited/qualified confirmation is required), rate-limit, record the
 * request; the access link goes out by e-mail. The answer is the same whether
 * or not the address asked before (docs/decisions/012). With JavaScript the
 * answer is data (toast, the form resets); without, a redirect back here with
 * a flash and an empty form.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readFormData(request);
  // This page asks for Fund II whatever the form says.
  formData.set("fundId", "fund-ii");
  const enhanced = isEnhanced(formData);
  const submission = parseWithZod(formData, { schema: FundAccessInput });
  if (submission.status !== "success") {
    const outcome: FormOutcome = { status: "error", toast: null, result: submission.reply() };
    return data(outcome, { status: 400 });
  }
  try {
    await enforceRateLimit("fundAccess", context.clientAddress);
    requestFundAccess(submission.value);
  } catch (error) {
    return conformFailure(formData, error, {
      title: fundAccessCopy.registrationFailed.title,
      fallback: fundAccessCopy.registrationFailed.fallback,
      reply: (formErrors) => submission.reply({ formErrors }),
    });
  }
  const toast = { ...fundAccessCopy.fundIISignup.success };
  if (!enhanced) return redirectWithFlash("/fund-ii/signup", { toast });
  const outcome: FormOutcome = { status: "success", toast, result: submission.reply({ resetForm: true }) };
  return data(outcome);
}

export default function FundIISignup({ actionData }: Route.ComponentProps) {
  const c = fundAccessCopy.fundIISignup;
  return (
    <div className="mx-auto max-w-md px-4 py-16 sm:px-6">
      {actionData?.toast ? (
        <StaticToast announce={false} toast={{ id: "fund-ii-signup-result", variant: "default", ...actionData.toast }} />
      ) : null}
      <Card>
        <AccountCardHeader icon={<ShieldCheck aria-hidden="true" className="size-6" />} title={c.title} intro={c.intro} />
        <FundIISignupForm serverOutcome={actionData ?? undefined} />
        <CardFooterLink to="/fund-ii">{c.back}</CardFooterLink>
      </Card>
    </div>
  );
}
