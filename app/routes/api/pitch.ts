import type { Route } from "./+types/pitch";
import { AppError } from "~/modules/http/app-error";
import { handleJson, parseJsonInput, readJsonBody } from "~/modules/http/json.server";
import { enforceRateLimit } from "~/modules/http/rate-limit.server";
import { submitPitch } from "~/modules/pitches/pitches.server";
import { PitchInput } from "~/modules/pitches/schema";

/** POST /api/pitch { name, email, company, stage, deckUrl?, message } → 201 { id, createdAt }; errors → { error, fields? }. */
export async function action({ request, context }: Route.ActionArgs) {
  return handleJson(async () => {
    if (request.method !== "POST") throw new AppError("method_not_allowed", "Method not allowed");
    const input = parseJsonInput(PitchInput, await readJsonBody(request));
    await enforceRateLimit("pitch", context.clientAddress);
    const pitch = submitPitch(input);
    return Response.json({ id: pitch.id, createdAt: pitch.createdAt.toISOString() }, { status: 201 });
  });
}

export function loader() {
  return Response.json({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
}
