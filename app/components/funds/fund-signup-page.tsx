import { FileLock, ShieldCheck } from "lucide-react";
import type { ComponentType, ReactNode } from "react";
import { AccountCardHeader, CardFooterLink } from "~/components/portal/account-field";
import type { FormOutcome } from "~/components/portal/outcome";
import { AccountCardPage } from "~/components/portal/sign-in-page";
import { fundAccessCopy } from "~/content/fund-access";
import type { FundId } from "~/modules/fund-access/constants";

/** What differs between the two fund sign-up pages (/fund-i/signup, /fund-ii/signup), but for the form. */
const PAGES: Record<FundId, { copy: (typeof fundAccessCopy)["fundISignup" | "fundIISignup"]; icon: ReactNode; back: string }> = {
  "fund-i": { copy: fundAccessCopy.fundISignup, icon: <FileLock aria-hidden="true" className="size-6" />, back: "/fund-i" },
  "fund-ii": { copy: fundAccessCopy.fundIISignup, icon: <ShieldCheck aria-hidden="true" className="size-6" />, back: "/fund-ii" },
};

/** A sign-up page's title, description and path, for pageMeta (never indexed). */
export function fundSignupMeta(fund: FundId) {
  const { copy } = PAGES[fund];
  return { title: copy.metaTitle, description: copy.description, path: `/${fund}/signup`, noindex: true };
}

/**
 * A fund's sign-up page: the card with its form, and the action's answer as a
 * toast when JavaScript is off. The route passes its own form, so a page's
 * script carries only its fund's.
 */
export function FundSignupPage({ fund, outcome, Form }: { fund: FundId; outcome: FormOutcome | undefined; Form: ComponentType<{ serverOutcome?: FormOutcome | undefined }> }) {
  const { copy, icon, back } = PAGES[fund];
  return (
    <AccountCardPage toastId={`${fund}-signup-result`} toast={outcome?.toast}>
      <AccountCardHeader icon={icon} title={copy.title} intro={copy.intro} />
      <Form serverOutcome={outcome} />
      <CardFooterLink to={back}>{copy.back}</CardFooterLink>
    </AccountCardPage>
  );
}
