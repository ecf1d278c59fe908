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
