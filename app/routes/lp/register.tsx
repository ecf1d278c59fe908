import { parseWithZod } from "@conform-to/zod/v4";
import { UserPlus } from "lucide-react";
import { data, Link } from "react-router";
import type { Route } from "./+types/register";
import { AccountCardHeader, textLinkClass } from "~/components/portal/account-field";
import type { FormOutcome } from "~/components/portal/outcome";
import { RegisterForm } from "~/components/portal/register-form";
import { Card } from "~/components/ui/form";
import { StaticToast } from "~/components/ui/toaster";
import { accountToasts } from "~/content/accounts";
import { registerCopy } from "~/content/portal";
import { enforceRateLimit } from "~/modules/http/rate-limit.server";
import { registerInvestor } from "~/modules/lp-users/registration.server";
import { RegisterInput } from "~/modules/lp-users/schema";
import { pageMeta } from "~/modules/seo/meta";
import { isEnhanced } from "~/modules/toast/enhanced";
import { redirectWithFlash } from "~/modules/toast/flash.server";
import { keepRetryAfter } from "~/modules/http/keep-retry-after";
import { conformFailure } from "~/modules/http/form-answer.server";
import { readFormData } from "~/modules/http/form-data.server";

/** A rate-limited answer keeps its Retry-After (DESIGN.md §4). */
export const headers = keepRetryAfter;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: registerCopy.title, description: registerCopy.description, path: "/lp/register", noindex: true });

/**
 * Request investor access (SPEC.md §2, §4, §8): validate, rate-limit, then
 * registerInvestor (the same answer whether or not the e-mail has an account).
 * The answer says a link was mailed: the request reaches the admins once the
 * address is confirmed (decision 028); the move to /lp/login stays.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readFormData(request);
  const enhanced = isEnhanced(formData);
  const submission = parseWithZod(formData, { schema: RegisterInput });
  if (submission.status !== "success") {
    const outcome: FormOutcome = { status: "error", toast: null, result: submission.reply({ hideFields: ["password"] }) };
    return data(outcome, { status: 400 });
  }
  try {
    await enforceRateLimit("register", context.clientAddress);
    await registerInvestor(submission.value);
  } catch (error) {
    return conformFailure(formData, error, {
      title: accountToasts.registrationFailed.title,
      fallback: accountToasts.registrationFailed.fallback,
      reply: (formErrors) => submission.reply({ hideFields: ["password"], formErrors }),
    });
  }
  if (!enhanced) return redirectWithFlash("/lp/login", { toast: { ...accountToasts.registered } });
  const outcome: FormOutcome = {
    status: "success",
    toast: { ...accountToasts.registered },
    result: submission.reply({ resetForm: true }),
    redirectTo: "/lp/login",
  };
  return data(outcome);
}

export default function Register({ actionData }: Route.ComponentProps) {
  const c = registerCopy;
  return (
    <div className="mx-auto max-w-md px-4 py-16 sm:px-6">
      {actionData?.toast ? <StaticToast announce={false} toast={{ id: "register-result", variant: "default", ...actionData.toast }} /> : null}
      <Card>
        <AccountCardHeader icon={<UserPlus aria-hidden="true" className="size-6" />} title={c.title} intro={c.intro} />
        <RegisterForm serverOutcome={actionData ?? undefined} />
        <p className="mt-6 border-t border-slate-200 pt-6 text-center text-sm text-slate-600 dark:border-slate-800 dark:text-slate-300">
          {`${c.haveAccount} `}
          <Link to="/lp/login" className={textLinkClass}>
            {c.signIn}
          </Link>
        </p>
      </Card>
    </div>
  );
}
