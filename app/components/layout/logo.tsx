import { Link } from "react-router";
import { firm } from "~/content/firm";

/** The firm's mark and name; `nameFrom="sm"` shows the name from the sm width only (read by screen readers always). */
export function Logo({ className = "", nameFrom }: { className?: string; nameFrom?: "sm" }) {
  return (
    <Link to="/" className={`inline-flex items-center gap-2 font-semibold tracking-tight ${className}`}>
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-8 shrink-0">
        <rect width="32" height="32" rx="8" className="fill-brand-600 dark:fill-brand-400" />
        <path d="M7 22 L14 10 L18 17 L21 13 L25 22 Z" className="fill-white dark:fill-slate-950" />
      </svg>
      <span className={nameFrom === "sm" ? "sr-only text-lg sm:not-sr-only" : "text-lg"}>{firm.name}</span>
    </Link>
  );
}
