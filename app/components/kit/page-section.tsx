import type { ReactNode } from "react";

/**
 * A named part of a workspace page (a pitch's timeline, an entity's members,
 * a fund's ledger): a region headed by an h2 with an optional sentence under
 * it, and the section's own actions beside the heading; `boxed` draws it as a card.
 */
export function PageSection({
  id,
  title,
  intro,
  boxed = false,
  actions,
  children,
}: {
  id: string;
  title: string;
  intro?: string | undefined;
  boxed?: boolean;
  /** Links or buttons beside the heading (a section's "New …", "Import …"). */
  actions?: ReactNode;
  children: ReactNode;
}) {
  const heading = (
    <h2 id={`${id}-title`} className="text-lg font-semibold">
      {title}
    </h2>
  );
  return (
    <section id={id} aria-labelledby={`${id}-title`} className={boxed ? "rounded-xl border border-slate-200 p-5 dark:border-slate-800" : "mt-8"}>
      {actions ? (
        <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
          {heading}
          <div className="flex flex-wrap items-center gap-2">{actions}</div>
        </div>
      ) : (
        heading
      )}
      {intro ? <p className="mt-1 max-w-3xl text-sm text-slate-600 dark:text-slate-300">{intro}</p> : null}
      <div className="mt-3">{children}</div>
    </section>
  );
}
