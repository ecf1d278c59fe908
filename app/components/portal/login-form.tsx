import { Form, useNavigation } from "react-router";
import { accountMessages } from "~/content/accounts";
import { signInCopy } from "~/content/portal";
import { REGISTER_CONFIRM_PATH } from "~/modules/lp-users/paths";
import { accountFieldMessages, INVALID_EMAIL } from "~/content/validation";
import { Button } from "../ui/form";
import { AccountField, EmailField, FormAlert } from "./account-field";
import { AccountForm, typedValue } from "./account-form";
import type { FormOutcome } from "./outcome";
import { useAccountFieldErrors } from "./use-account-field-errors";
import { useFormOutcome } from "./use-form-outcome";

/** SPEC.md §4: the admin login waits 50 ms before it goes to the dashboard. */
export const ADMIN_REDIRECT_DELAY_MS = 50;

const messages = {
  email: { valueMissing: INVALID_EMAIL, typeMismatch: INVALID_EMAIL, tooLong: INVALID_EMAIL },
  password: { valueMissing: accountFieldMessages.passwordRequired },
};

/**
 * The sign-in form of /lp/login and /admin/login. It posts to its page's
 * action. With JavaScript the answer comes back as data: on success the
 * investor sees 'Login successful' and goes to the dashboard, the admin goes
 * to the admin dashboard after 50 ms; a failure shows 'Login failed' (investor,
 * as a toast) or the message in the form (admin). Without JavaScript the
 * action redirects, or renders the page again with the messages. The right
 * password of a registration whose address is not confirmed yet also shows
 * the confirm hint and 'Send the link again' (decision 028).
 */
export function LoginForm({
  portal,
  serverOutcome,
}: {
  portal: "investor" | "admin";
  serverOutcome?: FormOutcome | undefined;
}) {
  const formId = `${portal}-login`;
  const action = portal === "admin" ? "/admin/login" : "/lp/login";
  const { fetcher, outcome } = useFormOutcome(formId, serverOutcome, portal === "admin" ? ADMIN_REDIRECT_DELAY_MS : 0);
  const result = outcome?.result;
  const checks = useAccountFieldErrors(messages, result?.error ?? undefined);
  const { errorsFor } = checks;
  const email = typedValue(result, "email");
  const formError = result?.error?.[""]?.[0];
  const busy = fetcher.state !== "idle" || outcome?.status === "success";

  return (
    <>
      <AccountForm fetcher={fetcher} id={formId} action={action} checks={checks}>
        <EmailField
          formId={formId}
          label={signInCopy.email}
          autoComplete="username"
          defaultValue={email}
          errors={errorsFor("email")}
        />
        <AccountField
          formId={formId}
          name="password"
          label={signInCopy.password}
          type="password"
          required
          autoComplete="current-password"
          errors={errorsFor("password")}
        />
        <FormAlert id={`${formId}-error`} message={formError} />
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? signInCopy.submitting : signInCopy.submit}
        </Button>
      </AccountForm>
      {outcome?.confirmationRequired && email ? <ResendConfirmation email={email} /> : null}
    </>
  );
}

/**
 * Under the pending answer of a registration whose address is not confirmed yet:
 * the hint and 'Send the link again', a plain post (works without JavaScript) whose
 * answer, on the sign-in page, is the same whether or not a link went out.
 */
function ResendConfirmation({ email }: { email: string }) {
  const busy = useNavigation().formAction?.startsWith(REGISTER_CONFIRM_PATH) ?? false;
  return (
    <div className="mt-4 rounded-md border border-slate-200 bg-slate-50 p-4 text-sm text-slate-700 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-200">
      <p>{accountMessages.confirmAddress}</p>
      <Form method="post" action={REGISTER_CONFIRM_PATH} className="mt-3">
        <input type="hidden" name="intent" value="resend" />
        <input type="hidden" name="email" value={email} />
        <Button type="submit" variant="secondary" className="w-full" disabled={busy}>
          {busy ? accountMessages.resendingConfirmation : accountMessages.resendConfirmation}
        </Button>
      </Form>
    </div>
  );
}
