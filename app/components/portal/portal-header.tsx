import { ArrowRight, ShieldCheck } from "lucide-react";
import { Link } from "react-router";
import { bannerText } from "~/content/navigation";
import { adminCopy, lpDashboardCopy } from "~/content/portal";
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
 * The admin portal's header items (SPEC.md §2), for the workspace frame's top
 * bar: the product name (the frame's logo) with 'Admin Portal' and an
 * 'Administrator' badge…
 */
export function AdminProduct() {
  return (
    <>
      <span className="truncate text-sm font-medium text-slate-600 sm:text-base dark:text-slate-300">{adminCopy.portal}</span>
      <span className="inline-flex shrink-0 items-center gap-1 rounded-full border border-brand-300 bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-800 dark:border-brand-600 dark:bg-brand-900 dark:text-brand-100">
        <ShieldCheck aria-hidden="true" className="hidden size-3.5 sm:block" />
        {adminCopy.badge}
      </span>
    </>
  );
}

/** The investor portal's name beside the logo. */
export function LpProduct() {
  return <span className="truncate font-medium text-slate-600 dark:text-slate-300">{lpDashboardCopy.portal}</span>;
}

/** …and the signed-in person's name, the theme and Logout (in the top bar from the md width, in the phone's menu below it). */
export function PortalAccount({ name }: { name: string }) {
  return (
    <>
      <p className="text-sm text-slate-700 dark:text-slate-200">
        <span className="sr-only">{`${adminCopy.signedInAs} `}</span>
        <span className="font-medium">{name}</span>
      </p>
      <ThemeToggle />
      <LogoutButton />
    </>
  );
}
