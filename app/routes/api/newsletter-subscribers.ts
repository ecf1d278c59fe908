import type { Route } from "./+types/newsletter-subscribers";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { readAllRows } from "~/modules/email-lists/email-lists.server";
import { DEFAULT_SORT } from "~/modules/email-lists/lists";
import { handleJson } from "~/modules/http/json.server";

/** GET /api/newsletter/subscribers (admin, SPEC.md §7): every subscriber as { email, createdAt }, newest first. */
export async function loader({ request }: Route.LoaderArgs) {
  return handleJson(async () => {
    await requireApiAdmin(request);
    return Response.json(readAllRows("newsletter", DEFAULT_SORT).map((row) => ({ email: row.email, createdAt: row.date })));
  });
}
