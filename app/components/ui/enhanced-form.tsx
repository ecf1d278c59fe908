import type { ComponentProps } from "react";
import type { FetcherWithComponents } from "react-router";
import { ENHANCED_FIELD } from "~/modules/toast/enhanced";
import { useHydrated } from "./use-hydrated";

type FetcherFormProps = ComponentProps<FetcherWithComponents<unknown>["Form"]>;

/**
 * A form that posts natively without JavaScript and through `fetcher` once
 * React runs. Hydrated, it adds the hidden `_enhanced=1` (the action then
 * answers data instead of redirecting) and leaves validation to the page's
 * own messages instead of the browser's bubbles.
 */
export function EnhancedForm<T>({
  fetcher,
  children,
  method = "post",
  ...props
}: { fetcher: FetcherWithComponents<T> } & Omit<FetcherFormProps, "method"> & { method?: "post" | "get" }) {
  const hydrated = useHydrated();
  return (
    <fetcher.Form method={method} noValidate={hydrated} {...props}>
      {hydrated ? <input type="hidden" name={ENHANCED_FIELD} value="1" /> : null}
      {children}
    </fetcher.Form>
  );
}
