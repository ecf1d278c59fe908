import { X } from "lucide-react";
import { Toast as RadixToast } from "radix-ui";
import { useEffect, useRef } from "react";
import { dismissToast, TOAST_DURATION_MS, useToasts } from "./toast-store";
import { toastBaseClass, toastVariantClass } from "./toast-styles";

/**
 * Radix Toast: one at a time, 5 s, F8 focuses the region, swipe right to
 * dismiss. Loaded on demand (first toast or first F8), so pages that never
 * show a notification do not download it.
 */
export default function RadixToaster({ focusOnMount = false }: { focusOnMount?: boolean }) {
  const toasts = useToasts();
  const viewportRef = useRef<HTMLOListElement>(null);

  useEffect(() => {
    if (focusOnMount) viewportRef.current?.focus();
  }, [focusOnMount]);

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
          className={`${toastBaseClass} ${toastVariantClass[t.variant]} data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=cancel]:translate-x-0 data-[state=closed]:hidden`}
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
        ref={viewportRef}
        label="Notifications ({hotkey})"
        className="fixed top-0 z-[100] flex max-h-screen w-full flex-col-reverse p-4 outline-none sm:top-auto sm:right-0 sm:bottom-0 sm:max-w-[420px] sm:flex-col"
      />
    </RadixToast.Provider>
  );
}
