import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import { errorCopy } from "~/content/errors";
import { firm } from "~/content/firm";
import { notFoundNotice } from "~/modules/http/not-found";
import { errorText } from "./page-frame";

/**
 * A workspace page that could not be shown, inside the workspace's frame (the layout
 * loaded, its page threw): a missing record's notice (a thrown 404: its title, sentence
 * and the way back to its list), or what went wrong otherwise, with the way home.
 */
export function WorkspaceErrorNotice({ error, home }: { error: unknown; home: { to: string; label: string } }) {
  const notice = notFoundNotice(error);
  const fallback = notice ? errorCopy.recordNotFound : errorText(error);
  const title = notice?.title ?? fallback.title;
  const back = notice?.back ?? home;
  return (
    <div data-testid="workspace-error">
      <title>{`${title} | ${firm.name}`}</title>
      <Link to={back.to} className="inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300">
        <ArrowLeft aria-hidden="true" className="size-4" />
        {back.label}
      </Link>
      <h1 className="mt-6 text-3xl font-bold tracking-tight">{title}</h1>
      <p role="status" className="mt-4 rounded-md border border-slate-300 px-4 py-6 text-slate-700 dark:border-slate-700 dark:text-slate-200">
        {notice?.message ?? fallback.message}
      </p>
    </div>
  );
}
