import type { Route } from "./+types/pitch";
import { handleJson, methodNotAllowed } from "~/modules/http/json.server";
import { enforceRateLimit } from "~/modules/http/rate-limit.server";
import { discardDeck, readApiPitch } from "~/modules/pitches/deck.server";
import { storePitch } from "~/modules/pitches/pitches.server";

/**
 * POST /api/pitch { name, email, company, stage, deckUrl?, message } → 201 { id, createdAt }; errors → { error, fields? }.
 * The same fields as multipart/form-data may carry a PDF deck (file field `deck`, at most 25 MB: 413;
 * not a PDF: 400 under `deck`; over the day's deck quota: 429 before a byte of it is written, decision 030).
 * No spam traps here: rate-limited, and no form to carry them (decision 026).
 */
export async function action({ request, context }: Route.ActionArgs) {
  return handleJson(async () => {
    if (request.method !== "POST") throw methodNotAllowed("POST");
    const { input, deck } = await readApiPitch(request, context.clientAddress);
    try {
      await enforceRateLimit("pitch", context.clientAddress);
    } catch (error) {
      await discardDeck(deck);
      throw error;
    }
    const pitch = await storePitch(input, deck);
    return Response.json({ id: pitch.id, createdAt: pitch.createdAt.toISOString() }, { status: 201 });
  });
}

export function loader() {
  return methodNotAllowed("POST");
}
