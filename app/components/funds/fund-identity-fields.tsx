import { fundAccessCopy } from "~/content/fund-access";
import type { FundId } from "~/modules/fund-access/constants";
import { AccountField, EmailField } from "../portal/account-field";
import type { useFundSignup } from "./use-fund-signup";

type Signup = ReturnType<typeof useFundSignup>;

/** The fields both fund sign-ups open with: which fund, the full name and the e-mail address. */
export function FundIdentityFields({
  fundId,
  formId,
  emailLabel,
  emailAutoComplete = "email",
  initial,
  errorsFor,
}: {
  fundId: FundId;
  formId: string;
  emailLabel: string;
  emailAutoComplete?: string;
  initial: Signup["initial"];
  errorsFor: Signup["errorsFor"];
}) {
  return (
    <>
      <input type="hidden" name="fundId" value={fundId} />
      <AccountField
        formId={formId}
        name="name"
        label={fundAccessCopy.fields.name}
        type="text"
        required
        maxLength={200}
        autoComplete="name"
        defaultValue={initial("name")}
        errors={errorsFor("name")}
      />
      <EmailField formId={formId} label={emailLabel} autoComplete={emailAutoComplete} defaultValue={initial("email")} errors={errorsFor("email")} />
    </>
  );
}
