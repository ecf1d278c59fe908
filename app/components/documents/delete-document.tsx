import { useEffect, useRef, type FormEvent, type ReactNode, type RefObject } from "react";
import { useFetcher } from "react-router";
import { adminCopy } from "~/content/portal";
import { ENHANCED_FIELD } from "~/modules/toast/enhanced";
import type { ToastInput } from "~/modules/toast/toast";
import { ConfirmPanel, CONFIRM_PANEL_ID } from "../ui/confirm-panel";
import { buttonClass } from "../ui/form";
import { toast } from "../ui/toast-store";

/** What a page's action answers a delete made with JavaScript (same shape as a status change). */
export type DeleteOutcome = { status: "success" | "error"; toast: ToastInput | null };

/** The LP documents' delete: the action's intent, the confirm step's query value and the shared fetcher. */
export const DELETE_DOCUMENT_INTENT = "delete-document";
export const DELETE_DOCUMENT_FETCHER = "delete-document";

export type DeleteSettings = {
  /** The action's intent (posted with documentId). */
  intent: string;
  /** `?confirm=<this>&document=<id>`: the no-JavaScript confirm step. */
  confirmParam: string;
  /** One fetcher for all rows of a panel: the panel reads its answer (a deleted row unmounts). */
  fetcherKey: string;
  /** window.confirm's question, also the confirm step's heading. */
  question: string;
  /** The page whose action deletes (and whose loader renders the confirm step). */
  pageAction: string;
  /** Where the confirm step's Cancel goes back to. */
  cancelHref: string;
  label: string;
  pendingLabel: string;
  confirmButton: string;
  cancel: string;
  gone: string;
};

/**
 * Delete one document (SPEC.md §2, §4). With JavaScript: window.confirm, then
 * the panel's shared fetcher posts the intent (`_enhanced=1`) and the panel
 * shows the toast. Without JavaScript the button is a GET form that opens the
 * server's confirm step (`?confirm=…&document=…#confirm`).
 */
export function DeleteDocumentButton({
  document,
  settings,
  className = buttonClass("danger"),
  icon = null,
}: {
  document: { id: string; title: string };
  settings: DeleteSettings;
  /** The button's look (default: the danger button; a row menu passes its item's). */
  className?: string;
  icon?: ReactNode;
}) {
  const fetcher = useFetcher<DeleteOutcome>({ key: settings.fetcherKey });
  // One delete at a time: a second submit on the shared fetcher would cancel the first one's answer.
  const busy = fetcher.state !== "idle";
  const pending = busy && fetcher.formData?.get("documentId") === document.id;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || !window.confirm(settings.question)) return;
    void fetcher.submit({ [ENHANCED_FIELD]: "1", intent: settings.intent, documentId: document.id }, { method: "post", action: settings.pageAction });
  };

  return (
    <form method="get" action={`${settings.pageAction}#${CONFIRM_PANEL_ID}`} onSubmit={onSubmit}>
      <input type="hidden" name="confirm" value={settings.confirmParam} />
      <input type="hidden" name="document" value={document.id} />
      <button type="submit" className={className} aria-disabled={busy || undefined}>
        {icon}
        {pending ? settings.pendingLabel : settings.label}
        <span className="sr-only"> {document.title}</span>
      </button>
    </form>
  );
}

/**
 * Shows the toast of the panel's delete answers, and keeps the keyboard user
 * in the panel when the deleted row (and its focused button) disappears.
 */
export function useDeleteOutcome(fetcherKey: string, focusTarget: RefObject<HTMLElement | null>) {
  const fetcher = useFetcher<DeleteOutcome>({ key: fetcherKey });
  const lastShown = useRef<DeleteOutcome | null>(null);
  useEffect(() => {
    const outcome = fetcher.data;
    if (!outcome || fetcher.state !== "idle" || lastShown.current === outcome) return;
    lastShown.current = outcome;
    if (outcome.toast) toast(outcome.toast);
    const active = globalThis.document?.activeElement;
    if (!active || active === globalThis.document.body) focusTarget.current?.focus();
  }, [fetcher.data, fetcher.state, focusTarget]);
}

/** A document delete's confirm step without JavaScript; `document` is null when it is gone. */
export function DeleteConfirmPanel({
  document,
  settings,
}: {
  document: { id: string; title: string; fileName: string } | null;
  settings: DeleteSettings;
}) {
  return (
    <ConfirmPanel
      eyebrow={adminCopy.confirmTitle}
      question={document ? settings.question : null}
      detail={
        document ? (
          <p>
            <span className="font-semibold">{document.title}</span>
            <span className="break-all"> ({document.fileName})</span>
          </p>
        ) : null
      }
      gone={settings.gone}
      action={settings.pageAction}
      fields={document ? { intent: settings.intent, documentId: document.id } : {}}
      confirmLabel={settings.confirmButton}
      cancelHref={settings.cancelHref}
      cancelLabel={settings.cancel}
    />
  );
}
