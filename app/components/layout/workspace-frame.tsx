import { Menu } from "lucide-react";
import { useEffect, useRef, type ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { workspaceFrameCopy } from "~/content/admin-workspace";
import { firm } from "~/content/firm";
import { bannerText, legalLinks } from "~/content/navigation";
import { PortalBanner } from "../portal/portal-header";
import { Logo } from "./logo";
import { SkipLink } from "./page-frame";

type WorkspaceFrameProps = {
  /** "admin" or "lp": names the test ids of the sidebar and the phone's menu. */
  name: string;
  /** Beside the logo: the workspace's name and badge (SPEC.md §2's header). */
  product: ReactNode;
  /** The signed-in person: name, theme and Logout; in the top bar from the md width, in the menu below it. */
  account: ReactNode;
  /** The sidebar navigation's accessible name (the phone menu's adds "menu": two landmarks, two names). */
  navLabel: string;
  /** The navigation's links; `idPrefix` keeps ids apart, since the frame shows them twice. */
  nav: ((idPrefix: string) => ReactNode) | null;
  children: ReactNode;
};

/**
 * The frame of a workspace (the admin portal, the investor portal): SPEC's
 * pinned banner, a one-row top bar (the product, and the account from the md
 * width), a sidebar from the md width, the page, and a slim footer (decision 010).
 * Below the md width the navigation and the account are a menu (a disclosure:
 * it opens without JavaScript) under a button in the top bar.
 */
export function WorkspaceFrame({ name, product, account, navLabel, nav, children }: WorkspaceFrameProps) {
  const menu = useRef<HTMLDetailsElement>(null);
  const { pathname } = useLocation();
  // The frame stays mounted across pages: the menu closes once its link has been followed.
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [pathname]);
  return (
    <>
      <SkipLink />
      {/* A landmark of its own (it sits outside the header so that it stays pinned on phones). */}
      <aside aria-label={bannerText.label} className="sticky top-0 z-50">
        <PortalBanner />
      </aside>
      {/* Sticky under the banner from the md width; on phones it scrolls away (an open menu can be long). */}
      <header className="relative z-40 border-b border-slate-200 bg-white/95 backdrop-blur md:sticky md:top-10 dark:border-slate-800 dark:bg-slate-950/95">
        <div className="flex h-14 items-center justify-between gap-3 px-4 sm:px-6">
          <div className="flex min-w-0 items-center gap-2 sm:gap-3">
            <Logo nameFrom="sm" />
            {product}
          </div>
          <div className="hidden items-center gap-3 md:flex">{account}</div>
          <details ref={menu} data-testid={`${name}-menu`} className="md:hidden">
            <summary className="inline-flex h-9 cursor-pointer list-none items-center gap-2 rounded-md border border-slate-300 px-3 text-sm font-semibold dark:border-slate-700">
              <Menu aria-hidden="true" className="size-4" />
              {workspaceFrameCopy.menu}
            </summary>
            <div className="absolute inset-x-0 top-full border-b border-slate-200 bg-white p-4 shadow-lg dark:border-slate-800 dark:bg-slate-950">
              {nav ? (
                <nav aria-label={workspaceFrameCopy.menuNav(navLabel)} className="mb-4">
                  {nav(`${name}-menu-group`)}
                </nav>
              ) : null}
              {account ? <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-4 dark:border-slate-800">{account}</div> : null}
            </div>
          </details>
        </div>
      </header>
      <div className="md:grid md:grid-cols-[14rem_minmax(0,1fr)]">
        {nav ? (
          <div className="hidden border-r border-slate-200 md:block dark:border-slate-800">
            <nav aria-label={navLabel} data-testid={`${name}-sidebar`} className="sticky top-24 px-3 py-6">
              {nav(`${name}-sidebar-group`)}
            </nav>
          </div>
        ) : (
          <div className="hidden md:block" />
        )}
        <div className="flex min-h-[calc(100vh-6rem)] min-w-0 flex-col">
          <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 outline-none sm:px-6 md:py-8">
            {children}
          </main>
          <footer className="border-t border-slate-200 px-4 py-4 text-xs text-slate-600 sm:px-6 dark:border-slate-800 dark:text-slate-300">
            <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-6 gap-y-2">
              <p>
                © {firm.copyrightYear} {firm.name}
              </p>
              <ul className="flex flex-wrap gap-x-4 gap-y-1">
                <li>
                  <Link to="/" className="hover:underline">
                    {workspaceFrameCopy.site}
                  </Link>
                </li>
                {legalLinks.map((link) => (
                  <li key={link.to}>
                    <Link to={link.to} className="hover:underline">
                      {link.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          </footer>
        </div>
      </div>
    </>
  );
}

/** A link of a workspace's navigation: the current page marked with aria-current; `extra` sits at the right (a count). */
export function WorkspaceNavLink({ to, active, children, extra }: { to: string; active: boolean; children: ReactNode; extra?: ReactNode }) {
  return (
    <li>
      <Link
        to={to}
        aria-current={active ? "page" : undefined}
        className={`flex items-center justify-between gap-3 rounded-md px-3 py-1.5 text-sm font-medium ${
          active
            ? "bg-brand-50 text-brand-900 dark:bg-brand-900 dark:text-white"
            : "text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
        }`}
      >
        <span>{children}</span>
        {extra}
      </Link>
    </li>
  );
}
