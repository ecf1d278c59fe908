import { Search } from "lucide-react";
import { useState, type ReactNode } from "react";
import { audienceCopy } from "~/content/documents";
import { CheckboxField, ErrorList, Field, fieldAria } from "../kit/fields";

/** An approved investor in the picker (recipients.server.ts `RecipientChoice`). */
export type AudienceChoice = { id: string; name: string; email: string; referenceCode: string | null; checked: boolean; approved: boolean };

export type AudienceState = {
  audience: "all" | "selected";
  watermark: boolean;
  /** The picker's search text. */
  query: string;
  choices: AudienceChoice[];
  more: boolean;
};

/** The GET parameter of the picker's search, and the marker that a search (not a post) brought the page. */
export const INVESTOR_QUERY_PARAM = "investors";
export const SEARCH_MARKER = "_search";

const choiceRow =
  "flex items-start gap-3 rounded-md px-2 py-1.5 hover:bg-slate-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-600 dark:hover:bg-slate-800";

/**
 * The picker is out of sight while 'All approved investors' is chosen: a CSS
 * rule on the form (`:has`), so it shows and hides without a script too; a
 * browser without `:has` shows it always. Its ticks are sent either way, as
 * before (with JavaScript and without alike); the audience decides.
 */
const pickerHiddenForAll = "[form:has(input[name=audience][value=all]:checked)_&]:hidden";

/**
 * 'Who can see it' (issue 15): all approved investors, or the ticked ones,
 * and the watermark switch. The investor search is a submit button sending
 * the whole form by GET to `searchAction`, so it works without JavaScript and
 * keeps what was typed and ticked (the loader fills them back in); the file
 * of an upload has to be chosen again after a search. `allNote` is said under
 * the 'all' choice only (where it is true), e.g. the upload's SPEC note that
 * documents are available at once. `watermarkUnavailable` (the server cannot
 * stamp: qpdf missing) shows the switch disabled and off, with that line,
 * what to install, as its hint; a disabled box is not sent.
 */
export function AudienceFields({
  formId,
  state,
  searchAction,
  errorsFor,
  allNote,
  watermarkUnavailable,
}: {
  formId: string;
  state: AudienceState;
  searchAction: string;
  errorsFor: (name: string) => string[] | undefined;
  allNote?: ReactNode;
  watermarkUnavailable?: string | undefined;
}) {
  const c = audienceCopy;
  const [audience, setAudience] = useState(state.audience);
  const [ticked, setTicked] = useState(() => state.choices.filter((x) => x.checked).length);
  const id = (name: string) => `${formId}-${name}`;
  const recipientErrors = errorsFor("recipientIds");
  const watermarkErrors = errorsFor("watermark");
  // The picker is a group: its message is tied to the fieldset.
  const recipients = fieldAria({ id: id("recipientIds"), errors: recipientErrors });
  return (
    <>
      <fieldset className="sm:col-span-2">
        <legend className="text-sm font-medium">{c.legend}</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {(["all", "selected"] as const).map((value) => (
            <label key={value} className="flex items-start gap-3 rounded-lg border border-slate-300 p-3 dark:border-slate-600">
              <input
                type="radio"
                name="audience"
                value={value}
                defaultChecked={state.audience === value}
                onChange={() => setAudience(value)}
                aria-describedby={id(`audience-${value}-hint`)}
                className="mt-1 size-4 accent-brand-600"
              />
              <span>
                <span className="block text-sm font-semibold">{value === "all" ? c.all : c.selected}</span>
                <span id={id(`audience-${value}-hint`)} className="block text-xs text-slate-600 dark:text-slate-300">
                  {value === "all" ? c.allHint : c.selectedHint}
                  {value === "all" && allNote ? <span className="mt-1 block">{allNote}</span> : null}
                </span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>

      <fieldset
        className={`sm:col-span-2 ${pickerHiddenForAll}`}
        data-testid="audience-picker"
        aria-describedby={recipients.control["aria-describedby"]}
        aria-invalid={recipients.control["aria-invalid"]}
      >
        <legend className="text-sm font-medium">
          {c.pickerLegend}{" "}
          <span className="font-normal text-slate-600 dark:text-slate-300" aria-live="polite">
            ({c.chosen(ticked)})
          </span>
        </legend>
        <Field
          id={id("investor-search")}
          name={INVESTOR_QUERY_PARAM}
          label={c.searchLabel}
          hint={c.searchHint}
          className="mt-2"
          type="search"
          defaultValue={state.query}
          maxLength={100}
          autoComplete="off"
          end={
            <button
              type="submit"
              name={SEARCH_MARKER}
              value="1"
              formMethod="get"
              formAction={searchAction}
              formNoValidate
              className="inline-flex shrink-0 items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-semibold text-slate-900 shadow-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
            >
              <Search aria-hidden="true" className="size-4" />
              {c.searchButton}
            </button>
          }
        />
        {state.choices.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{c.noMatches}</p>
        ) : (
          <ul
            className="mt-2 max-h-72 overflow-y-auto rounded-md border border-slate-200 p-1 dark:border-slate-700"
            data-audience={audience}
          >
            {state.choices.map((choice) => (
              <li key={choice.id}>
                <label className={choiceRow}>
                  <input
                    type="checkbox"
                    name="recipientIds"
                    value={choice.id}
                    defaultChecked={choice.checked}
                    onChange={(e) => setTicked((n) => n + (e.currentTarget.checked ? 1 : -1))}
                    className="mt-1 size-4 accent-brand-600"
                  />
                  <span className="min-w-0 text-sm">
                    <span className="font-medium">{choice.name}</span>
                    {choice.referenceCode ? (
                      <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-800 dark:bg-slate-800 dark:text-slate-100">
                        {choice.referenceCode}
                      </span>
                    ) : null}
                    {choice.approved ? null : (
                      <span className="ml-2 rounded bg-amber-50 px-1.5 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-950 dark:text-amber-100">
                        {c.notApproved}
                      </span>
                    )}
                    <span className="block break-all text-slate-600 dark:text-slate-300">{choice.email}</span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        )}
        {state.more ? <p className="mt-1 text-xs text-slate-600 dark:text-slate-300">{c.more(state.choices.filter((x) => !x.checked).length)}</p> : null}
        <ErrorList id={recipients.errorId} errors={recipientErrors} />
      </fieldset>

      <CheckboxField
        id={id("watermark")}
        name="watermark"
        className="sm:col-span-2"
        label={audienceCopy.watermark}
        hint={watermarkUnavailable ?? audienceCopy.watermarkHint}
        errors={watermarkErrors}
        defaultChecked={watermarkUnavailable ? false : state.watermark}
        disabled={watermarkUnavailable ? true : undefined}
      />
    </>
  );
}
