import type { Route } from "./+types/users-by-status";
import { handleJson } from "~/modules/http/json.server";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { listUsersByStatus, toListedUser } from "~/modules/lp-users/lp-users.server";
import type { UserStatus } from "~/modules/lp-users/schema";

/** GET /api/auth/pending-users, /approved-users, /rejected-users (admin): arrays of users, newest first. */
export async function loader({ request }: Route.LoaderArgs) {
  return handleJson(async () => {
    await requireApiAdmin(request);
    const status = new URL(request.url).pathname.match(/\/api\/auth\/(pending|approved|rejected)-users$/)?.[1];
    return Response.json(listUsersByStatus((status ?? "pending") as UserStatus).map(toListedUser));
  });
}
