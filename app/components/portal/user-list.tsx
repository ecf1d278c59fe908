import type { ReactNode } from "react";
import { referenceCodeCopy } from "~/content/admin-workspace";
import { adminCopy } from "~/content/portal";
import { ListSection, type ListPageState } from "../admin/list-section";
import { StatusActions, type ListKind } from "./status-actions";

/** A user as the admin lists show them (the loader formats the date: 'MMM dd, yyyy', SPEC.md §9). */
export type AdminListUser = {
  id: string;
  name: string;
  email: string;
  company: string | null;
  /** The firm's reference code for the investor ("LRV-0042"), if it has one. */
  referenceCode: string | null;
  requestedOn: string;
};

const badgeClass: Record<Exclude<ListKind, "pending">, string> = {
  approved:
    "border-emerald-300 bg-emerald-50 text-emerald-800 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-200",
  rejected: "border-red-300 bg-red-50 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200",
};

/** One page of a list, as the loader reads it. */
export type UserListPage = ListPageState & { users: AdminListUser[] };

/** The query parameter of a list's page: `pending.page`, `approved.page`, `rejected.page`. */
export function userListPageParam(list: ListKind): `${ListKind}.page` {
  return `${list}.page`;
}

/** The list's section id: its paging links come back to this anchor. */
export function userListSectionId(list: ListKind): `${ListKind}-users` {
  return `${list}-users`;
}

/**
 * One of the three lists of 'Existing Investor/LP Management': pending
 * requests, approved investors, rejected requests, newest first, a page of at
 * most 50 at a time (`?{list}.page=N`, other parameters kept) with the
 * list's full total. Approved and rejected scroll within 400 px (SPEC.md §9).
 * Each user's buttons post to `action`, the page the list is on; `extra`
 * adds a page's own controls to each user (given the id of the user's name).
 */
export function UserList({
  list,
  data,
  action,
  extra,
}: {
  list: ListKind;
  data: UserListPage;
  action: string;
  extra?: (user: AdminListUser, nameId: string) => ReactNode;
}) {
  const copy = adminCopy[list];
  const scrolls = list !== "pending";
  return (
    <ListSection
      id={userListSectionId(list)}
      title={copy.title}
      totalLabel={adminCopy.total(data.total)}
      state={data}
      count={data.users.length}
      pageParam={userListPageParam(list)}
      errorText={copy.error}
      emptyText={copy.empty}
      scrolls={scrolls}
      regionLabel={copy.title}
    >
      <ul className={scrolls ? "divide-y divide-slate-200 dark:divide-slate-800" : "space-y-3"}>
        {data.users.map((user) => {
          const nameId = `${list}-user-${user.id}`;
          return (
            <li
              key={user.id}
              className={`flex flex-wrap items-center justify-between gap-4 p-4 ${
                scrolls ? "" : "rounded-lg border border-slate-200 dark:border-slate-800"
              }`}
            >
              <UserSummary user={user} nameId={nameId} badge={list === "pending" ? null : list} />
              {extra?.(user, nameId)}
              <StatusActions user={user} list={list} describedBy={nameId} action={action} />
            </li>
          );
        })}
      </ul>
    </ListSection>
  );
}

/** Name (with a status badge and reference code), e-mail, company and request date of one investor. */
export function UserSummary({ user, nameId, badge }: { user: AdminListUser; nameId: string; badge: Exclude<ListKind, "pending"> | null }) {
  return (
    <div className="min-w-0">
      <p className="flex flex-wrap items-center gap-2">
        <span id={nameId} className="font-semibold">
          {user.name}
        </span>
        {badge ? (
          <span className={`rounded-full border px-2.5 py-0.5 text-xs font-semibold ${badgeClass[badge]}`}>{adminCopy[badge].badge}</span>
        ) : null}
        {user.referenceCode ? (
          <span data-testid="reference-code" className="rounded-md bg-slate-100 px-2 py-0.5 font-mono text-xs font-semibold text-slate-800 dark:bg-slate-800 dark:text-slate-100">
            {referenceCodeCopy.shown(user.referenceCode)}
          </span>
        ) : null}
      </p>
      <p className="text-sm break-all text-slate-700 dark:text-slate-300">
        <a href={`mailto:${user.email}`} className="hover:underline">
          {user.email}
        </a>
      </p>
      {user.company ? <p className="text-sm text-slate-600 dark:text-slate-300">{user.company}</p> : null}
      <p className="text-xs text-slate-600 dark:text-slate-400">{`${adminCopy.requested} ${user.requestedOn}`}</p>
    </div>
  );
}
