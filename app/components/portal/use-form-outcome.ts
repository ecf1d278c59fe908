import { useEffect } from "react";
import { useFetcher, useNavigate } from "react-router";
import type { FormFlash } from "~/modules/toast/toast";
import { toast } from "../ui/toast-store";
import { flashResult, useFormFlash } from "../ui/use-form-flash";
import { CONFIRMATION_REQUIRED_FLAG, type FormOutcome } from "./outcome";

/** A portal form's outcome from the flash a post without JavaScript left (its toast is the Toaster's). */
export function flashOutcome(flash: FormFlash | null): FormOutcome | undefined {
  const result = flashResult(flash);
  if (!flash || !result) return undefined;
  return { status: "error", toast: null, result, confirmationRequired: flash.flags?.includes(CONFIRMATION_REQUIRED_FLAG) || undefined };
}

/**
 * The fetcher of a portal form that may move on to another page: its outcome
 * (the fetcher's answer with JavaScript; without it the page's action data, or
 * the flash the action's redirect left for `formId`), its toast shown, and the
 * navigation to `redirectTo` after a success, `delayMs` later. It navigates
 * only once the fetcher is idle: a navigation started while React Router
 * still revalidates after the action can be lost.
 */
export function useFormOutcome(formId: string, serverOutcome: FormOutcome | undefined, delayMs = 0) {
  const fetcher = useFetcher<FormOutcome>({ key: formId });
  const navigate = useNavigate();
  const flashed = flashOutcome(useFormFlash(formId));

  useEffect(() => {
    if (fetcher.data?.toast) toast(fetcher.data.toast);
  }, [fetcher.data]);

  const to = fetcher.state === "idle" && fetcher.data?.status === "success" ? fetcher.data.redirectTo : undefined;
  useEffect(() => {
    if (!to) return;
    const timer = setTimeout(() => void navigate(to), delayMs);
    return () => clearTimeout(timer);
  }, [to, navigate, delayMs]);

  return { fetcher, outcome: fetcher.data ?? serverOutcome ?? flashed };
}
