import type { ReactNode } from "react";
import { Outlet } from "react-router";
import type { Route } from "./+types/layout";
import { SiteFooter } from "~/components/layout/site-footer";
import { UserLoadError } from "~/components/portal/load-error";
import { AdminHeader, PortalBanner } from "~/components/portal/portal-header";
import { requireAdmin } from "~/modules/auth/guards.server";
import { toCurrentUser } from "~/modules/lp-users/lp-users.server";

/** Guards the whole admin portal: admins only, else the admin login (SPEC.md §2, §6). */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireAdmin(request);
  return { user: toCurrentUser(user) };
}

function Frame({ header, children }: { header: ReactNode; children: ReactNode }) {
  return (
    <>
      <a
        href="#main"
        className="sr-only z-[60] rounded-md bg-white px-4 py-2 text-sm font-semibold focus:not-sr-only focus:fixed focus:top-2 focus:left-2 dark:bg-slate-900"
      >
        Skip to content
      </a>
      {header}
      <main id="main" tabIndex={-1} className="outline-none">
        {children}
      </main>
      <SiteFooter />
    </>
  );
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <Frame header={<AdminHeader name={loaderData.user.name} />}>
      <Outlet />
    </Frame>
  );
}

/** The admin could not be loaded: ask to refresh or sign in again (SPEC.md §2). */
export function ErrorBoundary() {
  return (
    <Frame
      header={
        <header className="sticky top-0 z-50">
          <PortalBanner />
        </header>
      }
    >
      <UserLoadError loginPath="/admin/login" />
    </Frame>
  );
}
