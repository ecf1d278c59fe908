import { Outlet, useLocation } from "react-router";
import type { Route } from "./+types/layout";
import { WorkspaceFrame } from "~/components/layout/workspace-frame";
import { UserLoadError } from "~/components/portal/load-error";
import { LpNavLinks } from "~/components/portal/lp-nav";
import { LpProduct, PortalAccount } from "~/components/portal/portal-header";
import { lpNavCopy } from "~/content/portal";
import { requireInvestor } from "~/modules/auth/guards.server";
import { toCurrentUser } from "~/modules/lp-users/lp-users.server";

/** Guards the whole investor portal: an approved investor or an admin, else /lp/login. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireInvestor(request);
  return { user: toCurrentUser(user) };
}

/** The investor portal in the workspaces' frame (SPEC's pinned banner stays). */
export default function InvestorPortalLayout({ loaderData }: Route.ComponentProps) {
  const { pathname } = useLocation();
  return (
    <WorkspaceFrame
      name="lp"
      product={<LpProduct />}
      account={<PortalAccount name={loaderData.user.name} />}
      navLabel={lpNavCopy.label}
      nav={() => <LpNavLinks pathname={pathname} />}
    >
      <Outlet />
    </WorkspaceFrame>
  );
}

/** The user could not be loaded (e.g. the database did not answer). */
export function ErrorBoundary() {
  return (
    <WorkspaceFrame name="lp" product={<LpProduct />} account={null} navLabel={lpNavCopy.label} nav={null}>
      <UserLoadError />
    </WorkspaceFrame>
  );
}
