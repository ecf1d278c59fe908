import { Form, Link, useNavigation } from "react-router";
import { twoFactorCopy } from "~/content/two-factor";
import type { AccountAnswer, AccountIntent } from "~/modules/auth/account-form";
import { AccountField, FormAlert, FormSuccess } from "../portal/account-field";
import { Button, buttonClass, type ButtonVariant } from "../ui/form";

const TWO_FACTOR_INTENTS: readonly AccountIntent[] = ["enable-2fa", "disable-2fa", "regenerate-codes"];

type TwoFactorState = { enabled: boolean; recoveryCodesLeft: number };
type Enrolment = { secret: string; uri: string; qrSvg: string };

/** One code field and its button, posting `intent` to the page (works without JavaScript). */
function CodeForm({
  intent,
  label,
  submit,
  answer,
  variant = "primary",
}: {
  intent: AccountIntent;
  label: string;
  submit: string;
  answer: AccountAnswer | undefined;
  variant?: ButtonVariant;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const mine = answer?.intent === intent && answer.status === "error" ? answer : undefined;
  return (
    <Form method="post" id={intent} className="mt-3 space-y-3">
      <input type="hidden" name="intent" value={intent} />
      <AccountField
        formId={intent}
        name="code"
        label={label}
        type="text"
        required
        maxLength={32}
        autoComplete="one-time-code"
        autoCapitalize="none"
        spellCheck={false}
        errors={mine?.fieldErrors?.code}
      />
      <Button type="submit" variant={variant} disabled={busy}>
        {submit}
      </Button>
    </Form>
  );
}

/** The recovery codes, shown once after they are made, with a .txt download. */
function RecoveryCodes({ codes, email }: { codes: string[]; email: string }) {
  const c = twoFactorCopy.recovery;
  const text = [c.fileHeader(email), "", ...codes, ""].join("\n");
  return (
    <section aria-labelledby="recovery-codes-title" className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-4 dark:border-amber-700 dark:bg-amber-950">
      <h3 id="recovery-codes-title" className="font-semibold">
        {c.title}
      </h3>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-200">{c.intro}</p>
      <ol aria-label={c.title} className="mt-3 grid grid-cols-2 gap-x-6 gap-y-1 font-mono text-sm">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <a
        href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
        download={c.fileName}
        className={buttonClass("secondary", "mt-4")}
      >
        {c.download}
      </a>
    </section>
  );
}

/**
 * The two-factor part of the account page: set it up (QR code as inline SVG,
 * the key as text, a code to confirm) while it is off; while it is on, the
 * recovery codes left, new codes, and turning it off (not for admins).
 */
export function TwoFactorPanel({
  email,
  isAdmin,
  state,
  enrolment,
  answer,
}: {
  email: string;
  isAdmin: boolean;
  state: TwoFactorState;
  enrolment: Enrolment | null;
  answer: AccountAnswer | undefined;
}) {
  const c = twoFactorCopy;
  // Only the answers of this panel's own forms (the page has others).
  const own = answer && TWO_FACTOR_INTENTS.includes(answer.intent) ? answer : undefined;
  const done = own?.status === "success" ? own : undefined;
  return (
    <div>
      <FormSuccess message={done?.message} />
      {done?.codes ? <RecoveryCodes codes={done.codes} email={email} /> : null}
      {done?.intent === "enable-2fa" && isAdmin ? (
        <p className="mt-4">
          <Link to="/admin/dashboard" className={buttonClass("primary")}>
            {c.enrol.continue}
          </Link>
        </p>
      ) : null}
      {state.enabled ? (
        <>
          <p className="mt-3 text-sm">
            {c.account.on} {c.account.codesLeft(state.recoveryCodesLeft)}
          </p>
          <h3 className="mt-6 font-semibold">{c.account.regenerateTitle}</h3>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{c.account.regenerateIntro}</p>
          <CodeForm intent="regenerate-codes" label={c.account.regenerateCode} submit={c.account.regenerate} answer={answer} variant="secondary" />
          <h3 className="mt-6 font-semibold">{c.account.disableTitle}</h3>
          {isAdmin ? (
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{c.account.adminsKeepIt}</p>
          ) : (
            <>
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{c.account.disableIntro}</p>
              <CodeForm intent="disable-2fa" label={c.account.disableCode} submit={c.account.disable} answer={answer} variant="danger" />
            </>
          )}
        </>
      ) : enrolment ? (
        <>
          <p className="mt-3 text-sm">{isAdmin ? c.enrol.required : c.account.off}</p>
          <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">{c.enrol.intro}</p>
          <div
            role="img"
            aria-label={c.enrol.qrLabel}
            className="mt-4 size-48 rounded-md bg-white p-2"
            // The QR code is SVG made on the server from the otpauth URI (no user input).
            dangerouslySetInnerHTML={{ __html: enrolment.qrSvg }}
          />
          <p className="mt-4 text-sm">{c.enrol.manual}</p>
          <p className="mt-1">
            <code id="two-factor-secret" className="font-mono text-sm break-all">
              {enrolment.secret}
            </code>
          </p>
          <CodeForm intent="enable-2fa" label={c.enrol.codeLabel} submit={c.enrol.submit} answer={answer} />
        </>
      ) : null}
      {own?.status === "error" && !own.fieldErrors ? <FormAlert message={own.message} /> : null}
    </div>
  );
}
