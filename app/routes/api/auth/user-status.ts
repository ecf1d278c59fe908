import type { Route } from "./+types/user-status";
import { handleJson, methodNotAllowed, parseJsonInput, readJsonBody } from "~/modules/http/json.server";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { setUserStatus, toListedUser } from "~/modules/lp-users/lp-users.server";
import { StatusInput } from "~/modules/lp-users/schema";

/** PATCH /api/auth/users/{id}/status { status: "approved" | "rejected" } (admin) → the updated user. */
export async function action({ request, params }: Route.ActionArgs) {
  return handleJson(async () => {
    const admin = await requireApiAdmin(request);
    if (request.method !== "PATCH") throw methodNotAllowed("PATCH");
    const input = parseJsonInput(StatusInput, await readJsonBody(request));
    const { user } = setUserStatus(admin, params.id, input.status);
    return Response.json(toListedUser(user));
  });
}

export function loader() {
  return methodNotAllowed("PATCH");
}
