import { requestMessages } from "~/content/validation";
import type { Route } from "./+types/login";
import { AppError } from "~/modules/http/app-error";
import { handleJson, methodNotAllowed, readJsonBody } from "~/modules/http/json.server";
import { signInWithJson } from "~/modules/auth/sign-in.server";
import { toCurrentUser } from "~/modules/lp-users/lp-users.server";

/** POST /api/auth/login { email, password } → { isAdmin, email, user } and the session cookie; errors → { error }. */
export async function action({ request, context }: Route.ActionArgs) {
  return handleJson(async () => {
    if (request.method !== "POST") throw methodNotAllowed("POST");
    const body = await readJsonBody(request);
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      throw new AppError("bad_request", requestMessages.notJsonObject);
    }
    const { user, setCookie } = await signInWithJson(request, body as Record<string, unknown>, context.clientAddress);
    return Response.json(
      { isAdmin: user.isAdmin, email: user.email, user: toCurrentUser(user) },
      { headers: { "Set-Cookie": setCookie } },
    );
  });
}

export function loader() {
  return methodNotAllowed("POST");
}
