import { KeyRound, Mail, MonitorSmartphone, ShieldCheck, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { accountPageCopy } from "~/content/account";
import { documentMailCopy } from "~/content/document-mail";
import { ACCOUNT_INTENTS, type AccountAnswer } from "~/modules/auth/account-form";
import type { FormFlash } from "~/modules/toast/toast";
import type { DocumentMailPreference } from "~/modules/document-mail/schema";
import { textLinkClass } from "../portal/account-field";
import { Card } from "../ui/form";
import { useRootData } from "../ui/use-form-flash";
import { DocumentMailPanel } from "./document-mail-panel";
import { PasswordPanel } from "./password-panel";
import { SessionsPanel, type SessionRow } from "./sessions-panel";
import { TwoFactorPanel } from "./two-factor-panel";

type AccountData = {
  email: string;
  isAdmin: boolean;
  /** The investor's new-document e-mail preference; null for admins, who get no document mail. */
  documentMail: DocumentMailPreference | null;
  twoFactor: { enabled: boolean; recoveryCodesLeft: number };
  enrolment: { secret: string; uri: string; qrSvg: string } | null;
  sessions: SessionRow[];
};

/** A card of the account page: a titled section. */
function AccountSection({ id, icon: Icon, title, children }: { id: string; icon: LucideIcon; title: string; children: ReactNode }) {
  return (
    <Card>
      <section aria-labelledby={id}>
        <h2 id={id} className="flex items-center gap-2 text-xl font-semibold">
          <Icon aria-hidden="true" className="size-5 text-brand-700 dark:text-brand-300" />
          {title}
        </h2>
        {children}
      </section>
    </Card>
  );
}

/** The answer a post of one of the page's forms left in the flash (the action redirects back with it), as the panels read it. */
function flashAnswer(flash: FormFlash | null | undefined): AccountAnswer | undefined {
  const intent = ACCOUNT_INTENTS.find((i) => i === flash?.formId);
  if (!flash || !intent) return undefined;
  return { intent, status: flash.status, toast: null, message: flash.message ?? "", fieldErrors: flash.fieldErrors };
}

/** The account page of /lp/account and /admin/account: two-factor, active sessions, the password and (investors) new-document e-mails.
 * `answer` is the action's data (new recovery codes); any other answer comes from the flash after the redirect. */
export function AccountPage({
  data,
  answer,
  home,
}: {
  data: AccountData;
  answer: AccountAnswer | undefined;
  home: string;
}) {
  const c = accountPageCopy;
  const flashed = flashAnswer(useRootData()?.formFlash);
  const shown = answer ?? flashed;
  return (
    <div className="max-w-3xl space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{c.title}</h1>
          <p className="mt-2 text-slate-600 dark:text-slate-300">{c.intro(data.email)}</p>
          <p className="mt-2 text-sm">
            <Link to={home} className={textLinkClass}>
              {c.backToDashboard}
            </Link>
          </p>
        </div>
      </div>
      <AccountSection id="two-factor-title" icon={ShieldCheck} title={c.twoFactorTitle}>
        <TwoFactorPanel email={data.email} isAdmin={data.isAdmin} state={data.twoFactor} enrolment={data.enrolment} answer={shown} />
      </AccountSection>
      <AccountSection id="sessions-title" icon={MonitorSmartphone} title={c.sessions.title}>
        <SessionsPanel sessions={data.sessions} answer={shown} />
      </AccountSection>
      <AccountSection id="password-title" icon={KeyRound} title={c.password.title}>
        <PasswordPanel answer={shown} />
      </AccountSection>
      {data.documentMail ? (
        <AccountSection id="document-mail-title" icon={Mail} title={documentMailCopy.title}>
          <DocumentMailPanel current={data.documentMail} answer={shown} />
        </AccountSection>
      ) : null}
    </div>
  );
}
