import { useEffect, type FormEvent } from "react";
import { Form, Link, useFetcher } from "react-router";
import { adminCopy, type ConfirmKind } from "~/content/portal";
import { ENHANCED_FIELD } from "~/modules/toast/enhanced";
import type { ToastInput } from "~/modules/toast/toast";
import { Button, buttonClass } from "../ui/form";
import { toast } from "../ui/toast-store";
import { useHydrated } from "../ui/use-hydrated";

export type ListKind = "pending" | "approved" | "rejected";
export type TargetStatus = "approved" | "rejected";

/** What the dashboard's action answers a status change made with JavaScript. */
export type StatusOutcome = { status: "success" | "error"; toast: ToastInput };

export const STATUS_INTENT = "status";
export const CONFIRM_PANEL_ID = "confirm";

/** Where each confirmed change leads, and the button that makes it. */
export const confirmActions: Record<ConfirmKind, { status: TargetStatus; label: string }> = {
  reject: { status: "rejected", label: adminCopy.reject },
  revoke: { status: "rejected", label: adminCopy.revoke },
  approve: { status: "approved", label: adminCopy.approve },
};

const dangerButtonClass =
  "inline-flex items-center justify-center gap-2 rounded-md border border-red-300 bg-white px-4 py-2 text-sm font-semibold text-red-800 shadow-sm transition-colors hover:bg-red-50 disabled:cursor-not-allowed disabled:opacity-70 dark:border-red-800 dark:bg-slate-900 dark:text-red-200 dark:hover:bg-red-950";

type User = { id: string; name: string };

function HiddenStatusFields({ userId, status }: { userId: string; status: TargetStatus }) {
  return (
    <>
      <input type="hidden" name="intent" value={STATUS_INTENT} />
      <input type="hidden" name="userId" value={userId} />
      <input type="hidden" name="status" value={status} />
    </>
  );
}

/**
 * The buttons of one user in the admin lists (SPEC.md §2, §4). Approving a
 * pending request needs no confirmation; Reject, Revoke access and Approve (of
 * a rejected request) ask first: with JavaScript through window.confirm, then
 * a fetcher posts the change and shows the toast; without JavaScript the
 * button opens the server's confirm step (/admin/dashboard?confirm=…&user=…).
 */
export function StatusActions({ user, list, describedBy }: { user: User; list: ListKind; describedBy: string }) {
  const fetcher = useFetcher<StatusOutcome>({ key: `user-status-${user.id}` });
  const hydrated = useHydrated();
  const busy = fetcher.state !== "idle";

  useEffect(() => {
    if (fetcher.data?.toast) toast(fetcher.data.toast);
  }, [fetcher.data]);

  const confirmed = (kind: ConfirmKind, variant: "primary" | "danger") => {
    const { status, label } = confirmActions[kind];
    const onSubmit = (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      if (!window.confirm(adminCopy.confirm[kind](user.name))) return;
      fetcher.submit(
        { [ENHANCED_FIELD]: "1", intent: STATUS_INTENT, userId: user.id, status },
        { method: "post", action: "/admin/dashboard" },
      );
    };
    return (
      <form method="get" action={`/admin/dashboard#${CONFIRM_PANEL_ID}`} onSubmit={onSubmit}>
        <input type="hidden" name="confirm" value={kind} />
        <input type="hidden" name="user" value={user.id} />
        {variant === "danger" ? (
          <button type="submit" className={dangerButtonClass} disabled={busy} aria-describedby={describedBy}>
            {label}
          </button>
        ) : (
          <Button type="submit" disabled={busy} aria-describedby={describedBy}>
            {label}
          </Button>
        )}
      </form>
    );
  };

  return (
    <div className="flex flex-wrap gap-2">
      {list === "pending" ? (
        <>
          <fetcher.Form method="post" action="/admin/dashboard">
            {hydrated ? <input type="hidden" name={ENHANCED_FIELD} value="1" /> : null}
            <HiddenStatusFields userId={user.id} status="approved" />
            <Button type="submit" disabled={busy} aria-describedby={describedBy}>
              {adminCopy.approve}
            </Button>
          </fetcher.Form>
          {confirmed("reject", "danger")}
        </>
      ) : list === "approved" ? (
        confirmed("revoke", "danger")
      ) : (
        confirmed("approve", "primary")
      )}
    </div>
  );
}

/**
 * The confirm step without JavaScript (DESIGN.md §3): the question, the button
 * that posts the change, and Cancel back to the dashboard.
 */
export function ConfirmPanel({ kind, user }: { kind: ConfirmKind; user: User | null }) {
  const { status, label } = confirmActions[kind];
  return (
    <section
      id={CONFIRM_PANEL_ID}
      tabIndex={-1}
      aria-labelledby={`${CONFIRM_PANEL_ID}-title`}
      className="mt-6 scroll-mt-40 rounded-xl border-2 border-amber-400 bg-amber-50 p-6 outline-none dark:border-amber-600 dark:bg-amber-950"
    >
      <p className="text-sm font-semibold tracking-wide text-amber-900 uppercase dark:text-amber-200">
        {adminCopy.confirmTitle}
      </p>
      {user ? (
        <>
          <h3 id={`${CONFIRM_PANEL_ID}-title`} className="mt-1 text-lg font-semibold text-slate-900 dark:text-white">
            {adminCopy.confirm[kind](user.name)}
          </h3>
          <div className="mt-4 flex flex-wrap gap-3">
            <Form method="post" action="/admin/dashboard">
              <HiddenStatusFields userId={user.id} status={status} />
              {status === "rejected" ? (
                <button type="submit" className={dangerButtonClass}>
                  {label}
                </button>
              ) : (
                <Button type="submit">{label}</Button>
              )}
            </Form>
            <Link to="/admin/dashboard" className={buttonClass("secondary")}>
              {adminCopy.cancel}
            </Link>
          </div>
        </>
      ) : (
        <>
          <h3 id={`${CONFIRM_PANEL_ID}-title`} className="mt-1 text-base font-medium text-slate-900 dark:text-white">
            {adminCopy.confirmGone}
          </h3>
          <Link to="/admin/dashboard" className={buttonClass("secondary", "mt-4")}>
            {adminCopy.cancel}
          </Link>
        </>
      )}
    </section>
  );
}
