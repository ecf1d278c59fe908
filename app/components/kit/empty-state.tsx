import { TriangleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { buttonClass } from "../ui/form";

/**
 * A list with nothing in it (DESIGN.md §2): one sentence, and the next thing
 * to do when there is one ('No fund documents yet.' — Upload).
 */
export function EmptyState({
  children,
  action,
  testId = "empty-state",
}: {
  children: ReactNode;
  action?: { to: string; label: string };
  testId?: string;
}) {
  return (
    <div
      role="status"
      data-testid={testId}
      className="mt-4 flex flex-col items-center gap-3 rounded-lg border border-dashed border-slate-300 px-4 py-8 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300"
    >
      <p>{children}</p>
      {action ? (
        <Link to={action.to} className={buttonClass("secondary")}>
          {action.label}
        </Link>
      ) : null}
    </div>
  );
}

/** A list or page that could not be read: what failed and what to do (refresh), in red, announced. */
export function LoadFailed({ title, description, className = "mt-4" }: { title: string; description: string; className?: string }) {
  return (
    <div
      role="alert"
      className={`${className} flex items-start gap-3 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200`}
    >
      <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <div>
        <p className="font-semibold">{title}</p>
        <p>{description}</p>
      </div>
    </div>
  );
}
