import { ShieldCheck } from "lucide-react";
import type { ReactNode } from "react";
import { kitCopy } from "~/content/kit";
import { CODE_MAX } from "~/modules/two-factor/constants";
import { Field } from "./fields";

/**
 * The fresh two-factor code a sensitive change asks for, typed in the same
 * form as the change (a fund's bank details): a labelled field for the
 * authenticator's 6-digit code, with the one-time-code autocomplete (a
 * phone offers the code), the numeric keypad and a hint. The value is never
 * shown again: a refused form comes back with the field empty and its
 * message. The server checks it (verifySecondFactor: a step later than the
 * last one accepted, rate limited), so a code never works twice.
 */
export function FreshCodeField({
  id,
  name = "code",
  errors,
  label = kitCopy.freshCode.label,
  hint = kitCopy.freshCode.hint,
  className,
}: {
  id: string;
  name?: string;
  errors?: readonly string[] | null | undefined;
  label?: ReactNode;
  hint?: ReactNode;
  className?: string;
}) {
  return (
    <Field
      id={id}
      name={name}
      className={className}
      label={
        <span className="inline-flex items-center gap-1.5">
          <ShieldCheck aria-hidden="true" className="size-4 text-brand-700 dark:text-brand-300" />
          {label}
        </span>
      }
      hint={hint}
      errors={errors}
      type="text"
      inputMode="numeric"
      autoComplete="one-time-code"
      autoCapitalize="none"
      autoCorrect="off"
      spellCheck={false}
      required
      maxLength={CODE_MAX}
      defaultValue=""
      inputClassName="max-w-48 font-mono tracking-[0.3em]"
    />
  );
}
