import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { Button, buttonClass, type ButtonVariant } from "./form";

/** The anchor of a page's confirm step: only one shows at a time. */
export const CONFIRM_PANEL_ID = "confirm";

/**
 * The confirm step without JavaScript (DESIGN.md §3): the question, a button
 * that posts the change with its hidden fields, and Cancel. When the thing to
 * change is gone (`question` is null) it says so and offers only Cancel.
 */
export function ConfirmPanel({
  eyebrow,
  question,
  detail,
  gone,
  action,
  fields,
  confirmLabel,
  variant = "danger",
  cancelHref,
  cancelLabel,
}: {
  eyebrow: string;
  question: string | null;
  detail?: ReactNode;
  gone: string;
  action: string;
  fields: Record<string, string>;
  confirmLabel: string;
  variant?: ButtonVariant;
  cancelHref: string;
  cancelLabel: string;
}) {
  const titleId = `${CONFIRM_PANEL_ID}-title`;
  return (
    <section
      id={CONFIRM_PANEL_ID}
      tabIndex={-1}
      aria-labelledby={titleId}
      className="mt-6 scroll-mt-40 rounded-xl border-2 border-amber-400 bg-amber-50 p-6 outline-none dark:border-amber-600 dark:bg-amber-950"
    >
      <p className="text-sm font-semibold tracking-wide text-amber-900 uppercase dark:text-amber-200">{eyebrow}</p>
      {question ? (
        <>
          <h2 id={titleId} className="mt-1 text-lg font-semibold text-slate-900 dark:text-white">
            {question}
          </h2>
          {detail ? <div className="mt-2 text-sm text-slate-800 dark:text-slate-200">{detail}</div> : null}
          <div className="mt-4 flex flex-wrap gap-3">
            <Form method="post" action={action}>
              {Object.entries(fields).map(([name, value]) => (
                <input key={name} type="hidden" name={name} value={value} />
              ))}
              <Button type="submit" variant={variant}>
                {confirmLabel}
              </Button>
            </Form>
            <Link to={cancelHref} className={buttonClass("secondary")}>
              {cancelLabel}
            </Link>
          </div>
        </>
      ) : (
        <>
          <h2 id={titleId} className="mt-1 text-base font-medium text-slate-900 dark:text-white">
            {gone}
          </h2>
          <Link to={cancelHref} className={buttonClass("secondary", "mt-4")}>
            {cancelLabel}
          </Link>
        </>
      )}
    </section>
  );
}
