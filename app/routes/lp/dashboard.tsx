import type { Route } from "./+types/dashboard";
import { InvestorDocumentList, type InvestorDocument } from "~/components/documents/investor-document-list";
import { UserLoadError } from "~/components/portal/load-error";
import { NewForYou } from "~/components/portal/new-for-you";
import { lpDashboardCopy } from "~/content/portal";
import { requireInvestor } from "~/modules/auth/guards.server";
import { lpDocuments } from "~/modules/documents/documents.server";
import { newForYou, type NewForYouEntry } from "~/modules/documents/new-for-you.server";
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
 * "New for you" is the newest of that same list (one access rule), with
 * whether this investor has opened each.
 */
function readDocuments(user: LpUser): { documents: InvestorDocument[]; newest: NewForYouEntry[]; failed: boolean } {
  try {
    const documents = lpDocuments.listForPage("lp", "bytes", user);
    return { documents, newest: newForYou(user, documents), failed: false };
  } catch (error) {
    logError(error);
    return { documents: [], newest: [], failed: true };
  }
}

/** The layout guards too; every loader of a protected page guards itself. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireInvestor(request);
  return { user: toCurrentUser(user), ...readDocuments(user) };
}

/**
 * /lp/dashboard (SPEC.md §2): welcome with the user's name, "New for you"
 * (issue 23 §3), then SPEC's documents by category (the frame's top bar has
 * the name and Logout). With no documents, SPEC's empty text alone says so.
 */
export default function InvestorDashboard({ loaderData }: Route.ComponentProps) {
  const c = lpDashboardCopy;
  const { user, documents, newest, failed } = loaderData;
  const byId = new Map(documents.map((d) => [d.id, d]));
  const newRows = newest.flatMap(({ id, unread }) => {
    const doc = byId.get(id);
    return doc ? [{ ...doc, unread }] : [];
  });
  return (
    <div>
      <div>
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{c.welcome(user.name)}</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-300">{c.intro}</p>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {user.company ? `${user.email} · ${user.company}` : user.email}
        </p>
      </div>

      {newRows.length > 0 ? <NewForYou rows={newRows} /> : null}

      <section aria-labelledby="documents-title" className="mt-10">
        <h2 id="documents-title" className="text-xl font-semibold">
          {c.documentsTitle}
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{c.documentsIntro}</p>
        <InvestorDocumentList documents={documents} failed={failed} />
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <UserLoadError />;
}
