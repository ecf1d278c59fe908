import type { ReactNode } from "react";

/**
 * A named part of a workspace page (a pitch's timeline, an entity's members,
 * a fund's ledger): a region headed by an h2 with an optional sentence under
 * it; `boxed` draws it as a card.
 */
export function PageSection({ id, title, intro, boxed = false, children }: { id: string; title: string; intro?: string; boxed?: boolean; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className={boxed ? "rounded-xl border border-slate-200 p-5 dark:border-slate-800" : "mt-8"}>
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        {title}
      </h2>
      {intro ? <p className="mt-1 max-w-3xl text-sm text-slate-600 dark:text-slate-300">{intro}</p> : null}
      <div className="mt-3">{children}</div>
    </section>
  );
}
