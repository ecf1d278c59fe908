import { KeyRound, ShieldCheck } from "lucide-react";
import type { ReactNode } from "react";
import { Link, type ShouldRevalidateFunctionArgs } from "react-router";
import { Card, buttonClass } from "~/components/ui/form";
import { StaticToast } from "~/components/ui/toaster";
import { signInCopy } from "~/content/portal";
import type { ToastInput } from "~/modules/toast/toast";
import { AccountCardHeader, textLinkClass } from "./account-field";
import { LoginForm } from "./login-form";
import type { FormOutcome } from "./outcome";

/**
 * The pages around an account card (sign-in, fund sign-up): a narrow column,
 * the action's toast when JavaScript is off (`toastId` names it), the card.
 */
export function AccountCardPage({ toastId, toast, children }: { toastId?: string; toast?: ToastInput | null | undefined; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-md px-4 py-16 sm:px-6">
      {toastId && toast ? <StaticToast announce={false} toast={{ id: toastId, variant: "default", ...toast }} /> : null}
      <Card>{children}</Card>
    </div>
  );
}

/** The foot of a sign-in card: how to ask for access, then a sentence with a link elsewhere. */
export function RequestAccessFooter({ copy, to, end = "" }: { copy: { requestText: string; requestAccess: string; text: string; link: string }; to: string; end?: string }) {
  return (
    <div className="mt-6 border-t border-slate-200 pt-6 text-center dark:border-slate-800">
      <p className="text-sm text-slate-600 dark:text-slate-300">{copy.requestText}</p>
      <Link to="/lp/register" className={buttonClass("secondary", "mt-3 w-full")}>
        {copy.requestAccess}
      </Link>
      <p className="mt-4 text-sm text-slate-600 dark:text-slate-300">
        {`${copy.text} `}
        <Link to={to} className={textLinkClass}>
          {copy.link}
        </Link>
        {end}
      </p>
    </div>
  );
}

type Portal = "investor" | "admin";

const PORTALS: Record<Portal, { path: string; icon: ReactNode }> = {
  investor: { path: "/lp/login", icon: <KeyRound aria-hidden="true" className="size-6" /> },
  admin: { path: "/admin/login", icon: <ShieldCheck aria-hidden="true" className="size-6" /> },
};

/** A sign-in page's title, description and path, for pageMeta (never indexed). */
export function signInMeta(portal: Portal) {
  const copy = signInCopy[portal];
  return { title: copy.title, description: copy.description, path: PORTALS[portal].path, noindex: true };
}

/** After a successful sign-in with JavaScript the form navigates itself; the sign-in page's loader need not run again. */
export function shouldRevalidateAfterSignIn({ actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if ((actionResult as FormOutcome | undefined)?.status === "success") return false;
  return defaultShouldRevalidate;
}

/** /lp/login and /admin/login: the portal's card and sign-in form, then the page's own links (`children`). */
export function SignInPage({ portal, outcome, toastId, children }: { portal: Portal; outcome: FormOutcome | undefined; toastId?: string; children: ReactNode }) {
  const copy = signInCopy[portal];
  return (
    <AccountCardPage toastId={toastId} toast={outcome?.toast}>
      <AccountCardHeader icon={PORTALS[portal].icon} title={copy.title} intro={copy.intro} />
      <LoginForm portal={portal} serverOutcome={outcome} />
      {children}
    </AccountCardPage>
  );
}
