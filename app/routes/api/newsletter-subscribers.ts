import type { Route } from "./+types/newsletter-subscribers";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { readSubscribersForApi } from "~/modules/email-lists/email-lists.server";
import { handleJson } from "~/modules/http/json.server";

/**
 * GET /api/newsletter/subscribers (admin, SPEC.md §7): the confirmed
 * subscribers as { email, createdAt }, newest first (pending and unsubscribed
 * addresses are not on the list; issue 16). Each read is recorded.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return handleJson(async () => {
    const admin = await requireApiAdmin(request);
    return Response.json(readSubscribersForApi(admin).map((row) => ({ email: row.email, createdAt: row.date })));
  });
}
