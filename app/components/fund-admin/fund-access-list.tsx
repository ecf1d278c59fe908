import { fundAccessListCopy, fundAdminCopy } from "~/content/fund-admin";
import type { FundId } from "~/modules/fund-access/constants";
import type { FundAccessMode } from "~/modules/funds/constants";
import { ListSection, type ListPageState } from "../admin/list-section";
import { Badge, DataTable, OneLine, type BadgeTone, type DataColumn } from "../kit/data-table";
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
  /** The fund's access mode (its row in the funds table): which actions the row offers. */
  fundAccess: FundAccessMode;
  accreditedConfirmation: boolean;
  createdAt: string;
  requestedAt: string;
  revoked: boolean;
  revokedAt: string | null;
};

const fundTone: Record<FundId, BadgeTone> = { "fund-i": "neutral", "fund-ii": "info" };

const nameId = (id: string) => `fund-access-${id}`;

/** One request a line; below 640 px a card (the person with the fund and the menu, the time, then the rest). */
const columns: ReadonlyArray<DataColumn<AdminFundAccessRequest>> = [
  {
    key: "name",
    header: fundAccessListCopy.columns.name,
    card: "primary",
    rowHeader: true,
    cell: (request) => (
      <>
        <span id={nameId(request.id)} className="block font-medium break-words">
          {request.name}
        </span>
        {request.company ? <span className="block text-xs text-slate-600 dark:text-slate-300">{request.company}</span> : null}
      </>
    ),
  },
  {
    key: "fund",
    header: fundAccessListCopy.columns.fund,
    width: "w-36",
    card: "badge",
    cell: (request) => (
      <span className="flex flex-wrap gap-1">
        <Badge tone={fundTone[request.fundId]}>{fundAdminCopy.fundBadges[request.fundId]}</Badge>
        {request.revoked ? <Badge tone="danger">{fundAccessListCopy.revokedBadge}</Badge> : null}
      </span>
    ),
  },
  {
    key: "email",
    header: fundAccessListCopy.columns.email,
    cell: (request) => (
      <OneLine title={request.email}>
        <a href={`mailto:${request.email}`} className="hover:underline">
          {request.email}
        </a>
      </OneLine>
    ),
  },
  {
    key: "confirmation",
    header: fundAccessListCopy.columns.confirmation,
    width: "w-44",
    className: "text-xs",
    cell: (request) =>
      request.accreditedConfirmation ? (
        <span className="font-medium text-emerald-800 dark:text-emerald-300">{fundAccessListCopy.accredited}</span>
      ) : (
        <span className="font-medium text-amber-800 dark:text-amber-300">{fundAccessListCopy.notAccredited}</span>
      ),
  },
  {
    key: "requested",
    header: fundAccessListCopy.columns.requested,
    width: "w-44",
    card: "meta",
    className: "text-xs tabular-nums",
    cell: (request) => (
      <>
        <time dateTime={request.createdAt}>{fundAccessListCopy.requested(request.requestedAt)}</time>
        {request.revokedAt ? <span className="block">{fundAccessListCopy.revokedOn(request.revokedAt)}</span> : null}
      </>
    ),
  },
  {
    key: "actions",
    header: fundAccessListCopy.columns.actions,
    headerHidden: true,
    width: "w-14",
    card: "actions",
    cell: (request) => <FundAccessActions request={request} describedBy={nameId(request.id)} />,
  },
];

/** One page of the list, as the loader reads it. */
export type FundAccessRequestsPage = ListPageState & { requests: AdminFundAccessRequest[] };

/** The query parameter of the list's page. */
export const FUND_ACCESS_PAGE_PARAM = "requests.page";

/**
 * 'Fund access requests' (SPEC.md §2, Potential Investor Management): the
 * requests, newest first, a page of at most 50 at a time
 * (`?requests.page=N`, other parameters kept) with the full total, in the
 * kit's table (the page scrolls, not a box in it: decision 010). Each row:
 * name and company, a Fund I or Fund II badge ('Revoked' beside it when
 * revoked), e-mail, the accredited/qualified confirmation, the request time,
 * and the row menu ('Send new link', 'Revoke access').
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
      <DataTable label={fundAccessListCopy.title} columns={columns} rows={data.requests} rowKey={(request) => request.id} rowTestId="fund-access-request" />
    </ListSection>
  );
}
