export const toastVariantClass = {
  default:
    "border-slate-200 bg-white text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100",
  destructive: "border-red-700 bg-red-700 text-white dark:border-red-500 dark:bg-red-800",
} as const;

export const toastBaseClass =
  "pointer-events-auto relative flex w-full items-start justify-between gap-3 overflow-hidden rounded-lg border p-4 pr-10 shadow-lg";
