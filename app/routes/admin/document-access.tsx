import type { Route } from "./+types/document-access";
import { requireAdmin } from "~/modules/auth/guards.server";

/** /admin/documents/{id}/access: one document's access history (placeholder, filled in below). */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return null;
}

export default function DocumentAccess() {
  return null;
}
