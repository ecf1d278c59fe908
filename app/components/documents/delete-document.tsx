import { useEffect, useRef, type FormEvent, type RefObject } from "react";
import { Form, Link, useFetcher } from "react-router";
import { adminCopy } from "~/content/portal";
import { ENHANCED_FIELD } from "~/modules/toast/enhanced";
import type { ToastInput } from "~/modules/toast/toast";
import { buttonClass } from "../ui/form";
import { toast } from "../ui/toast-store";

/** What the dashboard's action answers a delete made with JavaScript (same shape as a status change). */
export type DeleteOutcome = { status: "success" | "error"; toast: ToastInput };

/** The LP documents' delete: the action's intent, the confirm step's query value and the shared fetcher. */
export const DELETE_DOCUMENT_INTENT = "delete-document";
export const DELETE_DOCUMENT_FETCHER = "delete-document";
/** Same anchor as the user confirm step (status-actions.tsx); only one confirm step shows at a time. */
export const DOCUMENT_CONFIRM_PANEL_ID = "confirm";

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

const dangerButtonClass = (size: "sm" | "md") =>
  `inline-flex items-center justify-center gap-2 rounded-md border border-red-300 bg-white ${size === "sm" ? "px-3 py-1.5" : "px-4 py-2"} text-sm font-semibold text-red-800 shadow-sm transition-colors hover:bg-red-50 aria-disabled:cursor-not-allowed aria-disabled:opacity-70 dark:border-red-800 dark:bg-slate-900 dark:text-red-200 dark:hover:bg-red-950`;

/**
 * Delete one document (SPEC.md §2, §4). With JavaScript: window.confirm, then
 * the panel's shared fetcher posts the intent (`_enhanced=1`) and the panel
 * shows the toast. Without JavaScript the button is a GET form that opens the
 * server's confirm step (`?confirm=…&document=…#confirm`).
 */
export function DeleteDocumentButton({ document, settings }: { document: { id: string; title: string }; settings: DeleteSettings }) {
  const fetcher = useFetcher<DeleteOutcome>({ key: settings.fetcherKey });
  // One delete at a time: a second submit on the shared fetcher would cancel the first one's answer.
  const busy = fetcher.state !== "idle";
  const pending = busy && fetcher.formData?.get("documentId") === document.id;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || !window.confirm(settings.question)) return;
    fetcher.submit(
      { [ENHANCED_FIELD]: "1", intent: settings.intent, documentId: document.id },
      { method: "post", action: settings.pageAction },
    );
  };

  return (
    <form method="get" action={`${settings.pageAction}#${DOCUMENT_CONFIRM_PANEL_ID}`} onSubmit={onSubmit}>
      <input type="hidden" name="confirm" value={settings.confirmParam} />
      <input type="hidden" name="document" value={document.id} />
      <button type="submit" className={dangerButtonClass("sm")} aria-disabled={busy || undefined}>
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
    toast(outcome.toast);
    const active = globalThis.document?.activeElement;
    if (!active || active === globalThis.document.body) focusTarget.current?.focus();
  }, [fetcher.data, fetcher.state, focusTarget]);
}

/**
 * The confirm step without JavaScript (DESIGN.md §3): the question, the
 * document, a button that posts the delete and Cancel.
 */
export function DeleteConfirmPanel({
  document,
  settings,
}: {
  document: { id: string; title: string; fileName: string } | null;
  settings: DeleteSettings;
}) {
  const titleId = `${DOCUMENT_CONFIRM_PANEL_ID}-title`;
  return (
    <section
      id={DOCUMENT_CONFIRM_PANEL_ID}
      tabIndex={-1}
      aria-labelledby={titleId}
      className="mt-8 scroll-mt-40 rounded-xl border-2 border-amber-400 bg-amber-50 p-6 outline-none dark:border-amber-600 dark:bg-amber-950"
    >
      <p className="text-sm font-semibold tracking-wide text-amber-900 uppercase dark:text-amber-200">{adminCopy.confirmTitle}</p>
      {document ? (
        <>
          <h3 id={titleId} className="mt-1 text-lg font-semibold text-slate-900 dark:text-white">
            {settings.question}
          </h3>
          <p className="mt-2 text-sm text-slate-800 dark:text-slate-200">
            <span className="font-semibold">{document.title}</span>
            <span className="break-all"> ({document.fileName})</span>
          </p>
          <div className="mt-4 flex flex-wrap gap-3">
            <Form method="post" action={settings.pageAction}>
              <input type="hidden" name="intent" value={settings.intent} />
              <input type="hidden" name="documentId" value={document.id} />
              <button type="submit" className={dangerButtonClass("md")}>
                {settings.confirmButton}
              </button>
            </Form>
            <Link to={settings.cancelHref} className={buttonClass("secondary")}>
              {settings.cancel}
            </Link>
          </div>
        </>
      ) : (
        <>
          <h3 id={titleId} className="mt-1 text-base font-medium text-slate-900 dark:text-white">
            {settings.gone}
          </h3>
          <Link to={settings.cancelHref} className={buttonClass("secondary", "mt-4")}>
            {settings.cancel}
          </Link>
        </>
      )}
    </section>
  );
}
