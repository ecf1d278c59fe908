import type { SubmissionResult } from "@conform-to/react";
import type { FormEvent, ReactNode } from "react";
import type { FetcherWithComponents } from "react-router";
import { EnhancedForm } from "../ui/enhanced-form";
import type { FormOutcome } from "./outcome";

/**
 * The form of an account card (sign-in, registration, forgotten password):
 * posted through its fetcher with JavaScript, checked field by field by
 * useAccountFieldErrors (`checks`), a plain post without.
 */
export function AccountForm({
  fetcher,
  id,
  action,
  checks,
  children,
}: {
  fetcher: FetcherWithComponents<FormOutcome>;
  id: string;
  action: string;
  checks: { onSubmit: (event: FormEvent<HTMLFormElement>) => void; onInput: (event: FormEvent<HTMLFormElement>) => void };
  children: ReactNode;
}) {
  return (
    <EnhancedForm fetcher={fetcher} id={id} action={action} onSubmit={checks.onSubmit} onInput={checks.onInput} className="mt-6 space-y-4">
      {children}
    </EnhancedForm>
  );
}

/** What was typed into `name` before a refused post (the Conform answer's initial value), or "". */
export function typedValue(result: SubmissionResult<string[]> | undefined, name: string): string {
  const values = (result?.status === "error" ? result.initialValue : null) ?? {};
  const value = values[name];
  return typeof value === "string" ? value : "";
}
