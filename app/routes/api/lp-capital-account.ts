import type { Route } from "./+types/lp-capital-account";
import { requireApiUser } from "~/modules/auth/guards.server";
import { capitalAccountFor } from "~/modules/capital-account/capital-account.server";
import { handleJson } from "~/modules/http/json.server";

/**
 * GET /api/lp/capital-account (approved investors and admins): the entities
 * the caller is a member of, each fund's figures, multiples, IRR and flows
 * (issue 24 §8). Amounts are positive decimal strings (`kind` says the
 * direction); multiples and IRR are numbers or null (with `irrNote`).
 */
export async function loader({ request }: Route.LoaderArgs) {
  return handleJson(async () => {
    const user = await requireApiUser(request);
    const entities = capitalAccountFor(user).map((entity) => ({
      ...entity,
      funds: entity.funds.map(({ flows, ...fund }) => ({ ...fund, flows: flows.map(({ entryId: _entryId, ...flow }) => flow) })),
    }));
    return Response.json({ entities });
  });
}
