import type { Route } from "./+types/logout";
import { endSession } from "~/modules/auth/session.server";

/** POST /api/auth/logout → { success: true }; the session ends on the server and the cookie is cleared. */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") {
    return Response.json({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
  }
  const setCookie = await endSession(request);
  return Response.json({ success: true }, { headers: { "Set-Cookie": setCookie } });
}

export function loader() {
  return Response.json({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
}
