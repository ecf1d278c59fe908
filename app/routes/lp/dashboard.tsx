import { FileText } from "lucide-react";
import type { Route } from "./+types/dashboard";
import { InvestorDocumentList, type InvestorDocument } from "~/components/documents/investor-document-list";
import { UserLoadError } from "~/components/portal/load-error";
import { LogoutButton } from "~/components/portal/logout-button";
import { buttonClass, Card } from "~/components/ui/form";
import { Link } from "react-router";
import { accountPageCopy } from "~/content/account";
import { lpDashboardCopy } from "~/content/portal";
import { requireInvestor } from "~/modules/auth/guards.server";
import { lpDocuments } from "~/modules/documents/documents.server";
import { toCurrentUser, type LpUser } from "~/modules/lp-users/lp-users.server";
import { pageMeta } from "~/modules/seo/meta";
import { logError } from "~/modules/logging/log.server";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: lpDashboardCopy.title,
    description: lpDashboardCopy.intro,
    path: "/lp/dashboard",
    noindex: true,
  });

/**
 * The documents, read on their own: a failed read shows its error in the list
 * (SPEC.md §8) and leaves the rest of the page standing. Dates come formatted
 * ('MMM d, yyyy' in UTC, SPEC.md §9), so no date library reaches the browser.
 */
function readDocuments(user: LpUser): { documents: InvestorDocument[]; failed: boolean } {
  try {
    const documents = lpDocuments.listForPage("lp", "bytes", user);
    return { documents, failed: false };
  } catch (error) {
    logError(error);
    return { documents: [], failed: true };
  }
}

/** The layout guards too; every loader of a protected page guards itself. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireInvestor(request);
  return { user: toCurrentUser(user), ...readDocuments(user) };
}

/** /lp/dashboard (SPEC.md §2): welcome, the user's name, Logout, and the documents. */
export default function InvestorDashboard({ loaderData }: Route.ComponentProps) {
  const c = lpDashboardCopy;
  const { user, documents, failed } = loaderData;
  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase dark:text-brand-300">{c.eyebrow}</p>
          <h1 className="mt-1 text-3xl font-bold tracking-tight">{c.welcome(user.name)}</h1>
          <p className="mt-2 text-slate-600 dark:text-slate-300">{c.intro}</p>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {user.company ? `${user.email} · ${user.company}` : user.email}
          </p>
        </div>
        <div className="flex items-center gap-3">
          <Link to="/lp/account" className={buttonClass("secondary")}>
            {accountPageCopy.link}
          </Link>
          <LogoutButton />
        </div>
      </div>

      <section aria-labelledby="documents-title" className="mt-10">
        <Card>
          <h2 id="documents-title" className="flex items-center gap-2 text-xl font-semibold">
            <FileText aria-hidden="true" className="size-5 text-brand-700 dark:text-brand-300" />
            {c.documentsTitle}
          </h2>
          <InvestorDocumentList documents={documents} failed={failed} />
        </Card>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <UserLoadError />;
}
