import type { Route } from "./+types/register";
import { accountToasts } from "~/content/accounts";
import { AppError } from "~/modules/http/app-error";
import { handleJson, parseJsonInput, readJsonBody } from "~/modules/http/json.server";
import { enforceRateLimit } from "~/modules/http/rate-limit.server";
import { registerInvestor } from "~/modules/lp-users/lp-users.server";
import { RegisterInput } from "~/modules/lp-users/schema";

/**
 * POST /api/auth/register { email, password, name, company? } → 201 { message }.
 * The same answer whether or not the e-mail already has an account.
 */
export async function action({ request, context }: Route.ActionArgs) {
  return handleJson(async () => {
    if (request.method !== "POST") throw new AppError("method_not_allowed", "Method not allowed");
    const input = parseJsonInput(RegisterInput, await readJsonBody(request));
    await enforceRateLimit("register", context.clientAddress);
    await registerInvestor(input);
    return Response.json({ message: accountToasts.registered.description }, { status: 201 });
  });
}

export function loader() {
  return Response.json({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
}
