import type { Route } from "./+types/replies";
import { requireApiAdmin } from "~/modules/auth/guards.server";
import { handleJson, methodNotAllowed, parseJsonInput, readJsonBody } from "~/modules/http/json.server";
import { sendPitchReply, toReplyRead } from "~/modules/pitch-inbox/inbox.server";
import { ReplyInput } from "~/modules/pitch-inbox/schema";

/** A reply's body may hold BODY_MAX characters of any script, JSON-escaped. */
const REPLY_BODY_BYTES = 64 * 1024;

/**
 * POST /api/pitches/{id}/replies (admin), JSON { subject, body } → 201
 * { id, pitchId, subject, body, sentAt }: mailed to the founder through the outbox
 * (Reply-To: the firm's inbox), kept in the timeline; the first reply stops the clock.
 * Bad fields → 400; unknown id → 404.
 */
export async function action({ request, params }: Route.ActionArgs) {
  return handleJson(async () => {
    const admin = await requireApiAdmin(request);
    if (request.method !== "POST") throw methodNotAllowed("POST");
    const reply = parseJsonInput(ReplyInput, await readJsonBody(request, REPLY_BODY_BYTES));
    const { event } = sendPitchReply(admin, params.id, reply);
    return Response.json(toReplyRead(event), { status: 201 });
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  return handleJson(async () => {
    await requireApiAdmin(request);
    return methodNotAllowed("POST");
  });
}

