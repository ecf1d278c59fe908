import { useEffect, useState } from "react";
import { useFetcher, useNavigate } from "react-router";
import { registerCopy } from "~/content/portal";
import { accountFieldMessages, INVALID_EMAIL } from "~/content/validation";
import { Button } from "../ui/form";
import { toast } from "../ui/toast-store";
import { AccountField, EmailField, FormAlert, NewPasswordField } from "./account-field";
import { AccountForm, typedValue } from "./account-form";
import type { FormOutcome } from "./outcome";
import { flashOutcome } from "./use-form-outcome";
import { useFormFlash } from "../ui/use-form-flash";
import { useAccountFieldErrors } from "./use-account-field-errors";

/** SPEC.md §9: after a successful registration the user goes to /lp/login after 1.5 s. */
export const REGISTER_REDIRECT_DELAY_MS = 1500;

export const REGISTER_FORM_ID = "register";
const FORM_ID = REGISTER_FORM_ID;

const messages = {
  email: { valueMissing: INVALID_EMAIL, typeMismatch: INVALID_EMAIL, tooLong: INVALID_EMAIL },
  password: { valueMissing: accountFieldMessages.passwordTooShort },
  name: { valueMissing: accountFieldMessages.nameRequired },
};

const passwordRule = {
  field: "password",
  tooShort: accountFieldMessages.passwordTooShort,
  tooLong: accountFieldMessages.passwordTooLong,
};

/**
 * 'Request Investor Access' (SPEC.md §2). With JavaScript: 'Registration
 * Submitted' (8 s), then /lp/login after 1.5 s; failures as 'Registration
 * Failed' and messages under the fields. Without JavaScript the action
 * redirects to /lp/login with the same notice, or back here with the errors
 * and the typed details (not the password) in the flash.
 */
export function RegisterForm({ serverOutcome }: { serverOutcome?: FormOutcome | undefined }) {
  const c = registerCopy;
  const fetcher = useFetcher<FormOutcome>({ key: FORM_ID });
  const navigate = useNavigate();
  const flashed = flashOutcome(useFormFlash(FORM_ID));
  const outcome = fetcher.data ?? serverOutcome ?? flashed;
  const result = outcome?.result;
  const checks = useAccountFieldErrors(messages, result?.error ?? undefined, passwordRule);
  const { errorsFor } = checks;

  useEffect(() => {
    if (fetcher.data?.toast) toast(fetcher.data.toast);
  }, [fetcher.data]);

  // Counted from the answer; the navigation itself waits until the fetcher is
  // idle (one started during the revalidation after an action can be lost).
  const succeeded = fetcher.data?.status === "success" ? fetcher.data : null;
  const [delayOver, setDelayOver] = useState(false);
  useEffect(() => {
    if (!succeeded) return;
    setDelayOver(false);
    const timer = setTimeout(() => setDelayOver(true), REGISTER_REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [succeeded]);
  useEffect(() => {
    if (succeeded && delayOver && fetcher.state === "idle") void navigate(succeeded.redirectTo ?? "/lp/login");
  }, [succeeded, delayOver, fetcher.state, navigate]);

  const initial = (name: string) => typedValue(result, name);
  const formError = result?.error?.[""]?.[0];
  const done = outcome?.status === "success";
  const busy = fetcher.state !== "idle" || done;

  return (
    <AccountForm fetcher={fetcher} id={FORM_ID} action="/lp/register" checks={checks}>
      <EmailField
        formId={FORM_ID}
        label={c.email}
        defaultValue={initial("email")}
        errors={errorsFor("email")}
      />
      <NewPasswordField
        formId={FORM_ID}
        label={c.password}
        hint={c.passwordHint}
        errors={errorsFor("password")}
      />
      <AccountField
        formId={FORM_ID}
        name="name"
        label={c.name}
        type="text"
        required
        maxLength={200}
        autoComplete="name"
        defaultValue={initial("name")}
        errors={errorsFor("name")}
      />
      <AccountField
        formId={FORM_ID}
        name="company"
        label={c.company}
        type="text"
        maxLength={200}
        autoComplete="organization"
        defaultValue={initial("company")}
        errors={errorsFor("company")}
      />
      <FormAlert id={`${FORM_ID}-error`} message={formError} />
      {done && outcome?.toast?.description ? (
        <p role="status" className="text-sm font-medium text-brand-800 dark:text-brand-200">
          {outcome.toast.description}
        </p>
      ) : null}
      <Button type="submit" className="w-full" disabled={busy}>
        {fetcher.state !== "idle" ? c.submitting : c.submit}
      </Button>
    </AccountForm>
  );
}
