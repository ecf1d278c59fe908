import type { ReactNode } from "react";
import { Outlet, useLocation, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/layout";
import { WorkspaceErrorNotice } from "~/components/layout/workspace-error";
import { WorkspaceFrame } from "~/components/layout/workspace-frame";
import { UserLoadError } from "~/components/portal/load-error";
import { LpNavLinks } from "~/components/portal/lp-nav";
import { LpProduct, PortalAccount } from "~/components/portal/portal-header";
import { errorCopy } from "~/content/errors";
import { lpNavCopy } from "~/content/portal";
import { requireInvestor } from "~/modules/auth/guards.server";
import { toCurrentUser } from "~/modules/lp-users/lp-users.server";

/** Guards the whole investor portal: an approved investor or an admin, else /lp/login. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireInvestor(request);
  return { user: toCurrentUser(user) };
}

type LayoutData = Route.ComponentProps["loaderData"];

function InvestorFrame({ data, children }: { data: LayoutData; children: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <WorkspaceFrame
      name="lp"
      product={<LpProduct />}
      account={<PortalAccount name={data.user.name} />}
      navLabel={lpNavCopy.label}
      nav={() => <LpNavLinks pathname={pathname} />}
    >
      {children}
    </WorkspaceFrame>
  );
}

/** The investor portal in the workspaces' frame (SPEC's pinned banner stays). */
export default function InvestorPortalLayout({ loaderData }: Route.ComponentProps) {
  return (
    <InvestorFrame data={loaderData}>
      <Outlet />
    </InvestorFrame>
  );
}

/**
 * A page of the portal threw (the layout loaded): the frame stays and the page's place
 * says what happened. The user could not be loaded (e.g. the database did not answer):
 * ask to refresh or sign in again.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const loaded = useRouteLoaderData<LayoutData>("routes/lp/layout");
  if (loaded) {
    return (
      <InvestorFrame data={loaded}>
        <WorkspaceErrorNotice error={error} home={{ to: "/lp/dashboard", label: errorCopy.lpHome }} />
      </InvestorFrame>
    );
  }
  return (
    <WorkspaceFrame name="lp" product={<LpProduct />} account={null} navLabel={lpNavCopy.label} nav={null}>
      <UserLoadError />
    </WorkspaceFrame>
  );
}
