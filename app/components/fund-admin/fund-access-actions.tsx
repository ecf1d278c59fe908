import { useEffect, useRef, type FormEvent } from "react";
import { useFetcher } from "react-router";
import { fundAccessListCopy, fundAdminCopy } from "~/content/fund-admin";
import type { FundId } from "~/modules/fund-access/constants";
import type { FundAccessMode } from "~/modules/funds/constants";
import { ENHANCED_FIELD } from "~/modules/toast/enhanced";
import type { ToastInput } from "~/modules/toast/toast";
import { ADMIN_PATHS } from "~/modules/admin/paths";
import { RowMenu } from "../kit/data-table";
import { ConfirmPanel, CONFIRM_PANEL_ID } from "../ui/confirm-panel";
import { EnhancedForm } from "../ui/enhanced-form";
import { toast } from "../ui/toast-store";

/** The fund access page's intents for a request (posted with requestId). */
export const REVOKE_FUND_ACCESS_INTENT = "revoke-fund-access";
export const RESEND_FUND_ACCESS_INTENT = "resend-fund-access-link";
/** The list's section id: the no-JavaScript answers come back to this anchor. */
export const FUND_ACCESS_LIST_ID = "fund-access-requests";

/** What the page's action answers a revoke or resend made with JavaScript. */
export type FundAccessActionOutcome = { status: "success" | "error"; toast: ToastInput | null };

const PAGE = ADMIN_PATHS["fund-access"];

export type FundAccessRequestRef = { id: string; name: string; fundId: FundId; revoked: boolean };

const CANCEL_HREF = `${PAGE}#${FUND_ACCESS_LIST_ID}`;


export function revokeQuestion(request: { name: string; fundId: FundId }): string {
  return fundAccessListCopy.confirmRevoke(request.name, fundAdminCopy.fundNames[request.fundId]);
}

/**
 * 'Send new link' is offered for the requests of a fund by request (Fund II: their access is
 * the link) and for revoked ones (it restores access). The fund's access mode is its row's.
 */
export function offersNewLink(request: { fundAccess: FundAccessMode; revoked: boolean }): boolean {
  return request.fundAccess === "by_request" || request.revoked;
}

/**
 * The actions of one fund access request, in its row menu ('⋯'): 'Send new
 * link' and 'Revoke access'. 'Revoke access' asks first: with
 * JavaScript through window.confirm, then a fetcher posts the intent and the
 * toast shows; without JavaScript the button opens the server's confirm step
 * (/admin/fund-access?confirm=revoke-fund-access&request=…#confirm). 'Send new
 * link' needs no confirmation: a plain POST, enhanced into a fetcher.
 */
export function FundAccessActions({
  request,
  describedBy,
}: {
  request: FundAccessRequestRef & { fundAccess: FundAccessMode };
  describedBy: string;
}) {
  const fetcher = useFetcher<FundAccessActionOutcome>({ key: `fund-access-${request.id}` });
  const busy = fetcher.state !== "idle";
  const pendingIntent = busy ? fetcher.formData?.get("intent") : null;
  const containerRef = useRef<HTMLDivElement>(null);
  const lastShown = useRef<FundAccessActionOutcome | null>(null);

  useEffect(() => {
    const outcome = fetcher.data;
    if (!outcome || fetcher.state !== "idle" || lastShown.current === outcome) return;
    lastShown.current = outcome;
    if (outcome.toast) toast(outcome.toast);
    // A revoke swaps its item for 'Send new link': keep the keyboard user on this request's menu.
    const active = globalThis.document?.activeElement;
    if (!active || active === globalThis.document.body) containerRef.current?.querySelector("summary")?.focus();
  }, [fetcher.data, fetcher.state]);

  const onRevoke = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || !window.confirm(revokeQuestion(request))) return;
    void fetcher.submit({ [ENHANCED_FIELD]: "1", intent: REVOKE_FUND_ACCESS_INTENT, requestId: request.id }, { method: "post", action: PAGE });
  };

  return (
    // Both changes sit in the row's menu ('⋯'), out of the line; revoking still asks first.
    <div ref={containerRef} className="flex justify-end sm:-my-1">
      <RowMenu name={request.name}>
        {offersNewLink(request) ? (
          <EnhancedForm
            fetcher={fetcher}
            action={PAGE}
            onSubmit={(event) => {
              if (busy) event.preventDefault();
            }}
          >
            <input type="hidden" name="intent" value={RESEND_FUND_ACCESS_INTENT} />
            <input type="hidden" name="requestId" value={request.id} />
            <button type="submit" className="row-menu-item" aria-disabled={busy || undefined} aria-describedby={describedBy}>
              {pendingIntent === RESEND_FUND_ACCESS_INTENT ? fundAccessListCopy.resending : fundAccessListCopy.resend}
            </button>
          </EnhancedForm>
        ) : null}
        {request.revoked ? null : (
          <form method="get" action={`${PAGE}#${CONFIRM_PANEL_ID}`} onSubmit={onRevoke}>
            <input type="hidden" name="confirm" value={REVOKE_FUND_ACCESS_INTENT} />
            <input type="hidden" name="request" value={request.id} />
            <button type="submit" className="row-menu-item" data-danger="" aria-disabled={busy || undefined} aria-describedby={describedBy}>
              {pendingIntent === REVOKE_FUND_ACCESS_INTENT ? fundAccessListCopy.revoking : fundAccessListCopy.revoke}
            </button>
          </form>
        )}
      </RowMenu>
    </div>
  );
}

/**
 * The revoke confirm step without JavaScript (DESIGN.md §3). `request` is null
 * when the id is unknown; a revoked request has nothing left to confirm.
 */
export function RevokeConfirmPanel({ request }: { request: FundAccessRequestRef | null }) {
  return (
    <ConfirmPanel
      eyebrow={fundAccessListCopy.confirmTitle}
      question={request && !request.revoked ? revokeQuestion(request) : null}
      detail={fundAccessListCopy.confirmRevokeDetail}
      gone={request ? fundAccessListCopy.alreadyRevoked(request.name) : fundAccessListCopy.requestGone}
      action={PAGE}
      fields={request ? { intent: REVOKE_FUND_ACCESS_INTENT, requestId: request.id } : {}}
      confirmLabel={fundAccessListCopy.revoke}
      cancelHref={CANCEL_HREF}
      cancelLabel={fundAccessListCopy.cancel}
    />
  );
}
