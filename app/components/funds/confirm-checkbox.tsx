import { FieldError } from "../ui/form";

/**
 * A required confirmation checkbox with its label beside it and its error
 * (role=alert) tied to it with aria-describedby.
 */
export function ConfirmCheckbox({
  formId,
  name,
  label,
  defaultChecked,
  errors,
}: {
  formId: string;
  name: string;
  label: string;
  defaultChecked: boolean;
  errors: string[] | undefined;
}) {
  const id = `${formId}-${name}`;
  const errorId = `${id}-error`;
  return (
    <div>
      <div className="flex items-start gap-3">
        <input
          id={id}
          name={name}
          type="checkbox"
          value="true"
          required
          defaultChecked={defaultChecked}
          aria-invalid={errors?.length ? true : undefined}
          aria-describedby={errors?.length ? errorId : undefined}
          className="mt-0.5 size-4 shrink-0 rounded border-slate-300 accent-brand-700 dark:border-slate-600 dark:accent-brand-300"
        />
        <label htmlFor={id} className="text-sm leading-5 text-slate-700 dark:text-slate-300">
          {label}
        </label>
      </div>
      <FieldError id={errorId} errors={errors} />
    </div>
  );
}
