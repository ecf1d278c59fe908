import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { Pager, pageHref } from "~/components/ui/pager";
import { fundAccessListCopy, fundAdminCopy } from "~/content/fund-admin";
import type { FundId } from "~/modules/fund-access/constants";
import { FUND_ACCESS_LIST_ID, FundAccessActions } from "./fund-access-actions";

/**
 * A fund access request as the admin list shows it. The loader formats the
 * times ('MMM dd, yyyy HH:mm', UTC) and keeps the ISO time for `<time>`.
 */
export type AdminFundAccessRequest = {
  id: string;
  name: string;
  email: string;
  company: string | null;
  fundId: FundId;
  accreditedConfirmation: boolean;
  createdAt: string;
  requestedAt: string;
  revoked: boolean;
  revokedAt: string | null;
};

const badge = "rounded-full border px-2.5 py-0.5 text-xs font-semibold";

const fundBadgeClass: Record<FundId, string> = {
  "fund-i": "border-slate-300 bg-slate-100 text-slate-800 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100",
  "fund-ii": "border-brand-300 bg-brand-50 text-brand-800 dark:border-brand-600 dark:bg-brand-900 dark:text-brand-100",
};

/** One page of the list, as the loader reads it: at most a page of requests, the page shown (1-based) and the list's total. */
export type FundAccessRequestsPage = {
  requests: AdminFundAccessRequest[];
  page: number;
  total: number;
  failed: boolean;
};

/** The query parameter of the list's page. */
export const FUND_ACCESS_PAGE_PARAM = "requests.page";

/** A confirm step's parameters (fund-access-actions.tsx and the other confirm steps): a paging link closes the step. */
const CONFIRM_PARAMS = ["confirm", "user", "request", "document"] as const;

/**
 * 'Fund access requests' (SPEC.md §2, Potential Investor Management): the
 * requests, newest first, a page of at most 50 at a time
 * (`?requests.page=N`, other parameters kept) with the full total, in a list
 * area capped at 400 px that scrolls (a named, focusable region, so it
 * scrolls from the keyboard too). Each entry: name, e-mail, a Fund I or
 * Fund II badge, the accredited/qualified confirmation, the request time, a
 * 'Revoked' badge when revoked, and its actions.
 */
export function FundAccessList({ data }: { data: FundAccessRequestsPage }) {
  const { requests, page, total, failed } = data;
  const titleId = `${FUND_ACCESS_LIST_ID}-title`;
  const location = useLocation();
  const region = useRef<HTMLDivElement>(null);

  // Another page starts at the top of the list (the region stays, so focus stays on the clicked link).
  useEffect(() => {
    if (region.current) region.current.scrollTop = 0;
  }, [page]);

  const hrefFor = (target: number) =>
    pageHref({
      pathname: location.pathname,
      search: location.search,
      param: FUND_ACCESS_PAGE_PARAM,
      page: target,
      anchor: FUND_ACCESS_LIST_ID,
      drop: CONFIRM_PARAMS,
    });

  return (
    <section id={FUND_ACCESS_LIST_ID} aria-labelledby={titleId} className="mt-8 scroll-mt-40" data-testid={FUND_ACCESS_LIST_ID}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={titleId} className="text-lg font-semibold">
          {fundAccessListCopy.title}
        </h3>
        {failed ? null : (
          <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-sm font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-200">
            {fundAccessListCopy.total(total)}
          </span>
        )}
      </div>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{fundAccessListCopy.intro}</p>
      {failed ? (
        <p
          role="alert"
          className="mt-3 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {fundAccessListCopy.error}
        </p>
      ) : requests.length === 0 ? (
        <p className="mt-3 rounded-md border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300">
          {fundAccessListCopy.empty}
        </p>
      ) : (
        <>
          <div
            ref={region}
            role="region"
            aria-label={fundAccessListCopy.listLabel}
            tabIndex={0}
            className="mt-3 max-h-[400px] overflow-y-auto rounded-lg border border-slate-200 dark:border-slate-800"
          >
            <ul className="divide-y divide-slate-200 dark:divide-slate-800">
              {requests.map((request) => (
                <FundAccessRow key={request.id} request={request} />
              ))}
            </ul>
          </div>
          <Pager label={fundAccessListCopy.title} page={page} total={total} shown={requests.length} hrefFor={hrefFor} />
        </>
      )}
    </section>
  );
}

function FundAccessRow({ request }: { request: AdminFundAccessRequest }) {
  const nameId = `fund-access-${request.id}`;
  return (
    <li className="flex flex-wrap items-center justify-between gap-4 p-4" data-testid="fund-access-request">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2">
          <span id={nameId} className="font-semibold break-words">
            {request.name}
          </span>
          <span className={`${badge} ${fundBadgeClass[request.fundId]}`}>{fundAdminCopy.fundBadges[request.fundId]}</span>
          {request.revoked ? (
            <span className={`${badge} border-red-300 bg-red-50 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200`}>
              {fundAccessListCopy.revokedBadge}
            </span>
          ) : null}
        </p>
        <p className="text-sm break-all text-slate-700 dark:text-slate-300">
          <a href={`mailto:${request.email}`} className="hover:underline">
            {request.email}
          </a>
        </p>
        {request.company ? <p className="text-sm text-slate-600 dark:text-slate-300">{request.company}</p> : null}
        <p className="mt-1">
          {request.accreditedConfirmation ? (
            <span className="text-sm font-medium text-emerald-800 dark:text-emerald-300">{fundAccessListCopy.accredited}</span>
          ) : (
            <span className="text-sm font-medium text-amber-800 dark:text-amber-300">{fundAccessListCopy.notAccredited}</span>
          )}
        </p>
        <p className="text-xs text-slate-600 dark:text-slate-400">
          <time dateTime={request.createdAt}>{fundAccessListCopy.requested(request.requestedAt)}</time>
        </p>
        {request.revokedAt ? (
          <p className="text-xs text-slate-600 dark:text-slate-400">{fundAccessListCopy.revokedOn(request.revokedAt)}</p>
        ) : null}
      </div>
      <FundAccessActions request={request} describedBy={nameId} />
    </li>
  );
}
