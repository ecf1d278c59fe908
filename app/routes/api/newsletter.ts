import type { Route } from "./+types/newsletter";
import { handleJson, methodNotAllowed, parseJsonInput, readJsonBody } from "~/modules/http/json.server";
import { enforceRateLimit } from "~/modules/http/rate-limit.server";
import { subscribeToNewsletter } from "~/modules/newsletter/newsletter.server";
import { NewsletterInput } from "~/modules/newsletter/schema";

/** POST /api/newsletter { email } → 201 { id, email, createdAt }; 400/409/413/415/429 → { error }. */
export async function action({ request, context }: Route.ActionArgs) {
  return handleJson(async () => {
    if (request.method !== "POST") throw methodNotAllowed("POST");
    const input = parseJsonInput(NewsletterInput, await readJsonBody(request));
    await enforceRateLimit("newsletter", context.clientAddress);
    const subscription = subscribeToNewsletter(input);
    return Response.json(
      { id: subscription.id, email: subscription.email, createdAt: subscription.createdAt.toISOString() },
      { status: 201 },
    );
  });
}

export function loader() {
  return methodNotAllowed("POST");
}
