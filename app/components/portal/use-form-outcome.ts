import { useEffect } from "react";
import { useFetcher, useNavigate } from "react-router";
import { toast } from "../ui/toast-store";
import type { FormOutcome } from "./outcome";

/**
 * The fetcher of a portal form that may move on to another page: its outcome
 * (the fetcher's answer with JavaScript, the page's action data without), its
 * toast shown, and the navigation to `redirectTo` after a success, `delayMs`
 * later. It navigates only once the fetcher is idle: a navigation started
 * while React Router still revalidates after the action can be lost.
 */
export function useFormOutcome(formId: string, serverOutcome: FormOutcome | undefined, delayMs = 0) {
  const fetcher = useFetcher<FormOutcome>({ key: formId });
  const navigate = useNavigate();

  useEffect(() => {
    if (fetcher.data?.toast) toast(fetcher.data.toast);
  }, [fetcher.data]);

  const to = fetcher.state === "idle" && fetcher.data?.status === "success" ? fetcher.data.redirectTo : undefined;
  useEffect(() => {
    if (!to) return;
    const timer = setTimeout(() => void navigate(to), delayMs);
    return () => clearTimeout(timer);
  }, [to, navigate, delayMs]);

  return { fetcher, outcome: fetcher.data ?? serverOutcome };
}
