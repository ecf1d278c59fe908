import { z } from "zod";
import { emailField } from "../newsletter/schema";
import { PITCH_LIMITS, PITCH_MESSAGES, PITCH_STAGES } from "./constants";

export { PITCH_STAGES };

const required = (message: string, max: number) =>
  z.string({ error: message }).trim().min(1, message).max(max, `Must be at most ${max} characters`);

/** A founder's pitch. id and createdAt are never taken from the request. */
export const PitchInput = z.object({
  name: required(PITCH_MESSAGES.name, PITCH_LIMITS.name),
  email: emailField,
  company: required(PITCH_MESSAGES.company, PITCH_LIMITS.company),
  stage: z.enum(PITCH_STAGES, { error: PITCH_MESSAGES.stage }),
  deckUrl: z
    .union(
      [
        z.literal(""),
        z
          .string()
          .trim()
          .max(PITCH_LIMITS.deckUrl, PITCH_MESSAGES.deckUrl)
          .pipe(z.url({ protocol: /^https?$/, error: PITCH_MESSAGES.deckUrl })),
      ],
      { error: PITCH_MESSAGES.deckUrl },
    )
    .optional()
    .transform((v) => (v ? v : undefined)),
  message: required(PITCH_MESSAGES.message, PITCH_LIMITS.message),
});
export type PitchInput = z.infer<typeof PitchInput>;
