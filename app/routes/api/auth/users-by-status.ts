import type { Route } from "./+types/users-by-status";
import { handleJson } from "~/modules/http/json.server";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { listUsersByStatus, toListedUser } from "~/modules/lp-users/lp-users.server";
import type { UserStatus } from "~/modules/lp-users/schema";

/** GET /api/auth/pending-users, /approved-users, /rejected-users (admin): arrays of users, newest first. */
export async function loader({ request, pattern }: Route.LoaderArgs) {
  return handleJson(async () => {
    await requireApiAdmin(request);
    return Response.json(listUsersByStatus(statusOf(pattern)).map(toListedUser));
  });
}

/** The status a route path names: /api/auth/{status}-users. */
function statusOf(pattern: string): UserStatus {
  if (pattern.endsWith("/approved-users")) return "approved";
  if (pattern.endsWith("/rejected-users")) return "rejected";
  return "pending";
}
