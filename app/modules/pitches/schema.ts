import { z } from "zod";
import { emailField } from "../newsletter/schema";

export const PITCH_STAGES = ["Pre-Seed", "Seed", "Series A", "Series B", "Other"] as const;

const required = (message: string, max: number) =>
  z.string({ error: message }).trim().min(1, message).max(max, `Must be at most ${max} characters`);

/** A founder's pitch. id and createdAt are never taken from the request. */
export const PitchInput = z.object({
  name: required("Name is required", 200),
  email: emailField,
  company: required("Company is required", 200),
  stage: z.enum(PITCH_STAGES, { error: "Please choose a stage" }),
  deckUrl: z
    .union([
      z.literal(""),
      z
        .string()
        .trim()
        .max(2000, "Invalid URL")
        .pipe(z.url({ protocol: /^https?$/, error: "Invalid URL" })),
    ], { error: "Invalid URL" })
    .optional()
    .transform((v) => (v ? v : undefined)),
  message: required("Message is required", 5000),
});
export type PitchInput = z.infer<typeof PitchInput>;
