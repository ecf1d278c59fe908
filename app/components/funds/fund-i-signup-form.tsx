import { useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { fundAccessCopy } from "~/content/fund-access";
import { fundAccessMessages, INVALID_EMAIL } from "~/content/validation";
import { EnhancedForm } from "../ui/enhanced-form";
import { AccountField, FormAlert } from "../portal/account-field";
import type { FormOutcome } from "../portal/outcome";
import { Button } from "../ui/form";
import { FundIdentityFields } from "./fund-identity-fields";
import { useFundSignup } from "./use-fund-signup";

/** SPEC.md §9: after 'Access Granted' the page goes to /fund-i/documents after 1 s. */
export const FUND_I_REDIRECT_DELAY_MS = 1000;
export const FUND_I_DOCUMENTS_PATH = "/fund-i/documents";

export const FUND_I_FORM_ID = "fund-i-signup";

const messages = {
  name: { valueMissing: fundAccessMessages.nameRequired },
  email: { valueMissing: INVALID_EMAIL, typeMismatch: INVALID_EMAIL, tooLong: INVALID_EMAIL },
};

/**
 * The Fund I sign-up (SPEC.md §2): Full Name, Email, Company and Phone
 * (optional). With JavaScript: 'Processing...', then 'Access Granted' and
 * /fund-i/documents after 1 s (the action has set the access cookie). Without
 * JavaScript the action redirects there at once with the same notice.
 */
export function FundISignupForm({ serverOutcome }: { serverOutcome?: FormOutcome | undefined }) {
  const c = fundAccessCopy;
  const { fetcher, outcome, onSubmit, onInput, errorsFor, initial, formError, busy } = useFundSignup(
    FUND_I_FORM_ID,
    messages,
    serverOutcome,
  );
  const navigate = useNavigate();

  // Counted from the answer; the navigation waits until the fetcher is idle
  // (one started during the revalidation after an action can be lost).
  const succeeded = fetcher.data?.status === "success" ? fetcher.data : null;
  const [delayOver, setDelayOver] = useState(false);
  useEffect(() => {
    if (!succeeded) return;
    setDelayOver(false);
    const timer = setTimeout(() => setDelayOver(true), FUND_I_REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [succeeded]);
  useEffect(() => {
    if (succeeded && delayOver && fetcher.state === "idle") void navigate(succeeded.redirectTo ?? FUND_I_DOCUMENTS_PATH);
  }, [succeeded, delayOver, fetcher.state, navigate]);

  const done = outcome?.status === "success";
  return (
    <EnhancedForm
      fetcher={fetcher}
      id={FUND_I_FORM_ID}
      action="/fund-i/signup"
      onSubmit={onSubmit}
      onInput={onInput}
      className="mt-6 space-y-4"
    >
      <FundIdentityFields fundId="fund-i" formId={FUND_I_FORM_ID} emailLabel={c.fields.email} initial={initial} errorsFor={errorsFor} />
      <AccountField
        formId={FUND_I_FORM_ID}
        name="company"
        label={c.fields.company}
        type="text"
        maxLength={200}
        autoComplete="organization"
        defaultValue={initial("company")}
        errors={errorsFor("company")}
      />
      <AccountField
        formId={FUND_I_FORM_ID}
        name="phone"
        label={c.fields.phone}
        type="tel"
        maxLength={40}
        autoComplete="tel"
        defaultValue={initial("phone")}
        errors={errorsFor("phone")}
      />
      <FormAlert id={`${FUND_I_FORM_ID}-error`} message={formError} />
      <Button type="submit" className="w-full" disabled={busy || done}>
        {busy || done ? c.fundISignup.submitting : c.fundISignup.submit}
      </Button>
    </EnhancedForm>
  );
}
