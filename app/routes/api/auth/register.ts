import type { Route } from "./+types/register";
import { accountToasts } from "~/content/accounts";
import { handleJson, methodNotAllowed, parseJsonInput, readJsonBody } from "~/modules/http/json.server";
import { enforceRateLimit } from "~/modules/http/rate-limit.server";
import { registerInvestor } from "~/modules/lp-users/registration.server";
import { RegisterInput } from "~/modules/lp-users/schema";

/**
 * POST /api/auth/register { email, password, name, company? } → 201 { message }.
 * The same answer whether or not the e-mail already has an account; the
 * message says a confirmation link was mailed (decision 028).
 */
export async function action({ request, context }: Route.ActionArgs) {
  return handleJson(async () => {
    if (request.method !== "POST") throw methodNotAllowed("POST");
    const input = parseJsonInput(RegisterInput, await readJsonBody(request));
    await enforceRateLimit("register", context.clientAddress);
    await registerInvestor(input);
    return Response.json({ message: accountToasts.registered.description }, { status: 201 });
  });
}

export function loader() {
  return methodNotAllowed("POST");
}
