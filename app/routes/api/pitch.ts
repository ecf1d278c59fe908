import type { Route } from "./+types/pitch";
import { handleJson, methodNotAllowed, parseJsonInput, readJsonBody } from "~/modules/http/json.server";
import { enforceRateLimit } from "~/modules/http/rate-limit.server";
import { submitPitch } from "~/modules/pitches/pitches.server";
import { PitchInput } from "~/modules/pitches/schema";

/** POST /api/pitch { name, email, company, stage, deckUrl?, message } → 201 { id, createdAt }; errors → { error, fields? }. */
export async function action({ request, context }: Route.ActionArgs) {
  return handleJson(async () => {
    if (request.method !== "POST") throw methodNotAllowed("POST");
    const input = parseJsonInput(PitchInput, await readJsonBody(request));
    await enforceRateLimit("pitch", context.clientAddress);
    const pitch = submitPitch(input);
    return Response.json({ id: pitch.id, createdAt: pitch.createdAt.toISOString() }, { status: 201 });
  });
}

export function loader() {
  return methodNotAllowed("POST");
}
