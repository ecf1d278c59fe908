import { LoaderCircle } from "lucide-react";
import { useEffect, useRef } from "react";
import { fundAccessCopy } from "~/content/fund-access";
import { fundAccessMessages, INVALID_EMAIL } from "~/content/validation";
import { EnhancedForm } from "../ui/enhanced-form";
import { FormAlert } from "../portal/account-field";
import type { FormOutcome } from "../portal/outcome";
import { Button } from "../ui/form";
import { ConfirmCheckbox } from "./confirm-checkbox";
import { FundIdentityFields } from "./fund-identity-fields";
import { useFundSignup } from "./use-fund-signup";

export const FUND_II_FORM_ID = "fund-ii-signup";

const messages = {
  name: { valueMissing: fundAccessMessages.nameRequired },
  email: { valueMissing: INVALID_EMAIL, typeMismatch: INVALID_EMAIL, tooLong: INVALID_EMAIL },
  accreditedConfirmation: { valueMissing: fundAccessMessages.accreditedRequired },
};

/**
 * The Fund II access request (SPEC.md §2, §4): Full Name, Business email and
 * the accredited/qualified confirmation (unchecked). With JavaScript: 'Check
 * Your Email' (8 s) and the form resets. Without JavaScript the action
 * redirects back here with the same notice and an empty form.
 */
export function FundIISignupForm({ serverOutcome }: { serverOutcome?: FormOutcome | undefined }) {
  const c = fundAccessCopy;
  const { fetcher, onSubmit, onInput, errorsFor, initial, formError, busy } = useFundSignup(
    FUND_II_FORM_ID,
    messages,
    serverOutcome,
  );
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (fetcher.data?.status === "success") formRef.current?.reset();
  }, [fetcher.data]);

  return (
    <EnhancedForm
      fetcher={fetcher}
      ref={formRef}
      id={FUND_II_FORM_ID}
      action="/fund-ii/signup"
      onSubmit={onSubmit}
      onInput={onInput}
      className="mt-6 space-y-4"
    >
      <FundIdentityFields
        fundId="fund-ii"
        formId={FUND_II_FORM_ID}
        emailLabel={c.fields.businessEmail}
        emailAutoComplete="work email"
        initial={initial}
        errorsFor={errorsFor}
      />
      <ConfirmCheckbox
        formId={FUND_II_FORM_ID}
        name="accreditedConfirmation"
        label={c.fundIISignup.confirm}
        defaultChecked={initial("accreditedConfirmation") !== ""}
        errors={errorsFor("accreditedConfirmation")}
      />
      <FormAlert id={`${FUND_II_FORM_ID}-error`} message={formError} />
      <Button type="submit" className="w-full" disabled={busy} aria-busy={busy || undefined}>
        {busy ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
        {c.fundIISignup.submit}
      </Button>
      <p className="text-center text-xs text-slate-600 dark:text-slate-400">{c.fundIISignup.note}</p>
    </EnhancedForm>
  );
}
