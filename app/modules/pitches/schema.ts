import { z } from "~/modules/validation/z";
import { emailField } from "../newsletter/schema";
import { pitchMessages } from "~/content/validation";
import { PITCH_LIMITS, PITCH_STAGES } from "./constants";

export { PITCH_STAGES };

const required = (message: string, max: number) =>
  z.string({ error: message }).trim().min(1, message).max(max, `Must be at most ${max} characters`);

/** A founder's pitch. id and createdAt are never taken from the request. */
export const PitchInput = z.object({
  name: required(pitchMessages.name, PITCH_LIMITS.name),
  email: emailField,
  company: required(pitchMessages.company, PITCH_LIMITS.company),
  stage: z.enum(PITCH_STAGES, { error: pitchMessages.stage }),
  deckUrl: z
    .union(
      [
        z.literal(""),
        z
          .string()
          .trim()
          .max(PITCH_LIMITS.deckUrl, pitchMessages.deckUrl)
          .pipe(z.url({ protocol: /^https?$/, error: pitchMessages.deckUrl })),
      ],
      { error: pitchMessages.deckUrl },
    )
    .optional()
    .transform((v) => (v ? v : undefined)),
  message: required(pitchMessages.message, PITCH_LIMITS.message),
});
export type PitchInput = z.infer<typeof PitchInput>;
