import { referenceCodeCopy } from "~/content/admin-workspace";
import { adminCopy } from "~/content/portal";
import { Badge } from "../kit/data-table";
import type { ListKind } from "./status-actions";

/** A user as the admin lists show them: the overview's pending requests, the investors table (the loader formats the date: 'MMM dd, yyyy', SPEC.md §9). */
export type AdminListUser = {
  id: string;
  name: string;
  email: string;
  company: string | null;
  /** The firm's reference code for the investor ("LRV-0042"), if it has one. */
  referenceCode: string | null;
  requestedOn: string;
};

/** An investor of the investors table: the list's fields, the status and, when known, the approval date. */
export type InvestorRow = AdminListUser & {
  status: ListKind;
  /** 'MMM dd, yyyy' of the last approval, when the audit trail knows it (approved investors only). */
  approvedOn: string | null;
};

/** The query parameter of a former list's page (`pending.page`…): older links still open that tab and page. */
export function userListPageParam(list: ListKind): `${ListKind}.page` {
  return `${list}.page`;
}

/** Name (with a status badge and reference code), e-mail, company and request date of one investor. */
export function UserSummary({ user, nameId, badge }: { user: AdminListUser; nameId: string; badge: Exclude<ListKind, "pending"> | null }) {
  return (
    <div className="min-w-0">
      <p className="flex flex-wrap items-center gap-2">
        <span id={nameId} className="font-semibold">
          {user.name}
        </span>
        {badge ? <Badge tone={badge === "approved" ? "success" : "danger"}>{adminCopy[badge].badge}</Badge> : null}
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
