import { useEffect } from "react";
import { useActionData, useFetcher } from "react-router";
import { toast } from "~/components/ui/toast-store";
import type { FieldErrors } from "~/modules/http/app-error";
import type { ToastInput } from "~/modules/toast/toast";

/** What a page's intent form gets back (enhanced), or the page renders after a refused plain post. */
export type IntentAnswer = {
  status: "success" | "error";
  toast: ToastInput | null;
  intent?: string;
  /** Which of several forms of one intent was posted (e.g. a row's id). */
  formKey?: string;
  fields?: FieldErrors;
  values?: Record<string, string>;
};

/**
 * One intent form of a workspace page: its fetcher (keyed, so a row's form keeps
 * its own state), the answer that belongs to it (the fetcher's, or without
 * JavaScript the refused post's answer the page renders), its field errors and
 * what was typed, and the enhanced answer's toast.
 */
export function useIntentForm<Answer extends IntentAnswer>(intent: string, formKey?: string) {
  const fetcher = useFetcher<Answer>({ key: `${intent}${formKey ? `-${formKey}` : ""}` });
  const actionData = useActionData<Answer>();
  const mine = actionData?.intent === intent && (formKey === undefined || actionData.formKey === formKey);
  const answer = fetcher.data ?? (mine ? actionData : undefined);
  useEffect(() => {
    if (fetcher.data?.toast) toast(fetcher.data.toast);
  }, [fetcher.data]);
  const failed = answer?.status === "error";
  return { fetcher, answer, errors: failed ? answer.fields : undefined, typed: failed ? answer.values : undefined, busy: fetcher.state !== "idle" };
}
