import { Outlet, redirect, useLocation } from "react-router";
import type { Route } from "./+types/layout";
import { AdminNavLinks, type AdminBadges } from "~/components/admin/admin-nav";
import { WorkspaceFrame } from "~/components/layout/workspace-frame";
import { UserLoadError } from "~/components/portal/load-error";
import { AdminProduct, PortalAccount } from "~/components/portal/portal-header";
import { adminNavCopy } from "~/content/admin-workspace";
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
    return { user: toCurrentUser(user), badges: {} as AdminBadges, enrolling };
  }
  let badges: AdminBadges = {};
  try {
    const waiting = waitingCounts();
    badges = { investors: waiting.pendingInvestors, "fund-access": waiting.recentFundIiRequests, pitches: waiting.pitchesDueSoon };
  } catch (error) {
    logError(error);
  }
  return { user: toCurrentUser(user), badges, enrolling };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const { pathname } = useLocation();
  const { badges, enrolling } = loaderData;
  return (
    <WorkspaceFrame
      name="admin"
      product={<AdminProduct />}
      account={<PortalAccount name={loaderData.user.name} />}
      navLabel={adminNavCopy.label}
      // An admin setting up two-factor sees only that page: no navigation.
      nav={enrolling ? null : (idPrefix) => <AdminNavLinks current={adminPageOf(pathname)} badges={badges} idPrefix={idPrefix} />}
    >
      <Outlet />
    </WorkspaceFrame>
  );
}

/** The admin could not be loaded: ask to refresh or sign in again (SPEC.md §2). */
export function ErrorBoundary() {
  return (
    <WorkspaceFrame name="admin" product={<AdminProduct />} account={null} navLabel={adminNavCopy.label} nav={null}>
      <UserLoadError loginPath="/admin/login" />
    </WorkspaceFrame>
  );
}
