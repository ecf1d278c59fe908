import { useEffect } from "react";
import { AdminPageHeader, adminPageTitle } from "~/components/admin/page-header";
import { Link, redirect, useNavigate } from "react-router";
import type { Route } from "./+types/overview";
import { StatCards, type Stat } from "~/components/kit/stat-cards";
import { StatusActions, STATUS_INTENT } from "~/components/portal/status-actions";
import { UserSummary } from "~/components/portal/user-list";
import { overviewCopy } from "~/content/admin-workspace";
import { adminCopy } from "~/content/portal";
import { latestAccesses } from "~/modules/access-log/access-log.server";
import { oldestPendingInvestors, portalCounts, recentFundIiAccessRequests } from "~/modules/admin/overview.server";
import { ADMIN_PATHS, LEGACY_ANCHORS, legacyAnchorTarget, legacyDashboardTarget } from "~/modules/admin/paths";
import { requireAdmin } from "~/modules/auth/guards.server";
import { adminDateTime } from "~/modules/dates/format";
import { readFormData } from "~/modules/http/form-data.server";
import { logError } from "~/modules/logging/log.server";
import { newPitchCount, pitchClockCounts } from "~/modules/pitch-inbox/inbox.server";
import { pageMeta } from "~/modules/seo/meta";
import { answerAdminIntent } from "./actions.server";
import { toAdminListUser } from "./lists.server";

const PAGE = ADMIN_PATHS.overview;
const PENDING_SHOWN = 5;
const ACCESSES_SHOWN = 10;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: adminPageTitle("overview"), description: overviewCopy.intro, path: PAGE, noindex: true });

function guarded<T>(read: () => T): T | null {
  try {
    return read();
  } catch (error) {
    logError(error);
    return null;
  }
}

/**
 * /admin/dashboard, the overview: what needs attention, each block linking to
 * its page. A link into the former one-page dashboard (its list, sort and
 * confirm parameters) is sent on to the page that owns it, query kept; a
 * Reject without JavaScript opens its confirm step on the investors page.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const moved = legacyDashboardTarget(url.searchParams);
  if (moved) throw redirect(`${moved}${url.search}`);

  const pending = guarded(() => {
    const users = oldestPendingInvestors(PENDING_SHOWN).map(toAdminListUser);
    return { users };
  });
  const fundRequests = guarded(() => {
    const { requests, total } = recentFundIiAccessRequests();
    return { total, requests: requests.map((r) => ({ id: r.id, name: r.name, email: r.email, at: adminDateTime(r.createdAt), iso: r.createdAt.toISOString() })) };
  });
  const accesses = guarded(() =>
    latestAccesses(ACCESSES_SHOWN).map((entry) => ({
      id: entry.id,
      action: entry.action,
      who: entry.actorName ?? entry.actorEmail,
      documentTitle: entry.documentTitle,
      documentKind: entry.documentKind,
      at: adminDateTime(entry.at),
      iso: entry.at.toISOString(),
    })),
  );
  const counts = guarded(() => ({ ...portalCounts(), newPitches: newPitchCount(), overduePitches: pitchClockCounts().overdue }));
  return { pending, fundRequests, accesses, counts };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return answerAdminIntent(admin, await readFormData(request), PAGE, [STATUS_INTENT]);
}

type Counts = NonNullable<Route.ComponentProps["loaderData"]["counts"]>;

/** The overview's figures, each linking to the list it counts. */
function countCards(counts: Counts): Stat[] {
  const c = overviewCopy;
  const card = (key: keyof Counts, to: string, extra: Partial<Stat> = {}): Stat => ({
    label: c.counts[key],
    value: counts[key].toLocaleString("en-US"),
    to,
    testId: `count-${key}`,
    ...extra,
  });
  return [
    card("approvedInvestors", `${ADMIN_PATHS.investors}?status=approved`),
    card("documents", ADMIN_PATHS.documents),
    card("subscribers", `${ADMIN_PATHS["email-lists"]}#email-list-newsletter`, { hint: c.counts.subscribersHint }),
    card("newPitches", `${ADMIN_PATHS.pitches}?status=new`, { hint: c.counts.newPitchesHint }),
    card("overduePitches", `${ADMIN_PATHS.pitches}?overdue=1`, { hint: c.counts.overduePitchesHint, alert: counts.overduePitches > 0 }),
  ];
}

function Block({ id, title, intro, more, children }: { id: string; title: string; intro?: string; more: { to: string; label: string }; children: React.ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="rounded-xl border border-slate-200 p-5 scroll-mt-40 dark:border-slate-800">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          {title}
        </h2>
        <Link to={more.to} className="text-sm font-medium text-brand-800 underline-offset-2 hover:underline dark:text-brand-200">
          {more.label}
        </Link>
      </div>
      {intro ? <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{intro}</p> : null}
      <div className="mt-3">{children}</div>
    </section>
  );
}

const failedText = <p role="alert" className="text-sm font-medium text-red-800 dark:text-red-200">{overviewCopy.loadFailed}</p>;
const emptyClass = "rounded-md border border-dashed border-slate-300 px-4 py-4 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300";

/** With JavaScript, an old link to a section of the former one-page dashboard (`#email-lists`) goes to its page. */
function useLegacyAnchor() {
  const navigate = useNavigate();
  useEffect(() => {
    const target = legacyAnchorTarget(window.location.hash.slice(1));
    if (target) void navigate(target, { replace: true });
  }, [navigate]);
}

export default function AdminOverview({ loaderData }: Route.ComponentProps) {
  const { pending, fundRequests, accesses, counts } = loaderData;
  const c = overviewCopy;
  useLegacyAnchor();
  return (
    <div>
      <AdminPageHeader page="overview" intro={c.intro} />
      {/* An old link to a section of the former one-page dashboard (#anchor): with a script useLegacyAnchor moves on;
          without, only the targeted entry shows (:target), saying where the section lives now. */}
      <div>
        {Object.entries(LEGACY_ANCHORS)
          .filter(([anchor]) => anchor !== "pending-users")
          .map(([anchor, page]) => (
            <p key={anchor} id={anchor} className="mt-4 hidden scroll-mt-40 rounded-md border border-brand-300 bg-brand-50 px-4 py-3 text-sm target:block dark:border-brand-700 dark:bg-brand-900">
              {`${c.moved} `}
              <Link to={`${ADMIN_PATHS[page]}#${anchor}`} className="font-semibold text-brand-800 underline underline-offset-2 dark:text-brand-200">
                {c.sections[anchor] ?? anchor}
              </Link>
            </p>
          ))}
      </div>

      <section aria-labelledby="counts-title" className="mt-6">
        <h2 id="counts-title" className="sr-only">
          {c.counts.title}
        </h2>
        {counts ? (
          <StatCards stats={countCards(counts)} />
        ) : (
          failedText
        )}
      </section>

      <div className="mt-6 grid gap-6 xl:grid-cols-2">
        <Block id="pending-users" title={c.pending.title} intro={c.pending.intro} more={{ to: ADMIN_PATHS.investors, label: c.pending.all }}>
          {!pending ? (
            failedText
          ) : pending.users.length === 0 ? (
            <p className={emptyClass}>{adminCopy.pending.empty}</p>
          ) : (
            <ul className="space-y-3">
              {pending.users.map((user) => {
                const nameId = `overview-user-${user.id}`;
                return (
                  <li key={user.id} className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 p-3 dark:border-slate-800">
                    <UserSummary user={user} nameId={nameId} badge={null} />
                    <StatusActions user={user} list="pending" describedBy={nameId} action={PAGE} />
                  </li>
                );
              })}
            </ul>
          )}
        </Block>

        <Block id="fund-ii-requests" title={c.fundRequests.title} more={{ to: ADMIN_PATHS["fund-access"], label: c.fundRequests.all }}>
          {!fundRequests ? (
            failedText
          ) : fundRequests.requests.length === 0 ? (
            <p className={emptyClass}>{c.fundRequests.empty}</p>
          ) : (
            <ul className="divide-y divide-slate-200 dark:divide-slate-800">
              {fundRequests.requests.map((r) => (
                <li key={r.id} className="py-2 text-sm">
                  <p className="font-semibold">{r.name}</p>
                  <p className="break-all text-slate-700 dark:text-slate-300">{r.email}</p>
                  <p className="text-xs text-slate-600 dark:text-slate-400">
                    <time dateTime={r.iso}>{r.at}</time>
                  </p>
                </li>
              ))}
            </ul>
          )}
        </Block>

        <Block id="latest-access" title={c.accesses.title} more={{ to: ADMIN_PATHS.documents, label: c.accesses.all }}>
          {!accesses ? (
            failedText
          ) : accesses.length === 0 ? (
            <p className={emptyClass}>{c.accesses.empty}</p>
          ) : (
            <ul className="divide-y divide-slate-200 dark:divide-slate-800" data-testid="latest-access">
              {accesses.map((entry) => (
                <li key={entry.id} className="py-2 text-sm">
                  <p>
                    <span className="font-semibold">{entry.who ?? c.accesses.unknownActor}</span>
                    {` ${c.accesses[entry.action]} `}
                    <span className="font-semibold">{entry.documentTitle ?? c.accesses.unknownDocument}</span>
                    {entry.documentKind === "fund" ? <span className="text-slate-600 dark:text-slate-300">{` (${c.accesses.fundDocument})`}</span> : null}
                  </p>
                  <p className="text-xs text-slate-600 dark:text-slate-400">
                    <time dateTime={entry.iso}>{entry.at}</time>
                  </p>
                </li>
              ))}
            </ul>
          )}
        </Block>
      </div>

    </div>
  );
}
