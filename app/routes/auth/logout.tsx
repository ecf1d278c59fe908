import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { accountToasts } from "~/content/accounts";
import { endSession } from "~/modules/auth/session.server";
import { redirectWithFlash } from "~/modules/toast/flash.server";

/**
 * POST /logout: end the session on the server, clear the cookie and go to
 * /lp/login with 'Signed out' (SPEC.md §4).
 */
export async function action({ request }: Route.ActionArgs) {
  const setCookie = await endSession(request);
  return redirectWithFlash("/lp/login", { toast: { ...accountToasts.loggedOut } }, { headers: { "Set-Cookie": setCookie } });
}

/** GET /logout changes nothing: it only leads to the sign-in page. */
export function loader() {
  return redirect("/lp/login");
}
