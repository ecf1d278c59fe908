import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { Pager, pageHref } from "~/components/ui/pager";
import { adminCopy } from "~/content/portal";
import { StatusActions, type ListKind } from "./status-actions";

/** A user as the admin lists show them (the loader formats the date: 'MMM dd, yyyy', SPEC.md §9). */
export type AdminListUser = {
  id: string;
  name: string;
  email: string;
  company: string | null;
  requestedOn: string;
};

const badgeClass: Record<Exclude<ListKind, "pending">, string> = {
  approved:
    "border-emerald-300 bg-emerald-50 text-emerald-800 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-200",
  rejected: "border-red-300 bg-red-50 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200",
};

/** One page of a list, as the loader reads it: at most a page of users, the page shown (1-based) and the list's total. */
export type UserListPage = {
  users: AdminListUser[];
  page: number;
  total: number;
  failed: boolean;
};

/** The query parameter of a list's page: `pending.page`, `approved.page`, `rejected.page`. */
export function userListPageParam(list: ListKind): `${ListKind}.page` {
  return `${list}.page`;
}

/** The list's section id: its paging links come back to this anchor. */
export function userListSectionId(list: ListKind): `${ListKind}-users` {
  return `${list}-users`;
}

/** A confirm step's parameters (status-actions.tsx and the other confirm steps): a paging link closes the step. */
const CONFIRM_PARAMS = ["confirm", "user", "request", "document"] as const;

/**
 * One of the three lists of 'Existing Investor/LP Management': pending
 * requests, approved investors, rejected requests, newest first, a page of at
 * most 50 at a time (`?{list}.page=N`, other parameters kept) with the
 * list's full total. Approved and rejected scroll within 400 px (SPEC.md §9)
 * and show their total.
 */
export function UserList({ list, data }: { list: ListKind; data: UserListPage }) {
  const { users, page, total, failed } = data;
  const copy = adminCopy[list];
  const sectionId = userListSectionId(list);
  const titleId = `${list}-users-title`;
  const scrolls = list !== "pending";
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
      param: userListPageParam(list),
      page: target,
      anchor: sectionId,
      drop: CONFIRM_PARAMS,
    });

  return (
    <section id={sectionId} aria-labelledby={titleId} className="mt-8 scroll-mt-40" data-testid={sectionId}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={titleId} className="text-lg font-semibold">
          {copy.title}
        </h3>
        {failed ? null : (
          <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-sm font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-200">
            {adminCopy.total(total)}
          </span>
        )}
      </div>
      {failed ? (
        <p
          role="alert"
          className="mt-3 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {copy.error}
        </p>
      ) : users.length === 0 ? (
        <p className="mt-3 rounded-md border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300">
          {copy.empty}
        </p>
      ) : (
        <>
          <div
            ref={region}
            className={scrolls ? "mt-3 max-h-[400px] overflow-y-auto rounded-lg border border-slate-200 dark:border-slate-800" : "mt-3"}
            {...(scrolls ? { tabIndex: 0, role: "region", "aria-label": copy.title } : {})}
          >
            <ul className={scrolls ? "divide-y divide-slate-200 dark:divide-slate-800" : "space-y-3"}>
              {users.map((user) => {
                const nameId = `${list}-user-${user.id}`;
                return (
                  <li
                    key={user.id}
                    className={`flex flex-wrap items-center justify-between gap-4 p-4 ${
                      scrolls ? "" : "rounded-lg border border-slate-200 dark:border-slate-800"
                    }`}
                  >
                    <div className="min-w-0">
                      <p className="flex flex-wrap items-center gap-2">
                        <span id={nameId} className="font-semibold">
                          {user.name}
                        </span>
                        {list !== "pending" ? (
                          <span className={`rounded-full border px-2.5 py-0.5 text-xs font-semibold ${badgeClass[list]}`}>
                            {adminCopy[list].badge}
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
                    <StatusActions user={user} list={list} describedBy={nameId} />
                  </li>
                );
              })}
            </ul>
          </div>
          <Pager label={copy.title} page={page} total={total} shown={users.length} hrefFor={hrefFor} />
        </>
      )}
    </section>
  );
}
