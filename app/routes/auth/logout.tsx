import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { accountToasts } from "~/content/accounts";
import { endSession } from "~/modules/auth/session.server";
import { answerForm } from "~/modules/http/form-answer.server";

/**
 * POST /logout: end the session on the server, clear the cookie and go to
 * /lp/login with 'Signed out' (SPEC.md §4). Through answerForm; its body is
 * not read (a Logout button carries nothing), so it always answers as a plain
 * post does: a 303 with the toast as a flash, whichever page it came from.
 */
export async function action({ request }: Route.ActionArgs) {
  const setCookie = await endSession(request);
  return answerForm(
    { enhanced: false },
    { httpStatus: 200, toast: { ...accountToasts.loggedOut }, redirectTo: "/lp/login", headers: { "Set-Cookie": setCookie } },
  );
}

/** GET /logout changes nothing: it only leads to the sign-in page. */
export function loader() {
  return redirect("/lp/login");
}
