import { parseWithZod } from "@conform-to/zod/v4";
import { UserPlus } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/register";
import { AccountCardHeader, textLinkClass } from "~/components/portal/account-field";
import { REGISTER_FORM_ID, RegisterForm } from "~/components/portal/register-form";
import { Card } from "~/components/ui/form";
import { accountToasts } from "~/content/accounts";
import { registerCopy } from "~/content/portal";
import { enforceRateLimit } from "~/modules/http/rate-limit.server";
import { registerInvestor } from "~/modules/lp-users/registration.server";
import { RegisterInput } from "~/modules/lp-users/schema";
import { pageMeta } from "~/modules/seo/meta";
import { keepRetryAfter } from "~/modules/http/keep-retry-after";
import { answerConform, formFailure } from "~/modules/http/form-answer.server";
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
  // Without JavaScript a refusal goes back to the form (303) with its outcome in the flash: the typed details, never the password.
  const back = { formId: REGISTER_FORM_ID, redirectTo: "/lp/register", keep: ["name", "company", "email"] } as const;
  const submission = parseWithZod(formData, { schema: RegisterInput });
  if (submission.status !== "success") {
    return answerConform(formData, { ...back, httpStatus: 400, toast: null, result: submission.reply({ hideFields: ["password"] }) });
  }
  try {
    await enforceRateLimit("register", context.clientAddress);
    await registerInvestor(submission.value);
  } catch (error) {
    const failure = formFailure(error, accountToasts.registrationFailed.fallback);
    return answerConform(formData, {
      ...back,
      httpStatus: failure.httpStatus,
      toast: { title: accountToasts.registrationFailed.title, description: failure.message, variant: "destructive" },
      result: submission.reply({ hideFields: ["password"], formErrors: [failure.message] }),
      retryAfterSeconds: failure.retryAfterSeconds,
    });
  }
  return answerConform(formData, {
    ...back,
    httpStatus: 200,
    toast: { ...accountToasts.registered },
    result: submission.reply({ resetForm: true }),
    redirectTo: "/lp/login",
    extra: { redirectTo: "/lp/login" },
  });
}

export default function Register() {
  const c = registerCopy;
  return (
    <div className="mx-auto max-w-md px-4 py-16 sm:px-6">
      <Card>
        <AccountCardHeader icon={<UserPlus aria-hidden="true" className="size-6" />} title={c.title} intro={c.intro} />
        <RegisterForm />
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
