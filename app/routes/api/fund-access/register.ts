import type { Route } from "./+types/register";
import { setFundCookie } from "~/modules/fund-access/cookie.server";
import { requestFundAccess } from "~/modules/fund-access/fund-access.server";
import { FundAccessInput } from "~/modules/fund-access/schema";
import { handleJson, methodNotAllowed, parseJsonInput, readJsonBody } from "~/modules/http/json.server";
import { enforceRateLimit } from "~/modules/http/rate-limit.server";

/**
 * POST /api/fund-access/register { name, email, fundId, company?, phone?, accreditedConfirmation? }
 * → 201 { success, fundId }. Fund I also sets its access cookie; Fund II e-mails the link.
 */
export async function action({ request, context }: Route.ActionArgs) {
  return handleJson(async () => {
    if (request.method !== "POST") throw methodNotAllowed("POST");
    const input = parseJsonInput(FundAccessInput, await readJsonBody(request));
    await enforceRateLimit("fundAccess", context.clientAddress);
    const outcome = requestFundAccess(input);
    const headers = new Headers();
    if (outcome.cookieValue) headers.append("Set-Cookie", await setFundCookie(outcome.fundId, outcome.cookieValue));
    return Response.json({ success: true, fundId: outcome.fundId }, { status: 201, headers });
  });
}

export function loader() {
  return methodNotAllowed("POST");
}
