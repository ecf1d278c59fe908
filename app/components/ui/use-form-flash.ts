import { useRouteLoaderData } from "react-router";
import type { Theme } from "~/modules/theme/theme";
import type { FormFlash, Toast } from "~/modules/toast/toast";

/** What the root loader (app/root.tsx) gives every page. Components read it through the hooks below, never the route module. */
export type RootData = { theme: Theme; toast: Toast | null; formFlash: FormFlash | null; appUrl: string };

export function useRootData(): RootData | undefined {
  return useRouteLoaderData<RootData>("root");
}

/**
 * The outcome a form's last post left in the flash (a post without JavaScript
 * redirects back with it; decision 006), when it was this form's; `status`
 * narrows it to a success or an error.
 */
export function useFormFlash(formId: string, status?: FormFlash["status"]): FormFlash | null {
  const flash = useRootData()?.formFlash;
  return flash && flash.formId === formId && (status === undefined || flash.status === status) ? flash : null;
}
