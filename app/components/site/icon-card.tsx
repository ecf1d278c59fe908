import type { ReactNode } from "react";

/**
 * The pieces the site's content pages (the fund overview, the investment
 * focus) are built of: the page's title and intro, a section's title, and a
 * card of a grid with an icon, a heading and its text.
 */

/** The page's column: its title and intro, then its sections (`children`). */
export function ContentPage({ title, intro, children }: { title: string; intro: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
      <h1 className="text-4xl font-bold tracking-tight">{title}</h1>
      <p className="mt-4 max-w-3xl text-lg text-slate-600 dark:text-slate-300">{intro}</p>
      {children}
    </div>
  );
}

/** A section's title; `srOnly` for a section whose cards speak for themselves (the title is for screen readers). */
export function SectionTitle({ id, srOnly = false, children }: { id: string; srOnly?: boolean; children: ReactNode }) {
  return (
    <h2 id={id} className={srOnly ? "sr-only" : "text-3xl font-bold tracking-tight"}>
      {children}
    </h2>
  );
}

/** A card (a list item): `icon` as given, the heading (`headingClassName` sets its look), then `children`. */
export function IconCard({ icon, title, headingClassName = "mt-3 text-lg font-semibold", children }: { icon: ReactNode; title: string; headingClassName?: string; children: ReactNode }) {
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      {icon}
      <h3 className={headingClassName}>{title}</h3>
      {children}
    </li>
  );
}
