import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";

/** A workspace detail page's way back to the page above it ("All entities", "Deeptech Fund II"). */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className="inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300">
      <ArrowLeft aria-hidden="true" className="size-4" />
      {children}
    </Link>
  );
}
