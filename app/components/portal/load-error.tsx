import { TriangleAlert } from "lucide-react";
import { Link } from "react-router";
import { portalCopy } from "~/content/portal";
import { buttonClass } from "../ui/form";

/** What a portal page shows when the signed-in user cannot be loaded (SPEC.md §8). */
export function UserLoadError({ loginPath = "/lp/login" }: { loginPath?: string }) {
  return (
    <div className="mx-auto max-w-2xl px-4 py-16 sm:px-6">
      <div
        role="alert"
        className="flex items-start gap-3 rounded-xl border border-red-300 bg-red-50 p-6 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
      >
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
        <p className="font-medium">{portalCopy.loadUserError}</p>
      </div>
      <Link to={loginPath} reloadDocument className={buttonClass("secondary", "mt-6")}>
        {portalCopy.signInAgain}
      </Link>
    </div>
  );
}
