import { useEffect, type FormEvent, type MouseEvent } from "react";
import { useFetcher } from "react-router";
import { adminCopy, type ConfirmKind } from "~/content/portal";
import { ENHANCED_FIELD } from "~/modules/toast/enhanced";
import type { ToastInput } from "~/modules/toast/toast";
import { ConfirmPanel, CONFIRM_PANEL_ID } from "../ui/confirm-panel";
import { EnhancedForm } from "../ui/enhanced-form";
import { Button } from "../ui/form";
import { toast } from "../ui/toast-store";

export type ListKind = "pending" | "approved" | "rejected";
export type TargetStatus = "approved" | "rejected";

/** What a page's action answers a status change made with JavaScript. */
export type StatusOutcome = { status: "success" | "error"; toast: ToastInput | null };

export const STATUS_INTENT = "status";

/** Where each confirmed change leads, and the button that makes it. */
export const confirmActions: Record<ConfirmKind, { status: TargetStatus; label: string }> = {
  reject: { status: "rejected", label: adminCopy.reject },
  revoke: { status: "rejected", label: adminCopy.revoke },
  approve: { status: "approved", label: adminCopy.approve },
};

type User = { id: string; name: string };

function statusFields(userId: string, status: TargetStatus) {
  return { intent: STATUS_INTENT, userId, status };
}

/**
 * One user's status changes (SPEC.md §2, §4) post through one fetcher, so
 * the buttons of a row (Approve beside it, Reject in its menu) share the
 * busy state and the answer's toast is shown once.
 */
export function useStatusChange(userId: string) {
  const fetcher = useFetcher<StatusOutcome>({ key: `user-status-${userId}` });

  useEffect(() => {
    if (fetcher.data?.toast) toast(fetcher.data.toast);
  }, [fetcher.data]);

  return fetcher;
}

type StatusFetcher = ReturnType<typeof useStatusChange>;

/** Approve a pending request: no confirmation (SPEC.md §2). */
export function ApproveForm({
  user,
  fetcher,
  describedBy,
  action,
  className,
}: {
  user: User;
  fetcher: StatusFetcher;
  describedBy: string;
  action: string;
  className?: string;
}) {
  return (
    <EnhancedForm fetcher={fetcher} action={action}>
      {Object.entries(statusFields(user.id, "approved")).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Button type="submit" disabled={fetcher.state !== "idle"} aria-describedby={describedBy} className={className}>
        {adminCopy.approve}
      </Button>
    </EnhancedForm>
  );
}

/**
 * Reject, Revoke access or Approve (of a rejected request), which ask
 * first: with JavaScript through window.confirm, then the fetcher posts the
 * change (and a row menu holding the button closes); without JavaScript the
 * button opens the page's confirm step (`?confirm=…&user=…`).
 */
export function ConfirmedStatusForm({
  kind,
  user,
  fetcher,
  describedBy,
  action,
  className,
}: {
  kind: ConfirmKind;
  user: User;
  fetcher: StatusFetcher;
  describedBy: string;
  action: string;
  className?: string;
}) {
  const { status, label } = confirmActions[kind];
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!window.confirm(adminCopy.confirm[kind](user.name))) return;
    event.currentTarget.closest("details")?.removeAttribute("open");
    void fetcher.submit({ [ENHANCED_FIELD]: "1", ...statusFields(user.id, status) }, { method: "post", action });
  };
  return (
    <form method="get" action={`${action}#${CONFIRM_PANEL_ID}`} onSubmit={onSubmit}>
      <input type="hidden" name="confirm" value={kind} />
      <input type="hidden" name="user" value={user.id} />
      <Button
        type="submit"
        variant={status === "rejected" ? "danger" : "primary"}
        disabled={fetcher.state !== "idle"}
        aria-describedby={describedBy}
        className={className}
      >
        {label}
      </Button>
    </form>
  );
}

/** The ids of a table's shared status forms (StatusForms): its rows' buttons submit them. */
const SHARED_APPROVE = "status-approve";
const sharedConfirm = (kind: ConfirmKind) => `status-confirm-${kind}`;

/**
 * The forms a table's status buttons submit without JavaScript, once per
 * page instead of once per row (each button sends its user's id with its own
 * name and value): Approve posts (and comes back to the list's view, `keep`:
 * its search, tab, sort and page); Reject, Revoke access and Approve of a
 * rejected request open the confirm step, keeping `keep`.
 */
export function StatusForms({ action, keep }: { action: string; keep: ReadonlyArray<readonly [string, string]> }) {
  return (
    <>
      <form id={SHARED_APPROVE} method="post" action={action} hidden>
        <input type="hidden" name="intent" value={STATUS_INTENT} />
        <input type="hidden" name="status" value="approved" />
        {keep.length > 0 ? <input type="hidden" name="query" value={`?${new URLSearchParams(keep.map(([name, value]) => [name, value])).toString()}`} /> : null}
      </form>
      {(Object.keys(confirmActions) as ConfirmKind[]).map((kind) => (
        <form key={kind} id={sharedConfirm(kind)} method="get" action={`${action}#${CONFIRM_PANEL_ID}`} hidden>
          {keep.map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <input type="hidden" name="confirm" value={kind} />
        </form>
      ))}
    </>
  );
}

/**
 * A row's status button submitting the page's StatusForms without
 * JavaScript. With it, Approve posts through the fetcher at once; the others
 * ask through window.confirm first (and close the row menu holding them).
 */
export function StatusButton({
  kind,
  user,
  fetcher,
  describedBy,
  action,
  className,
  danger,
}: {
  /** 'approve-pending': Approve of a pending request, which needs no confirmation. */
  kind: ConfirmKind | "approve-pending";
  user: User;
  fetcher: StatusFetcher;
  /** The id of the user's name; in a row menu (which names the user) none is needed. */
  describedBy?: string;
  action: string;
  className: string;
  /** Marks a change that takes away (styled in red by `className`'s rules). */
  danger?: boolean;
}) {
  const confirmed = kind === "approve-pending" ? null : kind;
  const onClick = (event: MouseEvent<HTMLButtonElement>) => {
    event.preventDefault();
    if (confirmed && !window.confirm(adminCopy.confirm[confirmed](user.name))) return;
    event.currentTarget.closest("details")?.removeAttribute("open");
    const status = confirmed ? confirmActions[confirmed].status : "approved";
    void fetcher.submit({ [ENHANCED_FIELD]: "1", ...statusFields(user.id, status) }, { method: "post", action });
  };
  return (
    <button
      type="submit"
      form={confirmed ? sharedConfirm(confirmed) : SHARED_APPROVE}
      name={confirmed ? "user" : "userId"}
      value={user.id}
      onClick={onClick}
      disabled={fetcher.state !== "idle"}
      aria-describedby={describedBy}
      className={className}
      data-danger={danger || undefined}
    >
      {confirmed ? confirmActions[confirmed].label : adminCopy.approve}
    </button>
  );
}

/**
 * The buttons of one user in a list of pending requests or the lists of
 * approved or rejected ones, posting to `action` (the page they are on):
 * Approve and Reject on a pending request, Revoke access on an approved
 * investor, Approve on a rejected one.
 */
export function StatusActions({ user, list, describedBy, action }: { user: User; list: ListKind; describedBy: string; action: string }) {
  const fetcher = useStatusChange(user.id);
  const shared = { user, fetcher, describedBy, action };
  return (
    <div className="flex flex-wrap gap-2">
      {list === "pending" ? (
        <>
          <ApproveForm {...shared} />
          <ConfirmedStatusForm kind="reject" {...shared} />
        </>
      ) : (
        <ConfirmedStatusForm kind={list === "approved" ? "revoke" : "approve"} {...shared} />
      )}
    </div>
  );
}

/**
 * A status change's confirm step without JavaScript; `user` is null when it is no longer in that list.
 * `search` ('?q=…&status=…', no confirm step) is the list's view: Cancel goes back to it, and the
 * post carries it (`query`) so the page's answer can too.
 */
export function StatusConfirmPanel({ kind, user, action, search = "" }: { kind: ConfirmKind; user: User | null; action: string; search?: string }) {
  const { status, label } = confirmActions[kind];
  return (
    <ConfirmPanel
      eyebrow={adminCopy.confirmTitle}
      question={user ? adminCopy.confirm[kind](user.name) : null}
      gone={adminCopy.confirmGone}
      action={action}
      fields={user ? { ...statusFields(user.id, status), ...(search ? { query: search } : {}) } : {}}
      confirmLabel={label}
      variant={status === "rejected" ? "danger" : "primary"}
      cancelHref={`${action}${search}`}
      cancelLabel={adminCopy.cancel}
    />
  );
}
