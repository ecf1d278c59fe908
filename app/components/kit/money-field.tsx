import type { ComponentProps } from "react";
import { Field } from "./fields";

type MoneyFieldProps = Omit<ComponentProps<typeof Field>, "type" | "end" | "endClassName" | "inputMode"> & {
  /** The ISO 4217 code the amount is in ("USD"): shown in the field, and read with it. */
  currency: string;
};

/**
 * An amount of money (issue 24 §9: the kit's money field): a text field for a
 * decimal such as 250000.00 (never a number input, which rounds and localises),
 * the currency's code inside it on the right, and the code read with the field
 * (aria-describedby). The value posts as typed; the server parses it
 * (modules/capital/money.ts), so a comma or a letter is refused with a message.
 */
export function MoneyField({ currency, inputClassName = "", ...props }: MoneyFieldProps) {
  const id = props.id ?? props.name ?? "amount";
  const currencyId = `${id}-currency`;
  return (
    <Field
      {...props}
      id={id}
      type="text"
      inputMode="decimal"
      autoComplete="off"
      spellCheck={false}
      aria-describedby={[currencyId, props["aria-describedby"]].filter(Boolean).join(" ")}
      inputClassName={`pr-14 tabular-nums ${inputClassName}`}
      endClassName="relative"
      end={
        <span id={currencyId} className="pointer-events-none absolute inset-y-0 right-0 flex items-center pr-3 text-xs font-semibold tracking-wide text-slate-500 dark:text-slate-400">
          {currency}
        </span>
      }
    />
  );
}
