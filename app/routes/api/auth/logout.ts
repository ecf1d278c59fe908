import type { Route } from "./+types/logout";
import { endSession } from "~/modules/auth/session.server";
import { methodNotAllowed } from "~/modules/http/json.server";

/** POST /api/auth/logout → { success: true }; the session ends on the server and the cookie is cleared. */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") {
    return methodNotAllowed("POST");
  }
  const setCookie = await endSession(request);
  return Response.json({ success: true }, { headers: { "Set-Cookie": setCookie } });
}

export function loader() {
  return methodNotAllowed("POST");
}
