import type { SubmissionResult } from "@conform-to/react";
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

/**
 * A form's flash outcome as the Conform result its page renders (field errors
 * in place, the message as the form's error, the typed values kept), or
 * undefined when the flash is not this form's or not an error.
 */
export function flashResult(flash: FormFlash | null): SubmissionResult<string[]> | undefined {
  if (!flash || flash.status !== "error") return undefined;
  return {
    status: "error",
    initialValue: flash.values ?? null,
    error: { ...flash.fieldErrors, ...(flash.message ? { "": [flash.message] } : {}) },
  };
}

/** The Conform result the last post without JavaScript left for `formId` (see flashResult). */
export function useFlashResult(formId: string): SubmissionResult<string[]> | undefined {
  return flashResult(useFormFlash(formId));
}
