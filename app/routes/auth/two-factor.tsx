import { parseWithZod } from "@conform-to/zod/v4";
import { Smartphone } from "lucide-react";
import { redirect, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/two-factor";
import { AccountCardHeader, AccountField, CardFooterLink, FormAlert } from "~/components/portal/account-field";
import type { FormOutcome } from "~/components/portal/outcome";
import { useAccountFieldErrors } from "~/components/portal/use-account-field-errors";
import { useFormOutcome } from "~/components/portal/use-form-outcome";
import { EnhancedForm } from "~/components/ui/enhanced-form";
import { Button, Card } from "~/components/ui/form";
import { accountToasts } from "~/content/accounts";
import { twoFactorCopy, twoFactorMessages } from "~/content/two-factor";
import { getSessionUser, getTwoFactorChallenge } from "~/modules/auth/session.server";
import { completeTwoFactorSignIn } from "~/modules/auth/sign-in.server";
import { answerConform, formFailure } from "~/modules/http/form-answer.server";
import { readFormData } from "~/modules/http/form-data.server";
import { keepRetryAfter } from "~/modules/http/keep-retry-after";
import { pageMeta } from "~/modules/seo/meta";
import { CODE_MAX } from "~/modules/two-factor/constants";
import { CodeInput } from "~/modules/two-factor/schema";
import { TWO_FACTOR_PATH } from "~/modules/auth/paths";
import { portalHome } from "./sign-in-action.server";

/** A rate-limited answer keeps its Retry-After (DESIGN.md §4). */
export const headers = keepRetryAfter;

const FORM_ID = "two-factor";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: twoFactorCopy.code.title, description: twoFactorCopy.code.intro, path: TWO_FACTOR_PATH, noindex: true });

/** The code step opens only for a live challenge; someone already signed in goes home. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  if (user) throw redirect(portalHome(user));
  return { live: (await getTwoFactorChallenge(request)) !== null };
}

/**
 * The second step of a two-factor sign-in: the challenge from the password
 * step and a TOTP or recovery code give the real session (a new id). A wrong
 * code is a 401 with the message under the field; the limits answer 429.
 * Through answerForm: without JavaScript a 303, home with the session on
 * success, back to this step with the message in the flash otherwise (the
 * code is never carried back).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readFormData(request);
  const back = { formId: FORM_ID, redirectTo: TWO_FACTOR_PATH, keep: [] } as const;
  const submission = parseWithZod(formData, { schema: CodeInput });
  if (submission.status !== "success") {
    return answerConform(formData, { ...back, httpStatus: 400, toast: null, result: submission.reply({ hideFields: ["code"] }) });
  }
  try {
    const { user, setCookie } = await completeTwoFactorSignIn(request, submission.value.code, context.clientAddress);
    const to = portalHome(user);
    return answerConform(formData, {
      ...back,
      httpStatus: 200,
      toast: user.isAdmin ? null : { ...accountToasts.loginSuccess },
      result: submission.reply({ resetForm: true }),
      redirectTo: to,
      headers: { "Set-Cookie": setCookie },
      flashSuccess: false,
      extra: { redirectTo: to },
    });
  } catch (error) {
    const failure = formFailure(error);
    return answerConform(formData, {
      ...back,
      httpStatus: failure.httpStatus,
      toast: null,
      result: submission.reply({ hideFields: ["code"], ...(failure.fields ? { fieldErrors: failure.fields } : { formErrors: [failure.message] }) }),
      retryAfterSeconds: failure.retryAfterSeconds,
    });
  }
}

/** After a successful code with JavaScript the form navigates itself. */
export function shouldRevalidate({ actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if ((actionResult as FormOutcome | undefined)?.status === "success") return false;
  return defaultShouldRevalidate;
}

const messages = { code: { valueMissing: twoFactorMessages.enterCode } };

export default function TwoFactorStep({ loaderData, actionData }: Route.ComponentProps) {
  const c = twoFactorCopy.code;
  const { fetcher, outcome } = useFormOutcome(FORM_ID, actionData ?? undefined);
  const result = outcome?.result;
  const { onSubmit, onInput, errorsFor } = useAccountFieldErrors(messages, result?.error ?? undefined);

  const busy = fetcher.state !== "idle" || outcome?.status === "success";
  const formError = result?.error?.[""]?.[0];
  return (
    <div className="mx-auto max-w-md px-4 py-16 sm:px-6">
      <Card>
        <AccountCardHeader icon={<Smartphone aria-hidden="true" className="size-6" />} title={c.title} intro={c.intro} />
        {loaderData.live || outcome ? (
          <EnhancedForm fetcher={fetcher} id={FORM_ID} action={TWO_FACTOR_PATH} onSubmit={onSubmit} onInput={onInput} className="mt-6 space-y-4">
            <AccountField
              formId={FORM_ID}
              name="code"
              label={c.label}
              hint={c.hint}
              required
              maxLength={CODE_MAX}
              autoComplete="one-time-code"
              autoCapitalize="none"
              spellCheck={false}
              autoFocus
              errors={errorsFor("code")}
            />
            <FormAlert id={`${FORM_ID}-error`} message={formError} />
            <Button type="submit" className="w-full" disabled={busy}>
              {busy ? c.submitting : c.submit}
            </Button>
          </EnhancedForm>
        ) : (
          <FormAlert id={`${FORM_ID}-error`} message={c.expired} />
        )}
        <CardFooterLink to="/lp/login">{c.startAgain}</CardFooterLink>
      </Card>
    </div>
  );
}
