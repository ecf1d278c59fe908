import type { Route } from "./+types/newsletter";
import { handleJson, methodNotAllowed, parseJsonInput, readJsonBody } from "~/modules/http/json.server";
import { enforceRateLimit } from "~/modules/http/rate-limit.server";
import { subscribeToNewsletter } from "~/modules/newsletter/newsletter.server";
import { NewsletterInput } from "~/modules/newsletter/schema";

/** The sign-up page recorded for subscriptions made over the API. */
const API_PAGE = "/api/newsletter";

/**
 * POST /api/newsletter { email } → 202 { email, status: "pending" } for a new,
 * pending or unsubscribed address alike (a confirmation link is mailed; the
 * answer never says which it was; decision 010); 409 for a confirmed one;
 * 400/413/415/429 → { error }.
 */
export async function action({ request, context }: Route.ActionArgs) {
  return handleJson(async () => {
    if (request.method !== "POST") throw methodNotAllowed("POST");
    const input = parseJsonInput(NewsletterInput, await readJsonBody(request));
    await enforceRateLimit("newsletter", context.clientAddress);
    const answer = subscribeToNewsletter(input, API_PAGE);
    return Response.json({ email: answer.email, status: answer.status }, { status: 202 });
  });
}

export function loader() {
  return methodNotAllowed("POST");
}
