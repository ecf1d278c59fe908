import type { Route } from "./+types/login";
import { AppError } from "~/modules/http/app-error";
import { handleJson, readJsonBody } from "~/modules/http/json.server";
import { signInWithJson } from "~/modules/auth/sign-in.server";
import { toCurrentUser } from "~/modules/lp-users/lp-users.server";

/** POST /api/auth/login { email, password } → { isAdmin, email, user } and the session cookie; errors → { error }. */
export async function action({ request, context }: Route.ActionArgs) {
  return handleJson(async () => {
    if (request.method !== "POST") throw new AppError("method_not_allowed", "Method not allowed");
    const body = await readJsonBody(request);
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      throw new AppError("bad_request", "Request body must be a JSON object");
    }
    const { user, setCookie } = await signInWithJson(request, body as Record<string, unknown>, context.clientAddress);
    return Response.json(
      { isAdmin: user.isAdmin, email: user.email, user: toCurrentUser(user) },
      { headers: { "Set-Cookie": setCookie } },
    );
  });
}

export function loader() {
  return Response.json({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
}
