import { fundAccessListCopy, fundAdminCopy } from "~/content/fund-admin";
import type { FundId } from "~/modules/fund-access/constants";
import { ListSection, type ListPageState } from "../admin/list-section";
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

/** One page of the list, as the loader reads it. */
export type FundAccessRequestsPage = ListPageState & { requests: AdminFundAccessRequest[] };

/** The query parameter of the list's page. */
export const FUND_ACCESS_PAGE_PARAM = "requests.page";

/**
 * 'Fund access requests' (SPEC.md §2, Potential Investor Management): the
 * requests, newest first, a page of at most 50 at a time
 * (`?requests.page=N`, other parameters kept) with the full total (the
 * page scrolls, not a box in it: decision 010). Each entry: name, e-mail, a Fund I or
 * Fund II badge, the accredited/qualified confirmation, the request time, a
 * 'Revoked' badge when revoked, and its actions.
 */
export function FundAccessList({ data }: { data: FundAccessRequestsPage }) {
  return (
    <ListSection
      id={FUND_ACCESS_LIST_ID}
      title={fundAccessListCopy.title}
      totalLabel={fundAccessListCopy.total(data.total)}
      intro={fundAccessListCopy.intro}
      state={data}
      count={data.requests.length}
      pageParam={FUND_ACCESS_PAGE_PARAM}
      errorText={fundAccessListCopy.error}
      emptyText={fundAccessListCopy.empty}
    >
      <ul className="divide-y divide-slate-200 dark:divide-slate-800">
        {data.requests.map((request) => (
          <FundAccessRow key={request.id} request={request} />
        ))}
      </ul>
    </ListSection>
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
