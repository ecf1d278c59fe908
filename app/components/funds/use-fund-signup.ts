import { useEffect } from "react";
import { useFetcher } from "react-router";
import type { FormOutcome } from "../portal/outcome";
import { flashOutcome } from "../portal/use-form-outcome";
import { useFormFlash } from "../ui/use-form-flash";
import { toast } from "../ui/toast-store";
import { useFieldErrors, type FieldMessages } from "../ui/use-field-errors";

/**
 * The state both fund sign-up forms share (docs/decisions/006): a keyed
 * fetcher posting to the route's action, the answer's toast, and field errors
 * from the browser's constraint checks (worded like the server) or from the
 * server. Without JavaScript the action redirects back with the outcome in
 * the flash (`serverOutcome`: an answer the page was given to render).
 */
export function useFundSignup(formId: string, messages: FieldMessages, serverOutcome: FormOutcome | undefined) {
  const fetcher = useFetcher<FormOutcome>({ key: formId });
  const flashed = flashOutcome(useFormFlash(formId));
  const outcome = fetcher.data ?? serverOutcome ?? flashed;
  const result = outcome?.result;
  const { onSubmit, onInput, errorsFor } = useFieldErrors(messages, result?.error ?? undefined);

  useEffect(() => {
    if (fetcher.data?.toast) toast(fetcher.data.toast);
  }, [fetcher.data]);

  const values = (result?.status === "error" ? result.initialValue : null) ?? {};
  const initial = (name: string) => (typeof values[name] === "string" ? values[name] : "");

  return {
    fetcher,
    outcome,
    onSubmit,
    onInput,
    errorsFor,
    initial,
    formError: result?.error?.[""]?.[0],
    /** Sending, or reloading the page data after the answer. */
    busy: fetcher.state !== "idle",
  };
}
