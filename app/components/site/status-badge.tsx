import type { FundStatus } from "~/content/funds";

const styles: Record<FundStatus, string> = {
  Active:
    "border-emerald-300 bg-emerald-50 text-emerald-800 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-200",
  Closed: "border-slate-300 bg-slate-100 text-slate-700 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-200",
};

/** A fund's status ('Closed' or 'Active') as a badge. */
export function StatusBadge({ status, className = "" }: { status: FundStatus; className?: string }) {
  return (
    <span
      className={`inline-flex items-center gap-1.5 rounded-full border px-3 py-0.5 text-sm font-semibold ${styles[status]} ${className}`}
    >
      <span
        aria-hidden="true"
        className={`size-2 rounded-full ${status === "Active" ? "bg-emerald-600 dark:bg-emerald-400" : "bg-slate-500 dark:bg-slate-400"}`}
      />
      {status}
    </span>
  );
}
