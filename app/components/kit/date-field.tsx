import type { ComponentProps } from "react";
import { Field } from "./fields";

type DateFieldProps = Omit<ComponentProps<typeof Field>, "type" | "min" | "max"> & {
  /** The earliest and latest calendar days the picker offers (YYYY-MM-DD). */
  min?: string | undefined;
  max?: string | undefined;
};

/**
 * A calendar date (issue 24 §9: the kit's date field): the browser's date
 * control, which posts YYYY-MM-DD with or without JavaScript, sized for a
 * date rather than the row. The day means a calendar day, never an instant:
 * the server decides "today" in the firm's zone.
 */
export function DateField({ className = "", inputClassName = "", ...props }: DateFieldProps) {
  return <Field {...props} type="date" className={className} inputClassName={`tabular-nums sm:max-w-48 ${inputClassName}`} />;
}
