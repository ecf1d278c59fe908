import type { Route } from "./+types/requests";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { listFundAccessRequests, toFundAccessRead } from "~/modules/fund-access/fund-access.server";
import { handleJson } from "~/modules/http/json.server";

/** GET /api/fund-access/requests (admin): every Fund I and Fund II access request, newest first. */
export async function loader({ request }: Route.LoaderArgs) {
  return handleJson(async () => {
    await requireApiAdmin(request);
    return Response.json(listFundAccessRequests().map(toFundAccessRead));
  });
}
