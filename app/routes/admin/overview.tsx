import { useEffect } from "react";
import { AdminPageHeader, adminPageTitle } from "~/components/admin/page-header";
import { Link, redirect, useNavigate } from "react-router";
import type { Route } from "./+types/overview";
import { StatCards, type Stat } from "~/components/kit/stat-cards";
import { StatusActions, STATUS_INTENT } from "~/components/portal/status-actions";
import { UserSummary } from "~/components/portal/user-list";
import { overviewCopy } from "~/content/admin-workspace";
import { ledgerReference } from "~/content/capital";
import { adminCopy } from "~/content/portal";
import { latestAccesses } from "~/modules/access-log/access-log.server";
import { oldestPendingInvestors, portalCounts, recentFundIiAccessRequests } from "~/modules/admin/overview.server";
import { ADMIN_PATHS, LEGACY_ANCHORS, legacyAnchorTarget, legacyDashboardTarget, ledgerEntryPath } from "~/modules/admin/paths";
import { requireAdmin } from "~/modules/auth/guards.server";
import { formatMoney } from "~/modules/capital/money";
import { adminDate, adminDateTime } from "~/modules/dates/format";
import { callsNeedingAttention } from "~/modules/fund-overview/calls-attention.server";
import { now } from "~/modules/config/clock.server";
import { firmDay } from "~/modules/pitch-clock/clock.server";
import { readFormData } from "~/modules/http/form-data.server";
import { logError } from "~/modules/logging/log.server";
import { newPitchCount, pitchClockCounts } from "~/modules/pitch-inbox/inbox.server";
import { pageMeta } from "~/modules/seo/meta";
import { answerAdminIntent } from "./actions.server";
import { toAdminListUser } from "./lists.server";

const PAGE = ADMIN_PATHS.overview;
const PENDING_SHOWN = 5;
const ACCESSES_SHOWN = 10;
const CALLS_SHOWN = 5;
const day = (date: string) => adminDate(new Date(`${date}T12:00:00Z`));

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
  const calls = guarded(() => {
    const { dueSoon, overdue } = callsNeedingAttention(firmDay(now()));
    const reference = (number: number | null) => (number === null ? "" : ledgerReference("call", number));
    return {
      dueSoon: dueSoon.slice(0, CALLS_SHOWN).map((call) => ({
        to: ledgerEntryPath(call.id),
        name: overviewCopy.calls.call(call.fundName, reference(call.number)),
        due: overviewCopy.calls.dueOn(day(call.dueDate)),
        owing: overviewCopy.calls.owing(formatMoney(call.outstanding, call.currency), call.entitiesOwing),
      })),
      dueSoonMore: Math.max(0, dueSoon.length - CALLS_SHOWN),
      overdue: overdue.slice(0, CALLS_SHOWN).map((o) => ({
        key: `${o.callId}-${o.entityId}`,
        to: ledgerEntryPath(o.callId),
        name: overviewCopy.calls.call(o.fundName, reference(o.number)),
        due: overviewCopy.calls.dueOn(day(o.dueDate)),
        owing: overviewCopy.calls.overdueLine(o.entityName, formatMoney(o.outstanding, o.currency)),
      })),
      overdueCount: overdue.length,
    };
  });
  const counts = guarded(() => ({ ...portalCounts(), newPitches: newPitchCount(), overduePitches: pitchClockCounts().overdue }));
  return { pending, fundRequests, accesses, calls, counts };
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

type CallItem = { key?: string; to: string; name: string; due: string; owing: string };

/** One list of the capital-calls block: each call (or entity's overdue part) linking to the call's page. */
function CallList({ title, empty, items, more, alert = false }: { title: string; empty: string; items: readonly CallItem[]; more: number; alert?: boolean }) {
  return (
    <div>
      <h3 className="text-sm font-semibold text-slate-700 dark:text-slate-200">
        {title}
        {alert && items.length > 0 ? <span className="ml-2 rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800 dark:bg-red-950 dark:text-red-200">{items.length + more}</span> : null}
      </h3>
      {items.length === 0 ? (
        <p className={`mt-2 ${emptyClass}`}>{empty}</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-800">
          {items.map((item) => (
            <li key={item.key ?? item.to} className="py-2 text-sm">
              <Link to={item.to} className="font-semibold text-brand-800 underline-offset-2 hover:underline dark:text-brand-200">
                {item.name}
              </Link>
              <p className="text-slate-700 dark:text-slate-300">{item.owing}</p>
              <p className="text-xs text-slate-600 dark:text-slate-400">{item.due}</p>
            </li>
          ))}
          {more > 0 ? <li className="py-2 text-xs text-slate-600 dark:text-slate-400">{overviewCopy.calls.more(more)}</li> : null}
        </ul>
      )}
    </div>
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
  const { pending, fundRequests, accesses, calls, counts } = loaderData;
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

        <Block id="capital-calls" title={c.calls.title} intro={c.calls.intro} more={{ to: ADMIN_PATHS.funds, label: c.calls.all }}>
          {!calls ? (
            failedText
          ) : (
            <div className="grid gap-4 sm:grid-cols-2">
              <CallList title={c.calls.dueSoon} empty={c.calls.dueSoonEmpty} items={calls.dueSoon} more={calls.dueSoonMore} />
              <CallList title={c.calls.overdue} empty={c.calls.overdueEmpty} items={calls.overdue} more={Math.max(0, calls.overdueCount - calls.overdue.length)} alert />
            </div>
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
