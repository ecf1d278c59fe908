import type { ComponentProps, ReactNode } from "react";

export const inputClass =
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-brand-500 focus:outline-2 focus:outline-brand-500 aria-[invalid=true]:border-red-600 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:placeholder:text-slate-400";

export function Label({ className = "", ...props }: ComponentProps<"label">) {
  return <label className={`mb-1 block text-sm font-medium ${className}`} {...props} />;
}

const buttonVariants = {
  primary:
    "bg-brand-700 text-white hover:bg-brand-800 disabled:bg-brand-700/70 dark:bg-brand-300 dark:text-slate-950 dark:hover:bg-brand-200",
  secondary:
    "border border-slate-300 bg-white text-slate-900 hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800",
  /** Reject, revoke, delete: a change that takes something away. */
  danger:
    "border border-red-300 bg-white text-red-800 hover:bg-red-50 disabled:opacity-70 aria-disabled:cursor-not-allowed aria-disabled:opacity-70 dark:border-red-800 dark:bg-slate-900 dark:text-red-200 dark:hover:bg-red-950",
} as const;

export type ButtonVariant = keyof typeof buttonVariants;

export function buttonClass(variant: ButtonVariant = "primary", extra = "") {
  return `inline-flex items-center justify-center gap-2 rounded-md px-4 py-2 text-sm font-semibold shadow-sm transition-colors disabled:cursor-not-allowed ${buttonVariants[variant]} ${extra}`;
}

export function Button({
  variant = "primary",
  className = "",
  ...props
}: ComponentProps<"button"> & { variant?: ButtonVariant }) {
  return <button className={buttonClass(variant, className)} {...props} />;
}

export function Card({ children, className = "" }: { children: ReactNode; className?: string }) {
  return (
    <div
      className={`rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900 ${className}`}
    >
      {children}
    </div>
  );
}
