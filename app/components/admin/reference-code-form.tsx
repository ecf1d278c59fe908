import { useEffect, useState } from "react";
import { useFetcher, useLocation } from "react-router";
import { referenceCodeCopy } from "~/content/admin-workspace";
import { REFERENCE_CODE_MAX } from "~/modules/lp-users/reference-code";
import type { ToastInput } from "~/modules/toast/toast";
import { useFormFlash } from "../ui/use-form-flash";
import { EnhancedForm } from "../ui/enhanced-form";
import { Field, StatusButton } from "../kit/fields";
import { toast } from "../ui/toast-store";

export const SET_REFERENCE_CODE_INTENT = "set-reference-code";

/** Under this id a no-JavaScript post's outcome comes back (form flash). */
export function referenceCodeFormId(userId: string): string {
  return `reference-code-${userId}`;
}

/** What the page's action answers an enhanced post: the toast, and the field's message when refused. */
export type ReferenceCodeOutcome = { status: "success" | "error"; toast: ToastInput | null; fields?: Record<string, string[]> };

/**
 * An investor's reference code, set, changed or removed (empty) in place
 * (the investors table's row menu): a plain post without JavaScript (the
 * outcome comes back as a flash, on the same view of the list, at this form),
 * a fetcher with it (toast, and a row menu holding the form closes; a
 * refusal shows under the field). The field carries its own short hint.
 */
export function ReferenceCodeForm({
  user,
  describedBy,
  action,
}: {
  user: { id: string; referenceCode: string | null };
  /** The id of the investor's name, so the field says whose code it is. */
  describedBy: string;
  action: string;
}) {
  const formId = referenceCodeFormId(user.id);
  const fetcher = useFetcher<ReferenceCodeOutcome>({ key: formId });
  const location = useLocation();
  // The list's view, without an open confirm step or code panel.
  const params = new URLSearchParams(location.search);
  for (const name of ["confirm", "user", "code"]) params.delete(name);
  const search = params.size > 0 ? `?${params.toString()}` : "";
  const flash = useFormFlash(formId, "error");
  // The message shown: the last enhanced answer's, else a no-JavaScript post's; typing clears it.
  const answer = fetcher.data ?? flash;
  const [clearedAnswer, setClearedAnswer] = useState<object | null>(null);
  const busy = fetcher.state !== "idle";

  useEffect(() => {
    if (fetcher.data?.toast) toast(fetcher.data.toast);
    // Saved: the row menu holding the form closes.
    if (fetcher.data?.status === "success") document.getElementById(formId)?.closest("details")?.removeAttribute("open");
  }, [fetcher.data, formId]);

  const answered = fetcher.data ? fetcher.data.fields?.referenceCode : flash?.fieldErrors?.referenceCode;
  const errors = answer && clearedAnswer === answer ? undefined : answered;
  const inputId = `${formId}-input`;
  return (
    <EnhancedForm fetcher={fetcher} action={action} id={formId} className="w-full" onInput={() => setClearedAnswer(answer)}>
      <input type="hidden" name="intent" value={SET_REFERENCE_CODE_INTENT} />
      <input type="hidden" name="userId" value={user.id} />
      {search ? <input type="hidden" name="query" value={search} /> : null}
      <Field
        // A saved code shows as stored (upper case), however it was typed.
        key={user.referenceCode ?? ""}
        id={inputId}
        name="referenceCode"
        label={referenceCodeCopy.label}
        hint={referenceCodeCopy.shortHint}
        errors={errors}
        aria-describedby={describedBy}
        type="text"
        defaultValue={flash?.values?.referenceCode ?? user.referenceCode ?? ""}
        maxLength={REFERENCE_CODE_MAX}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        inputClassName="font-mono uppercase"
        end={
          <StatusButton variant="secondary" pending={busy} pendingLabel={referenceCodeCopy.saving} aria-describedby={describedBy}>
            {referenceCodeCopy.save}
          </StatusButton>
        }
      />
    </EnhancedForm>
  );
}
