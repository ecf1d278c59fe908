import { redirect } from "react-router";
import type { Route } from "./+types/fund-documents-upload";
import { requireAdmin } from "~/modules/auth/guards.server";

/** Placeholder: POST /admin/fund-documents, the no-JavaScript Fund II upload (issue 5). */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return redirect("/admin/dashboard");
}
