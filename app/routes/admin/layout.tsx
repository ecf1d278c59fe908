import type { ReactNode } from "react";
import { Outlet, redirect, useLocation, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/layout";
import { AdminNavLinks, type AdminBadges } from "~/components/admin/admin-nav";
import { WorkspaceErrorNotice } from "~/components/layout/workspace-error";
import { WorkspaceFrame } from "~/components/layout/workspace-frame";
import { UserLoadError } from "~/components/portal/load-error";
import { AdminProduct, PortalAccount } from "~/components/portal/portal-header";
import { adminNavCopy } from "~/content/admin-workspace";
import { errorCopy } from "~/content/errors";
import { waitingCounts } from "~/modules/admin/overview.server";
import { ADMIN_PATHS, adminPageOf } from "~/modules/admin/paths";
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

type LayoutData = Route.ComponentProps["loaderData"];

/** The admin frame for the signed-in admin: navigation with its badges (none while two-factor is being set up). */
function AdminFrame({ data, children }: { data: LayoutData; children: ReactNode }) {
  const { pathname } = useLocation();
  const { badges, enrolling } = data;
  return (
    <WorkspaceFrame
      name="admin"
      product={<AdminProduct />}
      account={<PortalAccount name={data.user.name} />}
      navLabel={adminNavCopy.label}
      // An admin setting up two-factor sees only that page: no navigation.
      nav={enrolling ? null : (idPrefix) => <AdminNavLinks current={adminPageOf(pathname)} badges={badges} idPrefix={idPrefix} />}
    >
      {children}
    </WorkspaceFrame>
  );
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AdminFrame data={loaderData}>
      <Outlet />
    </AdminFrame>
  );
}

/**
 * A page of the workspace threw (the layout loaded): the frame stays, and the page's
 * place says what happened (a missing record's 404: not found, and the way back to its
 * list). The admin itself could not be loaded: ask to refresh or sign in again (SPEC.md §2).
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const loaded = useRouteLoaderData<LayoutData>("routes/admin/layout");
  if (loaded) {
    return (
      <AdminFrame data={loaded}>
        <WorkspaceErrorNotice error={error} home={{ to: ADMIN_PATHS.overview, label: errorCopy.adminHome }} />
      </AdminFrame>
    );
  }
  return (
    <WorkspaceFrame name="admin" product={<AdminProduct />} account={null} navLabel={adminNavCopy.label} nav={null}>
      <UserLoadError loginPath="/admin/login" />
    </WorkspaceFrame>
  );
}
