import type { Route } from "./+types/funds";
import { requireApiUser } from "~/modules/auth/guards.server";
import { listFunds, toFundRead } from "~/modules/funds/funds.server";
import { handleJson } from "~/modules/http/json.server";

/**
 * GET /api/funds (approved investors and admins): every fund, oldest vintage
 * first, as `{ id, slug, name, currency, vintageYear, status }` (decision 038).
 * The slug is what the other endpoints take (`fundId`).
 */
export async function loader({ request }: Route.LoaderArgs) {
  return handleJson(async () => {
    await requireApiUser(request);
    return Response.json(listFunds().map(toFundRead));
  });
}
