import { ArrowRight, ShieldCheck } from "lucide-react";
import { Link } from "react-router";
import { bannerText } from "~/content/navigation";
import { adminCopy } from "~/content/portal";
import { accountPageCopy } from "~/content/account";
import { Logo } from "../layout/logo";
import { ThemeToggle } from "../layout/theme-toggle";
import { LogoutButton } from "./logout-button";

/** The site-wide pinned banner (SPEC.md §1), as the site header shows it. */
export function PortalBanner() {
  return (
    <div className="flex h-10 items-center justify-center bg-brand-800 px-4 text-sm text-white">
      <Link to="/deeptech-fund" className="inline-flex items-center gap-2 font-medium hover:underline">
        <span>{bannerText.message}</span>
        <span className="hidden underline sm:inline">{bannerText.cta}</span>
        <ArrowRight aria-hidden="true" className="size-4" />
      </Link>
    </div>
  );
}

/**
 * The admin portal's header (SPEC.md §2): the product name with 'Admin
 * Portal', an 'Administrator' badge, the admin's name and Logout.
 */
export function AdminHeader({ name }: { name: string }) {
  return (
    <>
      {/* The banner stays pinned; the bar below it too from the md width (on phones it would take a quarter of the screen). */}
      <div className="sticky top-0 z-50">
        <PortalBanner />
      </div>
      <header className="z-40 border-b border-slate-200 bg-white/95 backdrop-blur md:sticky md:top-10 dark:border-slate-800 dark:bg-slate-950/95">
        <div className="mx-auto flex min-h-20 max-w-7xl flex-wrap items-center justify-between gap-4 px-4 py-3 sm:px-6">
          <div className="flex flex-wrap items-center gap-3">
            <Logo />
            <span className="text-lg font-medium text-slate-600 dark:text-slate-300">{adminCopy.portal}</span>
            <span className="inline-flex items-center gap-1 rounded-full border border-brand-300 bg-brand-50 px-3 py-0.5 text-sm font-semibold text-brand-800 dark:border-brand-600 dark:bg-brand-900 dark:text-brand-100">
              <ShieldCheck aria-hidden="true" className="size-4" />
              {adminCopy.badge}
            </span>
          </div>
          <div className="flex items-center gap-3">
            <p className="text-sm text-slate-700 dark:text-slate-200">
              <span className="sr-only">{`${adminCopy.signedInAs} `}</span>
              <span className="font-medium">{name}</span>
            </p>
            <Link to="/admin/account" className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300">
              {accountPageCopy.link}
            </Link>
            <ThemeToggle />
            <LogoutButton />
          </div>
        </div>
      </header>
    </>
  );
}
