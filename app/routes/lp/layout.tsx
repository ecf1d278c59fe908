import { Outlet } from "react-router";
import type { Route } from "./+types/layout";
import { SiteFrame } from "~/components/layout/page-frame";
import { UserLoadError } from "~/components/portal/load-error";
import { requireInvestor } from "~/modules/auth/guards.server";
import { toCurrentUser } from "~/modules/lp-users/lp-users.server";

/** Guards the whole investor portal: an approved investor or an admin, else /lp/login. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireInvestor(request);
  return { user: toCurrentUser(user) };
}

/** The investor portal in the site's frame (the pinned banner, header and footer are site-wide). */
export default function InvestorPortalLayout() {
  return (
    <SiteFrame>
      <Outlet />
    </SiteFrame>
  );
}

/** The user could not be loaded (e.g. the database did not answer). */
export function ErrorBoundary() {
  return (
    <SiteFrame>
      <UserLoadError />
    </SiteFrame>
  );
}
