import { useState } from "react";
import { Link, useLocation } from "react-router";
import { investorsCopy, referenceCodeCopy } from "~/content/admin-workspace";
import { adminCopy } from "~/content/portal";
import { Badge, DataTable, OneLine, RowMenu, type BadgeTone, type ColumnSort, type DataColumn } from "../kit/data-table";
import { hrefWith, keptParams } from "../kit/query";
import { StatusButton, StatusForms, useStatusChange } from "../portal/status-actions";
import type { InvestorRow } from "../portal/user-list";
import { useFormFlash } from "../ui/use-form-flash";
import { ReferenceCodeForm, referenceCodeFormId } from "./reference-code-form";

const copy = investorsCopy.table;

/** The id of an investor's name in the table: the row's buttons and fields are described by it. */
function nameId(userId: string): string {
  return `n-${userId}`;
}

const statusBadge: Record<InvestorRow["status"], { tone: BadgeTone; label: string }> = {
  pending: { tone: "warning", label: copy.pending },
  approved: { tone: "success", label: adminCopy.approved.badge },
  rejected: { tone: "danger", label: adminCopy.rejected.badge },
};

/** The change in each status's row menu, which asks first. */
const menuChange = { pending: "reject", approved: "revoke", rejected: "approve" } as const;

const approveClass =
  "rounded-md bg-brand-700 px-3 py-1 text-sm font-semibold text-white shadow-sm hover:bg-brand-800 disabled:opacity-70 dark:bg-brand-300 dark:text-slate-950 dark:hover:bg-brand-200";

/**
 * A row's actions: Approve beside a pending request; in the row menu the
 * reference code (a link that opens its field in the menu: `?code=<id>`
 * without JavaScript, in place with it) and the change that asks first
 * (Reject, Revoke access, Approve of a rejected request). The menu opens from
 * the server with the field when the link was followed, or when a
 * no-JavaScript post of the field came back refused.
 */
function InvestorActions({ user, action, editing: editingFromUrl }: { user: InvestorRow; action: string; editing: boolean }) {
  const fetcher = useStatusChange(user.id);
  const { search } = useLocation();
  const refused = useFormFlash(referenceCodeFormId(user.id), "error") !== null;
  const [opened, setOpened] = useState(false);
  const editing = editingFromUrl || refused || opened;
  const shared = { user, fetcher, action };
  const change = menuChange[user.status];
  return (
    <div className="flex items-center justify-end gap-1.5 sm:-my-1">
      {user.status === "pending" ? <StatusButton kind="approve-pending" {...shared} describedBy={nameId(user.id)} className={approveClass} /> : null}
      <RowMenu name={user.name} open={editingFromUrl || refused}>
        {editing ? (
          <ReferenceCodeForm user={user} describedBy={nameId(user.id)} action={action} />
        ) : (
          <Link
            to={hrefWith(action, search, { code: user.id, confirm: null, user: null }, referenceCodeFormId(user.id))}
            preventScrollReset
            onClick={(event) => {
              event.preventDefault();
              setOpened(true);
            }}
            className="row-menu-item"
          >
            {user.referenceCode ? copy.editCode : copy.addCode}
          </Link>
        )}
        <StatusButton kind={change} {...shared} className="row-menu-item" danger={change !== "approve"} />
      </RowMenu>
    </div>
  );
}

/**
 * The investors table (issue 23 §3): name and company, e-mail, status,
 * reference code, the request date (and the approval's), the actions. On a
 * phone each row is a card: name, status and menu on the first line, the
 * date under them, then e-mail and reference code.
 */
export function InvestorTable({
  rows,
  action,
  sorts,
}: {
  rows: readonly InvestorRow[];
  action: string;
  sorts: { name: ColumnSort; date: ColumnSort };
}) {
  const { search } = useLocation();
  // A confirm step opened without JavaScript comes back to this view of the list.
  const keep = keptParams(search, ["confirm", "user", "code"]);
  const editing = new URLSearchParams(search).get("code");
  const columns: DataColumn<InvestorRow>[] = [
    {
      key: "name",
      header: copy.columns.name,
      card: "primary",
      width: "w-[24%]",
      sort: sorts.name,
      cell: (user) => (
        <>
          <OneLine title={user.name} className="font-medium text-slate-900 dark:text-white">
            <span id={nameId(user.id)}>{user.name}</span>
          </OneLine>
          {user.company ? (
            <OneLine title={user.company} className="text-xs font-normal text-slate-600 max-sm:block dark:text-slate-300">
              {user.company}
            </OneLine>
          ) : null}
        </>
      ),
    },
    {
      key: "email",
      header: copy.columns.email,
      cell: (user) => (
        <OneLine title={user.email} className="max-sm:break-all">
          <a href={`mailto:${user.email}`} className="hover:underline">
            {user.email}
          </a>
        </OneLine>
      ),
    },
    {
      key: "status",
      header: copy.columns.status,
      card: "badge",
      width: "w-26",
      cell: (user) => (
        <span data-testid="investor-status">
          <Badge tone={statusBadge[user.status].tone}>{statusBadge[user.status].label}</Badge>
        </span>
      ),
    },
    {
      key: "reference",
      header: copy.columns.referenceCode,
      width: "w-34",
      cell: (user) =>
        user.referenceCode ? (
          <span data-testid="reference-code" className="font-mono text-xs font-semibold text-slate-800 dark:text-slate-100">
            {user.referenceCode}
          </span>
        ) : (
          <>
            <span aria-hidden="true" className="text-slate-500 dark:text-slate-400">
              —
            </span>
            <span className="sr-only">{referenceCodeCopy.none}</span>
          </>
        ),
    },
    {
      key: "date",
      header: copy.columns.requested,
      card: "meta",
      width: "w-36",
      sort: sorts.date,
      className: "tabular-nums",
      cell: (user) => (
        <>
          <span className="sm:hidden">{`${adminCopy.requested} `}</span>
          {user.requestedOn}
          {user.approvedOn ? (
            <span className="block text-xs text-slate-600 max-sm:inline max-sm:before:content-['_·_'] dark:text-slate-300">{copy.approvedOn(user.approvedOn)}</span>
          ) : null}
        </>
      ),
    },
    {
      key: "actions",
      header: copy.columns.actions,
      headerHidden: true,
      card: "actions",
      width: "w-36",
      cell: (user) => <InvestorActions user={user} action={action} editing={editing === user.id} />,
    },
  ];
  return (
    <>
      <StatusForms action={action} keep={keep} />
      <DataTable label={copy.label} columns={columns} rows={rows} rowKey={(user) => user.id} rowTestId="investor-row" />
    </>
  );
}
