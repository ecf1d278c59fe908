import type { Route } from "./+types/user";
import { handleJson } from "~/modules/http/json.server";
import { requireApiUser } from "~/modules/auth/guards.server";
import { toCurrentUser } from "~/modules/lp-users/lp-users.server";

/** GET /api/auth/user → the current user (id, name, email, company, createdAt, isAdmin) or 401. */
export async function loader({ request }: Route.LoaderArgs) {
  return handleJson(async () => Response.json(toCurrentUser(await requireApiUser(request))));
}
