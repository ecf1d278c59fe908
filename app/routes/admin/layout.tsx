import type { ReactNode } from "react";
import { Outlet, redirect, useLocation } from "react-router";
import type { Route } from "./+types/layout";
import { AdminNav } from "~/components/admin/admin-nav";
import { SkipLink } from "~/components/layout/page-frame";
import { SiteFooter } from "~/components/layout/site-footer";
import { UserLoadError } from "~/components/portal/load-error";
import { AdminHeader, PortalBanner } from "~/components/portal/portal-header";
import { waitingCounts } from "~/modules/admin/overview.server";
import { adminPageOf } from "~/modules/admin/paths";
import { ADMIN_ENROLMENT_PATH, requireAdminOrEnrolment } from "~/modules/auth/guards.server";
import { logError } from "~/modules/logging/log.server";
import { toCurrentUser } from "~/modules/lp-users/lp-users.server";

/**
 * Guards the whole admin workspace (admins only, else the admin login; SPEC.md
 * §2, §6) and counts what waits for the navigation's badges.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { user, enrolling } = await requireAdminOrEnrolment(request);
  // An admin without two-factor sees only its set-up (and nothing that waits).
  if (enrolling) {
    if (new URL(request.url).pathname.replace(/\.data$/, "") !== ADMIN_ENROLMENT_PATH) throw redirect(ADMIN_ENROLMENT_PATH);
    return { user: toCurrentUser(user), badges: {}, enrolling };
  }
  let badges = {};
  try {
    const waiting = waitingCounts();
    badges = { investors: waiting.pendingInvestors, "fund-access": waiting.recentFundIiRequests, pitches: waiting.pitchesDueSoon };
  } catch (error) {
    logError(error);
  }
  return { user: toCurrentUser(user), badges, enrolling };
}

function Frame({ header, children }: { header: ReactNode; children: ReactNode }) {
  return (
    <>
      <SkipLink />
      {header}
      {children}
      <SiteFooter />
    </>
  );
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const { pathname } = useLocation();
  return (
    <Frame header={<AdminHeader name={loaderData.user.name} />}>
      <div className="mx-auto grid max-w-7xl gap-6 px-4 py-6 sm:px-6 md:grid-cols-[13rem_minmax(0,1fr)] md:py-10">
        {loaderData.enrolling ? <div /> : <AdminNav current={adminPageOf(pathname)} badges={loaderData.badges} />}
        <main id="main" tabIndex={-1} className="min-w-0 outline-none">
          <Outlet />
        </main>
      </div>
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
      <main id="main" tabIndex={-1} className="outline-none">
        <UserLoadError loginPath="/admin/login" />
      </main>
    </Frame>
  );
}
