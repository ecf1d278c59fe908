import type { Route } from "./+types/user-status";
import { AppError } from "~/modules/http/app-error";
import { handleJson, parseJsonInput, readJsonBody } from "~/modules/http/json.server";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { setUserStatus, toListedUser } from "~/modules/lp-users/lp-users.server";
import { StatusInput } from "~/modules/lp-users/schema";

/** PATCH /api/auth/users/{id}/status { status: "approved" | "rejected" } (admin) → the updated user. */
export async function action({ request, params }: Route.ActionArgs) {
  return handleJson(async () => {
    const admin = await requireApiAdmin(request);
    if (request.method !== "PATCH") throw new AppError("method_not_allowed", "Method not allowed");
    const input = parseJsonInput(StatusInput, await readJsonBody(request));
    const { user } = setUserStatus(admin, params.id, input.status);
    return Response.json(toListedUser(user));
  });
}

export function loader() {
  return Response.json({ error: "Method not allowed" }, { status: 405, headers: { Allow: "PATCH" } });
}
