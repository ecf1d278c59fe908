import { X } from "lucide-react";
import { lazy, Suspense, useEffect, useState } from "react";
import type { Toast } from "~/modules/toast/toast";
import { toast, useToasts } from "./toast-store";
import { toastBaseClass, toastVariantClass } from "./toast-styles";
import { useHydrated } from "./use-hydrated";

const RadixToaster = lazy(() => import("./radix-toaster"));

/**
 * Notifications. Without JavaScript (and until hydration) a server message
 * (flash) renders as a plain live region, so results still show. Once React
 * runs, Radix Toast takes over; it is loaded on the first toast or F8 press.
 */
export function Toaster({ serverToast }: { serverToast: Toast | null }) {
  const hydrated = useHydrated();
  const toasts = useToasts();
  const [f8Pressed, setF8Pressed] = useState(false);

  useEffect(() => {
    if (serverToast) toast(serverToast);
  }, [serverToast]);

  useEffect(() => {
    if (f8Pressed) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "F8") setF8Pressed(true);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [f8Pressed]);

  if (!hydrated) return <StaticToast toast={serverToast} />;

  if (toasts.length === 0 && !f8Pressed) return null;
  return (
    <Suspense fallback={<StaticToast toast={toasts.find((t) => t.open) ?? null} />}>
      <RadixToaster focusOnMount={f8Pressed && toasts.length === 0} />
    </Suspense>
  );
}

/**
 * A toast as plain markup: the no-JavaScript notification, and the placeholder
 * while Radix loads. Its close control is a <details> summary, so it closes
 * without JavaScript too. It sits below the header on small screens and never
 * blocks clicks outside itself.
 */
export function StaticToast({ toast: current, announce = true }: { toast: Toast | null; announce?: boolean }) {
  if (!current) return null;
  const role = !announce ? undefined : current.variant === "destructive" ? "alert" : "status";
  return (
    <div className="pointer-events-none fixed top-[7.5rem] z-[100] flex w-full flex-col p-4 sm:top-auto sm:right-0 sm:bottom-0 sm:max-w-[420px]">
      <details open className="static-toast pointer-events-auto" aria-hidden={announce ? undefined : true}>
        <summary
          aria-label="Close"
          className="absolute top-2 right-2 z-10 cursor-pointer list-none rounded-md p-1 opacity-70 hover:opacity-100 [&::-webkit-details-marker]:hidden"
        >
          <X aria-hidden="true" className="size-4" />
        </summary>
        <div role={role} className={`${toastBaseClass} ${toastVariantClass[current.variant]}`} data-testid="toast">
          <div className="grid gap-1">
            <div className="text-sm font-semibold">{current.title}</div>
            {current.description ? <div className="text-sm opacity-90">{current.description}</div> : null}
          </div>
        </div>
      </details>
    </div>
  );
}
