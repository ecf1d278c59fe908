import type { Route } from "./+types/lp-statements";
import { requireApiUser } from "~/modules/auth/guards.server";
import { handleJson } from "~/modules/http/json.server";
import { lpStatements } from "~/modules/statements/reads.server";

/**
 * GET /api/lp/statements (approved investors and admins) → `[{ id, entityId,
 * fund, quarter, version, documentId }]`: the latest version of each of the
 * caller's entities' statements (fund by slug, quarter like 2026-Q1,
 * documentId null until the PDF is made); only entities they are a member of.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return handleJson(async () => {
    const user = await requireApiUser(request);
    return Response.json(
      lpStatements(user).map((s) => ({ id: s.id, entityId: s.entityId, fund: s.fund.slug, quarter: s.quarter, version: s.version, documentId: s.documentId })),
    );
  });
}
