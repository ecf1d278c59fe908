import { useEffect, type FormEvent } from "react";
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
 * The buttons of one user in the admin lists (SPEC.md §2, §4), posting to
 * `action` (the page they are on). Approving a pending request needs no
 * confirmation; Reject, Revoke access and Approve (of a rejected request) ask
 * first: with JavaScript through window.confirm, then a fetcher posts the
 * change and shows the toast; without JavaScript the button opens the page's
 * confirm step (`?confirm=…&user=…`).
 */
export function StatusActions({ user, list, describedBy, action }: { user: User; list: ListKind; describedBy: string; action: string }) {
  const fetcher = useFetcher<StatusOutcome>({ key: `user-status-${user.id}` });
  const busy = fetcher.state !== "idle";

  useEffect(() => {
    if (fetcher.data?.toast) toast(fetcher.data.toast);
  }, [fetcher.data]);

  const confirmed = (kind: ConfirmKind) => {
    const { status, label } = confirmActions[kind];
    const onSubmit = (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      if (!window.confirm(adminCopy.confirm[kind](user.name))) return;
      void fetcher.submit({ [ENHANCED_FIELD]: "1", ...statusFields(user.id, status) }, { method: "post", action });
    };
    return (
      <form method="get" action={`${action}#${CONFIRM_PANEL_ID}`} onSubmit={onSubmit}>
        <input type="hidden" name="confirm" value={kind} />
        <input type="hidden" name="user" value={user.id} />
        <Button type="submit" variant={status === "rejected" ? "danger" : "primary"} disabled={busy} aria-describedby={describedBy}>
          {label}
        </Button>
      </form>
    );
  };

  return (
    <div className="flex flex-wrap gap-2">
      {list === "pending" ? (
        <>
          <EnhancedForm fetcher={fetcher} action={action}>
            {Object.entries(statusFields(user.id, "approved")).map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
            <Button type="submit" disabled={busy} aria-describedby={describedBy}>
              {adminCopy.approve}
            </Button>
          </EnhancedForm>
          {confirmed("reject")}
        </>
      ) : (
        confirmed(list === "approved" ? "revoke" : "approve")
      )}
    </div>
  );
}

/** A status change's confirm step without JavaScript; `user` is null when it is no longer in that list. */
export function StatusConfirmPanel({ kind, user, action }: { kind: ConfirmKind; user: User | null; action: string }) {
  const { status, label } = confirmActions[kind];
  return (
    <ConfirmPanel
      eyebrow={adminCopy.confirmTitle}
      question={user ? adminCopy.confirm[kind](user.name) : null}
      gone={adminCopy.confirmGone}
      action={action}
      fields={user ? statusFields(user.id, status) : {}}
      confirmLabel={label}
      variant={status === "rejected" ? "danger" : "primary"}
      cancelHref={action}
      cancelLabel={adminCopy.cancel}
    />
  );
}
