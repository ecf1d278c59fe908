import { FileText } from "lucide-react";
import type { Route } from "./+types/dashboard";
import { InvestorDocumentList, type InvestorDocument } from "~/components/documents/investor-document-list";
import { UserLoadError } from "~/components/portal/load-error";
import { Card } from "~/components/ui/form";
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

/** /lp/dashboard (SPEC.md §2): welcome with the user's name, and the documents (the frame's top bar has the name and Logout). */
export default function InvestorDashboard({ loaderData }: Route.ComponentProps) {
  const c = lpDashboardCopy;
  const { user, documents, failed } = loaderData;
  return (
    <div>
      <div>
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{c.welcome(user.name)}</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-300">{c.intro}</p>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {user.company ? `${user.email} · ${user.company}` : user.email}
        </p>
      </div>

      <section aria-labelledby="documents-title" className="mt-8">
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
