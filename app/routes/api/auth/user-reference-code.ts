import type { Route } from "./+types/user-reference-code";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { handleJson, methodNotAllowed, parseJsonInput, readJsonBody } from "~/modules/http/json.server";
import { toListedUser } from "~/modules/lp-users/lp-users.server";
import { ReferenceCodeInput, setReferenceCode } from "~/modules/lp-users/reference-code.server";

/**
 * PUT /api/auth/users/{id}/reference-code { referenceCode: "LRV-0042" | "" | null } (admin)
 * → the user with its code; a code another investor holds is 409 with a field message.
 */
export async function action({ request, params }: Route.ActionArgs) {
  return handleJson(async () => {
    const admin = await requireApiAdmin(request);
    if (request.method !== "PUT") throw methodNotAllowed("PUT");
    const input = parseJsonInput(ReferenceCodeInput, await readJsonBody(request));
    const { user } = setReferenceCode(admin, params.id, input.referenceCode);
    return Response.json({ ...toListedUser(user), referenceCode: user.referenceCode });
  });
}

export function loader() {
  return methodNotAllowed("PUT");
}
