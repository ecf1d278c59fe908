import { useEffect, useRef, type FormEvent } from "react";
import { Form, Link, useFetcher } from "react-router";
import { fundAccessListCopy, fundAdminCopy } from "~/content/fund-admin";
import type { FundId } from "~/modules/fund-access/constants";
import { ENHANCED_FIELD } from "~/modules/toast/enhanced";
import type { ToastInput } from "~/modules/toast/toast";
import { buttonClass } from "../ui/form";
import { toast } from "../ui/toast-store";
import { useHydrated } from "../ui/use-hydrated";

/** The dashboard action's intents for a fund access request (posted with requestId). */
export const REVOKE_FUND_ACCESS_INTENT = "revoke-fund-access";
export const RESEND_FUND_ACCESS_INTENT = "resend-fund-access-link";
/** The list's section id: the no-JavaScript answers come back to this anchor. */
export const FUND_ACCESS_LIST_ID = "fund-access-requests";
/** Same anchor as the other confirm steps (status-actions.tsx, delete-document.tsx); only one shows at a time. */
export const FUND_CONFIRM_PANEL_ID = "confirm";

/** What the dashboard's action answers a revoke or resend made with JavaScript. */
export type FundAccessActionOutcome = { status: "success" | "error"; toast: ToastInput };

export type FundAccessRequestRef = { id: string; name: string; fundId: FundId; revoked: boolean };

const CANCEL_HREF = `/admin/dashboard#${FUND_ACCESS_LIST_ID}`;

const dangerButtonClass =
  "inline-flex items-center justify-center gap-2 rounded-md border border-red-300 bg-white px-4 py-2 text-sm font-semibold text-red-800 shadow-sm transition-colors hover:bg-red-50 aria-disabled:cursor-not-allowed aria-disabled:opacity-70 dark:border-red-800 dark:bg-slate-900 dark:text-red-200 dark:hover:bg-red-950";

const secondaryButtonClass = buttonClass("secondary", "aria-disabled:cursor-not-allowed aria-disabled:opacity-70");

export function revokeQuestion(request: { name: string; fundId: FundId }): string {
  return fundAccessListCopy.confirmRevoke(request.name, fundAdminCopy.fundNames[request.fundId]);
}

/** 'Send new link' is offered for Fund II requests (their access is the link) and for revoked ones (it restores access). */
export function offersNewLink(request: { fundId: FundId; revoked: boolean }): boolean {
  return request.fundId === "fund-ii" || request.revoked;
}

/**
 * The buttons of one fund access request. 'Revoke access' asks first: with
 * JavaScript through window.confirm, then a fetcher posts the intent and the
 * toast shows; without JavaScript the button opens the server's confirm step
 * (/admin/dashboard?confirm=revoke-fund-access&request=…#confirm). 'Send new
 * link' needs no confirmation: a plain POST, enhanced into a fetcher.
 */
export function FundAccessActions({ request, describedBy }: { request: FundAccessRequestRef; describedBy: string }) {
  const fetcher = useFetcher<FundAccessActionOutcome>({ key: `fund-access-${request.id}` });
  const hydrated = useHydrated();
  const busy = fetcher.state !== "idle";
  const pendingIntent = busy ? fetcher.formData?.get("intent") : null;
  const containerRef = useRef<HTMLDivElement>(null);
  const lastShown = useRef<FundAccessActionOutcome | null>(null);

  useEffect(() => {
    const outcome = fetcher.data;
    if (!outcome || fetcher.state !== "idle" || lastShown.current === outcome) return;
    lastShown.current = outcome;
    toast(outcome.toast);
    // A revoke swaps its button for 'Send new link': keep the keyboard user on this request.
    const active = globalThis.document?.activeElement;
    if (!active || active === globalThis.document.body) containerRef.current?.querySelector("button")?.focus();
  }, [fetcher.data, fetcher.state]);

  const onRevoke = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || !window.confirm(revokeQuestion(request))) return;
    fetcher.submit(
      { [ENHANCED_FIELD]: "1", intent: REVOKE_FUND_ACCESS_INTENT, requestId: request.id },
      { method: "post", action: "/admin/dashboard" },
    );
  };

  return (
    <div ref={containerRef} className="flex flex-wrap gap-2">
      {offersNewLink(request) ? (
        <fetcher.Form
          method="post"
          action="/admin/dashboard"
          onSubmit={(event) => {
            if (busy) event.preventDefault();
          }}
        >
          {hydrated ? <input type="hidden" name={ENHANCED_FIELD} value="1" /> : null}
          <input type="hidden" name="intent" value={RESEND_FUND_ACCESS_INTENT} />
          <input type="hidden" name="requestId" value={request.id} />
          <button type="submit" className={secondaryButtonClass} aria-disabled={busy || undefined} aria-describedby={describedBy}>
            {pendingIntent === RESEND_FUND_ACCESS_INTENT ? fundAccessListCopy.resending : fundAccessListCopy.resend}
          </button>
        </fetcher.Form>
      ) : null}
      {request.revoked ? null : (
        <form method="get" action={`/admin/dashboard#${FUND_CONFIRM_PANEL_ID}`} onSubmit={onRevoke}>
          <input type="hidden" name="confirm" value={REVOKE_FUND_ACCESS_INTENT} />
          <input type="hidden" name="request" value={request.id} />
          <button type="submit" className={dangerButtonClass} aria-disabled={busy || undefined} aria-describedby={describedBy}>
            {pendingIntent === REVOKE_FUND_ACCESS_INTENT ? fundAccessListCopy.revoking : fundAccessListCopy.revoke}
          </button>
        </form>
      )}
    </div>
  );
}

/**
 * The revoke confirm step without JavaScript (DESIGN.md §3): the question, the
 * button that posts the revoke, and Cancel back to the list. `request` is null
 * when the id is unknown.
 */
export function RevokeConfirmPanel({ request }: { request: FundAccessRequestRef | null }) {
  const titleId = `${FUND_CONFIRM_PANEL_ID}-title`;
  return (
    <section
      id={FUND_CONFIRM_PANEL_ID}
      tabIndex={-1}
      aria-labelledby={titleId}
      className="mt-6 scroll-mt-40 rounded-xl border-2 border-amber-400 bg-amber-50 p-6 outline-none dark:border-amber-600 dark:bg-amber-950"
    >
      <p className="text-sm font-semibold tracking-wide text-amber-900 uppercase dark:text-amber-200">{fundAccessListCopy.confirmTitle}</p>
      {request && !request.revoked ? (
        <>
          <h3 id={titleId} className="mt-1 text-lg font-semibold text-slate-900 dark:text-white">
            {revokeQuestion(request)}
          </h3>
          <p className="mt-2 text-sm text-slate-800 dark:text-slate-200">{fundAccessListCopy.confirmRevokeDetail}</p>
          <div className="mt-4 flex flex-wrap gap-3">
            <Form method="post" action="/admin/dashboard">
              <input type="hidden" name="intent" value={REVOKE_FUND_ACCESS_INTENT} />
              <input type="hidden" name="requestId" value={request.id} />
              <button type="submit" className={dangerButtonClass}>
                {fundAccessListCopy.revoke}
              </button>
            </Form>
            <Link to={CANCEL_HREF} className={buttonClass("secondary")}>
              {fundAccessListCopy.cancel}
            </Link>
          </div>
        </>
      ) : (
        <>
          <h3 id={titleId} className="mt-1 text-base font-medium text-slate-900 dark:text-white">
            {request ? fundAccessListCopy.alreadyRevoked(request.name) : fundAccessListCopy.requestGone}
          </h3>
          <Link to={CANCEL_HREF} className={buttonClass("secondary", "mt-4")}>
            {fundAccessListCopy.cancel}
          </Link>
        </>
      )}
    </section>
  );
}
