import { requestMessages } from "~/content/validation";
import { pitchStatusLabels, pitchToasts } from "~/content/pitch-inbox";
import type { FieldErrors } from "~/modules/http/app-error";
import { answerForm, formFailure } from "~/modules/http/form-answer.server";
import { formText, parseFormInput } from "~/modules/http/form-input.server";
import { addPitchNote, listPitchAdmins, sendPitchReply, updatePitch } from "~/modules/pitch-inbox/inbox.server";
import { NoteInput, PitchPatch, ReplyInput } from "~/modules/pitch-inbox/schema";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import type { ToastInput } from "~/modules/toast/toast";

/**
 * The pitch page's forms (intents status, owner, note, reply), each one domain call.
 * Success: data with a toast for an enhanced post, a 303 back to the pitch with a flash
 * without JavaScript. A refusal is answered as data either way, so the page renders the
 * form again with its messages and what was typed (a reply can be 10,000 characters:
 * too long for a flash cookie).
 */

export const PITCH_INTENTS = ["status", "owner", "note", "reply"] as const;
export type PitchIntent = (typeof PITCH_INTENTS)[number];

/** What an enhanced post (and a refused plain post) gets back. */
export type PitchFormAnswer = {
  status: "success" | "error";
  toast: ToastInput | null;
  intent?: PitchIntent;
  fields?: FieldErrors;
  values?: Record<string, string>;
};

const parse = parseFormInput;
const text = formText;

function run(admin: LpUser, intent: PitchIntent, id: string, formData: FormData): ToastInput {
  switch (intent) {
    case "status": {
      const { status } = parse(PitchPatch, { status: text(formData, "status") });
      const pitch = updatePitch(admin, id, { status });
      return pitchToasts.statusSaved(pitch.company, pitchStatusLabels[pitch.status]);
    }
    case "owner": {
      const ownerId = text(formData, "ownerId") || null;
      const pitch = updatePitch(admin, id, parse(PitchPatch, { ownerId }));
      const owner = pitch.ownerId ? listPitchAdmins().find((a) => a.id === pitch.ownerId)?.name : null;
      return owner ? pitchToasts.ownerSaved(pitch.company, owner) : pitchToasts.ownerCleared(pitch.company);
    }
    case "note": {
      const { note } = parse(NoteInput, { note: text(formData, "note") });
      addPitchNote(admin, id, note);
      return pitchToasts.noteAdded;
    }
    case "reply": {
      const reply = parse(ReplyInput, { subject: text(formData, "subject"), body: text(formData, "body") });
      const { pitch } = sendPitchReply(admin, id, reply);
      return pitchToasts.replySent(pitch.email);
    }
  }
}

export async function answerPitchIntent(admin: LpUser, id: string, formData: FormData) {
  const page = `/admin/pitches/${id}`;
  const intent = PITCH_INTENTS.find((name) => name === formData.get("intent"));
  if (!intent) {
    return answerForm<Omit<PitchFormAnswer, "status" | "toast">>(formData, {
      httpStatus: 400,
      toast: { title: pitchToasts.failed, description: requestMessages.unknownAction, variant: "destructive" },
    });
  }
  try {
    const toast = run(admin, intent, id, formData);
    return answerForm<Omit<PitchFormAnswer, "status" | "toast">>(formData, { httpStatus: 200, toast, redirectTo: page, extra: { intent } });
  } catch (error) {
    const failure = formFailure(error);
    // What was typed comes back (never more than the fields' own limits allow to be shown).
    let values: Record<string, string> | undefined;
    if (intent === "reply") values = { subject: text(formData, "subject").slice(0, 1000), body: text(formData, "body").slice(0, 20_000) };
    if (intent === "note") values = { note: text(formData, "note").slice(0, 10_000) };
    return answerForm<Omit<PitchFormAnswer, "status" | "toast">>(formData, {
      httpStatus: failure.httpStatus,
      toast: { title: intent === "reply" ? pitchToasts.replyFailed : pitchToasts.failed, description: failure.message, variant: "destructive" },
      retryAfterSeconds: failure.retryAfterSeconds,
      extra: { intent, fields: failure.fields ?? { form: [failure.message] }, ...(values ? { values } : {}) },
    });
  }
}
