import { Form, useNavigation } from "react-router";
import { documentMailCopy } from "~/content/document-mail";
import type { AccountAnswer } from "~/modules/auth/account-form";
import { DOCUMENT_MAIL_PREFERENCES, type DocumentMailPreference } from "~/modules/document-mail/schema";
import { FormAlert, FormSuccess } from "../portal/account-field";
import { Button } from "../ui/form";

const FORM_ID = "document-mail";

/** How an investor hears of new documents: each one, a weekly digest, or not at all (works without JavaScript). */
export function DocumentMailPanel({ current, answer }: { current: DocumentMailPreference; answer: AccountAnswer | undefined }) {
  const c = documentMailCopy;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === FORM_ID;
  const mine = answer?.intent === FORM_ID ? answer : undefined;
  const error = mine?.status === "error" ? (mine.fieldErrors?.documentMail?.[0] ?? mine.message) : undefined;
  return (
    <div>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{c.intro}</p>
      <FormSuccess message={mine?.status === "success" ? mine.message : undefined} />
      {/* Keyed by the saved choice, so the radios follow it after a save or a change elsewhere. */}
      <Form method="post" id={FORM_ID} key={current} className="mt-4 space-y-4">
        <input type="hidden" name="intent" value={FORM_ID} />
        <fieldset>
          <legend className="text-sm font-medium">{c.legend}</legend>
          <div className="mt-2 space-y-3">
            {DOCUMENT_MAIL_PREFERENCES.map((value) => {
              const id = `${FORM_ID}-${value}`;
              return (
                <div key={value} className="flex items-start gap-3">
                  <input
                    type="radio"
                    id={id}
                    name="documentMail"
                    value={value}
                    defaultChecked={current === value}
                    aria-describedby={`${id}-hint`}
                    className="mt-0.5 size-4 accent-brand-700 dark:accent-brand-300"
                  />
                  <div>
                    <label htmlFor={id} className="text-sm font-medium">
                      {c.options[value].label}
                    </label>
                    <p id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
                      {c.options[value].hint}
                    </p>
                  </div>
                </div>
              );
            })}
          </div>
        </fieldset>
        <FormAlert id={`${FORM_ID}-error`} message={error} />
        <Button type="submit" disabled={busy}>
          {c.submit}
        </Button>
      </Form>
    </div>
  );
}
