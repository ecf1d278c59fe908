import { Form, useNavigation } from "react-router";
import { accountPageCopy } from "~/content/account";
import type { AccountAnswer } from "~/modules/auth/account-form";
import { AccountField, FormAlert, FormSuccess, NewPasswordField } from "../portal/account-field";
import { Button } from "../ui/form";

const FORM_ID = "change-password";

/** Change password: the current one and a new one; every other session ends (works without JavaScript). */
export function PasswordPanel({ answer }: { answer: AccountAnswer | undefined }) {
  const c = accountPageCopy.password;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === FORM_ID;
  const mine = answer?.intent === FORM_ID ? answer : undefined;
  const failed = mine?.status === "error" ? mine : undefined;
  return (
    <div>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{c.intro}</p>
      <FormSuccess message={mine?.status === "success" ? mine.message : undefined} />
      <Form method="post" id={FORM_ID} className="mt-4 max-w-md space-y-4">
        <input type="hidden" name="intent" value={FORM_ID} />
        <AccountField
          formId={FORM_ID}
          name="currentPassword"
          label={c.current}
          type="password"
          required
          autoComplete="current-password"
          errors={failed?.fieldErrors?.currentPassword}
        />
        <NewPasswordField formId={FORM_ID} label={c.next} hint={c.nextHint} errors={failed?.fieldErrors?.password} />
        {failed && !failed.fieldErrors ? <FormAlert message={failed.message} /> : null}
        <Button type="submit" disabled={busy}>
          {c.submit}
        </Button>
      </Form>
    </div>
  );
}
