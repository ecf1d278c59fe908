import { X } from "lucide-react";
import { Toast as RadixToast } from "radix-ui";
import { useEffect } from "react";
import type { Toast } from "~/modules/toast/toast";
import { dismissToast, toast, TOAST_DURATION_MS, useToasts } from "./toast-store";
import { useHydrated } from "./use-hydrated";

const variantClass = {
  default:
    "border-slate-200 bg-white text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100",
  destructive: "border-red-700 bg-red-700 text-white dark:border-red-500 dark:bg-red-800",
} as const;

const baseClass =
  "pointer-events-auto relative flex w-full items-start justify-between gap-3 overflow-hidden rounded-lg border p-4 pr-10 shadow-lg";

/**
 * Toasts: Radix Toast once JavaScript runs (one at a time, 5 s, F8 to focus,
 * swipe right to dismiss). Before that, and without JavaScript, a server
 * message (flash) renders as a plain live region so the result still shows.
 */
export function Toaster({ serverToast }: { serverToast: Toast | null }) {
  const hydrated = useHydrated();
  const toasts = useToasts();

  useEffect(() => {
    if (serverToast) toast(serverToast);
  }, [serverToast]);

  if (!hydrated) {
    return (
      <div className="fixed top-0 z-[100] flex w-full flex-col p-4 sm:top-auto sm:right-0 sm:bottom-0 sm:max-w-[420px]">
        {serverToast ? (
          <div
            role={serverToast.variant === "destructive" ? "alert" : "status"}
            className={`${baseClass} ${variantClass[serverToast.variant]}`}
            data-testid="toast"
          >
            <div className="grid gap-1">
              <div className="text-sm font-semibold">{serverToast.title}</div>
              {serverToast.description ? <div className="text-sm opacity-90">{serverToast.description}</div> : null}
            </div>
          </div>
        ) : null}
      </div>
    );
  }

  return (
    <RadixToast.Provider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={50}>
      {toasts.map((t) => (
        <RadixToast.Root
          key={t.id}
          open={t.open}
          duration={t.duration}
          type={t.variant === "destructive" ? "foreground" : "background"}
          onOpenChange={(open) => {
            if (!open) dismissToast(t.id);
          }}
          className={`${baseClass} ${variantClass[t.variant]} data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=cancel]:translate-x-0 data-[state=closed]:hidden`}
          data-testid="toast"
        >
          <div className="grid gap-1">
            <RadixToast.Title className="text-sm font-semibold">{t.title}</RadixToast.Title>
            {t.description ? (
              <RadixToast.Description className="text-sm opacity-90">{t.description}</RadixToast.Description>
            ) : null}
          </div>
          <RadixToast.Close
            aria-label="Close"
            className="absolute top-2 right-2 rounded-md p-1 opacity-70 hover:opacity-100"
          >
            <X aria-hidden="true" className="size-4" />
          </RadixToast.Close>
        </RadixToast.Root>
      ))}
      <RadixToast.Viewport
        label="Notifications ({hotkey})"
        className="fixed top-0 z-[100] flex max-h-screen w-full flex-col-reverse p-4 outline-none sm:top-auto sm:right-0 sm:bottom-0 sm:flex-col sm:max-w-[420px]"
      />
    </RadixToast.Provider>
  );
}
