import { ArrowRight, Menu, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Link, useLocation } from "react-router";
import { bannerText, headerLinks } from "~/content/navigation";
import { Logo } from "./logo";
import { ThemeToggle } from "./theme-toggle";

type HeaderLink = (typeof headerLinks)[number];

/** Whether a header link is the current page (its own path, or any path under its activePrefix). */
function isCurrent(link: HeaderLink, pathname: string): boolean {
  if ("activePrefix" in link) return pathname.startsWith(link.activePrefix);
  return link.to === "/" ? pathname === "/" : pathname === link.to || pathname.startsWith(`${link.to}/`);
}

/** The pinned banner and the navigation bar (SPEC.md §2, "Shared frame"). */
export function SiteHeader() {
  const [scrolled, setScrolled] = useState(false);
  const menuRef = useRef<HTMLDetailsElement>(null);
  const location = useLocation();

  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > 20);
    onScroll();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);

  // Choosing a link closes the mobile menu (with JavaScript; without it the
  // next page simply renders with the menu closed).
  useEffect(() => {
    if (menuRef.current) menuRef.current.open = false;
  }, [location.pathname, location.search]);

  const linkClass = ({ isActive }: { isActive: boolean }) =>
    `rounded-md px-3 py-2 text-sm font-medium transition-colors ${
      isActive
        ? "bg-brand-50 text-brand-800 dark:bg-brand-900 dark:text-brand-100"
        : "text-slate-700 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white"
    }`;

  return (
    <header className="sticky top-0 z-50">
      <div className="flex h-10 items-center justify-center bg-brand-800 px-4 text-sm text-white">
        <Link to="/deeptech-fund" className="inline-flex items-center gap-2 font-medium hover:underline">
          <span>{bannerText.message}</span>
          <span className="hidden underline sm:inline">{bannerText.cta}</span>
          <ArrowRight aria-hidden="true" className="size-4" />
        </Link>
      </div>
      <div
        data-scrolled={scrolled ? "true" : "false"}
        data-testid="site-nav-bar"
        className="border-b border-transparent bg-white/95 backdrop-blur dark:bg-slate-950/95"
      >
        <nav aria-label="Main" className="mx-auto flex h-20 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
          <Logo />
          <ul className="hidden items-center gap-1 md:flex">
            {headerLinks.map((link) => (
              <li key={link.to}>
                <Link
                  to={link.to}
                  aria-current={isCurrent(link, location.pathname) ? "page" : undefined}
                  className={linkClass({ isActive: isCurrent(link, location.pathname) })}
                  prefetch="intent"
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
          <div className="flex items-center gap-1">
            <ThemeToggle />
            <details ref={menuRef} className="group md:hidden" data-testid="mobile-menu">
              <summary
                className="flex cursor-pointer list-none items-center rounded-md p-2 text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800 [&::-webkit-details-marker]:hidden"
                aria-label="Menu"
              >
                <Menu aria-hidden="true" className="size-6 group-open:hidden" />
                <X aria-hidden="true" className="hidden size-6 group-open:block" />
              </summary>
              <ul className="absolute inset-x-0 top-full border-b border-slate-200 bg-white px-4 py-3 shadow-lg dark:border-slate-800 dark:bg-slate-950">
                {headerLinks.map((link) => (
                  <li key={link.to}>
                    <Link
                      to={link.to}
                      aria-current={isCurrent(link, location.pathname) ? "page" : undefined}
                      className={`block ${linkClass({ isActive: isCurrent(link, location.pathname) })}`}
                      onClick={() => {
                        if (menuRef.current) menuRef.current.open = false;
                      }}
                    >
                      {link.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </details>
          </div>
        </nav>
      </div>
    </header>
  );
}
