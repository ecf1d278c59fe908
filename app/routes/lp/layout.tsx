import type { ReactNode } from "react";
import { Outlet } from "react-router";
import type { Route } from "./+types/layout";
import { SiteFooter } from "~/components/layout/site-footer";
import { SiteHeader } from "~/components/layout/site-header";
import { UserLoadError } from "~/components/portal/load-error";
import { requireInvestor } from "~/modules/auth/guards.server";
import { toCurrentUser } from "~/modules/lp-users/lp-users.server";

/** Guards the whole investor portal: an approved investor or an admin, else /lp/login. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireInvestor(request);
  return { user: toCurrentUser(user) };
}

function Frame({ children }: { children: ReactNode }) {
  return (
    <>
      <a
        href="#main"
        className="sr-only z-[60] rounded-md bg-white px-4 py-2 text-sm font-semibold focus:not-sr-only focus:fixed focus:top-2 focus:left-2 dark:bg-slate-900"
      >
        Skip to content
      </a>
      <SiteHeader />
      <main id="main" tabIndex={-1} className="outline-none">
        {children}
      </main>
      <SiteFooter />
    </>
  );
}

/** The investor portal in the site's frame (the pinned banner, header and footer are site-wide). */
export default function InvestorPortalLayout() {
  return (
    <Frame>
      <Outlet />
    </Frame>
  );
}

/** The user could not be loaded (e.g. the database did not answer). */
export function ErrorBoundary() {
  return (
    <Frame>
      <UserLoadError />
    </Frame>
  );
}
