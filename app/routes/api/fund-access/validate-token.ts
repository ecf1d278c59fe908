import type { Route } from "./+types/validate-token";
import { setFundCookie } from "~/modules/fund-access/cookie.server";
import { validateFundToken } from "~/modules/fund-access/fund-access.server";
import { ValidateTokenInput } from "~/modules/fund-access/schema";
import { handleJson, methodNotAllowed, parseJsonInput, readJsonBody } from "~/modules/http/json.server";
import { enforceRateLimit } from "~/modules/http/rate-limit.server";

/**
 * POST /api/fund-access/validate-token { token } → 200 { valid } (Fund II).
 * A valid token also (re)sets the HttpOnly access cookie.
 */
export async function action({ request, context }: Route.ActionArgs) {
  return handleJson(async () => {
    if (request.method !== "POST") throw methodNotAllowed("POST");
    const input = parseJsonInput(ValidateTokenInput, await readJsonBody(request));
    await enforceRateLimit("tokenCheck", context.clientAddress);
    const { valid } = validateFundToken(input.token);
    const headers = new Headers();
    if (valid) headers.append("Set-Cookie", await setFundCookie("fund-ii", input.token));
    return Response.json({ valid }, { headers });
  });
}

export function loader() {
  return methodNotAllowed("POST");
}
