import { Landmark, ShieldAlert } from "lucide-react";

/** A line of a fund's payment instructions as the pages show it (payment-instructions.server.ts `paymentInstructionLines`). */
export type PaymentDetailLine = { key: string; label: string; value: string; mono?: boolean | undefined };

/**
 * A fund's bank details as a description list (the admin's payment
 * instructions page, an investor's call notice), each value selectable on
 * its own line, account numbers in a monospace face; `standing` is the
 * firm's line that it never changes bank details by e-mail, set apart under
 * them. With no details, `empty` says what to do instead.
 */
export function PaymentDetails({ lines, empty, standing, testId = "payment-details" }: { lines: readonly PaymentDetailLine[] | null; empty: string; standing?: string; testId?: string }) {
  return (
    <div data-testid={testId}>
      {lines?.length ? (
        <dl className="divide-y divide-slate-200 text-sm dark:divide-slate-800">
          {lines.map((line) => (
            <div key={line.key} className="grid gap-1 py-2.5 sm:grid-cols-[12rem_1fr] sm:gap-4">
              <dt className="text-slate-600 dark:text-slate-300">{line.label}</dt>
              <dd data-field={line.key} className={`font-medium text-slate-900 [overflow-wrap:anywhere] select-all dark:text-slate-100 ${line.mono ? "font-mono tracking-wide" : ""}`}>
                {line.value}
              </dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="flex items-start gap-2 text-sm text-slate-700 dark:text-slate-200">
          <Landmark aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-slate-500 dark:text-slate-400" />
          {empty}
        </p>
      )}
      {standing ? (
        <p className="mt-4 flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2.5 text-sm font-medium text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100">
          <ShieldAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {standing}
        </p>
      ) : null}
    </div>
  );
}
