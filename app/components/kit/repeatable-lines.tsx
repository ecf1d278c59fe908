import { Plus, X } from "lucide-react";
import type { ReactNode } from "react";
import { buttonClass } from "../ui/form";
import { ErrorList, Hint } from "./fields";

/**
 * Repeatable lines without JavaScript (issue 24 §9: the kit's "add a line"
 * submit): a fieldset of numbered lines, each with a Remove submit, and an
 * "Add a line" submit under them. Both are submit buttons of the page's form
 * (name `intent`, values `add-line` and `remove-line-{index}`), so the server
 * answers the form again with a line more or less and everything typed kept;
 * with JavaScript the same post goes through the page's fetcher. They skip
 * the browser's checks (formNoValidate): adding a line never asks for the
 * fields still empty. The fields of each line are the page's (`renderLine`),
 * named `{name}.{index}.{field}`.
 *
 * The form's own submit must come first in the form (FormDefaultSubmit), or
 * Enter in a field would press the first line's Remove.
 */
export const ADD_LINE_INTENT = "add-line";
export const REMOVE_LINE_INTENT = "remove-line-";

export function RepeatableLines<Line>({
  id,
  legend,
  hint,
  lines,
  max,
  lineKey,
  lineLabel,
  renderLine,
  addLabel,
  removeLabel,
  removeLineLabel,
  maxNote,
  errors,
  pending,
}: {
  id: string;
  legend: ReactNode;
  hint?: ReactNode;
  lines: readonly Line[];
  /** The most lines the form takes: at that many, "Add a line" gives way to `maxNote`. */
  max: number;
  lineKey: (line: Line, index: number) => string;
  /** A line's heading: "Line 2". */
  lineLabel: (index: number) => string;
  renderLine: (line: Line, index: number) => ReactNode;
  addLabel: string;
  /** Remove's visible word, and its accessible name ("Remove line 2"). */
  removeLabel: string;
  removeLineLabel: (index: number) => string;
  maxNote: string;
  /** The lines' own message (none given, too many). */
  errors?: readonly string[] | null | undefined;
  /** The form is sending: the buttons do nothing meanwhile. */
  pending?: boolean;
}) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy =
    [hint ? hintId : null, errors?.length ? errorId : null]
      .filter(Boolean)
      .join(" ") || undefined;
  return (
    <fieldset id={id} aria-describedby={describedBy} className="min-w-0">
      <legend className="text-base font-semibold">{legend}</legend>
      {hint ? <Hint id={hintId}>{hint}</Hint> : null}
      <ol className="mt-3 space-y-3">
        {lines.map((line, index) => (
          <li
            key={lineKey(line, index)}
            className="group/line rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900"
          >
            {/* A line's fields as one named group ("Line 2"): a screen reader says which line a field is on. */}
            <div role="group" aria-labelledby={`${id}-${index}-label`}>
              <div className="mb-3 flex items-center justify-between gap-3">
                <p
                  id={`${id}-${index}-label`}
                  className="text-sm font-semibold text-slate-700 dark:text-slate-200"
                >
                  {lineLabel(index)}
                </p>
                {lines.length > 1 ? (
                  <button
                    type="submit"
                    name="intent"
                    value={`${REMOVE_LINE_INTENT}${index}`}
                    formNoValidate
                    aria-label={removeLineLabel(index)}
                    aria-disabled={pending || undefined}
                    onClick={(event) =>
                      pending ? event.preventDefault() : undefined
                    }
                    className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-sm font-medium text-slate-600 hover:bg-red-50 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-brand-500 dark:text-slate-300 dark:hover:bg-red-950 dark:hover:text-red-300"
                  >
                    <X aria-hidden="true" className="size-4" />
                    {removeLabel}
                  </button>
                ) : null}
              </div>
              {renderLine(line, index)}
            </div>
          </li>
        ))}
      </ol>
      <div className="mt-3">
        {lines.length < max ? (
          <button
            type="submit"
            name="intent"
            value={ADD_LINE_INTENT}
            formNoValidate
            aria-disabled={pending || undefined}
            onClick={(event) => (pending ? event.preventDefault() : undefined)}
            className={buttonClass(
              "secondary",
              "w-full border-dashed sm:w-auto",
            )}
          >
            <Plus aria-hidden="true" className="size-4" />
            {addLabel}
          </button>
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {maxNote}
          </p>
        )}
      </div>
      <ErrorList id={errorId} errors={errors} />
    </fieldset>
  );
}

/**
 * The submit that Enter in any field presses: the first submit button of its
 * form (HTML's default button), so it must come before a line's Remove. Out of
 * sight and out of the tab order; the visible button with the same intent is
 * the one people use.
 */
export function FormDefaultSubmit({
  value,
  label,
}: {
  value: string;
  label: string;
}) {
  return (
    <button
      type="submit"
      name="intent"
      value={value}
      tabIndex={-1}
      aria-hidden="true"
      className="sr-only"
    >
      {label}
    </button>
  );
}

/** Which line a remove-line intent names, or null. */
export function removedLine(intent: string): number | null {
  if (!intent.startsWith(REMOVE_LINE_INTENT)) return null;
  const rest = intent.slice(REMOVE_LINE_INTENT.length);
  return /^\d{1,3}$/.test(rest) ? Number(rest) : null;
}
